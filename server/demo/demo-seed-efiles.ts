// The demo's e-files (server/demo/demo-seed.ts; decisions 107, 121): files in every state, made through the service
// functions the API calls (in savepoints of the seed's transaction), so numbers, movements, participants, notes'
// yellow and green, notifications and activity rows are the API's own.
import type { SendEfileInput } from '#shared/schemas/efile.ts';
import { noteFromText } from '#shared/schemas/efile-note.ts';

import type { Db } from '#server/db/client.ts';
import { efileHeads, type UserRow } from '#server/db/schema/index.ts';
import { receiveEfile, returnEfile, sendEfile } from '#server/modules/efiles/efiles.movements.ts';
import { addNote, editNote } from '#server/modules/efiles/efiles.notes.ts';
import { createEfile } from '#server/modules/efiles/efiles.service.ts';
import { changeState } from '#server/modules/efiles/efiles.states.ts';
import { toActor } from '#server/plugins/auth.ts';

import type { DemoWorld, SeedContext } from './demo-seed-context.ts';
import type { DemoLetter } from './demo-seed-letters.ts';

const HEADS = [
  { code: 'ADM', name: 'Administration' },
  { code: 'SAF', name: 'Safety' },
  { code: 'PUR', name: 'Purchase' },
  { code: 'EST', name: 'Establishment' },
];

/** Letters the dak moves (demo-seed-dak.ts takes the newest sixteen): an e-file takes an older one. */
const DAK_LETTERS = 16;

/**
 * The lab's heads, and six files of the fire group (the demo employee, the group's head, the director):
 * - from a letter put in (C/1): the employee's note, sent up to the head, who received it, edited that draft (a yellow
 *   note, its history kept) and added his own — with an officer;
 * - sent on by the head to the director, not yet received — in transit, its first note permanent (green), the head's
 *   own going up yellow, with a copy for information to a colleague;
 * - parked by the head;
 * - approved and returned, then closed by its creator — closed, every note permanent;
 * - a Confidential file held by the director;
 * - a fresh file with the employee, nothing written yet.
 */
export async function seedEfiles(ctx: SeedContext, world: DemoWorld, register: DemoLetter[]): Promise<void> {
  const { tx, add } = ctx;
  const db = tx as unknown as Db; // the services open a transaction: here a savepoint of the seed's
  const heads = await tx.insert(efileHeads).values(HEADS).returning();
  const headId = heads.find((h) => h.code === 'SAF')!.id;
  const fire = world.groupIds.get('fire')!;
  const staff = (world.byGroup.get('fire') ?? []).filter((u) => u.role === 'employee');
  const employee = staff[0]!;
  const colleague = staff[1] ?? employee;
  const gh = world.heads.get('fire')!;
  const director = world.director;
  const as = (u: UserRow) => toActor(u);

  const open = async (
    by: UserRow,
    subject: string,
    classification: 'Unclassified' | 'Confidential' = 'Unclassified',
  ) => {
    const id = await createEfile(db, as(by), { subject, headId, ownerGroupId: fire, classification });
    add('efiles');
    return id;
  };
  const note = (by: UserRow, id: string, text: string) => addNote(db, as(by), id, noteFromText(text));
  const send = (by: UserRow, id: string, to: UserRow, extra: Partial<SendEfileInput> = {}) =>
    sendEfile(db, as(by), id, { to: to.id, ...extra });

  // 1. From a letter the employee uploaded (one the dak does not move): with the head, a yellow note edited.
  const older = register.slice(0, Math.max(0, register.length - DAK_LETTERS));
  const letter =
    older.find((l) => l.uploader.id === employee.id) ??
    older.find((l) => l.uploader.groupId === fire && l.uploader.role === 'employee');
  const first = await createEfile(db, as(letter?.uploader ?? employee), {
    subject: 'Fire NOC for the new explosives store',
    headId,
    ownerGroupId: fire,
    ...(letter ? { letterId: letter.id } : {}),
  });
  add('efiles');
  const author = letter?.uploader ?? employee;
  const cite = letter ? ' at C/1' : '';
  const draft = await note(
    author,
    first,
    `The state fire service has sent its inspection report${cite}.\n\nThe store may be used once the two extinguishers it asks for are fitted. Approval is sought.`,
  );
  await send(author, first, gh, { remarks: 'For approval, please.', priority: 'Urgent' });
  await receiveEfile(db, as(gh), first);
  await editNote(
    db,
    as(gh),
    first,
    draft.id,
    noteFromText(
      `The state fire service has sent its inspection report${cite}.\n\nThe store may be used once the two CO2 extinguishers it asks for are fitted. Approval is sought for Rs 18,000.`,
    ),
  );
  await note(gh, first, 'Agreed. The cost may be met from the safety head of the current year.');

  // 2. Sent on to the director, not yet received: in transit, with a copy for information.
  const second = await open(employee, 'Annual fire drill of the lab, 2026');
  await note(employee, second, 'The annual fire drill is due in the coming month. A draft schedule is proposed.');
  await send(employee, second, gh);
  await receiveEfile(db, as(gh), second);
  await note(gh, second, 'The schedule is in order. The Director may kindly approve.');
  await send(gh, second, director, { copies: colleague.id !== employee.id ? [colleague.id] : [] });

  // 3. Parked by the head.
  const third = await open(gh, 'Revision of the fire safety manual');
  await note(gh, third, 'To be taken up after the new fire code is notified.');
  await changeState(db, as(gh), third, 'parked', 'Waiting for the new fire code.');

  // 4. Approved, returned and closed by its creator.
  const fourth = await open(employee, 'Refilling of fire extinguishers, 2026');
  await note(employee, fourth, 'Sixty extinguishers are due for refilling. Three quotations are placed below.');
  await send(employee, fourth, gh);
  await receiveEfile(db, as(gh), fourth);
  await note(gh, fourth, 'Approved. The lowest quotation may be accepted.');
  await returnEfile(db, as(gh), fourth, 'Approved; please proceed.');
  await receiveEfile(db, as(employee), fourth);
  await note(employee, fourth, 'The extinguishers have been refilled. The file may be closed.');
  await changeState(db, as(employee), fourth, 'closed', 'Work done.');

  // 5. A Confidential file, with the director.
  const fifth = await open(director, 'Fire protection of the propellant test bay', 'Confidential');
  await note(director, fifth, 'The test bay needs a deluge system before the next firing trials.');

  // 6. A fresh file with the employee.
  await open(employee, 'Fire-retardant curtains for the auditorium');
}
