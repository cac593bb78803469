import type { Language } from '#web/i18n/index.ts';
import i18n, { currentLanguage, setLanguage } from '#web/i18n/index.ts';

import { api } from './api-client.ts';
import { getToken, getUser, subscribeToLogin, updateStoredUser } from './auth-storage.ts';

/** A switch made on the login page, in this tab, before signing in: the person's choice, sent at sign-in. */
const CHOICE_KEY = 'languageChoice';

function pendingChoice(): Language | null {
  try {
    const value = sessionStorage.getItem(CHOICE_KEY);
    return value === 'en' || value === 'hi' ? value : null;
  } catch {
    return null;
  }
}

function setPendingChoice(language: Language | null): void {
  try {
    if (language) sessionStorage.setItem(CHOICE_KEY, language);
    else sessionStorage.removeItem(CHOICE_KEY);
  } catch {
    // storage disabled: a switch before sign-in stays this browser's alone
  }
}

/**
 * The portal's language follows the account once the person has chosen one (PUT /api/users/me/language, decision 102):
 * - a switch the person makes is their choice: while signed in it is sent at once; on the login page it is sent when
 *   they sign in, in that tab;
 * - at sign-in (and whenever the stored account changes: another tab, a refreshed profile) the browser takes the
 *   account's chosen language and writes nothing back; an account that never chose keeps the browser's language.
 * Answers a function that stops it (tests).
 */
export function installLanguageSync(): () => void {
  /** The language being taken from the account: its languageChanged event is not a choice to send back. */
  let taking: Language | null = null;

  const send = (language: Language) => {
    const user = getUser();
    if (!user || (user.languageChosen && user.language === language)) return;
    updateStoredUser({ ...user, language, languageChosen: true });
    // Not saved (offline): the screen stays in the chosen language; the account keeps its own until the next switch.
    api.put('/api/users/me/language', { language }).catch(() => {});
  };

  const onSignIn = () => {
    if (!getToken()) return;
    const choice = pendingChoice();
    if (choice) {
      setPendingChoice(null);
      send(choice);
      return;
    }
    const user = getUser();
    if (!user?.languageChosen || user.language === currentLanguage()) return;
    taking = user.language;
    void setLanguage(user.language).finally(() => {
      if (taking === user.language) taking = null;
    });
  };

  const onSwitch = (chosen: string) => {
    if (taking === chosen) return;
    const language = currentLanguage();
    if (getToken()) send(language);
    else setPendingChoice(language);
  };

  i18n.on('languageChanged', onSwitch);
  const stop = subscribeToLogin(onSignIn);
  onSignIn();
  return () => {
    i18n.off('languageChanged', onSwitch);
    stop();
  };
}
