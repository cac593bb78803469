import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { formatDateTime } from '#shared/format.ts';

import { projectRoot } from '../../lib/project-root.ts';

/**
 * Watermarked downloads (decision 071): every page of a classified PDF carries who downloaded it (name
 * and PIS number), when (IST) and the download id, which is the id of the download's audit event. The document is
 * rewritten whole (never an incremental update, which would keep the original bytes as its first part, to be cut
 * back to by anyone), each time it is downloaded, and nothing watermarked is kept.
 *
 * The pdf-lib work runs in worker threads (watermark.worker.mjs, decision 096), never on the server's main thread: a PDF
 * of thousands of pages takes its thread's time, and one taking longer than the time limit ends its thread and is
 * refused (`WatermarkLimitExceeded`), so the server goes on answering.
 */
export interface Watermark {
  name: string;
  pis: string;
  at: Date;
  downloadId: string;
}

/** The PDF cannot carry the watermark (unreadable, encrypted, or without a page): it is refused, never sent without its watermark. */
export class UnwatermarkablePdf extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`This PDF cannot be stamped: ${reason}`, options);
  }
}

/** Watermarking took longer than the time limit, or more memory than its thread has: refused, never sent without its watermark. */
export class WatermarkLimitExceeded extends Error {
  constructor(
    readonly limit: 'time' | 'memory',
    detail: string,
  ) {
    super(`Watermarking this PDF was stopped: ${detail}`);
  }
}

/** The watermark's two lines (English: the record's language, whatever the reader's screen). */
export function watermarkLines(watermark: Watermark): [string, string] {
  return [
    `Downloaded by ${watermark.name} · PIS ${watermark.pis.trim() || 'not recorded'}`,
    `${formatDateTime(watermark.at)} IST · Download id ${watermark.downloadId}`,
  ];
}

export interface WatermarkerLimits {
  /** A watermark taking longer is stopped and its thread ended (STAMP_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Heap of each watermarking thread: a PDF that needs more ends its thread, not the server. */
  memoryMb: number;
  /** Threads watermarking at once; further downloads wait their turn, first come first served. */
  threads: number;
  /** A thread with nothing to watermark for this long ends (pdf-lib and the fonts loaded: tens of MB). */
  idleMs: number;
}

export const DEFAULT_WATERMARKER_LIMITS: WatermarkerLimits = {
  timeoutMs: 30_000,
  memoryMb: 1024,
  threads: Math.min(2, availableParallelism()),
  idleMs: 5 * 60_000,
};

type Reply = { id: number; pdf?: Uint8Array; unstampable?: string; error?: string };

/** A small pool of watermarking threads, each watermarking one document at a time. */
export class PdfWatermarker {
  private readonly idle: Worker[] = [];
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();
  private readonly waiting: ((worker: Worker | Promise<Worker>) => void)[] = [];
  private running = 0;
  private nextId = 1;
  private closed = false;

  constructor(readonly limits: WatermarkerLimits = DEFAULT_WATERMARKER_LIMITS) {}

