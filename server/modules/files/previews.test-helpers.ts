import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { afterAll, expect } from 'vitest';

import { filePreviews, files, type UserRow } from '#server/db/schema/index.ts';
import { send } from '#server/modules/groups/group-items.test-helpers.ts';
import { type GroupCast, groupCast, type Person } from '#server/modules/groups/groups.fixtures.ts';

// What the preview tests share (previews.test.ts, previews.office.test.ts): a group and its people, uploads to it, and
// the preview's state as the API and the table give it. Each test file that imports this has its own.

export const work = mkdtempSync(path.join(os.tmpdir(), 'lp-preview-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
export const c: GroupCast = await groupCast();
export const preview = (over: Partial<{ soffice: string; timeoutSeconds: number; maxBytes: number }> = {}) => ({
  preview: { ...c.app.config.preview, ...over },
  sandbox: c.app.config.sandbox,
});

/** Uploads to the group: an Office document as a group notice (.doc/.docx), anything else to its Projects. */
export async function upload(filename: string, content: Buffer) {
  const list = /\.docx?$/.test(filename)
    ? `/api/groups/${c.group.id}/notices`
    : `/api/group-files/${c.group.id}/projects`;
  const res = await send(
    c,
    'admin',
    'POST',
    list,
    { name: filename, description: 'x' },
    {
      field: 'file',
      filename,
      content,
    },
  );
  expect(res.statusCode, res.body).toBe(201);
  const item = res.json() as { _id: string; fileUrl: string };
  const [, , area, name] = item.fileUrl.split('/');
  const [row] = await c.app.db.select().from(files).where(eq(files.storedName, name!));
  return { ...item, area: area!, name: name!, fileId: row!.id };
}

export const get = async (who: Person | UserRow, url: string, headers: Record<string, string> = {}) =>
  c.app.inject({ url, headers: { ...(await c.as(who)), ...headers } });

export const stateOf = async (fileId: string) =>
  (await c.app.db.select().from(filePreviews).where(eq(filePreviews.fileId, fileId)))[0];

export function textOf(pdf: Buffer): string {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

export const soffice = existsSync('/usr/bin/soffice');
