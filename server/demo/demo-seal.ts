import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Seal } from '#server/config.ts';
import { signingConfig } from '#server/config/signing.ts';

/**
 * The demo's own seal (decision 118): a CA and a seal certificate it issues, made by openssl (Debian's) in a folder that
 * is removed at once; the key lives in this process only. A real lab installs its seal as the README says.
 */
export function makeDemoSeal(labName: string): { seal: Seal; rootPem: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'demo-seal-'));
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    const org = labName.replace(/[/=,+"\\<>;]/g, ' ').slice(0, 60);
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '3650',
      '-subj',
      `/C=IN/O=${org}/CN=Demo Lab CA`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    openssl([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'seal.key',
      '-out',
      'seal.csr',
      '-subj',
      `/C=IN/O=${org}/CN=Demo Lab Seal`,
    ]);
    writeFileSync(path.join(dir, 'ext.cnf'), 'keyUsage=critical,digitalSignature,nonRepudiation\n');
    openssl([
      'x509',
      '-req',
      '-in',
      'seal.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'seal.pem',
      '-days',
      '730',
      '-extfile',
      'ext.cnf',
    ]);
    const password = 'demo-seal';
    openssl([
      'pkcs12',
      '-export',
      '-inkey',
      'seal.key',
      '-in',
      'seal.pem',
      '-certfile',
      'ca.pem',
      '-out',
      'seal.p12',
      '-passout',
      `pass:${password}`,
    ]);
    const seal = signingConfig({ SIGNING_P12: path.join(dir, 'seal.p12'), SIGNING_P12_PASSWORD: password })!;
    return { seal, rootPem: readFileSync(path.join(dir, 'ca.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
