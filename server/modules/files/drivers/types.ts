import type { Readable } from 'node:stream';

/** A byte range of a stored file, both ends inclusive (HTTP Range semantics). */
export interface ByteRange {
  start: number;
  end: number;
}

/** One stored object as a listing sees it. */
export interface StoredObject {
  area: string;
  id: string;
  size: number;
  modified: Date;
}

/**
 * Where uploaded bytes live (decision 017). Keys are `<area>/<file id>`: both come from the portal (an area name and
 * the files row's UUID), never from a client. Uploads are received and checked on this machine's disk first, then
 * `put` here; every other reader and writer of stored bytes (downloads, deletes, the start-up sweep, backup and
 * restore) goes through this interface.
 */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /** Human words for logs and refusals: "DATA_DIR/uploads", "s3://bucket". */
  readonly description: string;
  /**
   * Where the local driver keeps a file: an upload is written there directly and `put` has nothing left to do. Other
   * drivers have no such place.
   */
  localPath?: (area: string, id: string) => string;
  /** Stores the local file `source` under area/id. The local driver moves it; others copy it and leave `source`. */
  put(area: string, id: string, source: string, contentType: string): Promise<void>;
  /** Opens the stored bytes; null when the object is missing. */
  read(area: string, id: string): Promise<Readable | null>;
  /**
   * Opens one byte range of the stored bytes (a video's seek, a resumed download); null when the object is missing. A
   * download from the local disk is served by @fastify/static, which reads its ranges itself (decision 022); the local
   * driver's is for the viewer's PDF, a PDF read with its update after it (decision 088).
   */
  readRange(area: string, id: string, range: ByteRange): Promise<Readable | null>;
  /** Removes the object; a missing one is fine. */
  delete(area: string, id: string): Promise<void>;
  /** Every stored object, area by area. */
  list(): AsyncIterable<StoredObject>;
  /** Releases connections. */
  close(): Promise<void>;
}
