import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { fileTexts } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createLab, createUser } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';

import { extractFileText } from './extraction.ts';
import { TextExtractor } from './extractor.ts';
import { admin, app, extract, extractor, finds, lab, pdf, send } from './search.test-helpers.ts';

// The limits of text extraction: corrupt and huge files, the slow reading process.

describe('text extraction: limits', () => {
  it('a corrupt PDF fails alone and a 25 MB text file is cut, while other requests are answered at once', async () => {
    const big = await buildTestApp({ UPLOAD_MAX_BYTES: String(30 * 1024 * 1024) });
    const user = await createUser(big, 'admin', { name: 'Big Admin' });
    const headers = await authHeaders(big, user);
    const bigLab = await createLab(big);
    const word = uniqueWord();
    const post = async (filename: string, content: Buffer, kind = 'notices') => {
      const body = multipart({ name: filename, description: 'x' }, { field: 'file', filename, content });
      const res = await big.inject({
        method: 'POST',
        url: `/api/labs/${bigLab.id}/${kind}`,
        payload: body.payload,
        headers: { ...body.headers, ...headers },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().fileUrl.split('/').pop() as string;
    };
    const corrupt = await post('broken.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x41)]));
    const text = Buffer.alloc(25 * 1024 * 1024, 'lorem ipsum dolor ');
    text.write(`${word} `, 0);
    const bodyTxt = multipart({}, { field: 'document', filename: 'huge.txt', content: text });
    const cg = await big.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers,
      payload: {
        groupName: 'Huge files',
        groupPurpose: 'Limits',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [user.id],
        adminRemarks: '',
      },
    });
    const up = await big.inject({
      method: 'POST',
      url: `/api/close-groups/${cg.json()._id}/upload`,
      payload: bodyTxt.payload,
      headers: { ...bodyTxt.headers, ...headers },
    });
    expect(up.statusCode, up.body).toBe(201);
    const hugeId = up.json().document.url.split('/').pop() as string;

    const started = Date.now();
    const work = Promise.all([
      extractFileText(big.db, big.storage, corrupt, extractor),
      extractFileText(big.db, big.storage, hugeId, extractor),
    ]);
    // While both files are read, the server answers other requests at once.
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = Date.now();
      const res = await big.inject({ url: '/api/search?q=lorem', headers });
      expect(res.statusCode).toBe(200);
      latencies.push(Date.now() - t);
    }
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect(await work).toEqual(['failed', 'done']);
    expect(Date.now() - started).toBeLessThan(30_000);
    const [broken] = await big.db.select().from(fileTexts).where(eq(fileTexts.fileId, corrupt));
    expect(broken).toMatchObject({ status: 'failed', text: '' });
    expect(broken!.error).toBeTruthy();
    const [huge] = await big.db.select().from(fileTexts).where(eq(fileTexts.fileId, hugeId));
    expect(huge!.text.length).toBeLessThanOrEqual(100_000);
    expect((await big.inject({ url: `/api/search?q=${word}`, headers })).json().results).toHaveLength(1);
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'reads each file in a process of its own, never in a thread of the server (decision 091)',
    async () => {
      const threads = () => new Set(readdirSync('/proc/self/task'));
      const reader = new TextExtractor();
      const folder = mkdtempSync(path.join(os.tmpdir(), 'lp-extract-'));
      const file = path.join(folder, 'a.txt');
      writeFileSync(file, 'background text');
      const before = threads();
      const children: string[] = [];
      const reading = reader.extract(file, 'txt');
      // While it reads, a child process of the server runs it (bwrap, then node inside), not a thread of ours.
      const until = Date.now() + 10_000;
      while (!children.length && Date.now() < until) {
        const list = readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim();
        if (list) children.push(...list.split(' '));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await reading).toBe('background text');
      expect(children.length).toBeGreaterThan(0);
      expect([...threads()].filter((t) => !before.has(t))).toEqual([]);
      await reader.close();
      rmSync(folder, { recursive: true, force: true });
    },
  );

  it('a file that takes longer than the time limit is given up, and the next file is read by a fresh process', async () => {
    const word = uniqueWord();
    const slow = new TextExtractor({ timeoutMs: 1, maxBytes: 1024 * 1024, maxChars: 1000, memoryMb: 128 });
    await send(admin, 'POST', `/api/labs/${lab.id}/notices`, { name: 'Slow', description: 'x' }, pdf(word));
    const [pending] = await app.db.select().from(fileTexts).where(eq(fileTexts.status, 'pending'));
    expect(await extractFileText(app.db, app.storage, pending!.fileId, slow)).toBe('failed');
    const [row] = await app.db.select().from(fileTexts).where(eq(fileTexts.fileId, pending!.fileId));
    expect(row!.error).toMatch(/took longer than/);
    await slow.close();
    // The shared extractor reads the next file normally.
    const next = uniqueWord();
    await send(admin, 'POST', `/api/labs/${lab.id}/notices`, { name: 'Next', description: 'x' }, pdf(next));
    await extract();
    expect(await finds(null, next, 'notice')).toBe(true);
  });
});
