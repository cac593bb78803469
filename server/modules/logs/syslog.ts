import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';

import type { SyslogConfig } from '#server/config.ts';

/**
 * RFC 5424 messages to the lab's collector over TCP or TLS (decision 125), framed by octet counting (RFC 6587 §3.4.1,
 * RFC 5425). One connection per batch: every frame is written, then the portal closes its side and waits for the
 * collector to close its own, which it does once it has read to the end. Only then is the batch taken as delivered;
 * a refused connection, a reset or no close within the time limit leaves it to be sent again (at least once).
 */

/** The SD-ID's enterprise number: 32473, the one RFC 5612 keeps for documentation (no private number is ours). */
const SD = '@32473';
const APP_NAME = 'lab-portal';
/** RFC 5424 facilities: 13 log audit (the audit trail), 16 local0 (the server's log). */
export const FACILITY_AUDIT = 13;
export const FACILITY_LOG = 16;

export interface SyslogMessage {
  facility: number;
  /** 0 emergency … 7 debug. */
  severity: number;
  at: Date;
  /** A short name for the kind of message (an audit action), printable ASCII, at most 32. */
  msgId: string;
  /** Structured data: one element, its parameters. */
  sdId: string;
  params: Record<string, string | number | null | undefined>;
  /** The free text: UTF-8, after a byte-order mark (RFC 5424 §6.4). */
  text: string;
}

const hostName = () =>
  os
    .hostname()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 255) || '-';
const printable = (s: string, max: number) => s.replace(/[^\x21-\x7e]/g, '_').slice(0, max) || '-';
/** An SD-PARAM's value: `"`, `\` and `]` escaped (RFC 5424 §6.3.3). */
const paramValue = (v: string) => v.replace(/["\\\]]/g, (c) => `\\${c}`);

/** One message as RFC 5424 text. */
export function formatSyslog(m: SyslogMessage): string {
  const params = Object.entries(m.params)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => ` ${printable(k, 32).replace(/[=\]"]/g, '_')}="${paramValue(String(v))}"`)
    .join('');
  const sd = `[${printable(m.sdId, 32 - SD.length)}${SD}${params}]`;
  const pri = m.facility * 8 + m.severity;
  return `<${pri}>1 ${m.at.toISOString()} ${hostName()} ${APP_NAME} ${process.pid} ${printable(m.msgId, 32)} ${sd} \uFEFF${m.text}`;
}

/** A message framed by its length in bytes. */
export function frame(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `), body]);
}

/** Sends `frames` on one connection; resolves once the collector has closed its side after reading them all. */
export function sendFrames(config: SyslogConfig, frames: Buffer[], timeoutMs = 15_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const socket = config.tls
      ? tls.connect({ host: config.host, port: config.port, ca: config.ca, servername: config.host })
      : net.connect({ host: config.host, port: config.port });
    let settled = false;
    const done = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(
      () => done(new Error(`the collector at ${config.url} did not finish in ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once(config.tls ? 'secureConnect' : 'connect', () => socket.end(Buffer.concat(frames)));
    socket.on('data', () => {}); // the collector says nothing; its close is the answer
    socket.once('end', () => done());
    socket.once('error', (err) => done(err));
    socket.once('close', () => done(new Error(`the collector at ${config.url} closed before reading to the end`)));
  });
}
