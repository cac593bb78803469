import { afterEach, describe, expect, it, vi } from 'vitest';

import i18n from '#web/i18n/index.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { jsonResponse } from '#web/test/render.tsx';

import { clearLogin, getUser, saveLogin } from './auth-storage.ts';
import { installLanguageSync } from './language-sync.ts';

// A token that expires in 2100, as the server would sign one (only `exp` is read).
const token = (n: number) => `header.eyJleHAiOjQxMDI0NDQ4MDB9.signature-${n}`;

let stop: (() => void) | undefined;
afterEach(async () => {
  stop?.();
  clearLogin();
  sessionStorage.clear();
  await i18n.changeLanguage('en');
});

const puts = (fetch: { mock: { calls: [input: unknown, init?: unknown][] } }) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url) === '/api/users/me/language' && (init as RequestInit).method === 'PUT')
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as { language: string });

const saved = () => vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(200, { message: 'Language saved.' }));

describe('installLanguageSync (decision 102)', () => {
  it("takes the account's chosen language at sign-in, from an English browser, and writes nothing", async () => {
    const fetch = saved();
    stop = installLanguageSync();
    expect(i18n.language).toBe('en');
    saveLogin({ token: token(1), user: { ...profile, language: 'hi', languageChosen: true } });
    await vi.waitFor(() => expect(i18n.language).toBe('hi'), { timeout: 10_000 });
    expect(puts(fetch)).toEqual([]);

    // The page loaded again with the same sign-in: still nothing to say.
    stop();
    stop = installLanguageSync();
    expect(puts(fetch)).toEqual([]);
  });

  it('an account that never chose keeps the Hindi the person signed in with, and nothing is written', async () => {
    const fetch = saved();
    await i18n.changeLanguage('hi'); // the browser's language from an earlier visit: no choice of this sign-in
    stop = installLanguageSync();
    saveLogin({ token: token(1), user: { ...profile, language: 'en', languageChosen: false } });
    expect(i18n.language).toBe('hi');
    expect(puts(fetch)).toEqual([]);
  });

  it('sends a switch made while signed in, once, and the stored account follows it', async () => {
    const fetch = saved();
    stop = installLanguageSync();
    saveLogin({ token: token(2), user: { ...profile, language: 'hi', languageChosen: true } });
    await vi.waitFor(() => expect(i18n.language).toBe('hi'), { timeout: 10_000 });
    await i18n.changeLanguage('en');
    expect(puts(fetch)).toEqual([{ language: 'en' }]);
    expect(getUser()).toMatchObject({ language: 'en', languageChosen: true });
    const sent = fetch.mock.calls.at(-1)![1] as RequestInit;
    expect((sent.headers as Record<string, string>).Authorization).toBe(`Bearer ${token(2)}`);

    // The same language again is no new choice.
    await i18n.changeLanguage('en');
    expect(puts(fetch)).toHaveLength(1);
  });

  it('a switch on the login page is the choice sent when the person signs in, in that tab only', async () => {
    const fetch = saved();
    stop = installLanguageSync();
    await i18n.changeLanguage('hi');
    expect(puts(fetch)).toEqual([]); // signed out: kept for the sign-in
    saveLogin({ token: token(3), user: { ...profile, language: 'en', languageChosen: true } });
    expect(i18n.language).toBe('hi'); // the choice just made wins over the account's older one
    expect(puts(fetch)).toEqual([{ language: 'hi' }]);
    expect(getUser()).toMatchObject({ language: 'hi', languageChosen: true });

    // Signed out and in again without a switch: nothing more is sent.
    clearLogin();
    saveLogin({ token: token(4), user: { ...profile, language: 'hi', languageChosen: true } });
    expect(puts(fetch)).toHaveLength(1);
  });
});
