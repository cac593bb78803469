/**
 * A server or schema sentence looked up in a "messages" table (English sentence → translation). A key may hold
 * `{{n}}` for a whole number that varies, e.g. the wait of a 429 ("Please try again in {{n}} minutes.", decision
 * 026): the number is carried into the translation. Returns undefined when the table has no entry.
 */
export function fromMessageTable(table: Record<string, string> | undefined, message: string): string | undefined {
  if (!table) return undefined;
  const exact = table[message];
  if (exact !== undefined) return exact;
  for (const [english, translated] of Object.entries(table)) {
    if (!english.includes('{{n}}')) continue;
    const [before, after] = english.split('{{n}}') as [string, string];
    if (!message.startsWith(before) || !message.endsWith(after)) continue;
    const n = message.slice(before.length, message.length - after.length);
    if (/^\d+$/.test(n)) return translated.replace('{{n}}', n);
  }
  return undefined;
}