  /** A new thread, once it has loaded pdf-lib and the fonts (its `ready`): a watermark's time limit counts from there. */
  private start(): Promise<Worker> {
    const worker = new Worker(path.join(projectRoot, 'server', 'modules', 'files', 'watermark.worker.mjs'), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    });
    return new Promise<Worker>((resolve, reject) => {
      const done = (fn: () => void) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        fn();
      };
      const onMessage = (m: { ready?: boolean }) =>
        m.ready &&
        done(() => {
          worker.unref();
          resolve(worker);
        });
      const onError = (err: Error) =>
        done(() => {
          void worker.terminate();
          reject(this.limitOf(err));
        });
      const onExit = () => done(() => reject(new Error('the watermark thread ended as it started')));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  /** A thread's failure as the limit it ran into (its memory), else as it is. */
  private limitOf(err: Error & { code?: string }): Error {
    return err.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? new WatermarkLimitExceeded('memory', `it needed more than ${this.limits.memoryMb} MB`)
      : err;
  }

  /** Starts a thread counted in `running`; one that fails to start is uncounted and its turn passed on. */
  private launch(): Promise<Worker> {
    return this.start().catch((err: unknown) => {
      this.running--;
      const next = this.waiting.shift();
      if (next && !this.closed) {
        this.running++;
        next(this.launch());
      }
      throw err;
    });
  }

  /** A thread for one watermark: an idle one, a new one while fewer than `threads` run, else the next one freed. */
  private acquire(): Promise<Worker> {
    const worker = this.idle.pop();
    if (worker) {
      clearTimeout(this.idleTimers.get(worker));
      this.idleTimers.delete(worker);
      return Promise.resolve(worker);
    }
    if (this.running < this.limits.threads) {
      this.running++;
      return this.launch();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands a thread that finished to the next waiting watermark, or keeps it idle; an ended one is replaced for a waiter. */
  private release(worker: Worker, healthy: boolean) {
    const next = this.waiting.shift();
    if (!healthy) {
      if (next && !this.closed) next(this.launch());
      else this.running--;
      return;
    }
    if (next) return next(worker);
    if (this.closed) {
      this.running--;
      void worker.terminate();
      return;
    }
    this.idle.push(worker);
    const timer = setTimeout(() => {
      const at = this.idle.indexOf(worker);
      if (at < 0) return;
      this.idle.splice(at, 1);
      this.idleTimers.delete(worker);
      this.running--;
      void worker.terminate();
    }, this.limits.idleMs);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  /**
   * A copy of the PDF with the watermark on every page. Rejects with UnwatermarkablePdf when the file cannot be read as a PDF,
   * is encrypted or has no page, and with WatermarkLimitExceeded when its thread ran out of time or memory.
   */
  async watermark(original: Uint8Array, watermark: Watermark): Promise<Uint8Array> {
    if (this.closed) throw new Error('The PDF watermarker is closed.');
    const lines = watermarkLines(watermark);
    const worker = await this.acquire();
    worker.ref(); // a watermark under way keeps the process alive (a script's only work); an idle thread does not
    const id = this.nextId++;
    // A copy of the bytes is moved to the thread (the caller keeps its own).
    const bytes = new Uint8Array(original);
    let healthy = true;
    try {
      return await new Promise<Uint8Array>((resolve, reject) => {
        const done = (fn: () => void) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          fn();
        };
        const onMessage = (reply: Reply) => {
          if (reply.id !== id) return;
          done(() => {
            if (reply.pdf) resolve(reply.pdf);
            else if (reply.unstampable !== undefined) reject(new UnwatermarkablePdf(reply.unstampable));
            else reject(new Error(`watermarking failed: ${reply.error}`));
          });
        };
        const onError = (err: Error) =>
          done(() => {
            healthy = false;
            void worker.terminate();
            reject(this.limitOf(err));
          });
        const onExit = () =>
          done(() => {
            healthy = false;
            reject(new Error('the watermark thread ended'));
          });
        const timer = setTimeout(
          () =>
            done(() => {
              healthy = false;
              void worker.terminate();
              reject(new WatermarkLimitExceeded('time', `it took longer than ${this.limits.timeoutMs / 1000} s`));
            }),
          this.limits.timeoutMs,
        );
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ id, original: bytes.buffer, lines }, [bytes.buffer]);
      });
    } finally {
      worker.unref();
      this.release(worker, healthy);
    }
  }

  /** How many watermarking threads are running now (they end after `idleMs` without work). */
  get threads(): number {
    return this.running;
  }

  /** Ends every thread; a watermark under way is rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const next of this.waiting.splice(0)) next(Promise.reject(new Error('The PDF watermarker is closed.')));
    const idle = this.idle.splice(0);
    for (const worker of idle) clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.clear();
    this.running -= idle.length;
    await Promise.all(idle.map((w) => w.terminate()));
  }
}

let shared: PdfWatermarker | undefined;
/** The process's stamper, made at the first download with `limits` (the app passes STAMP_TIMEOUT_SECONDS). */
export function sharedWatermarker(limits?: Partial<WatermarkerLimits>): PdfWatermarker {
  shared ??= new PdfWatermarker({ ...DEFAULT_WATERMARKER_LIMITS, ...limits });
  return shared;
}

/**
 * Returns a copy of the PDF with the watermark on every page (decision 071), watermarked in a worker thread (decision 096).
 * Throws UnwatermarkablePdf when the file cannot be read as a PDF, is encrypted, or has no page; WatermarkLimitExceeded when it
 * took longer than the time limit or more memory than a thread has.
 */
export function watermarkPdf(
  original: Uint8Array,
  watermark: Watermark,
  watermarker = sharedWatermarker(),
): Promise<Uint8Array> {
  return watermarker.watermark(original, watermark);
}
