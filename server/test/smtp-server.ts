import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for the mail tests (decision 076): the `smtp-server` package on a free 127.0.0.1 port,
 * every message it takes parsed with `mailparser` and kept in `messages`. With `tls`, it offers STARTTLS with a
 * certificate made here by openssl (its own CA: `caFile`, for SMTP_CA_FILE); with `auth`, it takes only that user and
 * password. `stop()` takes it down (the relay is out) and `start()` brings it back on the same port. Never a mock.
 */

export interface ReceivedMail {
  /** The envelope's recipients, as the portal gave them to the relay. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Header names in lower case. */
  headers: Map<string, unknown>;
  messageId: string | undefined;
  language: string | undefined;
  /** The files it carries (a dispatched letter's signed PDF, decision 120). */
  attachments: { filename: string | undefined; contentType: string; content: Buffer }[];
}

export interface TestSmtp {
  port: number;
  /** An SMTP_URL for this server (with its user and password when it asks for them). */
  url: string;
  /** The CA file of its STARTTLS certificate, with `tls`. */
  caFile: string | undefined;
  messages: ReceivedMail[];
  /** The mails to `address` so far. */
  mailsTo(address: string): ReceivedMail[];
  /** Waits until `count` mails to `address` have come (default 1), within `timeoutMs`; answers them. */
  waitForMail(address: string, opts?: { count?: number; timeoutMs?: number }): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate for 127.0.0.1 and localhost (openssl, Debian's). */
function selfSignedCertificate(dir: string): { key: Buffer; cert: Buffer; caFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=Lab Portal test relay',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), caFile: certFile };
}

export async function startTestSmtp(
  opts: { tls?: boolean; auth?: { user: string; pass: string }; onMail?: (mail: ReceivedMail) => void } = {},
): Promise<TestSmtp> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-smtp-'));
  const tls = opts.tls ? selfSignedCertificate(dir) : undefined;
  const messages: ReceivedMail[] = [];
  const port = await freePort();
  const waiters = new Set<() => void>();

  const make = () =>
    new SMTPServer({
      logger: false,
      closeTimeout: 500,
      disableReverseLookup: true,
      ...(tls ? { key: tls.key, cert: tls.cert } : {}),
      disabledCommands: [...(tls ? [] : ['STARTTLS']), ...(opts.auth ? [] : ['AUTH'])],
      authOptional: !opts.auth,
      onAuth(auth, _session, callback) {
        if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) {
          return callback(null, { user: auth.username });
        }
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (parsed) => {
            const mail: ReceivedMail = {
              to: session.envelope.rcptTo.map((r) => r.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: parsed.headers,
              messageId: parsed.messageId,
              language: parsed.headers.get('content-language') as string | undefined,
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: a.content,
              })),
            };
            messages.push(mail);
            opts.onMail?.(mail);
            waiters.forEach((w) => w());
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });

  let server: SMTPServer | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const s = make();
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
    });
  await start();

  const auth = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : '';
  const mailsTo = (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    port,
    url: `smtp://${auth}127.0.0.1:${port}`,
    caFile: tls?.caFile,
    messages,
    mailsTo,
    waitForMail: (address, { count = 1, timeoutMs = 10_000 } = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = mailsTo(address);
          if (found.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${mailsTo(address).length} of ${count} mail(s) to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
