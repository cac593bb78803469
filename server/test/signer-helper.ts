import { execFileSync } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { helperSignRequest } from '../modules/signatures/helper-signer.ts';

/**
 * Test certificates made with openssl, held in files: a root CA and, issued by it, a signer's certificate and key
 * (PEM) and the same as a PKCS12 file (a lab's seal, SIGNING_P12).
 */
export interface TestCertificates {
  dir: string;
  rootPem: string;
  keyPath: string;
  certPath: string;
  p12Path: string;
  p12Password: string;
  /** Removes the folder. */
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A root CA and a signer certificate it issued, for `commonName`, in a folder of their own. */
export function makeTestCertificates(commonName = 'Test Signer'): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'signer-'));
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'root.key',
    '-out',
    'root.pem',
    '-days',
    '3650',
    '-subj',
    '/C=IN/O=Test Lab CA/CN=Test Root CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'signer.key',
    '-out',
    'signer.csr',
    '-subj',
    `/C=IN/O=Test Lab/CN=${commonName}`,
  ]);
  writeFileSync(path.join(dir, 'ext.cnf'), 'keyUsage=critical,digitalSignature,nonRepudiation\n');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'signer.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-CAcreateserial',
    '-out',
    'signer.pem',
    '-days',
    '730',
    '-extfile',
    'ext.cnf',
  ]);
  const p12Password = 'seal-password';
  openssl(dir, [
    'pkcs12',
    '-export',
    '-inkey',
    'signer.key',
    '-in',
    'signer.pem',
    '-certfile',
    'root.pem',
    '-out',
    'seal.p12',
    '-passout',
    `pass:${p12Password}`,
  ]);
  return {
    dir,
    rootPem: readFileSync(path.join(dir, 'root.pem'), 'utf8'),
    keyPath: path.join(dir, 'signer.key'),
    certPath: path.join(dir, 'signer.pem'),
    p12Path: path.join(dir, 'seal.p12'),
    p12Password,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const pemToDer = (pem: string) =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) =>
    Buffer.from((m[1] ?? '').replace(/\s+/g, ''), 'base64'),
  );

/**
 * A signer helper as decision 119 describes it, holding its key in a file (as a token would hold it): GET
 * /certificates and POST /sign over real HTTP on 127.0.0.1. `signed` counts the signatures it made.
 */
export async function startSignerHelper(
  certs: TestCertificates,
): Promise<{ url: string; signed: () => number; close(): Promise<void> }> {
  const key = createPrivateKey(readFileSync(certs.keyPath));
  const chain = [...pemToDer(readFileSync(certs.certPath, 'utf8')), ...pemToDer(certs.rootPem)];
  let count = 0;
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/certificates') {
      return answer(200, { certificates: chain.map((c) => c.toString('base64')) });
    }
    if (req.method !== 'POST' || req.url !== '/sign') return answer(404, { error: 'No such request.' });
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let parsed;
      try {
        parsed = helperSignRequest.safeParse(JSON.parse(Buffer.concat(parts).toString('utf8')));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) return answer(400, { error: 'The request is not as agreed.' });
      count++;
      answer(200, { signature: sign('sha256', Buffer.from(parsed.data.toSign, 'base64'), key).toString('base64') });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    signed: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
