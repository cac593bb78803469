import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { projectRoot } from '../../lib/project-root.ts';

/**
 * The thread that reads and prepares PDFs for signing (pades.worker.mjs, decision 118): pdf-lib never reads a
 * document on the server's main thread (decisions 091, 096). One thread, one document at a time, first come first
 * served; a preparation past its time limit ends the thread (the next gets a new one) and is refused.
 */
export interface SignatureDetails {
  /** The visible block's lines, top first. */
  lines: string[];
  /** The signature dictionary's /Name, /Reason, /Location and /ContactInfo. */
  name: string;
  reason: string;
  location: string;
  contactInfo: string;
  /** The signing time, milliseconds since the epoch: the dictionary's /M (PAdES keeps it out of the CMS). */
  signingTime: number;
  /** Bytes kept for the CMS in /Contents. */
  signatureLength: number;
}

/** The PDF cannot be signed (unreadable, encrypted, without a page) or checked (unreadable). */
export class UnsignablePdf extends Error {
  constructor(readonly reason: string) {
    super(`This PDF cannot be signed or checked: ${reason}`);
  }
}

/** Preparing the PDF took longer than the time limit or more memory than its thread has. */
export class SigningLimitExceeded extends Error {}

type Reply = { id: number; result?: unknown; unsignable?: string; error?: string };

export interface SigningThreadLimits {
  timeoutMs: number;
  memoryMb: number;
  idleMs: number;
}

export class SigningThread {
  /** `worker`: the file of the thread, in this folder (pades.worker.mjs prepares, verify.worker.mjs checks). */
  constructor(
    readonly limits: SigningThreadLimits,
    private readonly worker = 'pades.worker.mjs',
  ) {}

  private thread: Promise<Worker> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  private start(): Promise<Worker> {
    const worker = new Worker(path.join(projectRoot, 'server', 'modules', 'signatures', this.worker), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    });
    return new Promise<Worker>((resolve, reject) => {
      const done = (fn: () => void) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        fn();
      };
      const onMessage = (m: { ready?: boolean }) => m.ready && done(() => resolve(worker));
      const onError = (err: Error) => done(() => reject(err));
      const onExit = () => done(() => reject(new Error('the signing thread ended as it started')));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  private end() {
    const worker = this.thread;
    this.thread = undefined;
    clearTimeout(this.idleTimer);
    if (worker)
      void worker.then(
        (w) => w.terminate(),
        () => undefined,
      );
  }

  private async run<T>(original: Uint8Array, details: unknown): Promise<T> {
    clearTimeout(this.idleTimer);
    this.thread ??= this.start();
    const worker = await this.thread.catch((err: unknown) => {
      this.thread = undefined;
      throw err;
    });
    worker.ref();
    const id = this.nextId++;
    const bytes = new Uint8Array(original); // a copy, moved to the thread
    try {
      return await new Promise<T>((resolve, reject) => {
        const done = (fn: () => void, healthy = true) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (!healthy) this.end();
          fn();
        };
        const onMessage = (reply: Reply) => {
          if (reply.id !== id) return;
          done(() => {
            if (reply.result !== undefined) resolve(reply.result as T);
            else if (reply.unsignable !== undefined) reject(new UnsignablePdf(reply.unsignable));
            else reject(new Error(`the PDF thread failed: ${reply.error}`));
          });
        };
        const onError = (err: Error & { code?: string }) =>
          done(
            () =>
              reject(
                err.code === 'ERR_WORKER_OUT_OF_MEMORY'
                  ? new SigningLimitExceeded(`it needed more than ${this.limits.memoryMb} MB`)
                  : err,
              ),
            false,
          );
        const onExit = () => done(() => reject(new Error('the signing thread ended')), false);
        const timer = setTimeout(
          () =>
            done(
              () => reject(new SigningLimitExceeded(`it took longer than ${this.limits.timeoutMs / 1000} s`)),
              false,
            ),
          this.limits.timeoutMs,
        );
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ id, original: bytes.buffer, details }, [bytes.buffer]);
      });
    } finally {
      worker.unref();
      if (this.thread !== undefined) {
        this.idleTimer = setTimeout(() => this.end(), this.limits.idleMs);
        this.idleTimer.unref();
      }
    }
  }

  /**
   * The PDF with a signature field, its visible block and an empty signature, added as an incremental update.
   * Rejects with UnsignablePdf or SigningLimitExceeded.
   */
  prepare(original: Uint8Array, details: SignatureDetails): Promise<Uint8Array> {
    return this.submit<Uint8Array>(original, details);
  }

  /** Hands one document to the thread once the documents before it are done. */
  submit<T>(original: Uint8Array, details: unknown): Promise<T> {
    const result = this.queue.then(() => this.run<T>(original, details));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Starts the thread if it is not running, and waits until it has loaded pdf-lib and the fonts. */
  async ready(): Promise<void> {
    this.thread ??= this.start();
    await this.thread.catch((err: unknown) => {
      this.thread = undefined;
      throw err;
    });
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    const worker = this.thread;
    this.thread = undefined;
    clearTimeout(this.idleTimer);
    if (worker)
      await worker.then(
        (w) => w.terminate(),
        () => undefined,
      );
  }
}
