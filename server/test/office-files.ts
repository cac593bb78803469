import { storedZip } from '#server/lib/zip.ts';

/** The smallest package of each Office Open XML kind: its content types and its main part. */
export function officeZip(kind: 'docx' | 'xlsx' | 'pptx'): Buffer {
  const main = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml', pptx: 'ppt/presentation.xml' }[kind];
  return storedZip([
    { name: '[Content_Types].xml', text: '<Types/>' },
    { name: '_rels/.rels', text: '<Relationships/>' },
    { name: main, text: '<root/>' },
  ]);
}
