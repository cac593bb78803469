import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real clamd for the malware scanning tests (decision 115): Debian's clamav-daemon, started in the foreground from a
 * generated clamd.conf on a Unix socket in a temp folder, with a signature database made here from the EICAR test
 * string and nothing else (nothing is downloaded): a `.hdb` line (the whole file is EICAR: its MD5 and size) and a
 * `.ndb` line (the EICAR string anywhere in a file, as inside a PDF or a ZIP). No clamd is a failure, never a skip:
 * .ci/run installs it.
 */

const CLAMD = '/usr/sbin/clamd';

/** The EICAR anti-virus test string: harmless, and every scanner's test of itself. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
/** The names clamd reports (it adds `.UNOFFICIAL` to signatures of a database it did not sign). */
export const EICAR_FILE_SIGNATURE = 'Eicar-Test-File.UNOFFICIAL';
export const EICAR_BODY_SIGNATURE = 'Eicar-Test-Body.UNOFFICIAL';

export interface Clamd {
  /** CLAMD_URL for the portal: unix:///…/clamd.sock */
  url: string;
  /** Stops clamd (uploads find it down); start() brings it back on the same socket. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** Whether clamd answers PING with PONG on `socket`. */
function pong(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const client = net.createConnection({ path: socket });
    let reply = '';
    client.on('connect', () => client.write('zPING\0'));
    client.on('data', (d) => (reply += d.toString()));
    client.on('end', () => resolve(reply.startsWith('PONG')));
    client.on('error', () => resolve(false));
  });
}

/**
 * Starts clamd. `streamMaxBytes` is its StreamMaxLength (the portal's CLAMD_STREAM_MAX_BYTES must not exceed it); its
 * file and scan size limits are set above it, so every window the portal sends is scanned whole.
 */
export async function startClamd({ streamMaxBytes = 8 * 1024 * 1024 } = {}): Promise<Clamd> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-clamd-'));
  const db = path.join(dir, 'db');
  const tmp = path.join(dir, 'tmp');
  mkdirSync(db);
  mkdirSync(tmp);
  const md5 = createHash('md5').update(EICAR).digest('hex');
  writeFileSync(path.join(db, 'eicar.hdb'), `${md5}:${EICAR.length}:Eicar-Test-File\n`);
  writeFileSync(path.join(db, 'eicar.ndb'), `Eicar-Test-Body:0:*:${Buffer.from(EICAR).toString('hex')}\n`);
  const socket = path.join(dir, 'clamd.sock');
  const conf = path.join(dir, 'clamd.conf');
  const limit = `${Math.ceil(streamMaxBytes / 1024)}K`;
  const scanLimit = `${Math.ceil((2 * streamMaxBytes) / 1024)}K`;
  writeFileSync(
    conf,
    [
      'Foreground yes',
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${db}`,
      `TemporaryDirectory ${tmp}`,
      `PidFile ${path.join(dir, 'clamd.pid')}`,
      `StreamMaxLength ${limit}`,
      `MaxFileSize ${scanLimit}`,
      `MaxScanSize ${scanLimit}`,
      'SelfCheck 0',
      '',
    ].join('\n'),
  );

  let proc: ChildProcess | null = null;
  const start = async () => {
    let stderr = '';
    const started = spawn(CLAMD, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    proc = started;
    started.stderr!.on('data', (d) => (stderr += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!(await pong(socket))) {
      if (started.exitCode !== null) throw new Error(`clamd exited (${started.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`clamd did not answer on ${socket} within 60 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    const running = proc;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
    rmSync(socket, { force: true });
  };
  await start();
  return {
    url: `unix://${socket}`,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
