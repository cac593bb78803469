import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import type { Seal } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { efileDrafts, efileDraftVersions, efileItems } from '#server/db/schema/index.ts';
import { AppError, badRequest, conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { type FileStore, saveFileRow, type StoredFile } from '#server/modules/files/storage.ts';
import { UnsupportedCertificate } from '#server/modules/signatures/cms.ts';
import { helperSigner, SignerHelperFailed } from '#server/modules/signatures/helper-signer.ts';
import { sealSigner } from '#server/modules/signatures/seal.ts';
import { type Signatory, signPdf } from '#server/modules/signatures/sign-pdf.ts';
import { SigningLimitExceeded, type SigningThread, UnsignablePdf } from '#server/modules/signatures/signing-thread.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { assertActs, lockFile } from './efiles.access.ts';
import { type DraftPdfLimits, versionPdf } from './efiles.drafts.pdf.ts';
import { findDraft } from './efiles.drafts.ts';
import { EFILES_AREA } from './efiles.items.ts';
import { readSettings } from './efiles.numbers.ts';
import { efilesPolicy, RECORDED_EFILE_CLASSIFICATIONS } from './efiles.policy.ts';

/**
 * Approving a draft signs it (decision 122): its latest version as a PDF is sealed by the lab (SIGNING_P12, decision
 * 118) with a visible block naming the approver, their designation and the time (IST), and, when asked, signed again
 * by the approver's own key at the signer helper (decision 119) as a second, incremental signature. The signed PDF is
 * stored in the e-files' area and put on the file's correspondence side as the next item C/n, which the dispatch
 * register sends. All in one transaction holding the file's lock: a refusal or failure leaves no row and no stored file.
 */
export interface ApproveDeps {
  db: Db;
  store: FileStore;
  seal: Seal | null;
  helperUrl: string | null;
  thread: SigningThread;
  limits: DraftPdfLimits;
}

/** A signing that failed, as the person is told it. */
function signingRefusal(err: unknown): unknown {
  if (err instanceof UnsignablePdf || err instanceof SigningLimitExceeded)
    return new AppError(422, 'drafts.unsignable');
  if (err instanceof SignerHelperFailed || err instanceof UnsupportedCertificate) {
    return new AppError(502, 'drafts.signer_failed', { reason: err.message });
  }
  return err;
}

/** Stores signed bytes as a new file of the e-files' area (the caller saves its row, or discards it). */
async function storeSigned(store: FileStore, bytes: Uint8Array, name: string): Promise<StoredFile> {
  const id = randomUUID();
  const absolutePath = store.receivingPath(EFILES_AREA, id);
  await mkdir(path.dirname(absolutePath), { recursive: true });
  await writeFile(absolutePath, bytes);
  const stored: StoredFile = {
    id,
    area: EFILES_AREA,
    originalName: name,
    mimeType: 'application/pdf',
    size: bytes.length,
    absolutePath,
  };
  try {
    await store.storeReceived(stored);
  } catch (err) {
    await store.discard(stored);
    throw err;
  }
  return stored;
}

/** POST …/approve: the approver's signature(s) on the latest version, filed as C/n. Returns the item. */
export async function approveDraft(
  deps: ApproveDeps,
  who: AuditWho,
  actor: Actor,
  id: string,
  draftId: string,
  personal: boolean,
) {
  const { db, store, seal } = deps;
  const kept: { stored?: StoredFile } = {};
  try {
    return await db.transaction(async (tx) => {
      const access = await lockFile(tx, actor, id);
      const draft = await findDraft(tx, id, draftId, true);
      assertActs(actor, access);
      efilesPolicy.authorize(actor, 'efiles.draft_decide', { state: draft.state });
      if (!seal) throw new AppError(503, 'drafts.no_seal');
      if (personal && !deps.helperUrl) throw badRequest('drafts.no_helper', 'personal');
      const { file } = access;
      const [latest] = await tx
        .select()
        .from(efileDraftVersions)
        .where(eq(efileDraftVersions.draftId, draftId))
        .orderBy(sql`${efileDraftVersions.version} desc`)
        .limit(1);
      if (!latest) throw conflict('drafts.version_not_found');
      const pdf = await versionPdf(db, store, deps.limits, file, draft, latest);
      const me = (await findUserById(tx, actor.id))?.user;
      const { labCode } = await readSettings(tx);
      const signatory: Signatory = {
        name: actor.name,
        designation: me?.designation ?? '',
        reason: `Approved: ${file.number}, D/${draft.seq} v${latest.version}`,
        location: labCode,
        contactInfo: actor.email,
      };
      const at = new Date();
      let signed: Uint8Array;
      try {
        signed = await signPdf(pdf, sealSigner(seal), signatory, { at, thread: deps.thread });
        if (personal) {
          signed = await signPdf(signed, helperSigner(deps.helperUrl!), signatory, { thread: deps.thread });
        }
      } catch (err) {
        throw signingRefusal(err);
      }
      const name = `${file.number.replace(/[/\\]/g, '-')} D-${draft.seq} v${latest.version} signed.pdf`;
      kept.stored = await storeSigned(store, signed, name);
      const row = await saveFileRow(tx, kept.stored, actor.id);
      const [next] = await tx
        .select({ n: sql<number>`coalesce(max(${efileItems.seq}), 0)::int + 1` })
        .from(efileItems)
        .where(eq(efileItems.efileId, id));
      const [item] = await tx
        .insert(efileItems)
        .values({
          efileId: id,
          seq: next!.n,
          title: `${draft.title} (D/${draft.seq} v${latest.version}, signed)`,
          fileId: row.id,
          text: latest.text,
          addedBy: actor.id,
        })
        .returning();
      await tx
        .update(efileDrafts)
        .set({ state: 'approved', approvedBy: actor.id, approvedAt: at, itemId: item!.id, updatedAt: at })
        .where(eq(efileDrafts.id, draftId));
      await recordActivity(
        tx,
        actor,
        'activity.efile_draft_approved',
        { seq: draft.seq, number: file.number, item: item!.seq },
        { type: 'efile', id },
      );
      if (RECORDED_EFILE_CLASSIFICATIONS.includes(file.classification)) {
        await recordAudit(tx, who, {
          action: 'efile_draft_approved',
          object: { type: 'efile', id, label: file.number },
          classification: file.classification,
          outcome: 'success',
          details: { draft: `D/${draft.seq}`, version: latest.version, item: `C/${item!.seq}`, personal },
        });
      }
      return item!;
    });
  } catch (err) {
    if (kept.stored) await store.discard(kept.stored);
    throw err;
  }
}
