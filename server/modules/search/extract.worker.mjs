// Reads the text of one uploaded file at a time, in a worker thread (search/extractor.ts), so a hostile or huge file
// costs this thread's time and memory, never the server's: the parent ends the thread when a file takes too long.
// Plain JavaScript so that it runs the same under tsx, Vitest and the production start script.
import { open, stat } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

import { parseOffice } from 'officeparser';

// Reading files for search is background work: on Linux, where a nice value belongs to one thread, this thread yields
// the cores to the server's answers and the database whenever they need them (issue 12: a morning's uploads read
// during the load took the cores in bursts of ten files). Elsewhere it would lower the whole process, so it is not set.
const BACKGROUND_NICE = 19;
if (process.platform === 'linux') {
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    // A container that forbids it: the files are read at the server's priority, as before.
  }
}

/** PostgreSQL text cannot hold NUL; runs of blanks say nothing to a search. */
const tidy = (text, maxChars) =>
  text
    .replaceAll('\u0000', ' ')
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim()
    .slice(0, maxChars);

/** The first bytes of a file, never more than `limit`. */
async function head(path, limit) {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    const { bytesRead } = await handle.read(buffer, 0, limit, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function extract({ path, ext, maxBytes, maxChars }) {
  if (ext === 'txt') {
    // A text file is cut, not refused: its first characters are searchable however long it is.
    return tidy(new TextDecoder('utf-8').decode(await head(path, maxChars * 4)), maxChars);
  }
  const { size } = await stat(path);
  if (size > maxBytes) throw new Error(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
  const ast = await parseOffice(await head(path, size), {
    outputErrorToConsole: false,
    extractAttachments: false,
    ocr: false,
    includeRawContent: false,
  });
  return tidy(ast.toText(), maxChars);
}

parentPort.on('message', async (task) => {
  try {
    parentPort.postMessage({ id: task.id, text: await extract(task) });
  } catch (err) {
    parentPort.postMessage({ id: task.id, error: String(err?.message ?? err).slice(0, 500) });
  }
});
