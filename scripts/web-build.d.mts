export declare const projectRoot: string;
export declare const builtIndex: string;
export declare const builtDir: string;
/** Why the web app must be (re)built, or null when dist/web is up to date. */
export declare function webBuildReason(): string | null;
/** Runs `vite build` in a child process when needed; returns its exit code. `snapshotTo` also copies the build. */
export declare function buildWebIfNeeded(opts?: {
  log?: (line: string) => void;
  force?: boolean;
  snapshotTo?: string;
}): number;
/** Newest modification time (ms) of a file or, recursively, of a folder's files. */
export declare function newestMtime(target: string): number;
/** Runs `fn` holding this working tree's build lock (one build at a time). */
export declare function withBuildLock<T>(fn: () => T): T;
