export declare const serverEntry: string;
/** Why the server must be (re)built, or null when dist/server/main.mjs is up to date. */
export declare function serverBuildReason(): string | null;
/** Bundles server/main.ts into dist/server/main.mjs when needed; returns the bundle's path. */
export declare function buildServerIfNeeded(opts?: { log?: (line: string) => void }): string;
