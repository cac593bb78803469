import { Client, type Entry, InvalidCredentialsError, NoSuchObjectError } from 'ldapts';

import type { DirectoryRole, LdapConfig } from '#server/config.ts';
import type { UserRow } from '#server/db/schema/index.ts';
import { AppError } from '#server/lib/errors.ts';

/**
 * The lab's directory (LDAP / Active Directory, decision 062), through ldapts: finding a person by
 * their login with the service account, checking their password by binding as them, reading whether they are
 * disabled, and which of the configured groups they belong to, nested groups included. Knows nothing of the portal's
 * tables: directory-accounts.ts turns what it reads into an account.
 */

/** What the portal reads of one person in the directory. */
export interface DirectoryPerson {
  dn: string;
  email: string | undefined;
  name: string;
  title: string;
  /** Disabled in the directory (AD: userAccountControl bit 2; OpenLDAP: LDAP_DISABLED_ATTRIBUTE present). */
  disabled: boolean;
  /** The role their groups give (the most powerful), or null when no LDAP_ROLE_GROUPS group holds them. */
  mappedRole: DirectoryRole | null;
  /** The research group of the first LDAP_GROUP_MAP group that holds them (its portal name or id), or null. */
  group: string | null;
}

/** How long one directory operation (connect, bind, search) may take before the directory counts as unreachable. */
const TIMEOUT_MS = 5000;
/** Groups of groups are followed this many levels up (OpenLDAP); deeper nesting is not a lab's directory. */
export const MAX_NESTING = 8;
/** AD's LDAP_MATCHING_RULE_IN_CHAIN: `member:1.2.840.113556.1.4.1941:=` matches members at any depth. */
const IN_CHAIN = '1.2.840.113556.1.4.1941';

/** The 503 of every directory operation that could not reach the directory (or was refused by it unexpectedly). */
export const directoryUnreachable = () => new AppError(503, 'auth.directory_unreachable');

/** RFC 4515: a value inside a filter, with `*`, `(`, `)`, `\` and NUL escaped, so a login can match only itself. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** LDAP_USER_FILTER for one login. */
export const userFilter = (config: LdapConfig, login: string) =>
  config.userFilter.replaceAll('{login}', escapeFilterValue(login));

/** A DN compared as the directory compares it (case and spaces around separators aside). */
export const sameDn = (a: string, b: string) => normalDn(a) === normalDn(b);

/**
 * The sign-in throttle's key of a directory entry (decision 094): its DN, normalised. Every login that finds the entry
 * (its uid or mail, in any case, in fullwidth letters, which the directory matches alike) counts against this one key.
 */
export const entryKey = (dn: string) => `directory:${normalDn(dn)}`;
const normalDn = (dn: string) =>
  dn
    .split(',')
    .map((rdn) =>
      rdn
        .split('=')
        .map((part) => part.trim())
        .join('='),
    )
    .join(',')
    .toLowerCase();

/** A connected client (StartTLS done when asked), not yet bound. Any failure to connect is the 503. */
async function connect(config: LdapConfig): Promise<Client> {
  const tlsOptions = config.ca ? { ca: [config.ca] } : undefined;
  const client = new Client({ url: config.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS, tlsOptions });
  if (config.startTls) {
    try {
      await client.startTLS(tlsOptions ?? {});
    } catch {
      await client.unbind().catch(() => {});
      throw directoryUnreachable();
    }
  }
  return client;
}

/** Runs `work` as the lookup account (LDAP_BIND_DN, or anonymously), then lets go of the connection. */
export async function withLookupAccount<T>(config: LdapConfig, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(config);
  try {
    try {
      if (config.bindDn) await client.bind(config.bindDn, config.bindPassword!);
    } catch {
      throw directoryUnreachable(); // a wrong service password is the operator's to fix; the person is told to wait
    }
    return await work(client);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw directoryUnreachable();
  } finally {
    await client.unbind().catch(() => {});
  }
}

/**
 * Whether `password` is this entry's password: a bind as its DN (the directory checks it; the portal never keeps it).
 * An empty password is refused here, never sent: LDAP treats a bind with one as anonymous, which "succeeds".
 */
export async function checkPassword(config: LdapConfig, dn: string, password: string): Promise<boolean> {
  if (!password) return false;
  const client = await connect(config);
  try {
    await client.bind(dn, password);
    return true;
  } catch (err) {
    if (err instanceof InvalidCredentialsError) return false;
    throw directoryUnreachable();
  } finally {
    await client.unbind().catch(() => {});
  }
}

/**
 * For the step-up before Secret letters (step-up): whether `password` is the directory password of this directory
 * account. False for an account that is not one; the 503 (`auth.directory_unreachable`) when the directory is down.
 */
export async function verifyDirectoryPassword(
  config: LdapConfig | undefined,
  user: Pick<UserRow, 'authSource' | 'directoryDn'>,
  password: string,
): Promise<boolean> {
  if (!config || user.authSource !== 'directory' || !user.directoryDn) return false;
  return checkPassword(config, user.directoryDn, password);
}

const ATTRIBUTES = ['mail', 'userPrincipalName', 'displayName', 'cn', 'title', 'userAccountControl'];
const attributesFor = (config: LdapConfig) => [...ATTRIBUTES, config.disabledAttribute];

