import { createHash, X509Certificate } from 'node:crypto';

import { asc, eq } from 'drizzle-orm';

import type { TrustedRootInput } from '#shared/schemas/signature.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { type TrustedRootRow, trustedRoots } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { signaturesPolicy } from './signatures.policy.ts';

/**
 * The admin's list of trusted roots (decision 123): a signer's chain that ends at one of them is trusted. Nothing is
 * fetched from the network; a lab adds CCA India's root (or its own CA) by pasting its PEM.
 */

export const presentRoot = (r: TrustedRootRow) => ({
  _id: r.id,
  label: r.label,
  subject: r.subject,
  fingerprint256: r.fingerprint256,
  validTo: r.validTo.toISOString(),
  createdAt: r.createdAt.toISOString(),
});

export function listRoots(db: DbOrTx): Promise<TrustedRootRow[]> {
  return db.select().from(trustedRoots).orderBy(asc(trustedRoots.label), asc(trustedRoots.createdAt));
}

/**
 * The roots a check is made against, and their key: the SHA-256 of their fingerprints in order, which a kept check
 * carries (a root added or removed makes every kept check stale).
 */
export async function rootsForCheck(db: DbOrTx): Promise<{ pems: string[]; key: string }> {
  const rows = await db
    .select({ pem: trustedRoots.pem, fingerprint256: trustedRoots.fingerprint256 })
    .from(trustedRoots)
    .orderBy(asc(trustedRoots.fingerprint256));
  const key = createHash('sha256')
    .update(rows.map((r) => r.fingerprint256).join('\n'))
    .digest('hex');
  return { pems: rows.map((r) => r.pem), key };
}

/**
 * Reads a pasted PEM (one certificate, at most 20,000 characters: the admin's own text, not an upload). A certificate
 * that is not a CA's is taken too: a lab may trust its own seal directly.
 */
function readPem(pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw badRequest('signatures.pem_invalid', 'pem');
  }
}

export async function addRoot(db: Db, actor: Actor, input: TrustedRootInput): Promise<TrustedRootRow> {
  signaturesPolicy.authorize(actor, 'signatures.roots');
  const x509 = readPem(input.pem);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(trustedRoots)
      .values({
        label: input.label,
        pem: x509.toString(),
        subject: x509.subject.replace(/\n/g, ', '),
        fingerprint256: x509.fingerprint256,
        validTo: new Date(x509.validTo),
        addedBy: actor.id,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict('signatures.root_exists', 'pem');
    await recordActivity(
      tx,
      actor,
      'activity.trusted_root_added',
      { label: row.label },
      { type: 'trusted_root', id: row.id },
    );
    return row;
  });
}

export async function removeRoot(db: Db, actor: Actor, id: string): Promise<void> {
  signaturesPolicy.authorize(actor, 'signatures.roots');
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(trustedRoots).where(eq(trustedRoots.id, id)).returning();
    if (!row) throw notFound('signatures.root_not_found');
    await recordActivity(
      tx,
      actor,
      'activity.trusted_root_removed',
      { label: row.label },
      { type: 'trusted_root', id },
    );
  });
}
