import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { build } from 'esbuild';

import { projectRoot } from './project-root.ts';
import type { SandboxLimits, SandboxResult } from './sandbox.ts';
import { type PreparedSandbox, startSandboxed } from './sandbox-prepared.ts';

/**
 * The node-based parsers (pdf-lib, pdf.js/officeparser, sharp) run in the sandbox as a small node program
 * (decision 091): server/parsers/main.ts, bundled by esbuild into dist/parsers/<hash>/main.mjs (sharp and
 * officeparser stay in node_modules) at the first run of each process, so the same code runs from the sources (Vitest, tsx) and from the
 * compiled server. The sandbox sees the node binary, the bundle, package.json and node_modules, read-only: none of
 * the project's other files, and never DATA_DIR. Each process is started before its file arrives, with its packages
 * loaded, and is given one file (decision 108).
 */

export type NodeParserTask = 'pdf' | 'image' | 'web-image' | 'text';

export interface NodeParserRun {
  bwrap: string;
  task: NodeParserTask;
  input: string;
  inputName: string;
  outputDir: string;
  limits: SandboxLimits;
  /** The task's options, given to it as JSON. */
  options: object;
  /** Run at the lowest priority, node's start included (text for search). */
  background?: boolean;
}

/** Memory Node reserves for itself, added to a task's own when its data limit is set (see runNodeParser). */
const NODE_RUNTIME_MB = 512;

let bundle: Promise<string> | undefined;

/**
 * The parsers' bundle, built once per process into a folder named by its content's hash (processes building it at
 * once agree). Split into chunks: each task loads only its own packages (sharp, pdf-lib, pdf.js) in its fresh process.
 */
export function parsersBundle(): Promise<string> {
  bundle ??= (async () => {
    const result = await build({
      entryPoints: { main: path.join(projectRoot, 'server', 'parsers', 'main.ts') },
      bundle: true,
      splitting: true,
      outdir: '/',
      outExtension: { '.js': '.mjs' },
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Packages stay in node_modules but pdf-lib (pure JavaScript), bundled: as a package it is some 200 modules,
      // whose loading took 0.5 s of CPU in each PDF's fresh process; bundled, 0.1 s.
      external: ['sharp', 'officeparser'],
      write: false,
      legalComments: 'none',
      logLevel: 'warning',
    });
    const hash = createHash('sha256');
    for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
    const dir = path.join(projectRoot, 'dist', 'parsers', hash.digest('hex').slice(0, 16));
    if (!existsSync(dir)) {
      const temporary = `${dir}.${process.pid}.tmp`;
      await mkdir(temporary, { recursive: true });
      for (const file of result.outputFiles)
        await writeFile(path.join(temporary, path.basename(file.path)), file.contents);
      await rename(temporary, dir).catch(async (err: unknown) => {
        if (!existsSync(dir)) throw err; // else another process wrote the same bundle first
        await rm(temporary, { recursive: true, force: true });
      });
    }
    return path.join(dir, 'main.mjs');
  })();
  bundle.catch(() => (bundle = undefined));
  return bundle;
}

/** The packages a prepared process loads before its file: each task's group (server/parsers/main.ts). */
const GROUP_OF: Record<NodeParserTask, 'files' | 'text'> = {
  pdf: 'files',
  image: 'files',
  'web-image': 'files',
  text: 'text',
};

type Kind = Pick<NodeParserRun, 'bwrap' | 'background'> & {
  group: 'files' | 'text';
  limits: Omit<SandboxLimits, 'wallSeconds'>;
};

/** How long after a task its kind's next process is started (see runNodeParser). */
const PREPARE_AFTER_MS = 250;

/** Per kind of process (its tasks' group, its CPU and memory limits, its priority), the one started ahead of need. */
const prepared = new Map<string, Promise<PreparedSandbox>>();

/** Starts a parser process of this kind, which loads its group's packages and waits for its file. */
async function startParser({ bwrap, group, limits, background }: Kind): Promise<PreparedSandbox> {
  const script = await parsersBundle();
  const nodeDir = path.dirname(process.execPath);
  const readOnly = [
    path.dirname(script),
    path.join(projectRoot, 'node_modules'),
    path.join(projectRoot, 'package.json'),
  ];
  if (!nodeDir.startsWith('/usr/')) readOnly.push(nodeDir);
  // V8's heap below the task's memory, so that a heap too large ends with its own message, not a failed allocation.
  const heapMb = Math.max(128, Math.floor(limits.memoryMb * 0.6));
  // NOTE: the process's data limit (RLIMIT_DATA) is the task's memory plus what Node itself reserves before running
  // any code: Node 26 does not start under 512 MB (its V8 reserves more writable memory than Node 20's), so a 512 MB
  // task would fail on the LTS with "out of memory" before reading a byte. The heap stays held to the task's share.
  return startSandboxed(bwrap, {
    program: process.execPath,
    args: () => [`--max-old-space-size=${heapMb}`, script, group],
    limits: { ...limits, memoryMb: limits.memoryMb + NODE_RUNTIME_MB },
    readOnly,
    background,
  });
}

/** The key of a kind of process: its tasks' group, its CPU and memory limits, its priority. */
const keyOf = (kind: Kind) =>
  JSON.stringify([kind.bwrap, kind.group, kind.limits.cpuSeconds, kind.limits.memoryMb, !!kind.background]);

/** Starts, ahead of need, the next process of this kind, unless one is already started. */
function prepareAhead(kind: Kind): void {
  const key = keyOf(kind);
  if (prepared.has(key)) return;
  const next = startParser(kind);
  next.catch(() => prepared.get(key) === next && prepared.delete(key));
  prepared.set(key, next);
}

/**
 * The process for one task (decision 108): the one prepared for its kind if it still waits, else a new one (the first
 * of its kind, or the prepared one ended while waiting: killed, or its start failed). A process is given one file and
 * ends with it: none is used twice. The next one of its kind is started once this task is done (runNodeParser), not
 * beside it: on two cores its start (about 0.3 s of CPU) would slow the task it waits behind.
 */
async function parserFor(kind: Kind): Promise<PreparedSandbox> {
  const key = keyOf(kind);
  const taken = prepared.get(key);
  prepared.delete(key);
  const waiting = await taken?.catch(() => undefined);
  if (waiting?.waiting) return waiting;
  waiting?.stop();
  return startParser(kind);
}

/** Starts, ahead of need, the process of the PDF and image previews (at the server's start). */
export function prepareNodeParsers(bwrap: string, limits: Omit<SandboxLimits, 'wallSeconds'>): void {
  prepareAhead({ bwrap, group: 'files', limits });
}

/**
 * Runs one parser task on one file in the sandbox, in a process prepared for it (decision 108); what it writes is in
 * `outputDir`, and what it prints (one JSON line) is its answer.
 */
export async function runNodeParser<T>(run: NodeParserRun): Promise<T> {
  const { cpuSeconds, memoryMb, wallSeconds } = run.limits;
  const kind: Kind = {
    bwrap: run.bwrap,
    group: GROUP_OF[run.task],
    limits: { cpuSeconds, memoryMb },
    background: run.background,
  };
  const parser = await parserFor(kind);
  let result: SandboxResult;
  try {
    result = await parser.give({
      input: run.input,
      inputName: run.inputName,
      outputDir: run.outputDir,
      wallSeconds,
      line: ({ input, output }) => JSON.stringify({ task: run.task, input, output, options: run.options }),
    });
  } finally {
    // A moment later: the caller saves what was made first, without the next process's start beside it.
    setTimeout(() => prepareAhead(kind), PREPARE_AFTER_MS).unref();
  }
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as T;
}
