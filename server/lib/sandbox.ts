import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The sandbox every parser of an uploaded file runs in (decision 091): LibreOffice, pdftoppm, pdf-lib, pdf.js and
 * officeparser, sharp, and whatever reads uploads next (OCR). One run is one program, reading ONE input file and
 * writing into ONE output folder, in Debian's bubblewrap (`bwrap`):
 * - no network (`--unshare-all`: network, PID, IPC, UTS, cgroup namespaces), a new session, killed with its parent;
 * - a root of its own: the system folders (/usr and the few files of /etc parsers need) read-only, a private /tmp,
 *   the input at `/in/<name>` read-only and the output folder at `/out`; nothing else of DATA_DIR, no other upload;
 * - an empty environment but PATH, HOME=/tmp and LANG;
 * - limits: CPU seconds and memory (prlimit, RLIMIT_CPU and RLIMIT_DATA, inherited by every process it starts) and a
 *   wall clock that kills the whole process group.
 *
 * A run is either started with its file (`runSandboxed`), or started before its file arrives and given it later
 * (`startSandboxed` of sandbox-prepared.ts, decision 108): the same sandbox and limits, one file per process either way.
 *
 * Without a working bwrap (`sandboxStatus`), a run that `needsIsolation` is refused (SandboxMissing) and any other runs
 * as a process of its own with the same limits and environment but the server's view of the files: the start logs
 * that once (`checkSandbox`).
 */

/** Where the input file and the output folder are seen inside the sandbox. */
export const SANDBOX_INPUT_DIR = '/in';
export const SANDBOX_OUTPUT_DIR = '/out';

export interface SandboxLimits {
  /** CPU time of each process of the run, in seconds (RLIMIT_CPU). */
  cpuSeconds: number;
  /** Memory of each process of the run, in MB (RLIMIT_DATA: what it allocates, not what it maps from files). */
  memoryMb: number;
  /** Wall-clock time of the whole run, in seconds: then its process group is killed. */
  wallSeconds: number;
}

export interface SandboxRun {
  /** The program: a name found in the system folders' PATH, or an absolute path (bound read-only if outside them). */
  program: string;
  /** Its arguments, given the input file's and the output folder's paths as the program sees them. */
  args: (paths: { input: string; output: string }) => string[];
  /** The one file the program reads (host path), seen as `/in/<inputName>`. */
  input: string;
  inputName: string;
  /** The one folder the program writes (host path, must exist), seen as `/out`. */
  outputDir: string;
  limits: SandboxLimits;
  /** Refuse to run at all without bubblewrap (LibreOffice, which follows links in a document). */
  needsIsolation?: boolean;
  /** Folders bound read-only besides the system's (the project's code and node_modules for a node parser). */
  readOnly?: string[];
  /** Folders hidden (an empty tmpfs) inside those: DATA_DIR when it lies inside the project. */
  masked?: string[];
  env?: Record<string, string>;
  /** Background work (text for search): run at the lowest priority from its first instruction (nice 19). */
  background?: boolean;
}

export interface SandboxResult {
  stdout: string;
  stderr: string;
}

/** A run stopped by one of its limits: the preview is unavailable, with `message` as the reason. */
export class SandboxLimitError extends Error {
  constructor(
    readonly limit: 'time' | 'cpu' | 'memory',
    message: string,
  ) {
    super(message);
  }
}
/** The program ended with an error of its own (exit code, last lines of its stderr). */
export class SandboxFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}
/** bubblewrap is missing and the run needs it. */
export class SandboxMissing extends Error {}
/** The program is not installed. */
export class ProgramMissing extends Error {}

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
/**
 * What of the host's system parsers read: of /etc the fonts' settings, the loader's cache, LibreOffice's own settings
 * (never passwd, hosts or keys); and fontconfig's cache of the system fonts (made from /usr/share/fonts, nothing of
 * the portal's), without which every pdftoppm and LibreOffice run scanned every font again (1.5 to 2.5 s a run).
 */
const SYSTEM_FILES = [
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/libreoffice',
  '/etc/alternatives',
  '/etc/localtime',
  '/var/cache/fontconfig',
];

export interface SandboxStatus {
  available: boolean;
  /** Why not, for the log and the previews' reasons. */
  reason?: string;
}