/** One value of an attribute (the first, when it has several), as text. */
function first(entry: Entry, name: string): string | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key ? entry[key] : undefined;
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return undefined;
  const text = Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
  return text === '' ? undefined : text;
}

/** The entry whose login is `login`, or null when none (or more than one) matches. */
export async function findEntry(client: Client, config: LdapConfig, login: string): Promise<Entry | null> {
  const { searchEntries } = await client.search(config.userBase, {
    scope: 'sub',
    filter: userFilter(config, login),
    attributes: attributesFor(config),
    sizeLimit: 2,
  });
  return searchEntries.length === 1 ? searchEntries[0]! : null;
}

/** The entry at `dn`, or null when the directory has no such entry any more. */
export async function readEntry(client: Client, config: LdapConfig, dn: string): Promise<Entry | null> {
  try {
    const { searchEntries } = await client.search(dn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: attributesFor(config),
    });
    return searchEntries[0] ?? null;
  } catch (err) {
    if (err instanceof NoSuchObjectError) return null;
    throw err;
  }
}

/** Disabled: AD's ACCOUNTDISABLE bit (2) of userAccountControl, or OpenLDAP's LDAP_DISABLED_ATTRIBUTE present. */
function isDisabled(entry: Entry, config: LdapConfig): boolean {
  if (config.kind === 'ad') return (Number(first(entry, 'userAccountControl') ?? 0) & 2) === 2;
  return first(entry, config.disabledAttribute) !== undefined;
}

/** Every configured group DN (LDAP_ROLE_GROUPS and LDAP_GROUP_MAP). */
const configuredGroups = (config: LdapConfig) => [
  ...new Set([...config.roleGroups.map((g) => g.dn), ...config.groupMap.map((g) => g.dn)]),
];

/**
 * Which of the configured groups hold `dn`, directly or through groups of groups. Active Directory answers it itself
 * (one base search of each configured group with the in-chain rule); for OpenLDAP the portal walks `member` (and
 * `uniqueMember`) upwards from the person, level by level, at most MAX_NESTING levels, never visiting a group twice
 * (a cycle of groups ends the walk).
 */
export async function configuredGroupsOf(client: Client, config: LdapConfig, dn: string): Promise<string[]> {
  const wanted = configuredGroups(config);
  if (config.kind === 'ad') {
    const held: string[] = [];
    for (const group of wanted) {
      const { searchEntries } = await client
        .search(group, {
          scope: 'base',
          filter: `(member:${IN_CHAIN}:=${escapeFilterValue(dn)})`,
          attributes: ['dn'],
        })
        .catch((err: unknown) => {
          if (err instanceof NoSuchObjectError) return { searchEntries: [] };
          throw err;
        });
      if (searchEntries.length) held.push(group);
    }
    return held;
  }
  const seen = new Set<string>([normalDn(dn)]);
  const groups: string[] = [];
  let frontier = [dn];
  for (let depth = 0; depth < MAX_NESTING && frontier.length; depth++) {
    const members = frontier.map((m) => `(member=${escapeFilterValue(m)})(uniqueMember=${escapeFilterValue(m)})`);
    const { searchEntries } = await client.search(groupBase(config), {
      scope: 'sub',
      filter: `(&(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames))(|${members.join('')}))`,
      attributes: ['dn'],
    });
    frontier = [];
    for (const { dn: group } of searchEntries) {
      if (seen.has(normalDn(group))) continue;
      seen.add(normalDn(group));
      groups.push(group);
      frontier.push(group);
    }
  }
  return wanted.filter((w) => groups.some((g) => sameDn(g, w)));
}

/**
 * Where groups are searched for (OpenLDAP): the longest common suffix of LDAP_USER_BASE and every configured group's
 * DN (dc=lab,dc=local for ou=people,dc=lab,dc=local and cn=portal-admins,ou=groups,dc=lab,dc=local).
 */
export function groupBase(config: LdapConfig): string {
  const split = (dn: string) => normalDn(dn).split(',').reverse();
  const all = [config.userBase, ...configuredGroups(config)].map(split);
  const common: string[] = [];
  for (let i = 0; all.every((rdns) => i < rdns.length && rdns[i] === all[0]![i]); i++) common.push(all[0]![i]!);
  return common.reverse().join(',');
}

/** A directory entry as the portal reads it: its details, whether it is disabled, and what its groups give. */
export async function describePerson(client: Client, config: LdapConfig, entry: Entry): Promise<DirectoryPerson> {
  const held = await configuredGroupsOf(client, config, entry.dn);
  const holds = (groupDn: string) => held.some((h) => sameDn(h, groupDn));
  return {
    dn: entry.dn,
    email: (first(entry, 'mail') ?? first(entry, 'userPrincipalName'))?.toLowerCase(),
    name: first(entry, 'displayName') ?? first(entry, 'cn') ?? '',
    title: first(entry, 'title') ?? '',
    disabled: isDisabled(entry, config),
    mappedRole: config.roleGroups.find((g) => holds(g.dn))?.role ?? null,
    group: config.groupMap.find((g) => holds(g.dn))?.group ?? null,
  };
}
