import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { ConfigError, refuse, text, variable, wholeNumber } from './variables.ts';

/**
 * The server's logs kept and shipped (decision 125): rotating files in DATA_DIR/logs kept LOG_RETENTION_DAYS (CERT-In's
 * 180 days at least), and the audit trail's events with every warning or worse sent to the lab's collector at
 * SYSLOG_URL (RFC 5424 over TCP, or TLS checked against SYSLOG_CA_FILE).
 */

/** CERT-In's directions of April 2022: logs kept 180 days. */
export const LOG_RETENTION_MIN_DAYS = 180;

export interface SyslogConfig {
  /** SYSLOG_URL as written, for the log. */
  url: string;
  host: string;
  port: number;
  tls: boolean;
  /** SYSLOG_CA_FILE's contents: the CA the collector's certificate is checked against; else the system's. */
  ca: Buffer | undefined;
}

export const logsEnv = z.object({
  LOG_RETENTION_DAYS: wholeNumber('LOG_RETENTION_DAYS', LOG_RETENTION_MIN_DAYS, LOG_RETENTION_MIN_DAYS, 3650),
  SYSLOG_URL: variable((v, ctx) => {
    if (v === undefined) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(v.trim());
    } catch {
      url = undefined;
    }
    const port = Number(url?.port);
    if (url && (url.protocol === 'tcp:' || url.protocol === 'tls:') && url.hostname && port > 0) return url;
    return refuse(
      ctx,
      `SYSLOG_URL must be tcp://host:port or tls://host:port (got "${v}"): the lab's log collector (RFC 5424).`,
    );
  }),
  SYSLOG_CA_FILE: text(),
});

/** The collector, or null when SYSLOG_URL is unset (nothing is shipped). */
export function syslogConfig(env: z.output<typeof logsEnv>): SyslogConfig | null {
  const url = env.SYSLOG_URL;
  if (!url) {
    if (env.SYSLOG_CA_FILE) throw new ConfigError('SYSLOG_CA_FILE goes with SYSLOG_URL (tls://host:port).');
    return null;
  }
  if (env.SYSLOG_CA_FILE && url.protocol !== 'tls:') {
    throw new ConfigError('SYSLOG_CA_FILE is for a tls:// SYSLOG_URL; a tcp:// collector is not encrypted.');
  }
  let ca: Buffer | undefined;
  if (env.SYSLOG_CA_FILE) {
    try {
      ca = readFileSync(env.SYSLOG_CA_FILE);
    } catch (err) {
      throw new ConfigError(
        `SYSLOG_CA_FILE ${env.SYSLOG_CA_FILE} cannot be read (${(err as NodeJS.ErrnoException).code}). Point it at the collector's CA certificate (PEM).`,
      );
    }
  }
  return {
    url: url.href,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port),
    tls: url.protocol === 'tls:',
    ca,
  };
}
