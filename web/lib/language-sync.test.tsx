import { afterEach, describe, expect, it, vi } from 'vitest';

import i18n from '#web/i18n/index.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { jsonResponse } from '#web/test/render.tsx';

import { clearLogin, saveLogin } from './auth-storage.ts';
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
  it('tells the server the language at each sign-in and each switch, not at each page load', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(200, { message: 'Language saved.' }));
    stop = installLanguageSync();
    expect(puts(fetch)).toEqual([]); // signed out: nothing to tell

    saveLogin({ token: token(1), user: profile });
    expect(puts(fetch)).toEqual([{ language: 'en' }]);
    await i18n.changeLanguage('hi');
    expect(puts(fetch)).toEqual([{ language: 'en' }, { language: 'hi' }]);

    // The page loaded again with the same sign-in: nothing new to say.
    stop();
    stop = installLanguageSync();
    expect(puts(fetch)).toHaveLength(2);

    // A new sign-in says it again, even in the same language (another device may have changed it meanwhile).
    saveLogin({ token: token(2), user: profile });
    expect(puts(fetch)).toEqual([{ language: 'en' }, { language: 'hi' }, { language: 'hi' }]);
    const sent = fetch.mock.calls.at(-1)![1] as RequestInit;
    expect((sent.headers as Record<string, string>).Authorization).toBe(`Bearer ${token(2)}`);
  });
});
