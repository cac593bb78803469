import { PassThrough } from 'node:stream';

import type { default as NodeClam, ScanResult } from 'clamscan';

/**
 * The scan of one upload while it is written to disk (decision 115): each byte, as it arrives, goes to the INSTREAM of
 * every window it falls in (windows of `windowBytes` starting every `windowBytes − overlap` bytes), so clamd scans a
 * window while the next is still arriving and, once the last byte is on disk, only the last window's answer is waited
 * for. At most MAX_WINDOWS_IN_FLIGHT windows are unanswered at once (the open two of an overlap and one being
 * answered): the next waits, which holds the upload back, so one upload holds at most that many windows in memory.
 */

export type ScanVerdict = { clean: true } | { clean: false; signature: string };

export const MAX_WINDOWS_IN_FLIGHT = 3;

export interface ScanSession {
  /** The next bytes of the file; resolves when more may be written. */
  write(chunk: Buffer): Promise<void>;
  /** Every byte written: clamd's verdict, a detection in any window first; rejects when a window had no answer. */
  finish(): Promise<ScanVerdict>;
  /** The upload failed: every window is ended, their answers ignored. */
  abort(): void;
}

interface Window {
  end: number;
  input: PassThrough;
  /** Set once clamd answered or the scan failed: no more bytes go to it. */
  settled: boolean;
  answer: Promise<ScanVerdict>;
  close(): void;
}

export function verdictOf(result: ScanResult): ScanVerdict {
  if (result.isInfected === false) return { clean: true };
  if (result.isInfected === true) return { clean: false, signature: result.viruses[0] ?? 'unknown' };
  throw new Error(`clamd gave no verdict: ${result.resultString ?? 'no answer'}`);
}

export function startScanSession(
  clam: Promise<NodeClam>,
  windowBytes: number,
  overlap: number,
  timeoutMs: number,
): ScanSession {
  const step = windowBytes - overlap;
  let offset = 0;
  let nextStart = 0;
  let open: Window[] = [];
  const all: Window[] = [];

  function openWindow(start: number): Window {
    const input = new PassThrough();
    let timer: NodeJS.Timeout | undefined;
    let late: (err: Error) => void = () => {};
    const timedOut = new Promise<never>((_, reject) => (late = reject));
    const win: Window = {
      end: start + windowBytes,
      input,
      settled: false,
      answer: Promise.race([clam.then((c) => c.scanStream(input)).then(verdictOf), timedOut]).finally(() => {
        win.settled = true;
        clearTimeout(timer);
      }),
      close() {
        input.end();
        if (win.settled) return;
        timer = setTimeout(() => late(new Error(`no answer from clamd in ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      },
    };
    // Seen by finish(); until then a failure only stops the window taking bytes.
    win.answer.catch(() => input.destroy());
    all.push(win);
    return win;
  }

  /** Waits until fewer than MAX_WINDOWS_IN_FLIGHT windows are unanswered. */
  async function room() {
    for (;;) {
      const waiting = all.filter((w) => !w.settled);
      if (waiting.length < MAX_WINDOWS_IN_FLIGHT) return;
      await Promise.race(waiting.map((w) => w.answer.then(noop, noop)));
    }
  }

  return {
    async write(chunk) {
      let pos = 0;
      while (pos < chunk.length) {
        if (offset === nextStart) {
          await room();
          open.push(openWindow(nextStart));
          nextStart += step;
        }
        const limit = Math.min(nextStart, ...open.map((w) => w.end));
        const piece = chunk.subarray(pos, pos + Math.min(chunk.length - pos, limit - offset));
        for (const w of open) if (!w.settled) w.input.write(piece);
        offset += piece.length;
        pos += piece.length;
        for (const w of open) if (w.end === offset) w.close();
        open = open.filter((w) => w.end > offset);
      }
    },
    async finish() {
      for (const w of open) w.close();
      open = [];
      const answers = await Promise.allSettled(all.map((w) => w.answer));
      const found = answers.find((a) => a.status === 'fulfilled' && !a.value.clean);
      if (found) return (found as PromiseFulfilledResult<ScanVerdict>).value;
      const failed = answers.find((a) => a.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      return { clean: true };
    },
    abort() {
      // Ended, not destroyed: clamd answers for what it has and closes the connection.
      for (const w of open) w.close();
      open = [];
    },
  };
}

const noop = () => {};
