import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { UserJson } from '#shared/schemas/user.ts';

import { api, ApiError } from '#web/lib/api-client.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { deferred, fillIn, render } from '#web/test/render.tsx';

import { PendingApprovals } from './pending-approvals.tsx';

const LAB = { _id: '00000000-0000-4000-8000-0000000000b1', name: 'Centre for Fire, Explosive and Environment Safety' };
const GROUP = { _id: '00000000-0000-4000-8000-0000000000b2', name: 'Fire Safety Research Group' };
const pendingUser = { ...profile, status: 'pending' } as unknown as UserJson;
const NAME = profile.personalDetails.name;

const setup = async () => {
  vi.spyOn(api, 'get').mockResolvedValue([pendingUser]);
  const view = render(<PendingApprovals lab={LAB} groups={[GROUP]} groupsFailed={false} />);
  await screen.findByRole('heading', { name: NAME });
  return view;
};
const approveButton = () => screen.getByRole('button', { name: 'Approve User' });

describe('PendingApprovals: approve', () => {
  it('asks for both a group and a role before approving', async () => {
    const post = vi.spyOn(api, 'post');
    const { user } = await setup();
    await user.selectOptions(screen.getByLabelText('Group'), GROUP._id);
    await user.click(approveButton());
    expect(await screen.findByText('Please select a Group and a Role for the user.')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('approves with the lab, group and chosen role, busy while sending, then says so', async () => {
    const answer = deferred<unknown>();
    const post = vi.spyOn(api, 'post').mockReturnValue(answer.promise);
    const { user } = await setup();
    await user.selectOptions(screen.getByLabelText('Group'), GROUP._id);
    await user.selectOptions(screen.getByLabelText('Role'), 'associate_director');
    await user.click(approveButton());

    expect(post).toHaveBeenCalledWith(`/admin/approve-user/${profile._id}`, {
      labId: LAB._id,
      groupId: GROUP._id,
      role: 'associate_director',
    });
    expect(approveButton()).toHaveAttribute('data-loading', 'true');
    expect(screen.getByRole('button', { name: 'Reject' })).toBeDisabled();
    answer.resolve({ message: 'User approved', user: pendingUser });
    expect(await screen.findByText('User approved successfully!')).toBeInTheDocument();
  });

  it("shows the server's reason on the card and in a toast", async () => {
    vi.spyOn(api, 'post').mockRejectedValue(new ApiError(409, 'This user has already been approved.'));
    const { user } = await setup();
    await user.selectOptions(screen.getByLabelText('Group'), GROUP._id);
    await user.selectOptions(screen.getByLabelText('Role'), 'employee');
    await user.click(approveButton());
    await waitFor(() => expect(screen.getAllByText('This user has already been approved.')).toHaveLength(2));
  });
});

describe('PendingApprovals: reject', () => {
  const openDialog = async () => {
    const view = await setup();
    await view.user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: `Reject ${NAME}` });
    const confirm = () => view.user.click(within(dialog).getByRole('button', { name: 'Reject User' }));
    return { ...view, dialog, confirm };
  };

  it('asks for a reason and sends nothing without one', async () => {
    const post = vi.spyOn(api, 'post');
    const { confirm } = await openDialog();
    await confirm();
    expect(await screen.findByText('Please give a reason for rejecting this user.')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('rejects with the reason, busy while sending, then closes the dialog', async () => {
    const answer = deferred<unknown>();
    const post = vi.spyOn(api, 'post').mockReturnValue(answer.promise);
    const { dialog, confirm } = await openDialog();
    fillIn(/^Reason/, 'Not a member of this lab.');
    await confirm();
    expect(post).toHaveBeenCalledWith(`/admin/reject-user/${profile._id}`, { reason: 'Not a member of this lab.' });
    expect(within(dialog).getByRole('button', { name: 'Reject User' })).toHaveAttribute('data-loading', 'true');
    answer.resolve({ message: 'User rejected' });
    expect(await screen.findByText('User rejected.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's refusal of the reason under the Reason field", async () => {
    vi.spyOn(api, 'post').mockRejectedValue(new ApiError(400, 'The reason must be at most 500 characters.', 'reason'));
    const { confirm } = await openDialog();
    fillIn(/^Reason/, 'Too long, says the server.');
    await confirm();
    expect(await screen.findByText('The reason must be at most 500 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Reason/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: `Reject ${NAME}` })).toBeInTheDocument();
  });
});
