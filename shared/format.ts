/**
 * Indian-style dates (21 Nov 2026) and 12-hour timestamps (spec §9), in English or Hindi. Plain Intl, so server and
 * web agree.
 */

const dateFmt = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'Asia/Kolkata',
});
const timeFmt = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: 'Asia/Kolkata',
});

/** India Standard Time is UTC+05:30 all year: India keeps no daylight saving (and has kept none since 1945). */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

/**
 * Today's date in India as YYYY-MM-DD (the lab's time zone: a notice valid until today is current all day, a close
 * group's time box turns at midnight India time, not UTC). Computed from the fixed offset: it is asked on nearly
 * every request (cache keys, expiry of notices), and even a prebuilt Intl.DateTimeFormat showed in the morning
 * load's profile (decision 016).
 */
export const todayInIndia = (now: Date = new Date()): string =>
  new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);

/** Midnight at the start of a day (YYYY-MM-DD) in India (spec §9: the portal's dates are Indian). */
export const startOfIndianDay = (day: string): Date => new Date(`${day}T00:00:00+05:30`);

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d =
    value instanceof Date
      ? value
      : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? startOfIndianDay(value)
        : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The languages dates are written in: the portal's two (web/i18n LANGUAGES). English is the spec's and the server's. */
export type DateLanguage = 'en' | 'hi';

/**
 * The month names, by language. English: three letters for every month, as en-IN's CLDR data abbreviates September as
 * "Sept". Hindi: CLDR's short names for hi-IN, with the Devanagari abbreviation sign (॰), fixed here so
 * that every browser and Node write the same.
 */
export const MONTH_NAMES: Record<DateLanguage, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  hi: ['जन॰', 'फ़र॰', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुल॰', 'अग॰', 'सित॰', 'अक्टू॰', 'नव॰', 'दिस॰'],
};
/**
 * Before and after noon in Hindi: पूर्वाह्न and अपराह्न, the formal pair that stands after the time as "am"/"pm" do.
 * Not from Intl: Node 20's ICU (78) writes hi-IN's 12-hour times with a Latin "am"/"pm", and its dayPeriod option gives
 * times of day (सुबह, दोपहर, शाम, रात) that stand before the hour; ICU versions differ here, and every browser and Node
 * must write the same.
 */
const HINDI_DAY_PERIOD: Record<string, string> = { am: 'पूर्वाह्न', pm: 'अपराह्न' };
const monthNumber = new Intl.DateTimeFormat('en-IN', { month: 'numeric', timeZone: 'Asia/Kolkata' });

/** The en-IN parts (day first, 12-hour), with the month, and in Hindi the day period, in `language`. */
function format(fmt: Intl.DateTimeFormat, d: Date, language: DateLanguage): string {
  const month = MONTH_NAMES[language][Number(monthNumber.format(d)) - 1]!;
  const parts = fmt.formatToParts(d);
  return parts
    .map((part, i) => {
      if (part.type === 'month') return month;
      if (language === 'hi') {
        if (part.type === 'dayPeriod') return HINDI_DAY_PERIOD[part.value.toLowerCase()] ?? part.value;
        // The time and अपराह्न stay on one line: Chromium broke a narrow screen's line between them.
        if (parts[i + 1]?.type === 'dayPeriod') return '\u00a0';
      }
      if (part.type === 'literal') return part.value.replace(/-/g, ' ');
      return part.value;
    })
    .join('');
}

/** "21 Nov 2026" (in Hindi "21 नव॰ 2026"), or `fallback` when there is no date. */
export function formatDate(
  value: string | number | Date | null | undefined,
  fallback = 'N/A',
  language: DateLanguage = 'en',
): string {
  const d = toDate(value);
  return d ? format(dateFmt, d, language) : fallback;
}

/** "21 Nov 2026, 3:05 pm" (in Hindi "21 नव॰ 2026, 3:05 अपराह्न"), or `fallback` when there is no time. */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  fallback = 'N/A',
  language: DateLanguage = 'en',
): string {
  const d = toDate(value);
  return d ? format(timeFmt, d, language) : fallback;
}

/** A date cut to YYYY-MM-DD for date inputs (spec §4 Letters Manager). */
export function toDateInput(value: string | null | undefined): string {
  return value ? value.slice(0, 10) : '';
}

/**
 * The bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–E, U+2066–9): U+202E makes
 * "invoice\u202Efdp.txt" read as "invoicetxt.pdf", and "gnp.exe" read as "exe.png" in any shown text.
 */
const BIDI_CONTROLS = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** Characters a file name must not carry: C0/C1 controls and DEL, and the bidirectional controls. */
export const UNSAFE_NAME_CHARS = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]`, 'g');
const BIDI_CONTROL_CHARS = new RegExp(`[${BIDI_CONTROLS}]`, 'g');

/**
 * Free text as it may be shown to others: without the bidirectional controls (decision 049). Line breaks and tabs
 * stay. The shared schemas apply it to every free-text field (schemas/common.ts plainText).
 */
export const withoutBidiControls = (text: string): string => text.replace(BIDI_CONTROL_CHARS, '');
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * The name an uploaded file is kept under: unsafe characters removed, and a name over 255 characters shortened keeping
 * its extension ("very…long.pdf" stays a .pdf).
 */
export function cleanFileName(name: string): string {
  const clean = name.replace(UNSAFE_NAME_CHARS, '').trim();
  const chars = [...clean];
  if (chars.length <= MAX_FILE_NAME_LENGTH) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  return chars.slice(0, MAX_FILE_NAME_LENGTH - [...ext].length).join('') + ext;
}
