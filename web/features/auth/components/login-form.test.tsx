import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import i18n, { loadMessages, setLanguage } from '#web/i18n/index.ts';
import { clearLogin } from '#web/lib/auth-storage.ts';
import { fillIn, jsonResponse, render } from '#web/test/render.tsx';

import { LoginForm } from './login-form.tsx';

/** The API as the login page meets it: the options, and a wrong password refused as the server words it. */
function serveWrongPassword() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/auth/options')) return jsonResponse(200, { sso: null, email: false });
    if (url.startsWith('/api/auth/login'))
      return jsonResponse(401, { error: 'Invalid email or password.', code: 'auth.invalid_credentials' });
    return jsonResponse(404, { message: 'Not found' });
  });
}

afterEach(async () => {
  clearLogin();
  await setLanguage('en');
  await loadMessages(); // the refusals' texts back for the files that run next in this worker
});

describe('LoginForm', () => {
  // The refusals' texts load after the first page (decision 087): a wrong password on a /login opened first is still
  // worded by its code.
  it.each([
    ['en', 'Email', 'Password', 'Login', 'Invalid email or password.'],
    ['hi', 'ईमेल', 'पासवर्ड', 'लॉग इन करें', 'ईमेल या पासवर्ड गलत है।'],
  ] as const)(
    "shows the server's refusal of a wrong password in %s, before the refusals' texts were loaded",
    async (language, email, password, submit, refusal) => {
      await setLanguage(language);
      i18n.removeResourceBundle(language, 'messages');
      i18n.removeResourceBundle('en', 'messages');
      serveWrongPassword();
      const onSignedIn = vi.fn();
      const { user } = render(<LoginForm onSignedIn={onSignedIn} onPending={() => undefined} />, {
        route: '/login',
      });
      fillIn(new RegExp(`^${email}`), 'asha@lab.test');
      fillIn(new RegExp(`^${password}`), 'not-her-password');
      await user.click(screen.getByRole('button', { name: submit }));
      expect(await screen.findByText(refusal)).toBeInTheDocument();
      expect(onSignedIn).not.toHaveBeenCalled();
    },
  );
});
