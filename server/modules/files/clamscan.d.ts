// The parts of clamscan (no types of its own) that server/modules/files/malware-scan.ts uses (decision 115).
declare module 'clamscan' {
  import type { Socket } from 'node:net';
  import type { Readable } from 'node:stream';

  export interface ClamdScanOptions {
    socket?: string;
    host?: string;
    port?: number;
    timeout?: number;
    localFallback?: boolean;
    bypassTest?: boolean;
    active?: boolean;
  }
  export interface NodeClamOptions {
    removeInfected?: boolean;
    debugMode?: boolean;
    preference?: 'clamdscan' | 'clamscan';
    clamscan?: { active?: boolean };
    clamdscan?: ClamdScanOptions;
  }
  export interface ScanResult {
    /** true: a signature matched; false: clean; null: clamd's answer was neither (a timeout, an unknown reply). */
    isInfected: boolean | null;
    viruses: string[];
    resultString?: string;
    timeout?: boolean;
  }
  export default class NodeClam {
    init(options: NodeClamOptions): Promise<NodeClam>;
    /** Sends the stream to clamd (INSTREAM) and resolves with its verdict. */
    scanStream(stream: Readable): Promise<ScanResult>;
    /** Resolves with an open connection when clamd answers PONG. */
    ping(): Promise<Socket>;
  }
}
