import { copyFile, cp, link, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import {
  type Command,
  commandFor,
  SANDBOX_INPUT_DIR,
  SANDBOX_OUTPUT_DIR,
  type SandboxResult,
  type SandboxSpec,
  spawnGroup,
} from './sandbox.ts';

/**
 * A sandboxed program started before its file arrives (decision 108): started, it loads what it needs, then waits
 * for ONE line on its standard input. `give` puts the one input file in its inbox (an empty folder until then, seen
 * read-only at `/in`), sends the line, starts the wall clock and closes the input: it can never be given a second
 * file, and exits when done. What it wrote in its own output folder (`/out`) is moved into the caller's.
 */
export interface PreparedSandbox {
  /** Started and not yet given its file (false once given, or when it ended while waiting). */
  readonly waiting: boolean;
  /** Its process id (bwrap's, or prlimit's without it): the leader of its process group. */
  readonly pid: number | undefined;
  give(job: {
    input: string;
    inputName: string;
    outputDir: string;
    wallSeconds: number;
    /** The one line it reads, given the paths of the input file and the output folder as it sees them. */
    line: (paths: { input: string; output: string }) => string;
  }): Promise<SandboxResult>;
  /** Ends it (a prepared process no longer wanted). */
  stop(): void;
}

/** Starts a program of `spec` that waits for its file (see PreparedSandbox); `args` see the inbox folder's path. */
export async function startSandboxed(
  bwrap: string,
  spec: SandboxSpec & { args: (paths: { inbox: string; output: string }) => string[] },
): Promise<PreparedSandbox> {
  const inbox = await mkdtemp(path.join(os.tmpdir(), 'lp-sandbox-in-'));
  const out = await mkdtemp(path.join(os.tmpdir(), 'lp-sandbox-out-'));
  const cleanUp = () => Promise.all([inbox, out].map((d) => rm(d, { recursive: true, force: true })));
  let isolated = false;
  let command: Command;
  try {
    command = await commandFor(bwrap, spec, (sandboxed) => {
      isolated = sandboxed;
      const seen = sandboxed ? { inbox: SANDBOX_INPUT_DIR, output: SANDBOX_OUTPUT_DIR } : { inbox, output: out };
      return {
        binds: ['--ro-bind', inbox, SANDBOX_INPUT_DIR, '--bind', out, SANDBOX_OUTPUT_DIR],
        args: spec.args(seen),
      };
    });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const group = spawnGroup(command, { ...spec.limits, wallSeconds: 0 }, true);
  let given = false;
  let ended = false;
  // Ended before its file (killed, or its start failed): nobody waits for that answer; its folders go.
  const ending = () => {
    ended = true;
    if (!given) void cleanUp();
  };
  group.done.then(ending, ending);
  return {
    get waiting() {
      return !given && !ended;
    },
    pid: group.pid,
    async give({ input, inputName, outputDir, wallSeconds, line }) {
      if (given) throw new Error('a prepared sandbox takes one file');
      given = true;
      try {
        // Ended while it waited: its own failure, else that it ended unasked.
        if (ended)
          throw await group.done.then(
            () => new Error('it ended before its file'),
            (err: unknown) => err,
          );
        const name = path.basename(inputName);
        await link(input, path.join(inbox, name)).catch(() => copyFile(input, path.join(inbox, name)));
        const seen = isolated
          ? { input: path.posix.join(SANDBOX_INPUT_DIR, name), output: SANDBOX_OUTPUT_DIR }
          : { input: path.join(inbox, name), output: out };
        group.startClock(wallSeconds, `${line(seen)}\n`);
        const result = await group.done;
        for (const made of await readdir(out)) {
          await rename(path.join(out, made), path.join(outputDir, made)).catch(async () => {
            await cp(path.join(out, made), path.join(outputDir, made), { recursive: true });
          });
        }
        return result;
      } finally {
        group.kill();
        await cleanUp();
      }
    },
    stop: () => group.kill(),
  };
}
