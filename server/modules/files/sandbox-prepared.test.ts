import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { SandboxLimitError } from '#server/lib/sandbox.ts';
import { prepareNodeParsers, runNodeParser } from '#server/lib/sandbox-node.ts';
import { startSandboxed } from '#server/lib/sandbox-prepared.ts';

/**
 * Sandboxed processes started before their file arrives (decision 108): each is given one file, sees no other, and
 * ends with it; the next is started while it works, and one killed or stopped by the wall clock is replaced.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-prepared-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bwrap = 'bwrap';
const limits = { cpuSeconds: 60, memoryMb: 1024 };

function folder(name: string) {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The ids of this process's children running bwrap with the parsers' 'files' group: the prepared parsers. */
function parserProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').slice(0, -1);
      if (ppid === process.pid && cmdline[0] === bwrap && cmdline.at(-2)?.endsWith('main.mjs')) {
        if (cmdline.at(-1) === 'files') found.push(Number(entry));
      }
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a prepared sandbox', () => {
  it('is given one file, sees only that one, takes no second, and ends with it', async () => {
    const spec = {
      program: 'sh',
      // It waits for its line, then shows its inbox and what the file says.
      args: ({ inbox }: { inbox: string }) => ['-c', `read job; ls -A ${inbox}; cat "$job"; echo made > /out/made.txt`],
      limits: { cpuSeconds: 10, memoryMb: 256 },
    };
    const [first, second] = await Promise.all([startSandboxed(bwrap, spec), startSandboxed(bwrap, spec)]);
    expect(first.waiting && second.waiting).toBe(true);
    const give = (p: typeof first, name: string, text: string) => {
      const input = path.join(work, `${name}.txt`);
      writeFileSync(input, text);
      const outputDir = folder(`out-${name}`);
      return p
        .give({ input, inputName: `${name}.txt`, outputDir, wallSeconds: 30, line: ({ input: seen }) => seen })
        .then(({ stdout }) => ({ lines: stdout.trim().split('\n'), made: readdirSync(outputDir) }));
    };
    const [a, b] = await Promise.all([give(first, 'first', 'one upload'), give(second, 'second', 'another upload')]);
    expect(a).toEqual({ lines: ['first.txt', 'one upload'], made: ['made.txt'] });
    expect(b).toEqual({ lines: ['second.txt', 'another upload'], made: ['made.txt'] });
    expect(first.waiting).toBe(false);
    await expect(give(first, 'third', 'a second file')).rejects.toThrow('a prepared sandbox takes one file');
    expect(alive(first.pid!)).toBe(false);
  });
});

describe('the parsers’ prepared processes', () => {
  it('give each file a process of its own, start the next meanwhile, and replace one killed or timed out', async () => {
    const photo = await sharp({
      create: {
        width: 3000,
        height: 2000,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .png()
      .toBuffer();
    const input = path.join(work, 'photo.png');
    writeFileSync(input, photo);
    const thumbnail = (outputDir: string, wallSeconds = 60) =>
      runNodeParser<{ thumbnail: boolean }>({
        bwrap,
        task: 'image',
        input,
        inputName: 'image.png',
        outputDir,
        limits: { ...limits, wallSeconds },
        options: { thumbnailPx: 320, maxPixels: 40_000_000 },
      });
    // One process waiting, and not `gone` (the one just given its file, which may linger a moment as it ends: the next
    // one starts a quarter second after a task, decision 108's addendum).
    const oneWaiting = (gone?: number) =>
      vi.waitFor(
        () => {
          const waiting = parserProcesses();
          return (waiting.length === 1 && waiting[0] !== gone) || Promise.reject(new Error('none'));
        },
        { timeout: 60_000, interval: 50 },
      );

    prepareNodeParsers(bwrap, limits);
    await oneWaiting();
    const [first] = parserProcesses();

    // Its file goes to the one that waited, which ends with it; another was started meanwhile.
    const out1 = folder('parser-1');
    expect(await thumbnail(out1)).toEqual({ thumbnail: true });
    expect(readdirSync(out1)).toEqual(['thumbnail.webp']);
    expect(alive(first!)).toBe(false);
    await oneWaiting(first);
    const [second] = parserProcesses();
    expect(second).not.toBe(first);

    // Killed while it waited: the next file gets a process all the same.
    process.kill(-second!, 'SIGKILL');
    await vi.waitFor(() => !alive(second!) || Promise.reject(new Error('alive')), { timeout: 10_000, interval: 50 });
    expect(await thumbnail(folder('parser-2'))).toEqual({ thumbnail: true });
    await oneWaiting();
    const [third] = parserProcesses();

    // Stopped by the wall clock with its file: that run is given up (no retry), and the next file gets another.
    await expect(thumbnail(folder('parser-3'), 0.01)).rejects.toBeInstanceOf(SandboxLimitError);
    expect(alive(third!)).toBe(false);
    const out4 = folder('parser-4');
    expect(await thumbnail(out4)).toEqual({ thumbnail: true });
    expect(readdirSync(out4)).toEqual(['thumbnail.webp']);
  }, 180_000);
});
