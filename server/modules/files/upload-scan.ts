import { Transform } from 'node:stream';

import type { FastifyRequest } from 'fastify';

import { AppError } from '#server/lib/errors.ts';
import { auditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { notifyMalwareFound } from '#server/modules/audit-trail/malware-notices.ts';

import { ScanUnavailable } from './malware-scan.ts';
import type { ScanSession } from './scan-session.ts';
import type { StoredFile } from './storage.ts';

/**
 * The scan of an upload, started as its first byte is written (decision 115); null without CLAMD_URL. Every chunk
 * goes through `scanTap` on its way to disk.
 */
export const startUploadScan = (req: FastifyRequest): ScanSession | null =>
  req.server.malwareScanner?.startScan() ?? null;

/** A transform that feeds each chunk to the scan and passes it on unchanged. */
export function scanTap(scan: ScanSession | null): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!scan) return done(null, chunk);
      scan.write(chunk).then(() => done(null, chunk), done);
    },
  });
}

/**
 * The malware verdict at an upload's commit point (decision 115): called by `receiveMultipart` once the file is on
 * disk and its type checked, before it is stored or any row names it; waits for clamd's last answer.
 * - clamd finds a signature: an audit event and a notice to every admin are committed, then 422
 *   `storage.malware_found` naming the signature; the caller discards the file.
 * - clamd cannot be reached: 503 `storage.scan_unavailable`, unless CLAMD_FAIL_OPEN=true, when the upload goes on and
 *   the log says it was stored unscanned. clamd that answers but broke off the scan is always a 503.
 */
export async function scanUpload(req: FastifyRequest, file: StoredFile, scan: ScanSession | null): Promise<void> {
  const scanner = req.server.malwareScanner;
  if (!scanner || !scan) return;
  const about = { area: file.area, id: file.id, name: file.originalName, size: file.size, user: req.actor?.id };
  let verdict;
  try {
    verdict = await scan.finish();
  } catch (err) {
    if (!(err instanceof ScanUnavailable)) throw err;
    if (err.reason === 'unreachable' && scanner.failOpen) {
      req.log.warn({ err, upload: about }, 'an upload was stored unscanned: clamd cannot be reached (CLAMD_FAIL_OPEN)');
      return;
    }
    req.log.error({ err, upload: about }, `an upload was refused: no malware scan (${scanner.description})`);
    throw new AppError(503, 'storage.scan_unavailable');
  }
  if (verdict.clean) return;
  req.log.warn({ upload: about, signature: verdict.signature }, 'an upload was refused: malware found');
  await req.server.db.transaction(async (tx) => {
    const receipt = await recordAudit(tx, auditWho(req), {
      action: 'malware_detected',
      object: { type: 'upload', id: file.id, label: file.originalName },
      outcome: 'refused',
      details: { signature: verdict.signature, area: file.area, size: file.size, route: req.routeOptions.url },
    });
    await notifyMalwareFound(tx, receipt.id);
  });
  throw new AppError(422, 'storage.malware_found', { signature: verdict.signature });
}
