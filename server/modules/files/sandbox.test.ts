import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

import { filePreviews, files } from '#server/db/schema/index.ts';
import { checkSandbox, runSandboxed, SandboxLimitError } from '#server/lib/sandbox.ts';
import { send } from '#server/modules/groups/group-items.test-helpers.ts';
import { type GroupCast, groupCast } from '#server/modules/groups/groups.fixtures.ts';
import { docxWithText } from '#server/test/documents.ts';
import { docxWithLinkedPictures } from '#server/test/office-files.ts';

import { makePreview } from './previews.ts';

/**
 * The sandbox of the parsers of uploaded files (decision 091): what a program in it sees and reaches, its limits, and
 * LibreOffice given a document that links pictures from the portal's own network and files.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-sandbox-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const c: GroupCast = await groupCast();
const bwrap = c.app.config.sandbox.bwrap;
const limits = { cpuSeconds: 10, memoryMb: 256, wallSeconds: 30 };

function folder(name: string) {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Uploads a .docx to the group as a notice; its stored file's id. */
async function uploadDocx(filename: string, content: Buffer) {
  const res = await send(
    c,
    'admin',
    'POST',
    `/api/groups/${c.group.id}/notices`,
    { name: filename, description: 'x' },
    { field: 'file', filename, content },
  );
  expect(res.statusCode, res.body).toBe(201);
  const item = res.json() as { fileUrl: string };
  const name = item.fileUrl.split('/').pop()!;
  const [row] = await c.app.db.select().from(files).where(eq(files.storedName, name));
  return { fileUrl: item.fileUrl, fileId: row!.id };
}

const stateOf = async (fileId: string) =>
  (await c.app.db.select().from(filePreviews).where(eq(filePreviews.fileId, fileId)))[0];

