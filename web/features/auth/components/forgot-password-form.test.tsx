import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import i18n from '#web/i18n/index.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { ForgotPasswordForm } from './forgot-password-form.tsx';

const SENT =
  'If this email belongs to an account of the portal, a link to reset its password has been sent to it. The link works for 30 minutes. If no mail comes, look in your spam folder, or ask again.';

/** The API as the page meets it: the options, and the request's answer. */
function serve(email: boolean, answer: Response = jsonResponse(200, { message: 'sent' })) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/auth/options')) return jsonResponse(200, { sso: null, email });
    if (url.startsWith('/api/auth/forgot-password')) return answer.clone();
    return jsonResponse(404, { message: 'Not found' });
  });
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('ForgotPasswordForm', () => {
  it('sends the email and says the same thing whatever the email', async () => {
    const fetch = serve(true);
    const { user } = render(<ForgotPasswordForm />, { route: '/forgot-password' });
    await user.type(screen.getByLabelText(/Email/), 'Asha@Lab.test');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(SENT);
    const sent = fetch.mock.calls.find(([url]) => String(url).startsWith('/api/auth/forgot-password'));
    expect(JSON.parse(String(sent![1]!.body))).toEqual({ email: 'Asha@Lab.test' }); // the server takes it in lower case;
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  it('checks the email before sending it', async () => {
    const fetch = serve(true);
    const { user } = render(<ForgotPasswordForm />);
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText('Invalid email address.')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/auth/forgot-password'))).toBe(false);
  });

  it("tells a directory account where its password lives, in the reader's language", async () => {
    await i18n.changeLanguage('hi');
    serve(
      true,
      jsonResponse(409, {
        message: 'Your account signs in with the lab directory. …',
        code: 'auth.reset_use_directory',
      }),
    );
    const { user } = render(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText(/ईमेल/), 'ravi@lab.test');
    await user.click(screen.getByRole('button', { name: 'लिंक भेजें' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'आपका खाता लैब डायरेक्टरी से लॉग इन करता है। कृपया अपना पासवर्ड वहीं बदलें, या डायरेक्टरी प्रशासक से कहें।',
    );
  });

  it('says so, and offers no form, where the portal sends no mail', async () => {
    serve(false);
    render(<ForgotPasswordForm />);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Password reset by email is not available on this portal. Please ask an administrator to reset your password.',
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Send the link' })).not.toBeInTheDocument());
  });
});
