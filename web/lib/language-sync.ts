import type { Language } from '#web/i18n/index.ts';
import i18n, { currentLanguage, setLanguage } from '#web/i18n/index.ts';

import { api } from './api-client.ts';
import { getToken, getUser, subscribeToLogin, updateStoredUser } from './auth-storage.ts';

/**
 * The portal's language follows the account (PUT /api/users/me/language, decision 098):
 * - at sign-in, and whenever the stored account changes (another tab, a refreshed profile), the browser takes the
 *   account's language — whatever language the browser showed before, nothing is written to the server;
 * - a switch of language made while signed in is the person's choice: it is sent, and the stored account follows, so
 *   their mail is written in it.
 * Answers a function that stops it (tests).
 */
export function installLanguageSync(): () => void {
  /** The language being taken from the account: its languageChanged event is not a choice to send back. */
  let taking: Language | null = null;

  const takeAccountLanguage = () => {
    const language = getToken() ? getUser()?.language : undefined;
    if (!language || language === currentLanguage()) return;
    taking = language;
    void setLanguage(language).finally(() => {
      if (taking === language) taking = null;
    });
  };

  const sendChoice = (chosen: string) => {
    if (taking === chosen) return;
    const user = getToken() ? getUser() : null;
    const language = currentLanguage();
    if (!user || user.language === language) return;
    updateStoredUser({ ...user, language });
    // Not saved (offline): the screen stays in the chosen language; the account keeps its own, which the next
    // sign-in brings back.
    api.put('/api/users/me/language', { language }).catch(() => {});
  };

  i18n.on('languageChanged', sendChoice);
  const stop = subscribeToLogin(takeAccountLanguage);
  takeAccountLanguage();
  return () => {
    i18n.off('languageChanged', sendChoice);
    stop();
  };
}
