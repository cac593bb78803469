import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { ConfigError, refuse, text, variable } from './variables.ts';

/** SMTP_URL and MAIL_FROM (README "Configuration", docs/deployment.md "Email through the lab's mail relay"). */
export interface MailConfig {
  /** The relay from SMTP_URL: `smtps://` is TLS from the start; `smtp://` upgrades with STARTTLS when offered. */
  host: string;
  port: number;
  secure: boolean;
  /** The user and password in SMTP_URL (percent-decoded), if any. */
  auth: { user: string; pass: string } | undefined;
  /** SMTP_URL without its password, for the log. */
  relay: string;
  /** SMTP_CA_FILE's contents: the CA certificate(s) the relay's TLS certificate is checked against. */
  ca: Buffer | undefined;
  /** MAIL_FROM: the sender, `portal@lab.example` or `Lab Portal <portal@lab.example>`. */
  from: string;
  /** PORTAL_URL: every link in a mail starts with it. */
  portalUrl: string;
}

/** SMTP_URL, MAIL_FROM and SMTP_CA_FILE (docs/decisions/076, 105). */
export const mailEnv = z.object({
  SMTP_URL: variable((v, ctx) => {
    if (v === undefined) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(v.trim());
    } catch {
      url = undefined;
    }
    if (url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname && url.pathname.length <= 1) {
      return url;
    }
    // The value may hold a password: the refusal names its scheme and host only.
    return refuse(
      ctx,
      'SMTP_URL must be an smtp:// or smtps:// address such as smtp://mail.lab.local:587 or smtps://user:password@mail.lab.local:465 (percent-encode a password that holds @, : or /).',
    );
  }),
  MAIL_FROM: variable((v, ctx) => {
    if (v === undefined) return undefined;
    // An address, alone or after a display name in angle brackets; a display name with a comma or quote is refused
    // (it would need quoting in the header).
    if (/^(?:[^<>",\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v.trim())) return v.trim();
    return refuse(
      ctx,
      `MAIL_FROM must be an email address, alone or as Name <address> (e.g. Lab Portal <portal@lab.example>; got "${v}").`,
    );
  }),
  SMTP_CA_FILE: text(),
});

/** Email is on when SMTP_URL is set (decision 076); then MAIL_FROM and PORTAL_URL (the links) must be set too. */
export function mailConfig(env: z.output<typeof mailEnv> & { PORTAL_URL: string | undefined }): MailConfig | null {
  const url = env.SMTP_URL;
  if (!url) {
    const stray = (['MAIL_FROM', 'SMTP_CA_FILE'] as const).filter((name) => env[name] !== undefined);
    if (stray.length)
      throw new ConfigError(`${stray.join(', ')} set without SMTP_URL: set SMTP_URL too, or unset them.`);
    return null;
  }
  if (!env.MAIL_FROM) {
    throw new ConfigError('SMTP_URL needs MAIL_FROM, the sender of the mail (e.g. Lab Portal <portal@lab.example>).');
  }
  if (!env.PORTAL_URL) {
    throw new ConfigError(
      'SMTP_URL needs PORTAL_URL, the address people open the portal at: every link in a mail starts with it.',
    );
  }
  let ca: Buffer | undefined;
  if (env.SMTP_CA_FILE) {
    try {
      ca = readFileSync(env.SMTP_CA_FILE);
    } catch (err) {
      throw new ConfigError(
        `SMTP_CA_FILE ${env.SMTP_CA_FILE} cannot be read (${(err as NodeJS.ErrnoException).code}). Point it at the mail relay's CA certificate (PEM).`,
      );
    }
  }
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
    relay: `${url.protocol}//${user ? `${encodeURIComponent(user)}@` : ''}${url.host}`,
    ca,
    from: env.MAIL_FROM,
    portalUrl: env.PORTAL_URL,
  };
}