const statuses = new Map<string, Promise<SandboxStatus>>();

/** Whether bubblewrap at `bwrap` runs a program here (once per process: a trial run of /bin/true). */
export function sandboxStatus(bwrap: string): Promise<SandboxStatus> {
  let status = statuses.get(bwrap);
  if (!status) {
    status = new Promise<SandboxStatus>((resolve) => {
      const child = spawn(bwrap, [...baseArgs(), '--', '/usr/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ available: false, reason: err.code === 'ENOENT' ? `${bwrap} is not installed` : err.message }),
      );
      child.on('close', (code) =>
        resolve(code === 0 ? { available: true } : { available: false, reason: `${bwrap} fails: ${stderr.trim()}` }),
      );
    });
    statuses.set(bwrap, status);
  }
  return status;
}

const warned = new Set<string>();

/** Checks bubblewrap at start and logs ONE warning when it cannot be used (decision 091). */
export async function checkSandbox(bwrap: string, log: { warn: (obj: object, msg: string) => void }) {
  const status = await sandboxStatus(bwrap);
  if (!status.available && !warned.has(bwrap)) {
    warned.add(bwrap);
    log.warn(
      { reason: status.reason },
      'bubblewrap (bwrap) cannot be used: Office files get no preview, and PDFs, images and text are read by ' +
        'processes of their own with limits but without the sandbox (decision 091). Install it: apt-get install bubblewrap',
    );
  }
  return status;
}

function baseArgs(): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--clearenv'];
  args.push('--ro-bind', '/usr', '/usr');
  for (const dir of ['bin', 'lib', 'lib64', 'sbin']) {
    if (existsSync(`/${dir}`)) args.push('--symlink', `usr/${dir}`, `/${dir}`);
  }
  for (const file of SYSTEM_FILES) if (existsSync(file)) args.push('--ro-bind', file, file);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--chdir', '/tmp');
  return args;
}

