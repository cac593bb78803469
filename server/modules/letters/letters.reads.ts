import { eq } from 'drizzle-orm';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { type FileRow, type LetterRow, letters } from '#server/db/schema/index.ts';
import {
  type ReadContext,
  RECORDED_LETTER_CLASSIFICATIONS,
  type RecordedItem,
  recordRead,
  recordRefusal,
} from '#server/modules/audit-trail/classified-reads.ts';
import type { RecordedFile } from '#server/modules/files/file-access.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { findLetterByFile, openLetter } from './letters.register.service.ts';
import type { LetterView } from './letters.register.views.ts';

/**
 * Openings of Confidential and Secret letters, recorded in the audit trail before the answer (decision 070, decision
 * 070): the card by id, the history, the dak trail, reading it in the inbox (letters.dak.service readLetter) and
 * its file (letters.routes.ts registers the file rule). A refusal of such a letter is recorded too, 404 or not.
 */

/** How a letter was opened, kept in the event's details. */
export type LetterOpening = 'card' | 'history' | 'movements' | 'inbox';

/** The letter as the audit trail names it when its openings are recorded (Confidential, Secret), else null. */
export const recordedLetter = (letter: Pick<LetterRow, 'id' | 'letterId' | 'classification'>): RecordedItem | null =>
  RECORDED_LETTER_CLASSIFICATIONS.includes(letter.classification)
    ? { object: { type: 'letter', id: letter.id, label: letter.letterId }, classification: letter.classification }
    : null;

/** The recorded item of the letter with this id (to record a refusal), or null when there is none to record. */
async function recordedLetterById(db: DbOrTx, id: string): Promise<RecordedItem | null> {
  const [letter] = await db
    .select({ id: letters.id, letterId: letters.letterId, classification: letters.classification })
    .from(letters)
    .where(eq(letters.id, id))
    .limit(1);
  return letter ? recordedLetter(letter) : null;
}

/**
 * Runs an opening of letter `id`; a refusal it throws of a Confidential or Secret letter is recorded, then thrown on.
 * The letter's classification is read only when there is a refusal.
 */
export async function letterRefusalsRecorded<T>(
  db: Db,
  ctx: ReadContext,
  id: string,
  open: () => Promise<T>,
): Promise<T> {
  try {
    return await open();
  } catch (err) {
    const item = await recordedLetterById(db, id).catch(() => null);
    if (item) await recordRefusal(db, ctx, item, 'letter_viewed', err);
    throw err;
  }
}

/**
 * Opens a letter for the actor (GET /api/dac/{id}, its history, its dak trail: letters.register.service openLetter's rules) and
 * records the opening of a Confidential or Secret one before it is answered (503 `audit.unavailable`, nothing served,
 * when it cannot be recorded).
 */
export async function openLetterRecorded(
  db: Db,
  ctx: ReadContext,
  actor: Actor,
  id: string,
  via: Exclude<LetterOpening, 'inbox'>,
): Promise<LetterView> {
  const view = await letterRefusalsRecorded(db, ctx, id, () => openLetter(db, actor, id));
  const item = recordedLetter(view.letter);
  if (item) await recordRead(db, ctx, item, 'letter_viewed', { via });
  return view;
}

/**
 * The letters area's recorded files (app.fileAccess): the file of a Confidential or Secret letter, recorded as
 * `letter_downloaded` and watermarked when it is a PDF (decision 071).
 */
export async function recordedLetterFile(db: DbOrTx, file: FileRow): Promise<RecordedFile | null> {
  const letter = await findLetterByFile(db, file.id);
  const item = letter ? recordedLetter(letter) : null;
  return item ? { ...item, action: 'letter_downloaded', watermark: true } : null;
}
