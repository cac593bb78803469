import { createHash } from 'node:crypto';

/**
 * The audit chain's canonical form (decision 067), written here for `npm run audit:verify` exactly as the insert
 * trigger of migration 0027 writes it in SQL: the previous link's hash, `|`, then each field in this order as
 * `<UTF-8 byte length>:<text>|`, or `-|` for null. The time is UTC to the millisecond (`2026-11-27T10:15:02.123Z`).
 * `hash = hex(SHA-256(that text as UTF-8))`. The chain starts from 64 zeros.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** One row as the chain sees it: every field as text (the verifier reads them so), null where empty. */
export interface ChainRow {
  seq: string;
  id: string;
  occurredAt: string;
  actorId: string | null;
  actorName: string | null;
  actorRole: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  action: string;
  objectType: string | null;
  objectId: string | null;
  objectLabel: string | null;
  classification: string | null;
  outcome: string;
  details: string | null;
}

/** The fields in the order the canonical form writes them. */
export const CHAIN_FIELDS = [
  'seq',
  'id',
  'occurredAt',
  'actorId',
  'actorName',
  'actorRole',
  'clientAddress',
  'userAgent',
  'action',
  'objectType',
  'objectId',
  'objectLabel',
  'classification',
  'outcome',
  'details',
] as const satisfies readonly (keyof ChainRow)[];

const field = (value: string | null) => (value === null ? '-|' : `${Buffer.byteLength(value, 'utf8')}:${value}|`);

/** The canonical text of a row after the previous link's hash. */
export function canonicalRow(prevHash: string, row: ChainRow): string {
  let text = `${prevHash}|`;
  for (const name of CHAIN_FIELDS) text += field(row[name]);
  return text;
}

/** The link's hash: SHA-256 of the canonical text, in hex. */
export function chainHash(prevHash: string, row: ChainRow): string {
  return createHash('sha256').update(canonicalRow(prevHash, row), 'utf8').digest('hex');
}
