import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real log collector for the log shipping tests (decision 125): Debian's rsyslog, started in the foreground from a
 * config of its own (its own work folder and pid file, no system inputs), receiving RFC 5424 over TCP (imtcp, octet
 * counting) on a free port and writing each message as received, one a line, to a file. stop() and start() make an
 * outage on the same port. No rsyslog is a failure, never a skip: .ci/run installs it.
 */

const RSYSLOGD = '/usr/sbin/rsyslogd';

export interface Rsyslog {
  /** SYSLOG_URL for the portal: tcp://127.0.0.1:<port> */
  url: string;
  /** Every message received so far, as rsyslog got it. */
  received(): string[];
  /** Waits until `count` messages have arrived (the file is read as rsyslog writes it); throws after 30 s. */
  waitFor(count: number): Promise<string[]>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startRsyslog(): Promise<Rsyslog> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-rsyslog-'));
  const port = await freePort();
  const file = path.join(dir, 'received.log');
  const conf = path.join(dir, 'rsyslog.conf');
  writeFileSync(
    conf,
    [
      `global(workDirectory="${dir}" maxMessageSize="64k")`,
      'module(load="imtcp")',
      'template(name="raw" type="string" string="%rawmsg%\\n")',
      `input(type="imtcp" port="${port}" address="127.0.0.1" ruleset="portal")`,
      'ruleset(name="portal") {',
      `  action(type="omfile" file="${file}" template="raw" flushOnTXEnd="on" asyncWriting="off")`,
      '}',
      '',
    ].join('\n'),
  );
  const read = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

  let proc: ChildProcess | null = null;
  const start = async () => {
    let stderr = '';
    const started = spawn(RSYSLOGD, ['-n', '-f', conf, '-i', path.join(dir, 'rsyslogd.pid')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc = started;
    started.stderr!.on('data', (d) => (stderr += d.toString()));
    const deadline = Date.now() + 30_000;
    while (!(await listening(port))) {
      if (started.exitCode !== null) throw new Error(`rsyslogd exited (${started.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`rsyslogd did not listen on ${port} within 30 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const running = proc;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `tcp://127.0.0.1:${port}`,
    received: read,
    async waitFor(count) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const lines = read();
        if (lines.length >= count) return lines;
        if (Date.now() > deadline) throw new Error(`rsyslog received ${lines.length} of ${count} messages in 30 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
