import { describe, expect, it } from 'vitest';

import type { Db } from '#server/db/client.ts';
import type { FileRow } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';

import { createFileAccess } from './file-access.ts';
import { PRIVATE_AREAS } from './storage-areas.ts';

buildTestAppBeforeAll();

const db = {} as Db;
const actor = (id: string, role: Actor['role'] = 'employee') => ({ id, role }) as Actor;
const file = (area: string, uploadedBy: string) => ({ id: 'f', area, uploadedBy }) as FileRow;

describe('file access rules (app.fileAccess)', () => {
  it("answers with the area's rule, admins always, and the uploader alone where an area has none", async () => {
    const rules = createFileAccess();
    rules.register('letters', async (_db, who) => who.id === 'reader');
    expect(await rules.canDownload(db, actor('reader'), file('letters', 'someone'))).toBe(true);
    expect(await rules.canDownload(db, actor('uploader'), file('letters', 'uploader'))).toBe(false);
    expect(await rules.canDownload(db, actor('boss', 'admin'), file('letters', 'someone'))).toBe(true);
    expect(await rules.canDownload(db, actor('uploader'), file('trial-repos', 'uploader'))).toBe(true);
    expect(await rules.canDownload(db, actor('other'), file('trial-repos', 'uploader'))).toBe(false);
  });

  it('names every private area without a rule, and no public one', () => {
    const rules = createFileAccess();
    expect(rules.missing()).toHaveLength(7);
    expect(rules.missing()).toEqual(
      expect.arrayContaining(['group-files', 'user-documents', 'letters', 'trial-repos']),
    );
    expect(rules.missing()).not.toContain('photos');
    rules.register('letters', async () => true);
    expect(rules.missing()).not.toContain('letters');
  });

  it('every module registers the rule of its private areas as the app is built', async () => {
    const app = await buildTestApp();
    expect(app.fileAccess.missing()).toEqual([]);
  });

  it('refuses to start when a private area has no rule, naming it', async () => {
    const start = buildTestApp({}, async (app) => {
      const rules = createFileAccess();
      for (const area of PRIVATE_AREAS) if (area !== 'trial-repos') rules.register(area, async () => true);
      app.fileAccess = rules;
    });
    await expect(start).rejects.toThrow(
      'No download rule for the private file area(s) trial-repos: register one with app.fileAccess.register.',
    );
  });
});
