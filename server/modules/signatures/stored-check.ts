import { buffer } from 'node:stream/consumers';

import { and, eq } from 'drizzle-orm';

import type { VerificationJson } from '#shared/schemas/signature.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { type FileRow, signatureChecks } from '#server/db/schema/index.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import type { StorageDriver } from '#server/modules/files/drivers/types.ts';

import { SigningLimitExceeded, UnsignablePdf } from './signing-thread.ts';
import { rootsForCheck } from './trusted-roots.ts';
import { type VerificationReport, verifyPdf } from './verify-pdf.ts';

/**
 * The check of a stored PDF's signatures (decision 123), for the signature panel and the dispatch: made once per
 * stored file and trusted-roots list in the checking thread (verify.worker.mjs), then kept (signature_checks); a
 * stored file's bytes never change. The caller has checked that the reader may open the file.
 */
export async function checkStoredPdf(
  db: DbOrTx,
  driver: StorageDriver,
  file: Pick<FileRow, 'id' | 'area' | 'storedName' | 'mimeType'>,
): Promise<VerificationJson> {
  if (file.mimeType !== 'application/pdf') throw new AppError(422, 'signatures.not_pdf');
  const roots = await rootsForCheck(db);
  const [kept] = await db
    .select()
    .from(signatureChecks)
    .where(and(eq(signatureChecks.fileId, file.id), eq(signatureChecks.rootsKey, roots.key)));
  if (kept) return present(kept.report as VerificationReport, kept.checkedAt);
  const stream = await driver.read(file.area, file.storedName).catch(() => null);
  if (!stream) throw notFound('files.not_found');
  const bytes = await buffer(stream);
  let report: VerificationReport;
  try {
    report = await verifyPdf(bytes, roots.pems);
  } catch (err) {
    if (err instanceof UnsignablePdf) throw new AppError(422, 'signatures.unreadable');
    if (err instanceof SigningLimitExceeded) throw new AppError(422, 'signatures.too_heavy');
    throw err;
  }
  const checkedAt = new Date();
  await db
    .insert(signatureChecks)
    .values({ fileId: file.id, rootsKey: roots.key, report, checkedAt })
    .onConflictDoUpdate({ target: signatureChecks.fileId, set: { rootsKey: roots.key, report, checkedAt } });
  return present(report, checkedAt);
}

/** The report as the panel shows it: each signature valid or invalid as pdfsig says, and changed after or not. */
export function present(report: VerificationReport, checkedAt: Date): VerificationJson {
  const signatures = report.signatures.map((s) => ({
    field: s.field,
    signer: s.signer,
    chain: s.chain,
    signingTime: s.signingTime,
    reason: s.reason,
    location: s.location,
    subFilter: s.subFilter,
    status: s.intact && s.signatureValid && !s.problem ? ('valid' as const) : ('invalid' as const),
    intact: s.intact,
    signatureValid: s.signatureValid,
    trusted: s.trusted,
    changedAfter: !s.coversWholeDocument,
    problem: s.problem,
  }));
  return {
    signed: signatures.length > 0,
    valid: signatures.length > 0 && signatures.every((s) => s.status === 'valid') && !report.changedAfterLastSignature,
    changedAfterLastSignature: report.changedAfterLastSignature,
    signatures,
    checkedAt: checkedAt.toISOString(),
  };
}
