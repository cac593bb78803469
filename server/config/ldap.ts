import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { ConfigError, flag, refuse, text, variable, wholeNumber } from './variables.ts';

/** The portal's roles a directory group may give (spec §9), most powerful first: a person in several gets the first. */
export const DIRECTORY_ROLES = ['admin', 'director', 'associate_director', 'employee'] as const;
export type DirectoryRole = (typeof DIRECTORY_ROLES)[number];

/** LDAP_* (README "Configuration", decision 062). */
export interface LdapConfig {
  /** LDAP_URL: ldap://host:389 or ldaps://host:636. */
  url: string;
  /** LDAP_STARTTLS: upgrade an ldap:// connection with StartTLS before binding. */
  startTls: boolean;
  /** LDAP_CA_FILE's contents: the CA certificate(s) the directory's TLS certificate is checked against. */
  ca: Buffer | undefined;
  /** LDAP_BIND_DN and LDAP_BIND_PASSWORD: the service account that looks people up (unset: an anonymous lookup). */
  bindDn: string | undefined;
  bindPassword: string | undefined;
  /** LDAP_USER_BASE: where people are searched for (the whole subtree). */
  userBase: string;
  /** LDAP_USER_FILTER, with `{login}` where the (RFC 4515-escaped) login goes. */
  userFilter: string;
  /** LDAP_KIND: `ad` (Active Directory: nesting by the in-chain rule, userAccountControl) or `openldap`. */
  kind: 'ad' | 'openldap';
  /** LDAP_ROLE_GROUPS: directory group DN → portal role, in the order DIRECTORY_ROLES ranks them. */
  roleGroups: { dn: string; role: DirectoryRole }[];
  /** LDAP_GROUP_MAP: directory group DN → research group (the portal group's name or id), first match wins. */
  groupMap: { dn: string; group: string }[];
  /** LDAP_DISABLED_ATTRIBUTE (OpenLDAP): present on an entry = the person is disabled; default pwdAccountLockedTime. */
  disabledAttribute: string;
  /** LDAP_CHECK_SECONDS: how often people with live sessions are checked against the directory again. */
  checkSeconds: number;
  /** LDAP_ONLY: the portal's own passwords sign in admins only (the break-glass accounts). */
  only: boolean;
}

interface DnPair {
  key: string;
  dn: string;
}
/** "key=dn;key=dn" (LDAP_ROLE_GROUPS): null for an entry that is not one. */
function dnPairs(v: string | undefined): (DnPair | null)[] {
  return (v ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => {
      const at = e.indexOf('=');
      const key = e.slice(0, at).trim().toLowerCase();
      const dn = e.slice(at + 1).trim();
      return at > 0 && dn.includes('=') ? { key, dn } : null;
    });
}

/** LDAP_* (docs/decisions/062, 105). */
export const ldapEnv = z.object({
  LDAP_URL: variable((v, ctx) => {
    if (v === undefined || /^ldaps?:\/\/[^/\s]+\/?$/i.test(v.trim())) return v?.trim();
    return refuse(
      ctx,
      `LDAP_URL must be an ldap:// or ldaps:// address such as ldaps://dc1.lab.local:636 (got "${v}").`,
    );
  }),
  LDAP_STARTTLS: flag('LDAP_STARTTLS', false),
  LDAP_CA_FILE: text(),
  LDAP_BIND_DN: text(),
  LDAP_BIND_PASSWORD: text(),
  LDAP_USER_BASE: text(),
  LDAP_USER_FILTER: variable((v, ctx) => {
    if (v === undefined) return '(|(mail={login})(uid={login})(sAMAccountName={login}))';
    if (v.includes('{login}') && v.trim().startsWith('(') && v.trim().endsWith(')')) return v.trim();
    return refuse(
      ctx,
      `LDAP_USER_FILTER must be an LDAP filter in parentheses with {login} where the login goes (got "${v}").`,
    );
  }),
  LDAP_KIND: variable((v, ctx) => {
    const kind = (v ?? 'openldap').toLowerCase();
    if (kind === 'ad' || kind === 'openldap') return kind;
    return refuse(ctx, `LDAP_KIND must be "ad" (Active Directory) or "openldap" (got "${v}").`);
  }),
  LDAP_ROLE_GROUPS: variable((v, ctx) => {
    const pairs = dnPairs(v);
    const wrong = pairs.filter((p) => !p || !(DIRECTORY_ROLES as readonly string[]).includes(p.key));
    if (wrong.length === 0) {
      const roleGroups = (pairs as DnPair[]).map((p) => ({ role: p.key as DirectoryRole, dn: p.dn }));
      return roleGroups.sort((a, b) => DIRECTORY_ROLES.indexOf(a.role) - DIRECTORY_ROLES.indexOf(b.role));
    }
    return refuse(
      ctx,
      `LDAP_ROLE_GROUPS must be role=group DN pairs separated by ";", the role one of ${DIRECTORY_ROLES.join(', ')} (e.g. admin=cn=portal-admins,ou=groups,dc=lab,dc=local;employee=cn=staff,ou=groups,dc=lab,dc=local; got "${v}").`,
    );
  }),
  LDAP_GROUP_MAP: variable((v, ctx) => {
    // Written group DN=portal group; the DN holds "=" itself, so the portal group is what follows the last "=".
    const entries = (v ?? '')
      .split(';')
      .map((e) => e.trim())
      .filter(Boolean);
    const parsed = entries.map((e) => {
      const at = e.lastIndexOf('=');
      const dn = e.slice(0, at).trim();
      const group = e.slice(at + 1).trim();
      return at > 0 && dn.includes('=') && group ? { dn, group } : null;
    });
    if (parsed.every(Boolean)) return parsed as { dn: string; group: string }[];
    return refuse(
      ctx,
      `LDAP_GROUP_MAP must be group DN=research group pairs separated by ";", the research group by its name or id (e.g. cn=fire-team,ou=groups,dc=lab,dc=local=Fire Safety; got "${v}").`,
    );
  }),
  LDAP_DISABLED_ATTRIBUTE: variable((v, ctx) => {
    if (v === undefined) return 'pwdAccountLockedTime';
    if (/^[A-Za-z][A-Za-z0-9-]*$/.test(v.trim())) return v.trim();
    return refuse(ctx, `LDAP_DISABLED_ATTRIBUTE must be one attribute name such as pwdAccountLockedTime (got "${v}").`);
  }),
  LDAP_CHECK_SECONDS: wholeNumber('LDAP_CHECK_SECONDS', 30, 1, 60),
  LDAP_ONLY: flag('LDAP_ONLY', false),
});

