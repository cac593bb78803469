import dgram from 'node:dgram';

/**
 * A real NTP server for the clock tests (decision 126): a UDP socket on a free port that answers each SNTP client
 * query (mode 3) as a stratum-2 server (mode 4) whose clock is `skewMs` behind the machine's (so the portal's clock
 * looks that far ahead), echoing the query's transmit time as its originate time (RFC 4330).
 */

const NTP_EPOCH_OFFSET = 2_208_988_800;

function writeNtp(buf: Buffer, at: number, ms: number) {
  const seconds = Math.floor(ms / 1000);
  buf.writeUInt32BE(seconds + NTP_EPOCH_OFFSET, at);
  buf.writeUInt32BE(Math.floor(((ms - seconds * 1000) / 1000) * 2 ** 32), at + 4);
}

export interface NtpResponder {
  /** NTP_SERVER for the portal: 127.0.0.1:<port> */
  server: string;
  /** How many queries it answered. */
  answered(): number;
  setSkew(ms: number): void;
  close(): Promise<void>;
}

export async function startNtpResponder(skewMs = 0): Promise<NtpResponder> {
  const socket = dgram.createSocket('udp4');
  let skew = skewMs;
  let count = 0;
  socket.on('message', (query, from) => {
    if (query.length < 48 || (query[0]! & 7) !== 3) return;
    const reply = Buffer.alloc(48);
    reply[0] = (0 << 6) | (4 << 3) | 4; // no leap warning, version 4, server
    reply[1] = 2; // stratum
    reply[2] = query[2]!;
    reply[3] = 0xec; // precision about a microsecond
    reply.write('LOCL', 12, 'ascii');
    const now = Date.now() - skew;
    writeNtp(reply, 16, now); // reference
    query.copy(reply, 24, 40, 48); // originate = the client's transmit
    writeNtp(reply, 32, now); // receive
    writeNtp(reply, 40, now); // transmit
    count++;
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    answered: () => count,
    setSkew: (ms) => void (skew = ms),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
