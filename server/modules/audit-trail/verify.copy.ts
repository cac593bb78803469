/**
 * The audit trail's rows as `npm run audit:verify` reads them (verify.ts; decisions 067 and 105): PostgreSQL's COPY
 * text format, and its times in the canonical form of decision 067.
 */

/**
 * The canonical time of decision 067 from PostgreSQL's text for a timestamptz in a UTC session
 * (`2026-11-27 10:15:02.12+00`): `2026-11-27T10:15:02.120Z`.
 */
export function canonicalTime(text: string): string {
  if (text.length >= 22 && text[10] === ' ' && text.endsWith('+00')) {
    const fraction = text[19] === '.' ? text.slice(20, -3) : '';
    if (fraction.length <= 3) return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction.padEnd(3, '0')}Z`;
  }
  return new Date(text).toISOString(); // not expected in a UTC session; a wrong time still fails its row's hash
}

/** The columns read, in the order the COPY gives them. */
export const COLUMNS = [
  'seq',
  'id',
  'occurred_at',
  'actor_id',
  'actor_name',
  'actor_role',
  'client_address',
  'user_agent',
  'action',
  'object_type',
  'object_id',
  'object_label',
  'classification',
  'outcome',
  'details',
  'prev_hash',
  'hash',
] as const;

const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * One field of COPY's text format: `\N` is null; a backslash escapes the next character (`\n`, `\t`, `\\`…). COPY TO
 * writes no octal or hex escapes (PostgreSQL's documentation of COPY), so none are read.
 */
export function copyField(raw: string): string | null {
  if (raw === '\\N') return null;
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\(.)/gs, (_, c: string) => COPY_ESCAPES[c] ?? c);
}