const LDAP_NAMES = [
  'LDAP_STARTTLS',
  'LDAP_CA_FILE',
  'LDAP_BIND_DN',
  'LDAP_BIND_PASSWORD',
  'LDAP_USER_BASE',
  'LDAP_ROLE_GROUPS',
  'LDAP_GROUP_MAP',
  'LDAP_ONLY',
] as const;

/** The directory's settings, checked together (decision 062): undefined when LDAP_URL is unset. */
export function ldapConfig(env: z.output<typeof ldapEnv>, raw: NodeJS.ProcessEnv): LdapConfig | undefined {
  if (!env.LDAP_URL) {
    const stray = LDAP_NAMES.filter((name) => raw[name] && raw[name] !== 'false');
    if (stray.length)
      throw new ConfigError(`${stray.join(', ')} set without LDAP_URL: set LDAP_URL too, or unset them.`);
    return undefined;
  }
  if (!env.LDAP_USER_BASE) {
    throw new ConfigError(
      'LDAP_URL needs LDAP_USER_BASE (where people are searched for, e.g. ou=people,dc=lab,dc=local).',
    );
  }
  if (!!env.LDAP_BIND_DN !== !!env.LDAP_BIND_PASSWORD) {
    throw new ConfigError(
      'Set both LDAP_BIND_DN and LDAP_BIND_PASSWORD (the lookup account), or neither (an anonymous lookup).',
    );
  }
  if (env.LDAP_STARTTLS && /^ldaps:/i.test(env.LDAP_URL)) {
    throw new ConfigError('LDAP_STARTTLS=true is for an ldap:// address; an ldaps:// one is encrypted already.');
  }
  let ca: Buffer | undefined;
  if (env.LDAP_CA_FILE) {
    try {
      ca = readFileSync(env.LDAP_CA_FILE);
    } catch (err) {
      throw new ConfigError(
        `LDAP_CA_FILE ${env.LDAP_CA_FILE} cannot be read (${(err as NodeJS.ErrnoException).code}). Point it at the directory's CA certificate (PEM).`,
      );
    }
  }
  return {
    url: env.LDAP_URL,
    startTls: env.LDAP_STARTTLS,
    ca,
    bindDn: env.LDAP_BIND_DN,
    bindPassword: env.LDAP_BIND_PASSWORD,
    userBase: env.LDAP_USER_BASE,
    userFilter: env.LDAP_USER_FILTER,
    kind: env.LDAP_KIND,
    roleGroups: env.LDAP_ROLE_GROUPS,
    groupMap: env.LDAP_GROUP_MAP,
    disabledAttribute: env.LDAP_DISABLED_ATTRIBUTE,
    checkSeconds: env.LDAP_CHECK_SECONDS,
    only: env.LDAP_ONLY,
  };
}
