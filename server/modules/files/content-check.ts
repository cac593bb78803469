import { open } from 'node:fs/promises';
import path from 'node:path';

import { fileTypeFromBuffer } from 'file-type';
import yauzl from 'yauzl';

import { FILE_TYPES, type FileKind } from '#shared/constants.ts';

import { badRequest } from '#server/lib/errors.ts';

// What an upload may be (spec §9): its extension allowed for the kind, and its first bytes those of that extension.

/** What the content of a file must look like for each extension (file-type names); `text` means no binary signature. */
const CONTENT: Record<string, { detected: readonly (string | 'text')[]; mime: string }> = {
  pdf: { detected: ['pdf'], mime: 'application/pdf' },
  doc: { detected: ['cfb'], mime: 'application/msword' },
  xls: { detected: ['cfb'], mime: 'application/vnd.ms-excel' },
  ppt: { detected: ['cfb'], mime: 'application/vnd.ms-powerpoint' },
  docx: { detected: ['docx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { detected: ['xlsx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: {
    detected: ['pptx', 'zip'],
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  jpg: { detected: ['jpg'], mime: 'image/jpeg' },
  jpeg: { detected: ['jpg'], mime: 'image/jpeg' },
  png: { detected: ['png'], mime: 'image/png' },
  gif: { detected: ['gif'], mime: 'image/gif' },
  webp: { detected: ['webp'], mime: 'image/webp' },
  mp4: { detected: ['mp4', 'm4v', 'mov'], mime: 'video/mp4' },
  webm: { detected: ['webm'], mime: 'video/webm' },
  mkv: { detected: ['mkv'], mime: 'video/x-matroska' },
  avi: { detected: ['avi'], mime: 'video/x-msvideo' },
  mov: { detected: ['mov', 'mp4'], mime: 'video/quicktime' },
  zip: { detected: ['zip'], mime: 'application/zip' },
  rar: { detected: ['rar'], mime: 'application/vnd.rar' },
  '7z': { detected: ['7z'], mime: 'application/x-7z-compressed' },
  gz: { detected: ['gz'], mime: 'application/gzip' },
  tar: { detected: ['tar'], mime: 'application/x-tar' },
  txt: { detected: ['text'], mime: 'text/plain; charset=utf-8' },
};

export const extensionOf = (name: string) => path.extname(name).slice(1).toLowerCase();

/** The refusal of a file whose extension `kind` does not allow, naming the accepted ones so the user can act on it. */
export const typeNotAllowed = (kind: FileKind, field: string) =>
  badRequest('storage.type_not_allowed', field, { types: FILE_TYPES[kind].join(', ') });

/** Checks the first bytes of a stored file against its extension: a renamed .exe is refused. */
export async function checkContent(absolutePath: string, ext: string, kind: FileKind): Promise<string> {
  const rule = CONTENT[ext];
  if (!rule) throw typeNotAllowed(kind, 'file');
  const handle = await open(absolutePath, 'r');
  const head = Buffer.alloc(4100);
  let read: number;
  try {
    ({ bytesRead: read } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  if (read === 0) throw badRequest('storage.empty', 'file');
  const sample = head.subarray(0, read);
  const detected = await fileTypeFromBuffer(sample);
  const kindFound = detected ? detected.ext : sample.includes(0) ? 'binary' : 'text';
  if (!rule.detected.includes(kindFound) || (OFFICE_PARTS[ext] && !(await hasOfficeParts(absolutePath, ext)))) {
    throw badRequest('storage.content_mismatch', 'file', { ext });
  }
  return rule.mime;
}

/** The parts every Office Open XML package of this kind has (ECMA-376 part 2): any other ZIP is not one. */
const OFFICE_PARTS: Record<string, string[]> = {
  docx: ['[Content_Types].xml', 'word/document.xml'],
  xlsx: ['[Content_Types].xml', 'xl/workbook.xml'],
  pptx: ['[Content_Types].xml', 'ppt/presentation.xml'],
};
/** Office packages list a few dozen parts; stop reading a directory that goes on far longer. */
const MAX_ZIP_ENTRIES_READ = 10_000;

/** Does this ZIP's central directory name the parts of a .docx/.xlsx/.pptx? Reads the directory only (yauzl). */
function hasOfficeParts(absolutePath: string, ext: string): Promise<boolean> {
  const missing = new Set(OFFICE_PARTS[ext]);
  return new Promise((resolve) => {
    yauzl.open(absolutePath, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return resolve(false);
      let seen = 0;
      const finish = (ok: boolean) => {
        zip.close();
        resolve(ok);
      };
      zip.on('error', () => finish(false));
      zip.on('end', () => finish(missing.size === 0));
      zip.on('entry', (entry: yauzl.Entry) => {
        missing.delete(entry.fileName);
        if (missing.size === 0) return finish(true);
        if (++seen >= MAX_ZIP_ENTRIES_READ) return finish(false);
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}
