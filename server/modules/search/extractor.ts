import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { SandboxLimitError } from '#server/lib/sandbox.ts';
import { runNodeParser } from '#server/lib/sandbox-node.ts';

/** Limits on reading one file (decision 015: "limits on time and size per file"). */
export interface ExtractorLimits {
  /** A file taking longer is given up and its process killed. */
  timeoutMs: number;
  /** PDF and Office files larger than this are not read. */
  maxBytes: number;
  /** Text kept per file (the start of a longer text). */
  maxChars: number;
  /** Memory of the reading process: a decompression bomb ends that process, never the server. */
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

/**
 * Reads the text of PDF, DOCX, PPTX, XLSX and TXT files (officeparser, pdf.js) one file at a time, each in a process of
 * its own in the sandbox (server/parsers/text.ts, decision 091): it sees that one file and nothing else, at the lowest
 * priority, killed at `timeoutMs`, held to `memoryMb`. A file that fails or takes too long gives an error; nothing of
 * it is left running, and the next file starts afresh.
 */
export class TextExtractor {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    readonly limits: ExtractorLimits = DEFAULT_LIMITS,
    private readonly bwrap = 'bwrap',
  ) {}

  /** The text of the file at `path`, read as type `ext`; rejects with a reason the operator can read. */
  extract(path: string, ext: string): Promise<string> {
    const run = () => this.run(path, ext);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  private async run(file: string, ext: string): Promise<string> {
    if (this.closed) throw new Error('The extractor is closed.');
    const { timeoutMs, memoryMb, maxBytes, maxChars } = this.limits;
    const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
    const out = await mkdtemp(path.join(os.tmpdir(), 'lp-text-'));
    try {
      const answer = await runNodeParser<{ chars?: number; error?: string }>({
        bwrap: this.bwrap,
        task: 'text',
        input: file,
        inputName: `file.${ext}`,
        outputDir: out,
        // The wall clock in milliseconds as asked (a test asks for 1 ms); CPU and memory as whole units.
        limits: { cpuSeconds: seconds, memoryMb, wallSeconds: timeoutMs / 1000 },
        options: { ext, maxBytes, maxChars },
        // Background work: the server's answers, the database and the previews take the cores first, and the
        // process starts at the lowest priority, before node loads a module (as the thread of decision 055 did).
        background: true,
      }).catch((err: unknown) => {
        if (err instanceof SandboxLimitError && err.limit === 'time') {
          throw new Error(`Reading the file took longer than ${Math.max(1, Math.round(timeoutMs / 1000))} s.`);
        }
        if (err instanceof SandboxLimitError) throw new Error(`Reading the file ${err.message}.`);
        throw new Error(`The file could not be read: ${(err as Error).message.slice(0, 300)}`);
      });
      if (answer.error !== undefined) throw new Error(answer.error);
      return await readFile(path.join(out, 'text.txt'), 'utf8');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }

  /** Refuses further files (a file being read finishes). */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
  }
}
