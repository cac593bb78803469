import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

import tar from 'tar-stream';

/** Helpers for the backup and restore tests: the real scripts as child processes, and archives taken apart. */

/**
 * Runs `npm run backup`, `restore`, `audit:verify` or `audit:checkpoint` in a child process without blocking this one
 * (an S3 test server answers from this process; a spawnSync would starve it).
 */
export function npmScript(
  script: 'backup' | 'restore' | 'audit-verify' | 'audit-checkpoint',
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      env: { ...process.env, DATABASE_URL: '', BACKUP_KEY: '', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}

export interface ArchiveEntry {
  name: string;
  body: Buffer;
}

/** Every entry of a `.tar.gz`, in order. */
export async function readArchive(file: string): Promise<ArchiveEntry[]> {
  const extract = tar.extract();
  const entries: ArchiveEntry[] = [];
  const done = new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c) => chunks.push(c as Buffer));
    stream.on('end', () => {
      entries.push({ name: header.name, body: Buffer.concat(chunks) });
      next();
    });
  });
  extract.end(gunzipSync(readFileSync(file)));
  await done;
  return entries;
}

/** Writes entries as a `.tar.gz`, names as given (`../x` included). */
export async function writeArchive(file: string, entries: ArchiveEntry[]): Promise<void> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const e of entries) pack.entry({ name: e.name, size: e.body.length }, e.body);
  pack.finalize();
  await done;
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
}

export const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/** Processes whose command line or working folder names `dir` (a postmaster left running on a DATA_DIR). */
export function processesUsing(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cmdline.includes(dir) || cwd.startsWith(dir)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
