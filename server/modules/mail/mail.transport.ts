import { createTransport } from 'nodemailer';

import type { MailConfig } from '#server/config.ts';

/**
 * The connection to the lab's mail relay (SMTP_URL, decision 076), with nodemailer: `smtps://` speaks TLS from the
 * start; `smtp://` upgrades with STARTTLS whenever the relay offers it, and a failed upgrade is a failure, never a
 * silent fall back to plain text. The relay's certificate is checked (against SMTP_CA_FILE where set). One connection
 * per mail: a portal sends a few mails a minute at most.
 */
export function createMailTransport(mail: MailConfig) {
  return createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.secure,
    auth: mail.auth,
    tls: mail.ca ? { ca: mail.ca } : undefined,
    // A relay that does not answer is a failed attempt, retried later by the queue, not a job stuck for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
}
export type MailTransport = ReturnType<typeof createMailTransport>;
