import { eq, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { DispatchValues } from '#shared/schemas/dispatch.ts';

import type { MailConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { dispatchCounters, dispatches, dispatchRecipients } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { accessFile, lockFile } from '#server/modules/efiles/efiles.access.ts';
import { RECORDED_EFILE_CLASSIFICATIONS } from '#server/modules/efiles/efiles.policy.ts';
import { efileItemOf, efileLabCode } from '#server/modules/efiles/efiles.queries.ts';
import type { StorageDriver } from '#server/modules/files/drivers/types.ts';
import { fileRowsByIds } from '#server/modules/files/files.queries.ts';
import { firstLabId, labNameOf } from '#server/modules/labs/labs.queries.ts';
import { queueDispatchMail } from '#server/modules/mail/mail.outbox.ts';
import { checkStoredPdf } from '#server/modules/signatures/stored-check.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { dispatchPolicy } from './dispatch.policy.ts';

/** What a dispatch needs besides the database: the mail relay (null without SMTP_URL) and the stored bytes. */
export interface DispatchContext {
  db: Db;
  mail: MailConfig | null;
  driver: StorageDriver;
  who: AuditWho;
}

/** The outward number: the lab's code, OUT, the year and the serial (LAB/OUT/2026/0007). */
export const outwardNumber = (labCode: string, year: number, serial: number) =>
  `${labCode}/OUT/${year}/${String(serial).padStart(4, '0')}`;

/**
 * Dispatches a signed correspondence item (C/n) of an e-file (decision 120): the file's holder acting on it, the item a
 * PDF whose signatures verify (checked once, kept: decision 123). In one transaction, with the file locked: the next
 * outward number of the lab and the dispatch date's year (the counter row moves with the dispatch, so a failed one
 * leaves no gap), the dispatch and its recipients, by email one outbox mail per recipient with the signed PDF attached,
 * the activity row and, for a file above Unclassified, the audit trail's event.
 */
export async function dispatchItem(
  ctx: DispatchContext,
  actor: Actor,
  efileId: string,
  itemId: string,
  input: DispatchValues,
): Promise<string> {
  const { db } = ctx;
  const date = input.date ?? todayInIndia();
  if (date > todayInIndia()) throw badRequest('dispatch.date_future', 'date');
  if (input.mode === 'email' && !ctx.mail) throw conflict('dispatch.mail_off', 'mode');

  // The file as the reader may see it (404 otherwise), its item and the item's PDF, checked before any lock.
  await accessFile(db, actor, efileId);
  const item = await efileItemOf(db, efileId, itemId);
  if (!item) throw notFound('dispatch.item_not_found');
  const [pdf] = item.fileId ? await fileRowsByIds(db, [item.fileId]) : [];
  const isPdf = pdf?.mimeType === 'application/pdf';
  const report = pdf && isPdf ? await checkStoredPdf(db, ctx.driver, pdf) : null;
  dispatchPolicy.authorize(actor, 'dispatch.signed_pdf', {
    pdf: isPdf,
    signed: report?.signed ?? false,
    valid: report?.valid ?? false,
  });

  const [labId, labCode, labName] = await Promise.all([firstLabId(db), efileLabCode(db), labNameOf(db)]);
  if (!labId) throw conflict('dispatch.no_lab');
  const year = Number(date.slice(0, 4));

  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, efileId);
    dispatchPolicy.authorize(actor, 'dispatch.send', {
      file: access.file,
      holds: access.holds,
      received: access.pending === null,
      copy: access.copy,
    });
    const [already] = await tx
      .select({ outwardNumber: dispatches.outwardNumber })
      .from(dispatches)
      .where(eq(dispatches.itemId, item.id));
    if (already) throw conflict('dispatch.already_dispatched', undefined, { number: already.outwardNumber });

    // The counter row: made at the year's first dispatch, then moved one at a time (its row lock orders them).
    const [counter] = await tx
      .insert(dispatchCounters)
      .values({ labId, year, last: 1 })
      .onConflictDoUpdate({
        target: [dispatchCounters.labId, dispatchCounters.year],
        set: { last: sql`${dispatchCounters.last} + 1` },
      })
      .returning({ last: dispatchCounters.last });
    const serial = counter!.last;
    const number = outwardNumber(labCode, year, serial);
    const subject = access.file.subject;
    const searchText = [
      number,
      item.title,
      subject,
      access.file.number,
      ...input.recipients.flatMap((r) => [r.name, r.address, r.email ?? '']),
    ]
      .join(' ')
      .toLowerCase();
    const [row] = await tx
      .insert(dispatches)
      .values({
        labId,
        year,
        serial,
        outwardNumber: number,
        efileId,
        itemId: item.id,
        efileNumber: access.file.number,
        itemSeq: item.seq,
        fileId: pdf!.id,
        subject: item.title,
        classification: access.file.classification,
        dispatchDate: date,
        mode: input.mode,
        dispatchedBy: actor.id,
        searchText,
      })
      .returning({ id: dispatches.id });
    const dispatchId = row!.id;
    for (const [position, r] of input.recipients.entries()) {
      const mailId =
        input.mode === 'email' && r.email
          ? await queueDispatchMail(
              tx,
              ctx.mail,
              { email: r.email, language: 'en' },
              {
                name: r.name,
                outwardNumber: number,
                subject: item.title,
                date,
                lab: labName,
                attachment: {
                  area: pdf!.area,
                  storedName: pdf!.storedName,
                  filename: `${number.replace(/[/\\]/g, '-')}.pdf`,
                },
              },
            )
          : null;
      await tx.insert(dispatchRecipients).values({
        dispatchId,
        position,
        name: r.name,
        address: r.address,
        email: r.email,
        mailId,
      });
    }
    await recordActivity(
      tx,
      actor,
      'activity.dispatch_sent',
      { seq: item.seq, number: access.file.number, outward: number },
      { type: 'dispatch', id: dispatchId },
    );
    if (RECORDED_EFILE_CLASSIFICATIONS.includes(access.file.classification)) {
      await recordAudit(tx, ctx.who, {
        action: 'letter_dispatched',
        object: { type: 'efile', id: efileId, label: access.file.number },
        classification: access.file.classification,
        outcome: 'success',
        details: { outwardNumber: number, item: item.seq, mode: input.mode, recipients: input.recipients.length },
      });
    }
    return dispatchId;
  });
}
