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
  await i18n.changeLanguage('en');
});

const puts = (fetch: { mock: { calls: [input: unknown, init?: unknown][] } }) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url) === '/api/users/me/language' && (init as RequestInit).method === 'PUT')
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as { language: string });

describe('installLanguageSync', () => {
  it("takes the account's language at sign-in, from an English browser, and writes nothing", async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(200, { message: 'Language saved.' }));
    stop = installLanguageSync();
    expect(i18n.language).toBe('en');
    saveLogin({ token: token(1), user: { ...profile, language: 'hi' } });
    await vi.waitFor(() => expect(i18n.language).toBe('hi'));
    expect(puts(fetch)).toEqual([]);

    // The page loaded again with the same sign-in: still nothing to say.
    stop();
    stop = installLanguageSync();
    expect(puts(fetch)).toEqual([]);
  });

  it('sends a switch made while signed in, once, and the stored account follows it', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(200, { message: 'Language saved.' }));
    stop = installLanguageSync();
    expect(puts(fetch)).toEqual([]); // signed out: nothing to tell
    await i18n.changeLanguage('hi');
    expect(puts(fetch)).toEqual([]); // a visitor's switch is this browser's alone

    saveLogin({ token: token(2), user: { ...profile, language: 'hi' } });
    expect(puts(fetch)).toEqual([]);
    await i18n.changeLanguage('en');
    expect(puts(fetch)).toEqual([{ language: 'en' }]);
    expect(getUser()?.language).toBe('en');
    const sent = fetch.mock.calls.at(-1)![1] as RequestInit;
    expect((sent.headers as Record<string, string>).Authorization).toBe(`Bearer ${token(2)}`);

    // The same language again is no new choice.
    await i18n.changeLanguage('en');
    expect(puts(fetch)).toHaveLength(1);
  });
});
