import { setImmediate as nextTurn } from 'node:timers/promises';

import {
  decodePDFRawStream,
  EncryptedPDFError,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from '@cantoo/pdf-lib';

import { VIEWER_RANGE_BYTES } from '#shared/constants.ts';

/**
 * The viewer's update of a PDF (decision 088): an incremental update (ISO 32000-1 §7.5.6) that, appended to
 * the PDF's own bytes, lets pdf.js show its first page after a small part of it. The original bytes are untouched; the
 * update redefines the page tree and the page objects only.
 *
 * Why pdf.js reads whole PDFs that range requests should spare (pdfjs-dist 5, src/core):
 * - On opening it looks up the first and the last page (checkFirstPage, checkLastPage), and Catalog.getPageDict
 *   fetches every kid of the top /Pages node at once. A flat tree (one node with every page, as pdf-lib, cairo, qpdf
 *   and LibreOffice write) makes that every page object, and writers that put each page object beside its content
 *   (pdf-lib, cairo) scatter them through the file: every 64 KB range is fetched.
 * - Before drawing a page, Page.loadResources loads every object its /Resources names (ObjectLoader). LibreOffice
 *   gives all pages one /Resources with every page's images and fonts: drawing page 1 loads the whole document.
 *
 * So the update gives the pages a balanced tree (at most PAGE_NODE_KIDS kids a node, with /Count, so a lookup reads one
 * path), and each page its own /Resources naming only what its content uses; the page objects and the tree, rewritten
 * in the update, sit together at the end of the file beside its cross-reference section, where pdf.js reads first.
 */

/** Kids of one node of the update's page tree; a tree with a node of more is rebuilt. */
export const PAGE_NODE_KIDS = 32;
/** A PDF no larger is read in four ranges or fewer anyway: it gets no update. */
export const VIEWER_UPDATE_MIN_BYTES = 4 * VIEWER_RANGE_BYTES;

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((name) => PDFName.of(name));
/** The kinds of resource a content stream names (ISO 32000-1 Table 33), each a dictionary of named objects. */
const NAMED_RESOURCES = ['Font', 'XObject', 'ExtGState', 'ColorSpace', 'Pattern', 'Shading', 'Properties'].map((name) =>
  PDFName.of(name),
);
const Kids = PDFName.of('Kids');
const Parent = PDFName.of('Parent');
const Resources = PDFName.of('Resources');

/** A PDF past the sandbox's page limit (SANDBOX_MAX_PAGES, decision 091): it gets no update. */
export class TooManyPages extends Error {
  constructor(
    readonly pages: number,
    readonly maxPages: number,
  ) {
    super(`more than ${maxPages} pages (${pages})`);
  }
}

/** What the update changed, for the log and the tests. */
export interface ViewerUpdate {
  bytes: Uint8Array;
  pages: number;
  treeRebuilt: boolean;
  /** Pages given resources of their own, fewer than they shared. */
  pagesPruned: number;
}

/**
 * The update to append to `pdf` for the viewer, or null when it needs none: small enough to be read whole, encrypted
 * (an update would have to be encrypted alike), or already quick to open (a tree of small nodes, and no page naming
 * resources it does not use). Throws when pdf-lib cannot read the PDF, and TooManyPages past `maxPages`.
 */
export async function viewerUpdate(
  pdf: Uint8Array,
  { maxPages = Infinity }: { maxPages?: number } = {},
): Promise<ViewerUpdate | null> {
  if (pdf.length <= VIEWER_UPDATE_MIN_BYTES) return null;
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { forIncrementalUpdate: true, updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError) return null;
    throw err;
  }
  if (doc.isEncrypted) return null;
  const context = doc.context;
  // pdf-lib marks what changes by searching every object for the one changed, at each change: slow for a whole page
  // tree. Changes are made unmarked and marked together below.
  const snapshot = context.snapshot;
  if (!snapshot) throw new Error('pdf-lib kept no snapshot for an incremental update');
  context.snapshot = undefined;

  const rootRef = doc.catalog.get(PDFName.of('Pages'));
  const root = context.lookup(rootRef);
  if (!(rootRef instanceof PDFRef) || !(root instanceof PDFDict)) return null;
  const tree = pagesOf(context, root, rootRef);
  if (!tree || !tree.pages.length) return null;
  const { pages } = tree;
  if (pages.length > maxPages) throw new TooManyPages(pages.length, maxPages);
  const treeRebuilt = tree.widest > PAGE_NODE_KIDS;

  let pagesPruned = 0;
  for (const [i, page] of pages.entries()) {
    if (treeRebuilt) {
      // The page's new parents carry nothing: what it inherited from its old ones goes onto the page itself.
      for (const key of INHERITED) {
        const value = page.node.has(key) ? undefined : inherited(context, page.node, key);
        if (value !== undefined) page.node.set(key, value);
      }
    }
    const own = ownResources(context, page.node);
    if (own) {
      page.node.set(Resources, own);
      pagesPruned++;
    }
    if (i % 50 === 49) await nextTurn(); // other requests of the portal go on meanwhile
  }
  if (!treeRebuilt && !pagesPruned) return null;

  if (treeRebuilt) {
    let level: { ref: PDFRef; node: PDFDict; count: number }[] = pages.map((p) => ({ ...p, count: 1 }));
    while (level.length > PAGE_NODE_KIDS) {
      const above: typeof level = [];
      for (let i = 0; i < level.length; i += PAGE_NODE_KIDS) {
        const kids = level.slice(i, i + PAGE_NODE_KIDS);
        const count = kids.reduce((sum, kid) => sum + kid.count, 0);
        const node = context.obj({ Type: 'Pages', Count: count, Kids: kids.map((kid) => kid.ref) });
        const ref = context.register(node);
        for (const kid of kids) kid.node.set(Parent, ref);
        above.push({ ref, node, count });
      }
      level = above;
    }
    for (const kid of level) kid.node.set(Parent, rootRef);
    root.set(Kids, context.obj(level.map((kid) => kid.ref)));
    root.set(PDFName.of('Count'), PDFNumber.of(pages.length));
  }

  context.snapshot = snapshot;
  snapshot.markRefsForSave([rootRef, ...pages.map((p) => p.ref)]);
  const bytes = await doc.saveIncremental(snapshot);
  return { bytes, pages: pages.length, treeRebuilt, pagesPruned };
}

