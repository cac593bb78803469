import { X509Certificate } from 'node:crypto';

import {
  dispatchCounters,
  dispatches,
  dispatchRecipients,
  efileHeads,
  efileItems,
  efileMovements,
  efileParticipants,
  efiles,
  efileSettings,
  trustedRoots,
} from '#server/db/schema/index.ts';
import { sealSigner } from '#server/modules/signatures/seal.ts';
import { signPdf } from '#server/modules/signatures/sign-pdf.ts';

import { makePdf } from './demo-files.ts';
import { makeDemoSeal } from './demo-seal.ts';
import { type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';

/**
 * A dispatched letter (decisions 118, 120, 123): an e-file of the director's with a letter sealed by the demo's own seal
 * (a certificate the demo makes itself, demo-seal.ts) as C/1, dispatched by speed post as the year's first outward
 * number; the demo seal's CA is on the trusted roots, so the signature panel shows it valid and trusted, as pdfsig does.
 */
export async function seedDispatch(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, today, add, heading } = ctx;
  const { director } = world;
  const { seal, rootPem } = makeDemoSeal(heading);
  const [settings] = await tx.select({ labCode: efileSettings.labCode }).from(efileSettings).limit(1);
  const labCode = settings?.labCode ?? 'LAB';
  const year = Number(isoDate(today).slice(0, 4));
  const subject = 'Renewal of the licence of the explosives magazine';
  const letter = makePdf({
    heading,
    title: subject,
    reference: `${labCode}/OUT/${year}/0001`,
    body:
      'To the Chief Controller of Explosives, Petroleum and Explosives Safety Organisation, Nagpur. ' +
      'The licence of the lab magazine in Building 7 expires at the end of this quarter. We request its renewal for ' +
      'five years; the site plan, the safety distances and the fire audit of this year are enclosed.',
    signature: `${director.name}, ${director.designation || 'Director'}`,
  });
  const signed = Buffer.from(
    await signPdf(letter, sealSigner(seal), {
      name: director.name,
      designation: director.designation || 'Director',
      reason: 'Approved',
      location: heading,
      contactInfo: director.email,
    }),
  );

  const [head] = await tx.insert(efileHeads).values({ code: 'OUT', name: 'Outward correspondence' }).returning();
  const groupId = [...world.groupIds.values()][0]!;
  const number = `${labCode}/OUT-FILE/${year}/1`;
  const [file] = await tx
    .insert(efiles)
    .values({ number, subject, headId: head!.id, ownerGroupId: groupId, createdBy: director.id, holderId: director.id })
    .returning();
  await tx.insert(efileParticipants).values({ efileId: file!.id, userId: director.id });
  await tx.insert(efileMovements).values({ efileId: file!.id, kind: 'created', fromUserId: director.id });
  const stored = await store.save(tx, 'efiles', 'licence-renewal-signed.pdf', signed, director.id);
  const [item] = await tx
    .insert(efileItems)
    .values({ efileId: file!.id, seq: 1, title: subject, fileId: stored.id, addedBy: director.id })
    .returning();

  const outward = `${labCode}/OUT/${year}/0001`;
  await tx.insert(dispatchCounters).values({ labId: world.lab.id, year, last: 1 });
  const [dispatch] = await tx
    .insert(dispatches)
    .values({
      labId: world.lab.id,
      year,
      serial: 1,
      outwardNumber: outward,
      efileId: file!.id,
      itemId: item!.id,
      efileNumber: number,
      itemSeq: 1,
      fileId: stored.id,
      subject,
      classification: 'Unclassified',
      dispatchDate: isoDate(today),
      mode: 'speed_post',
      dispatchedBy: director.id,
      searchText: `${outward} ${subject} ${number} chief controller of explosives nagpur`.toLowerCase(),
    })
    .returning();
  await tx.insert(dispatchRecipients).values({
    dispatchId: dispatch!.id,
    position: 0,
    name: 'The Chief Controller of Explosives',
    address: 'PESO, A Block, CGO Complex, Seminary Hills, Nagpur 440006',
  });
  const x509 = new X509Certificate(rootPem);
  await tx.insert(trustedRoots).values({
    label: 'Demo Lab CA (the demo seal)',
    pem: rootPem,
    subject: x509.subject.replace(/\n/g, ', '),
    fingerprint256: x509.fingerprint256,
    validTo: new Date(x509.validTo),
    addedBy: world.admin.id,
  });
  add('efiles');
  add('dispatches');
}
