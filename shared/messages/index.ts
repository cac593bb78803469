import { formatDate } from '../format.ts';
import { acknowledgements } from './acknowledgements.ts';
import { activity } from './activity.ts';
import { admin } from './admin.ts';
import { audit } from './audit.ts';
import { auth } from './auth.ts';
import { close_groups } from './close-groups.ts';
import { common, database } from './common.ts';
import { director_history } from './director-history.ts';
import { dispatch } from './dispatch.ts';
import { drafts } from './drafts.ts';
import { efiles } from './efiles.ts';
import { files } from './files.ts';
import { gallery } from './gallery.ts';
import { groups } from './groups.ts';
import { labs } from './labs.ts';
import { letters } from './letters.ts';
import { notifications } from './notifications.ts';
import { repositories } from './repositories.ts';
import { search } from './search.ts';
import { signatures } from './signatures.ts';
import { site } from './site.ts';
import { storage } from './storage.ts';
import { units } from './units.ts';
import { users } from './users.ts';

/**
 * The one catalogue of the portal's refusals and validation messages (decision 034). Every failure the API
 * sends carries a stable `code` (`<domain>.<key>`, e.g. `letter.not_found`) and the English sentence this catalogue
 * gives for it, with `params` filled in; the web words the same code in the reader's language
 * (web/i18n/locales/hi/messages.json holds the Hindi). The English here is the spec's, to the letter (§5, §8).
 *
 * Each domain keeps its sentences in its own file; a sentence is English text with `{{name}}` for a value that varies.
 */
export const catalogue = {
  common,
  database,
  acknowledgements,
  activity,
  admin,
  audit,
  auth,
  close_groups,
  director_history,
  drafts,
  dispatch,
  efiles,
  files,
  gallery,
  groups,
  labs,
  letters,
  notifications,
  repositories,
  search,
  signatures,
  site,
  storage,
  units,
  users,
} as const;

type Catalogue = typeof catalogue;
export type MessageDomain = keyof Catalogue;
/** A key without its plural ending: `wait_minutes_one` and `wait_minutes_other` are the one code `wait_minutes`. */
type Singular<K extends string> = K extends `${infer Base}_one` ? Base : K extends `${infer Base}_other` ? Base : K;
/** Every code the portal can send, checked by TypeScript at each place that sends one. */
export type MessageCode = {
  [D in MessageDomain]: `${D}.${Singular<Extract<keyof Catalogue[D], string>>}`;
}[MessageDomain];
/**
 * The values a sentence's `{{name}}` places take. `count` picks the plural form (keys ending `_one` / `_other`, as
 * i18next does). A value may itself be a coded message (a wait such as "5 minutes"), worded in the reader's language too.
 */
export type MessageParams = Readonly<Record<string, string | number | CodedMessage>>;

const PLACE = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * The English template of a code, or undefined for a string that is not one. A plural code has two: `count` 1 takes
 * the `_one` form, any other the `_other` (English's rule; i18next applies Hindi's).
 */
export function templateOf(code: string, count?: number): string | undefined {
  const dot = code.indexOf('.');
  if (dot < 1) return undefined;
  const domain = (catalogue as Record<string, Record<string, string>>)[code.slice(0, dot)];
  if (!domain) return undefined;
  const key = code.slice(dot + 1);
  const template = Object.hasOwn(domain, key) ? domain[key] : domain[`${key}_${count === 1 ? 'one' : 'other'}`];
  return typeof template === 'string' ? template : undefined;
}

export const isMessageCode = (value: string): value is MessageCode => templateOf(value) !== undefined;

/** The names of a template's `{{name}}` places. */
export const placesOf = (template: string): string[] => [...template.matchAll(PLACE)].map((m) => m[1]!);

/** A `…Date` parameter holding a day (YYYY-MM-DD): each language writes it its own way ("21 Nov 2026"). */
export const isDayParam = (name: string, value: unknown): value is string =>
  name.endsWith('Date') && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** A code's English sentence with its parameters filled in (a `…Date` day written as "21 Nov 2026"). */
export function messageText(code: MessageCode, params?: MessageParams): string {
  const count = typeof params?.count === 'number' ? params.count : undefined;
  const template = templateOf(code, count) ?? code;
  return template.replace(PLACE, (whole, name: string) => {
    const value = params?.[name];
    if (value === undefined) return whole;
    if (typeof value === 'object') return messageText(value.code, value.params);
    return isDayParam(name, value) ? formatDate(value, value) : String(value);
  });
}

export interface CodedMessage {
  readonly code: MessageCode;
  readonly params?: MessageParams;
}

// English sentence → its code, for every sentence without parameters, and every sentence msg() made with them.
const byText = new Map<string, CodedMessage>();
for (const [domain, entries] of Object.entries(catalogue)) {
  for (const [key, template] of Object.entries(entries as Record<string, string>)) {
    if (!placesOf(template).length && !/_(one|other)$/.test(key))
      byText.set(template, { code: `${domain}.${key}` as MessageCode });
  }
}

/**
 * A code's English sentence, remembered so that the sentence can be traced back to its code. Shared zod schemas give
 * their messages this way (`z.string().min(1, msg('user.name_required'))`): zod carries only the sentence, and the
 * API's validation answers and the web's forms find the code again with codeOf.
 */
export function msg(code: MessageCode, params?: MessageParams): string {
  const text = messageText(code, params);
  if (!byText.has(text)) byText.set(text, params ? { code, params } : { code });
  return text;
}

/** The code (and parameters) an English sentence was made from: by msg(), or a catalogue sentence without parameters. */
export const codeOf = (text: string): CodedMessage | undefined => byText.get(text);

/**
 * Remembers that `text` is `code` with `params`: the web does so for each refusal the API sends, so a sentence put
 * on a form's input is still worded by its code.
 */
export function rememberMessage(text: string, coded: CodedMessage): void {
  if (!byText.has(text)) byText.set(text, coded);
}

/** Every code of the catalogue with its English template (the API docs list them; the locale test checks them). */
export const allMessages = (): [MessageCode, string][] =>
  Object.entries(catalogue).flatMap(([domain, entries]) =>
    Object.entries(entries as Record<string, string>).map(
      ([key, t]) => [`${domain}.${key.replace(/_(one|other)$/, '')}` as MessageCode, t] as [MessageCode, string],
    ),
  );
