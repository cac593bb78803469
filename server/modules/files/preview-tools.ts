import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { Config } from '#server/config.ts';
import {
  ProgramMissing,
  runSandboxed,
  SandboxFailed,
  SandboxLimitError,
  type SandboxLimits,
  SandboxMissing,
} from '#server/lib/sandbox.ts';
import { runNodeParser } from '#server/lib/sandbox-node.ts';

import { MAX_IMAGE_PIXELS } from './images.ts';

/**
 * The tools that make a preview (decision 084), each run in the sandbox (server/lib/sandbox.ts, decision 091) on the
 * one file it reads: LibreOffice for an Office file's PDF; a node parser (server/parsers) for a PDF's viewer update
 * (pdf-lib, decision 088) and its thumbnail (pdftoppm, then sharp) and for an image's thumbnail.
 */

/** The longer side of a thumbnail, in pixels (shown at 160 CSS pixels: sharp on a 2x screen). */
export const THUMBNAIL_PX = 320;

/** Why a preview is not available: its message is the reason kept in `file_previews`. */
export class Unavailable extends Error {}

export type ToolConfig = Pick<Config, 'preview' | 'sandbox'>;

const limitsOf = ({ preview, sandbox }: ToolConfig): SandboxLimits => ({
  cpuSeconds: sandbox.cpuSeconds,
  memoryMb: sandbox.memoryMb,
  wallSeconds: preview.timeoutSeconds,
});

/**
 * The settings of LibreOffice's fresh profile: a second guard, after the sandbox, against a document that links
 * pictures or other documents (decision 091). Links from documents outside the trusted locations (none) are blocked
 * (BlockUntrustedRefererLinks), and Writer's and Calc's links are never updated (Writer: 0 never, 1 on request,
 * 2 always; Calc: 0 always, 1 never, 2 on request).
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
</oor:items>
`;

/**
 * LibreOffice headless converts one file to PDF in the sandbox, with a fresh profile of its own in its output folder
 * (two conversions, or a person's own LibreOffice, never share one). Past a limit it is killed with every process it
 * started. Never run without bubblewrap: it is the parser that follows links.
 */
export async function convertToPdf(original: string, work: string, config: ToolConfig): Promise<string> {
  const out = path.join(work, 'office');
  const settings = path.join(out, 'profile', 'user');
  await mkdir(settings, { recursive: true });
  await writeFile(path.join(settings, 'registrymodifications.xcu'), PROFILE_SETTINGS);
  const name = path.basename(original);
  try {
    await runSandboxed(config.sandbox.bwrap, {
      program: config.preview.soffice,
      args: ({ input, output }) => [
        `-env:UserInstallation=file://${output}/profile`,
        '--headless',
        '--norestore',
        '--convert-to',
        'pdf',
        '--outdir',
        output,
        input,
      ],
      input: original,
      inputName: name,
      outputDir: out,
      limits: limitsOf(config),
      needsIsolation: true,
    });
  } catch (err) {
    if (err instanceof ProgramMissing) throw new Unavailable('LibreOffice is not installed');
    if (err instanceof SandboxMissing) throw new Unavailable('the sandbox (bwrap) is missing: no Office previews');
    if (err instanceof SandboxLimitError && err.limit === 'time') {
      throw new Unavailable(`LibreOffice took longer than ${config.preview.timeoutSeconds} s`);
    }
    if (err instanceof SandboxLimitError) throw new Unavailable(`LibreOffice ${err.message}`);
    if (err instanceof SandboxFailed) {
      throw new Unavailable(`LibreOffice could not convert the file: ${err.message.slice(0, 300)}`);
    }
    throw err;
  }
  const pdf = (await readdir(out)).find((n) => n.endsWith('.pdf'));
  if (!pdf) throw new Unavailable('LibreOffice made no PDF of the file');
  return path.join(out, pdf);
}

export interface PdfAnswer {
  update?: { pages: number; treeRebuilt: boolean; pagesPruned: number; bytes: number };
  updateError?: string;
  tooManyPages?: number;
  thumbnail: boolean;
  thumbnailError?: string;
}

/** Where a sandboxed tool leaves what it made. */
export interface Made {
  /** `viewer.update` when the PDF got one. */
  update: string | null;
  /** `thumbnail.webp` when one could be drawn. */
  thumbnail: string | null;
  answer: PdfAnswer;
}

/**
 * A PDF's viewer update (when `update`, and it needs one: decision 088) and its thumbnail, made in one sandboxed run.
 * An uploaded PDF whose stored bytes are not `expectedSize` long gets no update (it is read at that offset).
 */
export async function pdfTools(
  pdf: string,
  work: string,
  config: ToolConfig,
  { update, expectedSize }: { update: boolean; expectedSize: number | null },
): Promise<Made> {
  const out = path.join(work, 'pdf-tools');
  await mkdir(out, { recursive: true });
  const answer = await sandboxedNode<PdfAnswer>('the PDF', config, {
    task: 'pdf',
    input: pdf,
    inputName: 'document.pdf',
    outputDir: out,
    options: {
      update,
      expectedSize,
      maxPages: config.sandbox.maxPages,
      thumbnailPx: THUMBNAIL_PX,
      maxPixels: MAX_IMAGE_PIXELS,
    },
  });
  return {
    update: answer.update ? path.join(out, 'viewer.update') : null,
    thumbnail: answer.thumbnail ? path.join(out, 'thumbnail.webp') : null,
    answer,
  };
}

/** An image's thumbnail, made in the sandbox. */
export async function imageTools(image: string, work: string, config: ToolConfig): Promise<Made> {
  const out = path.join(work, 'image-tools');
  await mkdir(out, { recursive: true });
  const answer = await sandboxedNode<PdfAnswer>('the image', config, {
    task: 'image',
    input: image,
    inputName: `image${path.extname(image)}`,
    outputDir: out,
    options: { thumbnailPx: THUMBNAIL_PX, maxPixels: MAX_IMAGE_PIXELS },
  });
  return { update: null, thumbnail: answer.thumbnail ? path.join(out, 'thumbnail.webp') : null, answer };
}

async function sandboxedNode<T>(
  what: string,
  config: ToolConfig,
  run: Omit<Parameters<typeof runNodeParser>[0], 'bwrap' | 'limits'>,
): Promise<T> {
  try {
    return await runNodeParser<T>({ ...run, bwrap: config.sandbox.bwrap, limits: limitsOf(config) });
  } catch (err) {
    if (err instanceof SandboxLimitError) throw new Unavailable(`reading ${what} ${err.message}`);
    if (err instanceof SandboxFailed) throw new Unavailable(`${what} could not be read: ${err.message.slice(0, 300)}`);
    throw err;
  }
}
