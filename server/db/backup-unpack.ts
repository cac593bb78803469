import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

import tar from 'tar-stream';

import {
  BackupError,
  CHECKPOINT_PATH,
  type Manifest,
  MANIFEST_ENTRY,
  MANIFEST_MAX_BYTES,
  parseManifest,
  SIGNATURE_ENTRY,
  type SignatureCheck,
  UPLOAD_PATH,
  verifyManifest,
} from './backup-manifest.ts';

/** Unpacking a backup for a restore (server/db/backup.ts), every entry checked before it is trusted. */

// What an archive may hold: its manifest and signature, the tables' copies, the uploads, the audit checkpoints. Anything else (a link, a
// folder, `..`, an absolute path, a name the backup never writes) is refused before a byte of it is written.
const DB_PATH = /^db\/[a-z_][a-z0-9_]{0,62}\.copy$/;
const expectedEntry = (name: string) =>
  name === MANIFEST_ENTRY ||
  name === SIGNATURE_ENTRY ||
  DB_PATH.test(name) ||
  UPLOAD_PATH.test(name) ||
  CHECKPOINT_PATH.test(name);

/** Reads a small entry (the manifest, its signature) into memory, refusing one over `max` bytes. */
async function readSmall(entry: AsyncIterable<unknown>, name: string, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > max) throw new BackupError(`The archive's ${name} is larger than a Lab Portal backup's.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Unpacks an archive into `dir`, checking every entry's name before writing it, then the manifest (its shape, its
 * signature under `key`) and every entry against it. Every failure, a damaged gzip or tar stream included, is a
 * BackupError: nothing is left unhandled.
 */
export async function unpack(
  archive: string,
  dir: string,
  key: string | undefined,
): Promise<{ manifest: Manifest; signature: SignatureCheck }> {
  const source = createReadStream(archive);
  const extract = tar.extract();
  // Its failure also ends the loop below (the extract is destroyed with the error); awaited after it.
  const feeding = pipeline(source, createGunzip(), extract);
  feeding.catch(() => {});
  const hashes = new Map<string, string>();
  let manifestBytes: Buffer | undefined;
  let signatureBytes: Buffer | undefined;
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (type !== 'file' || !expectedEntry(name) || hashes.has(name)) {
        throw new BackupError(`The archive holds an unexpected entry: ${JSON.stringify(name)}.`);
      }
      if (name === MANIFEST_ENTRY) {
        manifestBytes = await readSmall(entry, name, MANIFEST_MAX_BYTES);
        hashes.set(name, '');
        continue;
      }
      if (name === SIGNATURE_ENTRY) {
        signatureBytes = await readSmall(entry, name, 4096);
        hashes.set(name, '');
        continue;
      }
      const target = path.join(dir, name);
      mkdirSync(path.dirname(target), { recursive: true });
      const hash = createHash('sha256');
      await pipeline(
        entry,
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        }),
        createWriteStream(target, { flags: 'wx', mode: 0o600 }),
      );
      hashes.set(name, hash.digest('hex'));
    }
    await feeding;
  } catch (err) {
    source.destroy();
    extract.destroy();
    await feeding.catch(() => {});
    if (err instanceof BackupError) throw err;
    // A write that failed here (a full disk) is not the archive's fault.
    if ((err as NodeJS.ErrnoException).syscall === 'write') {
      throw new BackupError(`Unpacking the archive into ${dir} failed (${(err as Error).message}).`);
    }
    throw new BackupError(`${archive} is not a readable Lab Portal backup (${(err as Error).message}).`);
  }
  if (!manifestBytes) throw new BackupError(`${archive} is not a Lab Portal backup (no manifest).`);
  // The signature first: an edited manifest is reported as edited, whatever else is wrong with it.
  const signature = verifyManifest(key, manifestBytes, signatureBytes);
  const manifest = parseManifest(manifestBytes);
  const listed = new Set<string>([MANIFEST_ENTRY, SIGNATURE_ENTRY]);
  for (const entry of [...manifest.tables, ...manifest.files, ...manifest.checkpoints]) {
    listed.add(entry.path);
    const got = hashes.get(entry.path);
    if (got !== entry.sha256) {
      throw new BackupError(`${entry.path} in the archive is ${got ? 'damaged (checksum differs)' : 'missing'}.`);
    }
  }
  const unlisted = [...hashes.keys()].find((name) => !listed.has(name));
  if (unlisted) throw new BackupError(`The archive holds an entry its manifest does not list: ${unlisted}.`);
  return { manifest, signature };
}