type Context = PDFDocument['context'];
interface Page {
  ref: PDFRef;
  node: PDFDict;
}

/**
 * The pages in order, as pdf.js finds them (a node with /Kids is a node of the tree, anything else a page), and the
 * most kids a node has. Null for a tree pdf.js would not open either (a loop, a page twice, a kid that is no
 * dictionary): the PDF is left as it is.
 */
function pagesOf(context: Context, root: PDFDict, rootRef: PDFRef): { pages: Page[]; widest: number } | null {
  const pages: Page[] = [];
  const seen = new Set<PDFRef>([rootRef]);
  let widest = 0;
  const walk = (node: PDFDict): boolean => {
    const kids = context.lookup(node.get(Kids));
    if (!(kids instanceof PDFArray)) return false;
    widest = Math.max(widest, kids.size());
    for (const ref of kids.asArray()) {
      if (!(ref instanceof PDFRef) || seen.has(ref)) return false;
      seen.add(ref);
      const kid = context.lookup(ref);
      if (!(kid instanceof PDFDict)) return false;
      if (kid.has(Kids)) {
        if (!walk(kid)) return false;
      } else pages.push({ ref, node: kid });
    }
    return true;
  };
  return walk(root) ? { pages, widest } : null;
}

function inherited(context: Context, page: PDFDict, key: PDFName): PDFObject | undefined {
  const seen = new Set<PDFDict>([page]);
  let node = context.lookup(page.get(Parent));
  while (node instanceof PDFDict && !seen.has(node)) {
    const value = node.get(key);
    if (value !== undefined) return value;
    seen.add(node);
    node = context.lookup(node.get(Parent));
  }
  return undefined;
}

