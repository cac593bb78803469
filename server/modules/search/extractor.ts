import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { projectRoot } from '../../lib/project-root.ts';

/** Limits on reading one file (issue 14: "limits on time and size per file"). */
export interface ExtractorLimits {
  /** A file taking longer is given up and its thread ended. */
  timeoutMs: number;
  /** PDF and Office files larger than this are not read. */
  maxBytes: number;
  /** Text kept per file (the start of a longer text). */
  maxChars: number;
  /** Heap of the extraction thread: a decompression bomb ends the thread, not the server. */
  memoryMb: number;
}

export const DEFAULT_LIMITS: ExtractorLimits = {
  timeoutMs: 30_000,
  maxBytes: 30 * 1024 * 1024,
  maxChars: 100_000,
  memoryMb: 512,
};

/** Extensions the extractor reads. */
export const EXTRACTABLE = ['pdf', 'docx', 'pptx', 'xlsx', 'txt'] as const;

type Reply = { id: number; text?: string; error?: string };

/**
 * Reads the text of PDF, DOCX, PPTX, XLSX and TXT files (officeparser) in one worker thread, one file at a time. A
 * file that fails gives an error; one that takes too long ends the thread, and the next file starts a new one.
 */
export class TextExtractor {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;
  private running = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly limits: ExtractorLimits = DEFAULT_LIMITS,
    private readonly idleMs = 10_000,
  ) {}

  private start(): Worker {
    const worker = new Worker(path.join(projectRoot, 'server', 'modules', 'search', 'extract.worker.mjs'), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume(); // pdf.js warnings about odd files: not the server's log
    worker.stderr.resume();
    worker.unref();
    return worker;
  }

  /** The text of the file at `path`, read as type `ext`; rejects with a reason the operator can read. */
  extract(path: string, ext: string): Promise<string> {
    const run = () => this.run(path, ext);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  /**
   * The thread (pdf.js and officeparser loaded: tens of MB) ends once it has had nothing to read for `idleMs`; the
   * next file starts a new one (issue 12: the server's idle memory).
   */
  private endWhenIdle() {
    clearTimeout(this.idleTimer);
    if (this.running > 0 || !this.worker) return;
    const worker = this.worker;
    this.idleTimer = setTimeout(() => {
      if (this.running > 0 || this.worker !== worker) return;
      this.worker = null;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private run(path: string, ext: string): Promise<string> {
    if (this.closed) return Promise.reject(new Error('The extractor is closed.'));
    clearTimeout(this.idleTimer);
    this.running++;
    return this.runInThread(path, ext).finally(() => {
      this.running--;
      this.endWhenIdle();
    });
  }

  private runInThread(path: string, ext: string): Promise<string> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        fn();
      };
      const kill = () => {
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        done(() => (reply.error !== undefined ? reject(new Error(reply.error)) : resolve(reply.text ?? '')));
      };
      const onError = (err: Error) =>
        done(() => {
          kill();
          reject(new Error(`The file could not be read: ${err.message}`));
        });
      const onExit = () =>
        done(() => {
          if (this.worker === worker) this.worker = null;
          reject(new Error('The file could not be read.'));
        });
      const timer = setTimeout(
        () =>
          done(() => {
            kill();
            reject(new Error(`Reading the file took longer than ${Math.round(this.limits.timeoutMs / 1000)} s.`));
          }),
        this.limits.timeoutMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, path, ext, maxBytes: this.limits.maxBytes, maxChars: this.limits.maxChars });
    });
  }

  /** Whether the reading thread is running now (it ends after `idleMs` without work). */
  get threadRunning(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
