import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import i18n from '#web/i18n/index.ts';
import { clearLogin, getToken } from '#web/lib/auth-storage.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { SSO_START, SsoSignIn } from './sso-sign-in.tsx';

const parichay = { sso: { label: { en: 'Sign in with Parichay', hi: 'परिचय से लॉग इन करें' } } };

/** The API as the login page meets it: the options, and the exchange's answer. */
function serve(options: unknown, exchange?: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/auth/options')) return jsonResponse(200, options);
    if (url.startsWith('/api/auth/sso/exchange') && exchange) return exchange;
    return jsonResponse(404, { message: 'Not found' });
  });
}

afterEach(async () => {
  vi.restoreAllMocks();
  clearLogin();
  await i18n.changeLanguage('en');
});

describe('SsoSignIn', () => {
  it("shows the provider's button in the page's language, leading to the server's start", async () => {
    serve(parichay);
    render(<SsoSignIn onSignedIn={() => undefined} />, { route: '/login' });
    const button = await screen.findByRole('link', { name: 'Sign in with Parichay' });
    expect(button).toHaveAttribute('href', SSO_START);
    await i18n.changeLanguage('hi');
    expect(await screen.findByRole('link', { name: 'परिचय से लॉग इन करें' })).toBeInTheDocument();
  });

  it('shows no button when single sign-on is not set up', async () => {
    const fetch = serve({ sso: null });
    render(<SsoSignIn onSignedIn={() => undefined} />, { route: '/login' });
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('exchanges the one-time code once, stores the login and goes on as after a password', async () => {
    const answer = { token: 'header.eyJleHAiOjQxMDI0NDQ4MDB9.sig', user: profile };
    const fetch = serve(parichay, jsonResponse(200, answer));
    const onSignedIn = vi.fn();
    render(<SsoSignIn onSignedIn={onSignedIn} />, { route: '/login?sso=one-time' });
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(answer));
    const exchanges = fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/auth/sso/exchange'));
    expect(exchanges).toHaveLength(1);
    expect(JSON.parse(String(exchanges[0]![1]!.body))).toEqual({ code: 'one-time' });
    expect(getToken()).toBe(answer.token);
  });

  it("says why a spent code was refused, in the reader's language", async () => {
    await i18n.changeLanguage('hi');
    serve(
      parichay,
      jsonResponse(400, {
        code: 'auth.sso_code_invalid',
        message: 'This sign-in has expired or was already used. Please sign in again.',
      }),
    );
    render(<SsoSignIn onSignedIn={() => undefined} />, { route: '/login?sso=spent' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'यह साइन-इन समाप्त हो चुका है या पहले ही उपयोग हो चुका है। कृपया फिर से लॉग इन करें।',
    );
  });

  it('shows the coded refusal the callback sent back, and a general one for a code it does not know', async () => {
    serve(parichay);
    const { unmount } = render(<SsoSignIn onSignedIn={() => undefined} />, {
      route: '/login?sso_error=auth.sso_state_mismatch',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in was not started here or took too long. Please try again.',
    );
    unmount();
    render(<SsoSignIn onSignedIn={() => undefined} />, { route: '/login?sso_error=letters.not_found' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The sign-in service did not confirm who you are. Please try again.',
    );
  });
});
