import dgram from 'node:dgram';
import net from 'node:net';

/**
 * The server's clock against NTP_SERVER (decision 126): one SNTP query (RFC 4330) over UDP at start and every
 * CLOCK_CHECK_MINUTES. CERT-In asks that every system's clock follow NIC's or NPL's time; the audit trail's value rests
 * on it, so every audit event records the last offset seen, the health check shows it, and a warning is logged (and
 * shown) when it is over CLOCK_WARN_MS. The portal never sets the clock: the host's NTP service does.
 */

export const CLOCK_WARN_MS = 1000;
export const CLOCK_CHECK_MINUTES = 10;
/** Seconds from 1900 (NTP's era 0) to 1970. */
const NTP_EPOCH_OFFSET = 2_208_988_800;

export interface SntpAnswer {
  /** The server's clock minus NTP's, in ms: positive when the server is ahead. */
  offsetMs: number;
  /** The query's round trip less the NTP server's own time, in ms. */
  delayMs: number;
  stratum: number;
}

export interface ClockState {
  server: string;
  /** null until NTP_SERVER answers (or while it does not). */
  offsetMs: number | null;
  checkedAt: string | null;
  /** Why the last query had no answer. */
  error: string | null;
  /** The offset is over CLOCK_WARN_MS, or unknown. */
  warning: boolean;
}

const readNtp = (buf: Buffer, at: number) =>
  (buf.readUInt32BE(at) - NTP_EPOCH_OFFSET) * 1000 + (buf.readUInt32BE(at + 4) * 1000) / 2 ** 32;

function writeNtp(buf: Buffer, at: number, ms: number) {
  const seconds = Math.floor(ms / 1000);
  buf.writeUInt32BE(seconds + NTP_EPOCH_OFFSET, at);
  buf.writeUInt32BE(Math.floor(((ms - seconds * 1000) / 1000) * 2 ** 32), at + 4);
}

/** `host`, `host:port`, `[v6]:port`: where NTP_SERVER answers (port 123 unless given). */
export function ntpAddress(server: string): { host: string; port: number } {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 123) };
  const parts = server.split(':');
  if (parts.length === 2) return { host: parts[0]!, port: Number(parts[1]) };
  return { host: server, port: 123 };
}

/** One SNTP client query (mode 3, version 4) to `server`; rejects on no answer in `timeoutMs` or a kiss-of-death. */
export function querySntp(server: string, timeoutMs = 3000): Promise<SntpAnswer> {
  const { host, port } = ntpAddress(server);
  const socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
  return new Promise<SntpAnswer>((resolve, reject) => {
    const request = Buffer.alloc(48);
    request[0] = (0 << 6) | (4 << 3) | 3; // no leap warning, version 4, client
    const timer = setTimeout(() => reject(new Error(`no answer from ${server} in ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('message', (reply) => {
      const t3 = Date.now();
      // Only the answer to this query: a server's reply, echoing our transmit time as its originate time.
      if (reply.length < 48 || (reply[0]! & 7) !== 4 || !reply.subarray(24, 32).equals(request.subarray(40, 48)))
        return;
      clearTimeout(timer);
      const stratum = reply[1]!;
      if (stratum === 0)
        return reject(new Error(`${server} refused the query (kiss-of-death ${reply.toString('ascii', 12, 16)})`));
      const t1 = readNtp(reply, 32);
      const t2 = readNtp(reply, 40);
      const t0 = readNtp(request, 40);
      resolve({ offsetMs: Math.round((t0 - t1 + (t3 - t2)) / 2), delayMs: Math.max(0, t3 - t0 - (t2 - t1)), stratum });
    });
    writeNtp(request, 40, Date.now());
    socket.send(request, port, host, (err) => {
      if (!err) return;
      clearTimeout(timer);
      reject(err);
    });
  }).finally(() => socket.close());
}

let state: ClockState | null = null;

/** The last offset for the audit trail: undefined without NTP_SERVER, null while it gives none. */
export const clockOffset = (): number | null | undefined => (state ? state.offsetMs : undefined);

/** What the health check and the admin page show, or null without NTP_SERVER. */
export const clockState = (): ClockState | null => state;

/**
 * Asks NTP_SERVER now and keeps the answer; `warn` is told when the offset is over CLOCK_WARN_MS or unknown.
 * Answers the state.
 */
export async function checkClock(server: string, warn: (state: ClockState) => void): Promise<ClockState> {
  try {
    const answer = await querySntp(server);
    state = {
      server,
      offsetMs: answer.offsetMs,
      checkedAt: new Date().toISOString(),
      error: null,
      warning: Math.abs(answer.offsetMs) > CLOCK_WARN_MS,
    };
  } catch (err) {
    state = {
      server,
      offsetMs: null,
      checkedAt: new Date().toISOString(),
      error: (err as Error).message,
      warning: true,
    };
  }
  if (state.warning) warn(state);
  return state;
}

/** Forgets the state (NTP_SERVER unset, or a test's app closing). */
export function forgetClock(): void {
  state = null;
}
