// The demo's draft for approval (decision 122): an e-file of a group, a letter drafted in it (English and Hindi) by one
// of its officers, put up to the group head, who holds the file with the draft awaiting approval. Made through the
// e-files module's own services, as a person would, in the seed's transaction (a savepoint each).
import { eq } from 'drizzle-orm';

import { noteFromText } from '#shared/schemas/efile-note.ts';

import type { Db } from '#server/db/client.ts';
import { efileHeads } from '#server/db/schema/index.ts';
import { addDraft, putUpDraft } from '#server/modules/efiles/efiles.drafts.ts';
import { createEfile } from '#server/modules/efiles/efiles.service.ts';
import { toActor } from '#server/plugins/auth.ts';

import type { DemoWorld, SeedContext } from './demo-seed-context.ts';

const LETTER = [
  'To the Chief Fire Officer, Delhi Fire Service.',
  'Subject: Fire safety audit of Building 4 — request for a date. / विषय: भवन 4 का अग्नि सुरक्षा ऑडिट — तिथि हेतु अनुरोध।',
  'The laboratory requests a fire safety audit of Building 4 in the week of 14 December 2026. The sprinkler system was extended in November and the new wing is ready for inspection.',
  'प्रयोगशाला 14 दिसंबर 2026 के सप्ताह में भवन 4 के अग्नि सुरक्षा ऑडिट का अनुरोध करती है।',
].join('\n\n');

export async function seedDrafts(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, add } = ctx;
  const db = tx as unknown as Db; // the services open a transaction: here a savepoint of the seed's
  const head = world.heads.get('fire');
  const author = (world.byGroup.get('fire') ?? []).find((u) => u.role === 'employee');
  if (!head || !author) return;
  await tx.insert(efileHeads).values({ code: 'SAF', name: 'Safety' }).onConflictDoNothing();
  const [safety] = await tx.select().from(efileHeads).where(eq(efileHeads.code, 'SAF'));
  const fileId = await createEfile(db, toActor(author), {
    subject: 'Fire safety audit of Building 4 / भवन 4 का अग्नि सुरक्षा ऑडिट',
    headId: safety!.id,
    ownerGroupId: author.groupId ?? undefined,
  });
  const draft = await addDraft(db, toActor(author), fileId, 'Letter to the Chief Fire Officer', {
    kind: 'text',
    body: noteFromText(LETTER),
  });
  await putUpDraft(db, toActor(author), fileId, draft.id, {
    to: head.id,
    remarks: 'Draft letter for the audit date, for approval.',
  });
  add('efiles');
  add('drafts awaiting approval');
}
