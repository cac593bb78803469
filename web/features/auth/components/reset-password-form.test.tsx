import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, render } from '#web/test/render.tsx';

import { ResetPasswordForm } from './reset-password-form.tsx';

function serve(answer: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer.clone());
}

describe('ResetPasswordForm', () => {
  it("sends the link's token with the new password, then offers the login", async () => {
    const fetch = serve(jsonResponse(200, { message: 'changed' }));
    const { user } = render(<ResetPasswordForm token="tok-123" />);
    await user.type(screen.getByLabelText(/^New password/), 'fresh-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'fresh-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your password has been changed. Please sign in with your new password.',
    );
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ token: 'tok-123', password: 'fresh-secret' });
  });

  it("checks the portal's password rules and the confirmation before sending", async () => {
    const fetch = serve(jsonResponse(200, { message: 'changed' }));
    const { user } = render(<ResetPasswordForm token="tok-123" />);
    await user.type(screen.getByLabelText(/^New password/), '12345');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be at least 6 characters.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^New password/), '6');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'other-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says a spent link is spent, with the way to ask for a new one', async () => {
    serve(
      jsonResponse(400, {
        message: 'This link to reset your password has expired or was already used. Please ask for a new one.',
        code: 'auth.reset_link_invalid',
      }),
    );
    const { user } = render(<ResetPasswordForm token="tok-123" />);
    await user.type(screen.getByLabelText(/^New password/), 'fresh-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'fresh-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link to reset your password has expired or was already used. Please ask for a new one.',
    );
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('says a link without its token is cut short', () => {
    render(<ResetPasswordForm token="" />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This link is incomplete. Please open the link in the email again.',
    );
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