/** The absolute path of `program` on the system PATH, or null. */
function resolveProgram(program: string): string | null {
  if (path.isAbsolute(program)) return existsSync(program) ? program : null;
  for (const dir of SYSTEM_PATH.split(':')) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const insideSystem = (p: string) => p.startsWith('/usr/') || p.startsWith('/bin/');

/** What a run is, but its one input file and output folder: a program prepared before its file arrives. */
export type SandboxSpec = Omit<SandboxRun, 'args' | 'input' | 'inputName' | 'outputDir' | 'limits'> & {
  limits: Omit<SandboxLimits, 'wallSeconds'>;
};

export interface Command {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The command line of one sandboxed program: bwrap (when it works here) with the system's folders, `spec`'s and
 * `binds`, then prlimit and the program with `args`. `files` gives the binds and the arguments for the paths the
 * program sees: inside the sandbox (`isolated`) or the server's own.
 */
export async function commandFor(
  bwrap: string,
  spec: SandboxSpec,
  files: (isolated: boolean) => { binds: string[]; args: string[] },
): Promise<Command> {
  const program = resolveProgram(spec.program);
  if (!program) throw new ProgramMissing(`${spec.program} is not installed`);
  const status = await sandboxStatus(bwrap);
  if (!status.available && spec.needsIsolation) throw new SandboxMissing(`the sandbox is missing: ${status.reason}`);
  const { cpuSeconds, memoryMb } = spec.limits;
  const limited = [
    ...(spec.background ? ['nice', '-n', '19'] : []),
    'prlimit',
    `--cpu=${cpuSeconds}:${cpuSeconds + 1}`,
    `--data=${memoryMb * 1024 * 1024}`,
    '--core=0',
    '--',
    program,
  ];
  const env = { PATH: SYSTEM_PATH, HOME: '/tmp', LANG: 'C.UTF-8', ...spec.env };
  const name = path.basename(program);
  const { binds, args: programArgs } = files(status.available);
  if (!status.available) {
    return { name, command: limited[0]!, args: [...limited.slice(1), ...programArgs], env };
  }
  const args = baseArgs();
  for (const dir of spec.readOnly ?? []) args.push('--ro-bind', dir, dir);
  for (const dir of spec.masked ?? []) if (existsSync(dir)) args.push('--tmpfs', dir);
  if (!insideSystem(program) && !(spec.readOnly ?? []).some((d) => program.startsWith(d + path.sep))) {
    args.push('--ro-bind', program, program);
  }
  args.push(...binds);
  for (const [key, value] of Object.entries(env)) args.push('--setenv', key, value);
  args.push('--', ...limited, ...programArgs);
  // bwrap itself is found on the server's PATH; it clears the environment of what it runs (--clearenv).
  return { name, command: bwrap, args, env: process.env as Record<string, string> };
}

/**
 * Runs one program in the sandbox (see above). Resolves with its output when it exits 0; rejects with
 * SandboxLimitError past a limit, SandboxFailed on an error of its own, SandboxMissing or ProgramMissing.
 */
export async function runSandboxed(bwrap: string, run: SandboxRun): Promise<SandboxResult> {
  const command = await commandFor(bwrap, run, (isolated) => {
    const input = isolated ? path.posix.join(SANDBOX_INPUT_DIR, run.inputName) : run.input;
    const output = isolated ? SANDBOX_OUTPUT_DIR : run.outputDir;
    return {
      binds: ['--ro-bind', run.input, input, '--bind', run.outputDir, SANDBOX_OUTPUT_DIR],
      args: run.args({ input, output }),
    };
  });
  const group = spawnGroup(command, run.limits, false);
  group.startClock(run.limits.wallSeconds);
  return group.done;
}

export interface Group {
  pid: number | undefined;
  /** Its end: the output when it exits 0, else the limit it passed or its failure. */
  done: Promise<SandboxResult>;
  /** Starts the wall clock (and sends `input`, closing its standard input). */
  startClock(wallSeconds: number, input?: string): void;
  /** Kills the whole process group. */
  kill(): void;
}

/**
 * Spawns a command in a process group of its own (detached), killed whole at the wall clock, which starts with
 * `startClock`; bwrap's own children die with it. A `prepared` one has a standard input to read its job from and does
 * not keep the server's event loop alive while it waits.
 */
export function spawnGroup(
  { name, command, args, env }: Command,
  { cpuSeconds, memoryMb }: SandboxLimits,
  prepared: boolean,
): Group {
  const child = spawn(command, args, { detached: true, stdio: [prepared ? 'pipe' : 'ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(-10_000_000)));
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.stdin?.on('error', () => {}); // it ended before reading its job: its end says why
  const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as ({
    unref?(): void;
    ref?(): void;
  } | null)[];
  if (prepared) for (const h of handles) h?.unref?.();
  let wallSeconds = 0;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const done = new Promise<SandboxResult>((resolve, reject) => {
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      kill(); // anything it left behind in its group
      if (timedOut) return reject(new SandboxLimitError('time', `took longer than ${wallSeconds} s`));
      if (code === 0) return resolve({ stdout, stderr });
      // bwrap reports a child killed by a signal as 128 + the signal; prlimit's own child as the signal itself.
      const sig = signal ?? (code !== null && code > 128 ? code - 128 : null);
      const byName = typeof sig === 'string' ? sig : null;
      if (byName === 'SIGXCPU' || sig === 24 || ((byName === 'SIGKILL' || sig === 9) && /CPU/.test(stderr))) {
        return reject(new SandboxLimitError('cpu', `used more than ${cpuSeconds} s of CPU`));
      }
      if (
        /out of memory|memory exhausted|Cannot allocate memory|bad_alloc|heap limit|ENOMEM/i.test(stderr) ||
        sig === 6
      ) {
        return reject(new SandboxLimitError('memory', `needed more than ${memoryMb} MB of memory`));
      }
      if (byName === 'SIGKILL' || sig === 9) return reject(new SandboxLimitError('cpu', 'was killed'));
      const last = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300);
      reject(new SandboxFailed(`${name} exited with ${code}: ${last}`, code, stderr));
    });
  });
  return {
    pid: child.pid,
    done,
    kill,
    startClock(seconds, input) {
      wallSeconds = seconds;
      if (prepared) for (const h of handles) h?.ref?.();
      timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, seconds * 1000);
      if (child.stdin) child.stdin.end(input ?? '');
    },
  };
}
