import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Lingering close (decision 059), as nginx does it: an answer sent before the request's body was read to the end
 * (an upload refused on its headers or first fields) says `Connection: close`, and then the rest of the body is read
 * and thrown away before the connection is closed. Closing at once, with the sender's bytes still unread, makes the
 * kernel answer them with a reset, and a client still writing (Node's own fetch) then loses the answer it was sent.
 * The reading is bounded, so a huge upload refused early does not hold the connection: at most LINGER_BYTES more, for
 * at most LINGER_MS, then the connection is cut.
 */
export const LINGER_BYTES = 8 * 1024 * 1024;
export const LINGER_MS = 3000;

const lingering = new WeakSet<Socket>();

/** Reads and discards the rest of this request's body, then closes its connection (bounded, see above). */
export function lingerAfterEarlyAnswer(
  req: IncomingMessage,
  bound: { bytes: number; ms: number } = { bytes: LINGER_BYTES, ms: LINGER_MS },
): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  if (req.complete || socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const cut = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(cut, bound.ms);
  socket.once('close', () => clearTimeout(timer));
  // Node closes a "Connection: close" answer's socket as soon as the answer is written (destroySoon): until the body
  // has been read, only remember that the answer is out.
  const closeAsUsual = socket.destroySoon?.bind(socket) ?? (() => socket.end());
  let answered = false;
  socket.destroySoon = () => {
    answered = true;
    if (req.complete) closeAsUsual();
  };
  req.once('end', () => {
    clearTimeout(timer);
    if (answered) closeAsUsual();
  });
  // Whatever was reading the body (a multipart parser that gave up) lets go; the rest flows into the void.
  req.unpipe();
  req.removeAllListeners('data');
  let read = 0;
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > bound.bytes) cut();
  });
  req.resume();
}
