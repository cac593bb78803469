import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { SsoLinkRequestJson } from '#shared/schemas/sso-link.ts';

import { api, ApiError } from '#web/lib/api-client.ts';
import { deferred, render } from '#web/test/render.tsx';

import { SsoLinkRequests } from './sso-link-requests.tsx';

const REQUEST: SsoLinkRequestJson = {
  _id: '00000000-0000-4000-8000-0000000000c1',
  issuer: 'https://parichay.example',
  provider: { email: 'asha.rao@lab.test', name: 'Asha R.' },
  account: {
    _id: '00000000-0000-4000-8000-0000000000c2',
    name: 'Asha Rao',
    email: 'asha.rao@lab.test',
    role: 'employee',
    status: 'approved',
  },
  requestedAt: '2026-11-28T04:30:00.000Z',
};

const setup = async (requests: SsoLinkRequestJson[] = [REQUEST]) => {
  vi.spyOn(api, 'get').mockResolvedValue(requests);
  const view = render(<SsoLinkRequests />);
  await screen.findByRole('heading', { name: 'Single sign-on links to approve' });
  return view;
};

describe('SsoLinkRequests', () => {
  it('says so when nothing waits', async () => {
    await setup([]);
    expect(await screen.findByText('No single sign-on links are waiting for approval.')).toBeInTheDocument();
  });

  it("lists a request with the account, the provider's identity and the time, in Indian style", async () => {
    await setup();
    const card = await screen.findByRole('article', { name: 'Asha Rao' });
    expect(within(card).getByText(/Provider identity: Asha R\. \(asha\.rao@lab\.test\)/)).toBeInTheDocument();
    expect(within(card).getByText('Provider: https://parichay.example')).toBeInTheDocument();
    expect(within(card).getByText('Asked on 28 Nov 2026, 10:00 am')).toBeInTheDocument();
    expect(screen.getByText('1 single sign-on link waiting for approval')).toBeInTheDocument();
  });

  it('asks before approving, naming the account and the identity, then links it', async () => {
    const answer = deferred<unknown>();
    const post = vi.spyOn(api, 'post').mockReturnValue(answer.promise);
    const { user } = await setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link this account to single sign-on?' });
    expect(dialog).toHaveTextContent(
      'The portal account Asha Rao (asha.rao@lab.test) will be linked to the single sign-on identity Asha R. (asha.rao@lab.test) at https://parichay.example.',
    );
    expect(post).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Link account' }));
    expect(post).toHaveBeenCalledWith(`/admin/sso-link-requests/${REQUEST._id}/approve`);
    answer.resolve({ message: 'Single sign-on linked.' });
    expect(await screen.findByText('Asha Rao is now linked to single sign-on.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps a refusal in the dialog, worded by its code', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(409, 'x', undefined, { code: 'admin.sso_already_linked', message: 'x' }),
    );
    const { user } = await setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Link account' }));
    expect(
      await within(dialog).findByText(
        'This account is already linked to single sign-on. Remove its link first if this sign-in should replace it.',
      ),
    ).toBeInTheDocument();
  });

  it('asks before dismissing, then dismisses', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({ message: 'Link request dismissed.' });
    const { user } = await setup();
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss this link request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss request' }));
    expect(post).toHaveBeenCalledWith(`/admin/sso-link-requests/${REQUEST._id}/dismiss`);
    expect(await screen.findByText('Link request dismissed.')).toBeInTheDocument();
  });
});
