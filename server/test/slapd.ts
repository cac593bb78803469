import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { Client } from 'ldapts';

/**
 * A real OpenLDAP for the directory tests (decision 062): Debian's slapd, started from a generated slapd.conf (mdb
 * backend) and an LDIF of the test lab, on a free 127.0.0.1 port, in a temp folder. No slapd is a failure, never a
 * skip: .ci/run installs it. The ppolicy module is loaded for its schema only (pwdAccountLockedTime), without the
 * overlay, so a disabled person can still bind and the portal's own reading of the marker is what refuses them.
 */

export const SUFFIX = 'dc=lab,dc=local';
export const ROOT_DN = `cn=admin,${SUFFIX}`;
export const ROOT_PASSWORD = 'root-secret';
export const SERVICE_DN = `cn=portal,ou=services,${SUFFIX}`;
export const SERVICE_PASSWORD = 'service-secret';
export const PEOPLE = `ou=people,${SUFFIX}`;
export const GROUPS = `ou=groups,${SUFFIX}`;
export const group = (cn: string) => `cn=${cn},${GROUPS}`;
export const person = (uid: string) => `uid=${uid},${PEOPLE}`;

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';

export interface Person {
  uid: string;
  name: string;
  mail?: string;
  title?: string;
  password: string;
  disabled?: boolean;
}

/** An LDIF entry for a person (inetOrgPerson). */
function personLdif(p: Person): string {
  return [
    `dn: ${person(p.uid)}`,
    'objectClass: inetOrgPerson',
    `uid: ${p.uid}`,
    `cn: ${p.name}`,
    `sn: ${p.name.split(' ').at(-1)}`,
    `displayName: ${p.name}`,
    ...(p.mail ? [`mail: ${p.mail}`] : []),
    ...(p.title ? [`title: ${p.title}`] : []),
    `userPassword: ${p.password}`,
    ...(p.disabled ? ['pwdAccountLockedTime: 000001010000Z'] : []),
  ].join('\n');
}

/** An LDIF entry for a groupOfNames (which needs at least one member: an empty one holds the service account). */
function groupLdif(cn: string, members: string[]): string {
  return [`dn: ${group(cn)}`, 'objectClass: groupOfNames', `cn: ${cn}`, ...members.map((m) => `member: ${m}`)].join(
    '\n',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Slapd {
  url: string;
  port: number;
  /** Runs `work` bound as the directory's root (to change the directory during a test). */
  asRoot<T>(work: (client: Client) => Promise<T>): Promise<T>;
  /** Stops slapd (the directory goes down); start() brings it back on the same port with the same data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/**
 * Starts slapd with the test lab's people and groups: `people` in ou=people, `groups` (cn → member DNs) in ou=groups.
 * The service account may read everything; people may bind as themselves.
 */
export async function startSlapd(people: Person[], groups: Record<string, string[]>): Promise<Slapd> {
  if (!existsSync(SLAPD) || !existsSync(SLAPADD)) {
    throw new Error(`${SLAPD} is missing: apt-get install -y slapd ldap-utils (.ci/run installs it).`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-slapd-'));
  mkdirSync(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'moduleload ppolicy', // for pwdAccountLockedTime's schema; no `overlay ppolicy`
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'database mdb',
      `suffix "${SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${path.join(dir, 'db')}`,
      'maxsize 104857600',
      'index objectClass eq',
      'index member eq',
      'index uid,mail eq',
      'access to attrs=userPassword by anonymous auth by self write by * none',
      `access to * by dn.exact="${SERVICE_DN}" read by self read by * none`,
      '',
    ].join('\n'),
  );
  const ldif = [
    [`dn: ${SUFFIX}`, 'objectClass: dcObject', 'objectClass: organization', 'o: Test Lab', 'dc: lab'].join('\n'),
    [`dn: ${PEOPLE}`, 'objectClass: organizationalUnit', 'ou: people'].join('\n'),
    [`dn: ${GROUPS}`, 'objectClass: organizationalUnit', 'ou: groups'].join('\n'),
    [`dn: ou=services,${SUFFIX}`, 'objectClass: organizationalUnit', 'ou: services'].join('\n'),
    [
      `dn: ${SERVICE_DN}`,
      'objectClass: organizationalRole',
      'objectClass: simpleSecurityObject',
      'cn: portal',
      `userPassword: ${SERVICE_PASSWORD}`,
    ].join('\n'),
    ...people.map(personLdif),
    ...Object.entries(groups).map(([cn, members]) => groupLdif(cn, members.length ? members : [SERVICE_DN])),
  ].join('\n\n');
  writeFileSync(path.join(dir, 'data.ldif'), `${ldif}\n`);
  const added = spawnSync(SLAPADD, ['-f', conf, '-l', path.join(dir, 'data.ldif')], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`);

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn(SLAPD, ['-f', conf, '-h', `${url}/`, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child = proc;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`slapd exited (${proc.exitCode}): ${stderr}`);
      const client = new Client({ url, connectTimeout: 500, timeout: 1000 });
      try {
        await client.bind(SERVICE_DN, SERVICE_PASSWORD);
        await client.unbind();
        return;
      } catch {
        await client.unbind().catch(() => {});
        if (Date.now() > deadline) throw new Error(`slapd did not answer on ${url}: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    async asRoot(work) {
      const client = new Client({ url });
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      try {
        return await work(client);
      } finally {
        await client.unbind().catch(() => {});
      }
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
