import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { formatDate } from '#shared/format.ts';
import type * as SharedMessages from '#shared/messages/index.ts';
import type { CodedMessage } from '#shared/messages/index.ts';

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

/** shared/messages: the refusals' catalogue and what words a code with it (codeOf, messageText…). */
type MessageCatalogue = typeof SharedMessages;
let catalogueModule: MessageCatalogue | undefined;

const localeFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load =
      namespace === 'messages' && language === 'en'
        ? // The refusals' English is the shared catalogue the server words them with (decision 034), a chunk of its
          // own that the first page does not wait for (decision 087).
          () => import('#shared/messages/index.ts').then((module) => (catalogueModule = module).catalogue)
        : files[`./locales/${language}/${namespace}.json`];
    // A namespace without a file in this language falls back to English (fallbackLng).
    if (!load) return callback(null, {});
    // NOTE: false: i18next retries a read only when told true, and a chunk that failed (a replaced build's 404) would
    // fail again; the API client waits for the refusals' texts, so it must not wait for retries.
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

/** Told when the refusals' texts of a language are in; every useTranslation listens (react.bindI18n). */
const MESSAGES_LOADED = 'messagesLoaded';

/** Resolves once the shell's texts (namespace common) are loaded in the chosen language. */
export const i18nReady = i18n
  .use(localeFiles)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    // The refusals' texts ('messages') are not in the first page's way: loaded after it (loadMessages).
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes
    // A screen drawn before the refusals' texts arrived draws again when they do (MESSAGES_LOADED).
    react: { useSuspense: true, bindI18n: `languageChanged ${MESSAGES_LOADED}` },
  });
document.documentElement.lang = storedLanguage();
i18n.store.on('added', (_language, namespace) => {
  if (namespace === 'messages') i18n.emit(MESSAGES_LOADED);
});

/** Switches the language everywhere and remembers it on this device. */
export const setLanguage = (language: Language) => i18n.changeLanguage(language);
export const currentLanguage = (): Language =>
  LANGUAGES.includes(i18n.language as Language) ? (i18n.language as Language) : 'en';

/**
 * Loads the refusals' texts (namespace `messages`, decision 087) in the current language and in English, the shared
 * catalogue; resolves to the catalogue, or undefined when it could not be loaded (the server's English is shown
 * then). Called after the first page is drawn; the API client awaits it before it throws a coded refusal, so a
 * failed call is always worded by its code; once loaded, a change of language loads the new language's too.
 */
export async function loadMessages(): Promise<MessageCatalogue | undefined> {
  await i18n.loadNamespaces('messages');
  return catalogueModule;
}

/** The catalogue when loaded (loadMessages), else undefined. */
export const loadedMessages = (): MessageCatalogue | undefined => catalogueModule;

/** The catalogue for a screen being drawn; when the texts are not all in yet, they are asked for (MESSAGES_LOADED). */
function messagesForScreen(): MessageCatalogue | undefined {
  if (!catalogueModule || !i18n.hasLoadedNamespace('messages')) void loadMessages();
  return catalogueModule;
}

/**
 * A coded message (a refusal from the API, a shared schema's message, an activity-log action) in the current
 * language: the `messages` namespace words each code, with its parameters (a parameter that is itself coded, such as
 * a wait or a role, is worded too; a `…Date` day is written as the reader's date, decision 060); `fallback` (the
 * English the server sent) when the language lacks the code, or while the texts are still on their way (the code
 * itself when there is no fallback; the screen draws again when they arrive).
 */
export function translateCoded(coded: CodedMessage, fallback?: string): string {
  const messages = messagesForScreen();
  if (!messages) return fallback ?? coded.code;
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(coded.params ?? {}))
    params[name] =
      typeof value === 'object'
        ? translateCoded(value)
        : messages.isDayParam(name, value)
          ? formatDate(value, value, currentLanguage())
          : value;
  return i18n.t(coded.code, {
    ns: 'messages',
    ...params,
    defaultValue: fallback ?? messages.messageText(coded.code, coded.params),
  });
}

/**
 * A sentence that came in English from a shared zod schema or from the server (e.g. 'Email is required.'), in the
 * current language, worded by its code (translateCoded): schema sentences are made by msg(), and the API client
 * remembers the code of each sentence the server sends. A sentence without a code (a library's) is shown as it came.
 * Call it during render of a component that uses useTranslation, so it re-renders on a language switch.
 */
export function translateMessage(message: string): string {
  if (!message) return message;
  const coded = messagesForScreen()?.codeOf(message);
  return coded ? translateCoded(coded, message) : message;
}

export default i18n;
