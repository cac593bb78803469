import { MONTH_NAMES } from '#shared/format.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Hindi month names, whole (नवंबर) and as the portal shortens them (नव॰, also typed without ॰ or with a full stop). */
const HINDI_MONTHS = [
  ['जनवरी', 'फ़रवरी', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुलाई', 'अगस्त', 'सितंबर', 'अक्टूबर', 'नवंबर', 'दिसंबर'],
  MONTH_NAMES.hi.map((name) => name.replace('॰', '')),
].map((names) => names.map((name) => name.normalize('NFC')));

function hindiMonth(word: string): number {
  const name = word.normalize('NFC').replace(/[॰.]$/, '');
  for (const names of HINDI_MONTHS) {
    const month = names.indexOf(name);
    if (month >= 0) return month;
  }
  return -1;
}

function isoDate(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A date typed by hand, read the Indian way (day before month): "21 Nov 2026", "21-11-2026", "21/11/2026",
 * "21.11.2026", or "2026-11-21"; in Hindi "21 नव॰ 2026" as the portal shows it in Hindi, or "21 नवंबर 2026". Returns
 * YYYY-MM-DD, or null when it is not a real date.
 */
export function parseDateInput(text: string): string | null {
  const value = text.trim().replace(/\s+/g, ' ');
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4})$/.exec(value);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[ -]?([a-z]{3,9})\.?,?[ -]?(\d{4})$/i.exec(value);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase());
    if (month >= 0) return isoDate(Number(m[3]), month + 1, Number(m[1]));
  }
  m = /^(\d{1,2})[ -]?([\u0900-\u097f]+\.?),?[ -]?(\d{4})$/.exec(value);
  if (m) {
    const month = hindiMonth(m[2]!);
    if (month >= 0) return isoDate(Number(m[3]), month + 1, Number(m[1]));
  }
  return null;
}
