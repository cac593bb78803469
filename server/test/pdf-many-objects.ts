import { deflateSync } from 'node:zlib';

/**
 * A tagged PDF of one page per text, as word processors write a long report: its structure's parent tree maps each
 * page's marked contents to their structure elements in ONE array of the whole document, packed with the other
 * dictionaries into a compressed object stream found through a cross-reference stream (ISO 32000-1 §7.5.7, §7.5.8,
 * §14.7.4.4). About a megabyte holds millions of references in that one object: a reader that loads the whole document
 * (pdf-lib) parses it in one go, while a viewer reads only the page it shows. The header says 1.4 so that pdf-lib
 * writes its incremental update with a classic cross-reference table, as for any other upload.
 */
export function pdfWithTaggedPages(texts: string[], marksPerPage: number): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  // Object numbers: 1 catalog, 2 page tree, 3 font, then per page its dictionary and its content; the structure, the
  // object stream and the cross-reference stream come last.
  const pageId = (i: number) => 4 + 2 * i;
  let next = 4 + 2 * texts.length;
  const structRoot = next++;
  const paragraph = next++;
  const parentTree = next++;
  const plain = new Map<number, string>([
    [1, `<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot ${structRoot} 0 R >>`],
    [2, `<< /Type /Pages /Kids [${texts.map((_, i) => `${pageId(i)} 0 R`).join(' ')}] /Count ${texts.length} >>`],
    [3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  ]);
  texts.forEach((text, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${escape(text)}) Tj ET`;
    plain.set(
      pageId(i),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageId(i) + 1} 0 R ` +
        `/Resources << /Font << /F1 3 0 R >> >> /StructParents ${i} >>`,
    );
    plain.set(pageId(i) + 1, `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  const marks = `[${`${paragraph} 0 R `.repeat(marksPerPage)}]`;
  const packed: [number, string][] = [
    [structRoot, `<< /Type /StructTreeRoot /K ${paragraph} 0 R /ParentTree ${parentTree} 0 R >>`],
    [paragraph, `<< /Type /StructElem /S /P /P ${structRoot} 0 R /K 0 >>`],
    [parentTree, `<< /Nums [${texts.map((_, i) => `${i} ${marks}`).join(' ')}] >>`],
  ];

  const chunks: Buffer[] = [];
  let length = 0;
  const write = (b: Buffer) => {
    chunks.push(b);
    length += b.length;
  };
  write(Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  // Cross-reference entries: [type, field 2, field 3] (1: offset in the file; 2: object stream and index in it).
  const entries = new Map<number, [number, number, number]>();
  const writeObject = (id: number, dict: string, data?: Buffer) => {
    entries.set(id, [1, length, 0]);
    write(Buffer.from(`${id} 0 obj\n${dict}`, 'latin1'));
    if (data) write(Buffer.concat([Buffer.from('\nstream\n'), data, Buffer.from('\nendstream')]));
    write(Buffer.from('\nendobj\n'));
  };
  for (const [id, body] of plain) writeObject(id, body);
  const streamId = next++;
  let header = '';
  let bodies = '';
  packed.forEach(([id, body], index) => {
    header += `${id} ${bodies.length} `;
    bodies += `${body}\n`;
    entries.set(id, [2, streamId, index]);
  });
  const data = deflateSync(Buffer.from(header + bodies, 'latin1'), { level: 9 });
  writeObject(
    streamId,
    `<< /Type /ObjStm /N ${packed.length} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>`,
    data,
  );
  const xrefId = next++;
  const xrefAt = length;
  entries.set(xrefId, [1, xrefAt, 0]);
  const table = Buffer.alloc(next * 7);
  for (let id = 0; id < next; id++) {
    const [type, a, b] = entries.get(id) ?? [0, 0, 65535];
    table.writeUInt8(type, id * 7);
    table.writeUInt32BE(a, id * 7 + 1);
    table.writeUInt16BE(b, id * 7 + 5);
  }
  const xref = deflateSync(table, { level: 9 });
  writeObject(
    xrefId,
    `<< /Type /XRef /Size ${next} /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length ${xref.length} >>`,
    xref,
  );
  write(Buffer.from(`startxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(chunks);
}
