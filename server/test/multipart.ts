import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';

export interface MultipartFile {
  field: string;
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

/**
 * A multipart/form-data body for `app.inject`: `{ ...multipart({ name: 'x' }, { field: 'file', filename: 'a.pdf',
 * content: SAMPLE_FILES.pdf }), headers }` — spread it and merge your auth headers into `headers`.
 */
export function multipart(fields: Record<string, string | number | undefined>, ...files: MultipartFile[]) {
  const boundary = `----lp${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A PNG whose header says `width` x `height` (the 1 x 1 sample with its IHDR rewritten and its CRC redone): what a
 * decompression bomb looks like to the server before it decodes anything (a 10000 x 10000 PNG of 389 KB).
 */
export function pngClaiming(width: number, height: number) {
  const png = Buffer.alloc(SAMPLE_FILES.png.length);
  SAMPLE_FILES.png.copy(png);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29); // CRC of "IHDR" and its 13 data bytes
  return png;
}

/** Small files whose content matches their extension (and one that does not). */
export const SAMPLE_FILES = {
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ),
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
  /** A real 2×2 JPEG (decodable, for routes that resize images). */
  jpg: Buffer.from(
    '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCeAGpH/9k=',
    'base64',
  ),
  /** JPEG markers with no image inside: passes the content check, but no decoder can read it. */
  brokenJpg: Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00, 0xff, 0xd9,
  ]),
  zip: Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]),
  txt: Buffer.from('Plain text notes.\n'),
  /** A Windows executable header: refused whatever it is named. */
  exe: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(200, 1)]),
};
