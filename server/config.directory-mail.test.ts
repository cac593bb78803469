import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { configLoader } from './config.test-helpers.ts';

const { dataDir, load, refusal } = configLoader();

describe('the lab directory (LDAP_*, decision 062)', () => {
  const ldap = {
    LDAP_URL: 'ldaps://dc1.lab.local:636',
    LDAP_BIND_DN: 'cn=portal,ou=services,dc=lab,dc=local',
    LDAP_BIND_PASSWORD: 'service-secret',
    LDAP_USER_BASE: 'ou=people,dc=lab,dc=local',
  };

  it('is off without LDAP_URL', () => {
    expect(load({}).ldap).toBeUndefined();
  });

  it('reads the directory settings with their defaults, ranking the role groups', () => {
    const config = load({
      ...ldap,
      LDAP_ROLE_GROUPS:
        'employee=cn=staff,ou=groups,dc=lab,dc=local; admin=cn=portal-admins,ou=groups,dc=lab,dc=local;director=cn=dirs,dc=lab,dc=local',
      LDAP_GROUP_MAP: 'cn=fire-team,ou=groups,dc=lab,dc=local=Fire Safety',
    });
    expect(config.ldap).toMatchObject({
      url: 'ldaps://dc1.lab.local:636',
      startTls: false,
      ca: undefined,
      bindDn: 'cn=portal,ou=services,dc=lab,dc=local',
      userBase: 'ou=people,dc=lab,dc=local',
      userFilter: '(|(mail={login})(uid={login})(sAMAccountName={login}))',
      kind: 'openldap',
      roleGroups: [
        { role: 'admin', dn: 'cn=portal-admins,ou=groups,dc=lab,dc=local' },
        { role: 'director', dn: 'cn=dirs,dc=lab,dc=local' },
        { role: 'employee', dn: 'cn=staff,ou=groups,dc=lab,dc=local' },
      ],
      groupMap: [{ dn: 'cn=fire-team,ou=groups,dc=lab,dc=local', group: 'Fire Safety' }],
      disabledAttribute: 'pwdAccountLockedTime',
      checkSeconds: 30,
      only: false,
    });
  });

  it('reads the CA file', () => {
    const ca = path.join(dataDir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect(load({ ...ldap, LDAP_CA_FILE: ca }).ldap!.ca!.toString()).toContain('BEGIN CERTIFICATE');
  });

  it.each([
    [
      { LDAP_URL: 'http://dc1.lab.local' },
      'LDAP_URL must be an ldap:// or ldaps:// address such as ldaps://dc1.lab.local:636 (got "http://dc1.lab.local").',
    ],
    [{ ...ldap, LDAP_STARTTLS: 'yes' }, 'LDAP_STARTTLS must be true or false (got "yes").'],
    [
      { ...ldap, LDAP_USER_FILTER: '(uid=someone)' },
      'LDAP_USER_FILTER must be an LDAP filter in parentheses with {login} where the login goes (got "(uid=someone)").',
    ],
    [{ ...ldap, LDAP_KIND: 'novell' }, 'LDAP_KIND must be "ad" (Active Directory) or "openldap" (got "novell").'],
    [
      { ...ldap, LDAP_ROLE_GROUPS: 'boss=cn=bosses,dc=lab,dc=local' },
      'LDAP_ROLE_GROUPS must be role=group DN pairs separated by ";", the role one of admin, director, associate_director, employee (e.g. admin=cn=portal-admins,ou=groups,dc=lab,dc=local;employee=cn=staff,ou=groups,dc=lab,dc=local; got "boss=cn=bosses,dc=lab,dc=local").',
    ],
    [
      { ...ldap, LDAP_GROUP_MAP: 'Fire Safety' },
      'LDAP_GROUP_MAP must be group DN=research group pairs separated by ";", the research group by its name or id (e.g. cn=fire-team,ou=groups,dc=lab,dc=local=Fire Safety; got "Fire Safety").',
    ],
    [
      { ...ldap, LDAP_DISABLED_ATTRIBUTE: 'pwd locked' },
      'LDAP_DISABLED_ATTRIBUTE must be one attribute name such as pwdAccountLockedTime (got "pwd locked").',
    ],
    [{ ...ldap, LDAP_CHECK_SECONDS: '120' }, 'LDAP_CHECK_SECONDS must be a whole number from 1 to 60 (got "120").'],
    [{ ...ldap, LDAP_ONLY: 'yes' }, 'LDAP_ONLY must be true or false (got "yes").'],
    [
      { LDAP_USER_BASE: 'ou=people,dc=lab,dc=local', LDAP_ONLY: 'true' },
      'LDAP_USER_BASE, LDAP_ONLY set without LDAP_URL: set LDAP_URL too, or unset them.',
    ],
    [
      { LDAP_URL: 'ldap://dc1.lab.local' },
      'LDAP_URL needs LDAP_USER_BASE (where people are searched for, e.g. ou=people,dc=lab,dc=local).',
    ],
    [
      { ...ldap, LDAP_BIND_PASSWORD: '' },
      'Set both LDAP_BIND_DN and LDAP_BIND_PASSWORD (the lookup account), or neither (an anonymous lookup).',
    ],
    [
      { ...ldap, LDAP_STARTTLS: 'true' },
      'LDAP_STARTTLS=true is for an ldap:// address; an ldaps:// one is encrypted already.',
    ],
    [
      { ...ldap, LDAP_CA_FILE: '/nonexistent/ca.pem' },
      "LDAP_CA_FILE /nonexistent/ca.pem cannot be read (ENOENT). Point it at the directory's CA certificate (PEM).",
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(message);
  });
});

describe('email through the lab relay (SMTP_URL, MAIL_FROM, SMTP_CA_FILE; decision 076)', () => {
  const mail = {
    SMTP_URL: 'smtp://mail.lab.local',
    MAIL_FROM: 'Lab Portal <portal@lab.example>',
    PORTAL_URL: 'https://portal.lab.example/',
  };

  it('is off without SMTP_URL', () => {
    expect(load({}).mail).toBeNull();
  });

  it('reads an smtp:// relay (STARTTLS when offered) on the submission port by default', () => {
    expect(load(mail).mail).toEqual({
      host: 'mail.lab.local',
      port: 587,
      secure: false,
      auth: undefined,
      relay: 'smtp://mail.lab.local',
      ca: undefined,
      from: 'Lab Portal <portal@lab.example>',
      portalUrl: 'https://portal.lab.example',
    });
  });

  it('reads an smtps:// relay with a percent-encoded user and password, never logging the password', () => {
    const config = load({
      ...mail,
      SMTP_URL: 'smtps://portal%40lab:p%40ss%2Fw%3Ard@[::1]:2465',
      MAIL_FROM: 'portal@lab.example',
    });
    expect(config.mail).toMatchObject({
      host: '::1',
      port: 2465,
      secure: true,
      auth: { user: 'portal@lab', pass: 'p@ss/w:rd' },
      relay: 'smtps://portal%40lab@[::1]:2465',
      from: 'portal@lab.example',
    });
    expect(load({ ...mail, SMTP_URL: 'smtps://relay.lab.local' }).mail).toMatchObject({ port: 465, secure: true });
  });

  it('reads the CA file', () => {
    const ca = path.join(dataDir, 'relay-ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect(load({ ...mail, SMTP_CA_FILE: ca }).mail!.ca!.toString()).toContain('BEGIN CERTIFICATE');
  });

  it.each([
    [
      { ...mail, SMTP_URL: 'http://mail.lab.local' },
      'SMTP_URL must be an smtp:// or smtps:// address such as smtp://mail.lab.local:587 or smtps://user:password@mail.lab.local:465 (percent-encode a password that holds @, : or /).',
    ],
    [
      { ...mail, SMTP_URL: 'smtp://user:secret-word@mail.lab.local/inbox' },
      'SMTP_URL must be an smtp:// or smtps:// address such as smtp://mail.lab.local:587 or smtps://user:password@mail.lab.local:465 (percent-encode a password that holds @, : or /).',
    ],
    [
      { ...mail, MAIL_FROM: 'Lab, Portal <portal@lab.example>' },
      'MAIL_FROM must be an email address, alone or as Name <address> (e.g. Lab Portal <portal@lab.example>; got "Lab, Portal <portal@lab.example>").',
    ],
    [
      { ...mail, MAIL_FROM: '' },
      'SMTP_URL needs MAIL_FROM, the sender of the mail (e.g. Lab Portal <portal@lab.example>).',
    ],
    [
      { ...mail, PORTAL_URL: '' },
      'SMTP_URL needs PORTAL_URL, the address people open the portal at: every link in a mail starts with it.',
    ],
    [{ MAIL_FROM: 'portal@lab.example' }, 'MAIL_FROM set without SMTP_URL: set SMTP_URL too, or unset them.'],
    [
      { ...mail, SMTP_CA_FILE: '/nonexistent/relay.pem' },
      "SMTP_CA_FILE /nonexistent/relay.pem cannot be read (ENOENT). Point it at the mail relay's CA certificate (PEM).",
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toBe(message);
    expect(message).not.toContain('secret-word');
  });
});
