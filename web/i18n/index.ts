import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { formatDate } from '#shared/format.ts';
import { catalogue, type CodedMessage, codeOf, isDayParam, messageText } from '#shared/messages/index.ts';

/**
 * One i18n layer for every screen. English is the default and carries the spec's texts to the letter; Hindi is the
 * second language. Each feature adds web/i18n/locales/{en,hi}/<namespace>.json and calls useTranslation('<namespace>'):
 * the files are found here by import.meta.glob and loaded lazily, only when a screen asks for the namespace.
 */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'language';

type Messages = Record<string, unknown>;
const files = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default' });

const localeFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    // The refusals' English is the shared catalogue the server words them with (decision 034).
    if (namespace === 'messages' && language === 'en') return callback(null, catalogue);
    const load = files[`./locales/${language}/${namespace}.json`];
    // A namespace without a file in this language falls back to English (fallbackLng).
    if (!load) return callback(null, {});
    load().then(
      (messages) => callback(null, messages),
      (err: Error) => callback(err, false),
    );
  },
};

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.includes(value as Language) ? (value as Language) : 'en';
  } catch {
    return 'en';
  }
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
});

/** Resolves once the shell's texts (namespace common) are loaded in the chosen language. */
export const i18nReady = i18n
  .use(localeFiles)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    ns: ['common', 'messages'],
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes
    react: { useSuspense: true },
  });
document.documentElement.lang = storedLanguage();

/** Switches the language everywhere and remembers it on this device. */
export const setLanguage = (language: Language) => i18n.changeLanguage(language);
export const currentLanguage = (): Language =>
  LANGUAGES.includes(i18n.language as Language) ? (i18n.language as Language) : 'en';

/** A parameter named `…Date` holding a day (YYYY-MM-DD) is written as the reader's date (decision 060). */

/**
 * A coded message (a refusal from the API, a shared schema's message, an activity-log action) in the current
 * language: the `messages` namespace words each code, with its parameters (a parameter that is itself coded, such as
 * a wait or a role, is worded too; a `…Date` day is written as a date); `fallback` (the English the server sent)
 * when the language lacks the code.
 */
export function translateCoded(coded: CodedMessage, fallback = messageText(coded.code, coded.params)): string {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(coded.params ?? {}))
    params[name] =
      typeof value === 'object'
        ? translateCoded(value)
        : isDayParam(name, value)
          ? formatDate(value, value, currentLanguage())
          : value;
  return i18n.t(coded.code, { ns: 'messages', ...params, defaultValue: fallback });
}

/**
 * A sentence that came in English from a shared zod schema or from the server (e.g. 'Email is required.'), in the
 * current language, worded by its code (translateCoded): schema sentences are made by msg(), and the API client
 * remembers the code of each sentence the server sends. A sentence without a code (a library's) is shown as it came.
 * Call it during render of a component that uses useTranslation, so it re-renders on a language switch.
 */
export function translateMessage(message: string): string {
  if (!message) return message;
  const coded = codeOf(message);
  return coded ? translateCoded(coded, message) : message;
}

export default i18n;
