import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { portal } from './portal.ts';

/** A mail the run's SMTP server took from the worker's e2e portal (e2e/global-setup.ts writes one file a mail). */
export interface E2eMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  language: string | undefined;
  /** The files it carried (a dispatched letter's signed PDF, decision 120), in base64. */
  attachments?: { filename: string | undefined; contentType: string; base64: string }[];
}

const mailDir = portal.mailDir;

/** Every mail to `address` so far, oldest first. */
export function mailsTo(address: string): E2eMail[] {
  return readdirSync(mailDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(mailDir, name), 'utf8')) as E2eMail)
    .filter((mail) => mail.to.includes(address.toLowerCase()));
}

/**
 * Waits (at most `timeoutMs`) for a mail to `address` whose subject is `subject`; answers the newest such, or with `nth`
 * the nth such (1 the oldest) once that many have come, for a test that asks for the same mail more than once.
 */
export async function waitForMail(
  address: string,
  subject: string,
  { nth, timeoutMs = 15_000 }: { nth?: number; timeoutMs?: number } = {},
): Promise<E2eMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailsTo(address).filter((m) => m.subject === subject);
    if (found.length >= (nth ?? 1)) return nth ? found[nth - 1]! : found.at(-1)!;
    if (Date.now() > deadline) {
      const subjects = mailsTo(address).map((m) => m.subject);
      const which = nth ? `mail number ${nth}` : 'mail';
      throw new Error(
        `No ${which} "${subject}" to ${address} within ${timeoutMs / 1000} s (got: ${subjects.join(' | ')})`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The one link of a mail's plain-text part. */
export const linkIn = (mail: E2eMail): string => mail.text.match(/https?:\/\/\S+/)![0];