/**
 * The page's resources reduced to what its content names, or null when they are kept as they are: nothing to leave
 * out, or a content stream pdf-lib cannot decode, or something drawn on the page that may use the page's resources
 * rather than its own (a form XObject or an annotation's appearance without /Resources, a Type 3 font without them:
 * ISO 32000-1 §8.10.1, §9.6.5).
 */
function ownResources(context: Context, page: PDFDict): PDFDict | null {
  const resources = context.lookup(page.get(Resources) ?? inherited(context, page, Resources));
  if (!(resources instanceof PDFDict)) return null;
  const content = contentOf(context, page.get(PDFName.of('Contents')));
  if (!content || appearancesLackResources(context, page)) return null;
  const used = namesIn(content);
  const own = new Map<PDFName, PDFObject>();
  let dropped = 0;
  for (const [kind, value] of resources.entries()) {
    const named = context.lookup(value);
    if (!NAMED_RESOURCES.includes(kind) || !(named instanceof PDFDict)) {
      own.set(kind, value);
      continue;
    }
    const kept = new Map<PDFName, PDFObject>();
    for (const [name, object] of named.entries()) {
      if (!used.has(name.decodeText())) {
        dropped++;
        continue;
      }
      if (drawsWithPageResources(context, kind, object)) return null;
      kept.set(name, object);
    }
    own.set(kind, kept.size === named.entries().length ? value : PDFDict.fromMapWithContext(kept, context));
  }
  return dropped ? PDFDict.fromMapWithContext(own, context) : null;
}

/** The decoded bytes of a page's content streams (one, or an array of them); null when one cannot be decoded. */
function contentOf(context: Context, contents: PDFObject | undefined): Uint8Array[] | null {
  const value = context.lookup(contents);
  const streams = value instanceof PDFArray ? value.asArray().map((s) => context.lookup(s)) : value ? [value] : [];
  const decoded: Uint8Array[] = [];
  for (const stream of streams) {
    if (stream instanceof PDFRawStream) {
      try {
        decoded.push(decodePDFRawStream(stream).decode());
      } catch {
        return null; // a filter pdf-lib does not know, or a damaged stream: the page keeps its resources
      }
    } else if (stream instanceof PDFStream) decoded.push(stream.getContents());
    else return null;
  }
  return decoded;
}

/** Every name a content stream writes (/F1, /Im3, /GS0 …), #-escapes decoded: more than its resources, never fewer. */
function namesIn(content: Uint8Array[]): Set<string> {
  const names = new Set<string>();
  for (const bytes of content) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    for (const [, name] of text.matchAll(/\/([^\s/[\]()<>{}%]+)/g)) {
      names.add(name!.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
  }
  return names;
}

/** A form XObject or a Type 3 font without resources of its own draws with the page's. */
function drawsWithPageResources(context: Context, kind: PDFName, object: PDFObject): boolean {
  const value = context.lookup(object);
  const dict = value instanceof PDFStream ? value.dict : value instanceof PDFDict ? value : null;
  if (!dict) return false;
  const subtype = dict.get(PDFName.of('Subtype'));
  const drawn =
    (kind === PDFName.of('XObject') && subtype === PDFName.of('Form')) ||
    (kind === PDFName.of('Font') && subtype === PDFName.of('Type3'));
  return drawn && !dict.has(Resources);
}

/** Does an annotation of the page have an appearance stream without resources of its own? */
function appearancesLackResources(context: Context, page: PDFDict): boolean {
  const annots = context.lookup(page.get(PDFName.of('Annots')));
  if (!(annots instanceof PDFArray)) return false;
  for (const a of annots.asArray()) {
    const annot = context.lookup(a);
    const appearances = annot instanceof PDFDict ? context.lookup(annot.get(PDFName.of('AP'))) : undefined;
    if (!(appearances instanceof PDFDict)) continue;
    for (const [, entry] of appearances.entries()) {
      const value = context.lookup(entry);
      // An appearance is a stream, or a dictionary of streams by state (/On, /Off).
      const streams = value instanceof PDFDict ? value.values().map((v) => context.lookup(v)) : [value];
      if (streams.some((s) => s instanceof PDFStream && !s.dict.has(Resources))) return true;
    }
  }
  return false;
}
