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

/**
 * A .docx whose only content is pictures linked, not embedded (`TargetMode="External"`): Word and LibreOffice fetch
 * each target when they lay the document out, unless told not to. The sandbox's tests (decision 091) link one to a
 * listener of theirs and one to a local file; a safe preview fetches neither, so it holds no image.
 */
export function docxWithLinkedPictures(targets: string[]): Buffer {
  const picture = (i: number) => `<w:p><w:r><w:drawing>
<wp:inline><wp:extent cx="1905000" cy="1905000"/><wp:docPr id="${i + 1}" name="Picture ${i + 1}"/>
<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">
<pic:pic><pic:nvPicPr><pic:cNvPr id="${i + 1}" name="linked${i + 1}.png"/><pic:cNvPicPr/></pic:nvPicPr>
<pic:blipFill><a:blip r:link="rIdPic${i}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>
<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1905000" cy="1905000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>
</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"
 xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"
 xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
 xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"
 xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">
<w:body><w:p><w:r><w:t>Quarterly report</w:t></w:r></w:p>${targets.map((_, i) => picture(i)).join('')}</w:body></w:document>`;
  const relationships = targets
    .map(
      (target, i) =>
        `<Relationship Id="rIdPic${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${target}" TargetMode="External"/>`,
    )
    .join('');
  return storedZip([
    {
      name: '[Content_Types].xml',
      text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`,
    },
    {
      name: '_rels/.rels',
      text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`,
    },
    { name: 'word/document.xml', text: document },
    {
      name: 'word/_rels/document.xml.rels',
      text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`,
    },
  ]);
}