describe('a program in the sandbox', () => {
  it('sees its one input file and its output folder: no network, no DATA_DIR, no /etc/passwd', async () => {
    const input = path.join(work, 'input.txt');
    writeFileSync(input, 'the upload');
    const out = folder('out-sees');
    const dataDir = c.app.config.dataDir;
    const { stdout } = await runSandboxed(bwrap, {
      program: 'sh',
      args: ({ input: seen, output }) => [
        '-c',
        `cat ${seen}; echo; ls /in; ls /; test -e /etc/passwd || echo no-passwd; test -e ${dataDir} || echo no-data;` +
          ` test -e ${work} || echo no-work; tail -n +3 /proc/net/dev | cut -d: -f1; echo made > ${output}/made.txt`,
      ],
      input,
      inputName: 'upload.txt',
      outputDir: out,
      limits,
    });
    const lines = stdout.split('\n').map((l) => l.trim());
    expect(lines[0]).toBe('the upload');
    expect(lines[1]).toBe('upload.txt');
    expect(lines).toContain('no-passwd');
    expect(lines).toContain('no-data');
    expect(lines).toContain('no-work');
    // Its own network namespace: the loopback device only.
    expect(lines.filter((l) => /^(lo|eth\d|ens\w*|veth\w*)$/.test(l))).toEqual(['lo']);
    expect(existsSync(path.join(out, 'made.txt'))).toBe(true);
  });

  it("reads fontconfig's cache of the system fonts but cannot change it; background work runs at nice 19", async () => {
    const input = path.join(work, 'input.txt');
    writeFileSync(input, 'x');
    const run = (background: boolean) =>
      runSandboxed(bwrap, {
        program: 'sh',
        args: () => ['-c', 'nice; ls /var; ls /var/cache; touch /var/cache/fontconfig/x 2>/dev/null || echo read-only'],
        input,
        inputName: 'x',
        outputDir: folder('out-fonts'),
        limits,
        background,
      });
    const lines = (await run(false)).stdout.split('\n').map((l) => l.trim());
    expect(lines[0]).toBe('0');
    // Of /var only that cache (when the host has one: fc-cache makes it).
    if (existsSync('/var/cache/fontconfig')) {
      expect(lines.slice(1)).toEqual(['cache', 'fontconfig', 'read-only', '']);
    }
    expect((await run(true)).stdout.split('\n')[0]).toBe('19');
  });

  it('is stopped past its CPU time, its memory and its wall clock', async () => {
    const input = path.join(work, 'input.txt');
    writeFileSync(input, 'x');
    const run = (script: string, over: Partial<typeof limits>) =>
      runSandboxed(bwrap, {
        program: 'sh',
        args: () => ['-c', script],
        input,
        inputName: 'x',
        outputDir: folder('out-limits'),
        limits: { ...limits, ...over },
      });
    await expect(run('while :; do :; done', { cpuSeconds: 1 })).rejects.toMatchObject({ limit: 'cpu' });
    await expect(run('head -c 400000000 /dev/zero | tail -c 300000000 > /dev/null', {})).rejects.toMatchObject({
      limit: 'memory',
    });
    const started = Date.now();
    const slept = run('sleep 30 & sleep 31; wait', { wallSeconds: 1 });
    await expect(slept).rejects.toBeInstanceOf(SandboxLimitError);
    await expect(slept).rejects.toMatchObject({ limit: 'time', message: 'took longer than 1 s' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('a .docx linking pictures from the portal’s network and files', () => {
  it(
    'reaches LibreOffice in the sandbox: nothing is fetched, and its PDF holds no image',
    { timeout: 180_000 },
    async () => {
      let requests = 0;
      const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c04020' } })
        .png()
        .toBuffer();
      const listener = createServer((_req, res) => {
        requests++;
        res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const { port } = listener.address() as AddressInfo;
      try {
        // Another upload of the portal, stored in DATA_DIR: a picture someone else sent.
        const other = await uploadDocx('other.docx', docxWithText('Not for the uploader'));
        const [otherRow] = await c.app.db.select().from(files).where(eq(files.id, other.fileId));
        const stored = c.app.storage.storedPath(otherRow!.area as never, otherRow!.storedName);
        writeFileSync(path.join(work, 'local.png'), photo);
        const hostile = await uploadDocx(
          'hostile.docx',
          docxWithLinkedPictures([
            `http://127.0.0.1:${port}/picture.png`,
            `file://${path.join(work, 'local.png')}`,
            `file://${stored}`,
            'file:///etc/passwd',
          ]),
        );
        expect(await makePreview(c.app.db, c.app.storage, c.app.config, hostile.fileId)).toBe('ready');
        const preview = await c.app.inject({ url: `${hostile.fileUrl}/pdf`, headers: await c.as('admin') });
        expect(preview.statusCode).toBe(200);
        const pdf = path.join(work, 'hostile-preview.pdf');
        writeFileSync(pdf, preview.rawPayload);
        expect(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' })).toContain('Quarterly report');
        const images = execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).trim().split('\n').slice(2);
        expect(images).toEqual([]);
        expect(requests).toBe(0);
      } finally {
        listener.close();
      }
    },
  );
});

describe('without bubblewrap', () => {
  it('warns once, and an Office file gets no preview but still downloads', async () => {
    const missing = path.join(work, 'no-bwrap');
    const warnings: string[] = [];
    const log = { warn: (_: object, msg: string) => void warnings.push(msg) };
    expect((await checkSandbox(missing, log)).available).toBe(false);
    await checkSandbox(missing, log);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/bubblewrap \(bwrap\) cannot be used: Office files get no preview/);

    const doc = await uploadDocx('minutes.docx', docxWithText('Minutes'));
    const config = { preview: c.app.config.preview, sandbox: { ...c.app.config.sandbox, bwrap: missing } };
    expect(await makePreview(c.app.db, c.app.storage, config, doc.fileId)).toBe('unavailable');
    expect((await stateOf(doc.fileId))?.reason).toBe('the sandbox (bwrap) is missing: no Office previews');
    expect((await c.app.inject({ url: doc.fileUrl, headers: await c.as('admin') })).statusCode).toBe(200);
  });
});
