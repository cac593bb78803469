import i18n, { currentLanguage } from '#web/i18n/index.ts';

import { api } from './api-client.ts';
import { getToken, subscribeToLogin } from './auth-storage.ts';

const SENT_KEY = 'languageSent';

/** What was last told to the server, by sign-in: the end of the token (one per sign-in) and the language. */
const sentKey = (token: string) => `${token.slice(-24)}|${currentLanguage()}`;

function read(): string | null {
  try {
    return localStorage.getItem(SENT_KEY);
  } catch {
    return null;
  }
}

/**
 * Tells the server the person's language (PUT /api/users/me/language, issue 32): once at each sign-in and at each
 * switch of language while signed in, so their mail is written in the language they last chose. Once per sign-in and
 * language, not per page load (remembered in this browser). A failure is let be: the next sign-in or switch says it
 * again. Answers a function that stops it (tests).
 */
export function installLanguageSync(): () => void {
  const send = () => {
    const token = getToken();
    if (!token) return;
    const key = sentKey(token);
    if (read() === key) return;
    try {
      localStorage.setItem(SENT_KEY, key);
    } catch {
      // storage disabled: sent again on the next page load
    }
    api.put('/api/users/me/language', { language: currentLanguage() }).catch(() => {
      try {
        localStorage.removeItem(SENT_KEY);
      } catch {
        // nothing to forget
      }
    });
  };
  i18n.on('languageChanged', send);
  const stop = subscribeToLogin(send);
  send();
  return () => {
    i18n.off('languageChanged', send);
    stop();
  };
}
