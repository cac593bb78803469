import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, render } from '#web/test/render.tsx';

import { ExpiredPasswordForm } from './expired-password-form.tsx';

// Decision 117: the sign-in's step for a password older than PASSWORD_MAX_AGE_DAYS.

const step = { code: 'auth.password_expired', ticket: 'tick-1', days: 90 } as const;

function serve(answer: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer.clone());
}

describe('ExpiredPasswordForm', () => {
  it('says why, sends the ticket with the new password, and goes on with the sign-in', async () => {
    const session = { token: 'tok', user: { _id: 'u1', name: 'Asha' } };
    const fetch = serve(jsonResponse(200, session));
    const onDone = vi.fn();
    const { user } = render(<ExpiredPasswordForm step={step} onDone={onDone} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your password is more than 90 days old. Choose a new one to continue.',
    );
    await user.type(screen.getByLabelText(/^New password/), 'fresh-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'fresh-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onDone.mock.calls[0]![0]).toEqual(session);
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/auth/expired-password');
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({
      ticket: 'tick-1',
      newPassword: 'fresh-secret',
    });
  });

  it('checks the rules and the confirmation before sending', async () => {
    const fetch = serve(jsonResponse(200, {}));
    const { user } = render(<ExpiredPasswordForm step={step} onDone={vi.fn()} />);
    await user.type(screen.getByLabelText(/^New password/), '12345');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be at least 6 characters.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^New password/), '6');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'other-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a recently used password refused under the field (PASSWORD_HISTORY)', async () => {
    serve(
      jsonResponse(400, {
        message: 'Choose a password you have not used recently: your last 3 passwords cannot be used again.',
        code: 'users.password_recently_used',
        params: { count: 3 },
        field: 'newPassword',
      }),
    );
    const { user } = render(<ExpiredPasswordForm step={step} onDone={vi.fn()} />);
    await user.type(screen.getByLabelText(/^New password/), 'old-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'old-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText(
        'Choose a password you have not used recently: your last 3 passwords cannot be used again.',
      ),
    ).toBeInTheDocument();
  });
});
