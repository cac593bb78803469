import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { REPOSITORY_MESSAGES as M, type TrialRepoJson } from '#shared/schemas/repository.ts';

import { activityLogs, type GroupRow, type UserRow } from '#server/db/schema/index.ts';
import { authHeaders, createGroup } from '#server/test/factories.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

import {
  app,
  type Fields,
  leavesNothing,
  NOT_YOUR_GROUP,
  staff,
  stored,
  upload,
  zip,
} from './repositories.test-helpers.ts';

// POST /api/trialRepo: who may upload, what the form takes and what it refuses, and a refusal over a real socket.

describe('POST /api/trialRepo', () => {
  let group: GroupRow;
  let ad: UserRow;
  beforeAll(async () => {
    group = await createGroup(app, { name: 'Explosives Trials' });
    ad = await staff('associate_director', group);
  });

  it('refuses a visitor (401) and an employee or director (403)', async () => {
    const fields = { group: group.id, type: 'Field trial' };
    expect((await upload('/api/trialRepo', null, fields, zip())).statusCode).toBe(401);
    expect((await upload('/api/trialRepo', await staff('employee', group), fields, zip())).statusCode).toBe(403);
    expect((await upload('/api/trialRepo', await staff('director', group), fields, zip())).statusCode).toBe(403);
  });

  it('stores a ZIP with its numbers and languages split on commas, trimmed, blanks dropped', async () => {
    const metadata = JSON.stringify({ sizeInKB: '2048.5', duration: 15, languageUsed: ' C, Python,, Go , ' });
    const res = await upload(
      '/api/trialRepo',
      ad,
      {
        group: group.id,
        type: 'Blast chamber run',
        githubUrl: 'https://github.com/lab/trial-7',
        clonedRepoPath: '/srv/trials/7',
        metadata,
      },
      zip('trial-7.zip'),
    );
    expect(res.statusCode).toBe(201);
    const repo = res.json<TrialRepoJson>();
    expect(repo).toMatchObject({
      group: { _id: group.id, name: 'Explosives Trials' },
      type: 'Blast chamber run',
      metadata: { sizeInKB: 2048.5, duration: 15, languageUsed: ['C', 'Python', 'Go'] },
      originalName: 'trial-7.zip',
      uploadedBy: { _id: ad.id, personalDetails: { name: ad.name } },
    });
    expect(repo.filePath).toMatch(/^\/uploads\/trial-repos\/[0-9a-f-]{36}$/);
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, repo._id), eq(activityLogs.targetType, 'trial_repo')));
    expect(log?.action).toBe('Uploaded trial repository trial-7.zip (Blast chamber run) for group Explosives Trials');
  });

  it('takes languages as a list too, and no metadata at all', async () => {
    const list = await upload(
      '/api/trialRepo/',
      ad,
      {
        group: group.id,
        type: 'Notes',
        metadata: JSON.stringify({ languageUsed: ['  Rust ', '', 'Go, C'], sizeInKB: '', duration: null }),
      },
      { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.txt },
    );
    expect(list.statusCode).toBe(201);
    expect(list.json().metadata).toEqual({ sizeInKB: null, duration: null, languageUsed: ['Rust', 'Go', 'C'] });
    const none = await upload(
      '/api/trialRepo',
      ad,
      { group: group.id, type: 'Photo' },
      { field: 'file', filename: 'rig.png', content: SAMPLE_FILES.png },
    );
    expect(none.statusCode).toBe(201);
    expect(none.json().metadata).toEqual({ sizeInKB: null, duration: null, languageUsed: [] });
  });

  const bad: [string, (g: string) => Fields, boolean, string, string][] = [
    ['no group', () => ({ type: 'Run' }), true, M.trialRequired, 'group'],
    ['no type', (g) => ({ group: g, type: '  ' }), true, M.trialRequired, 'type'],
    ['no file', (g) => ({ group: g, type: 'Run' }), false, M.trialRequired, 'file'],
    [
      'a negative size',
      (g) => ({ group: g, type: 'Run', metadata: '{"sizeInKB":-1}' }),
      true,
      M.sizeInKB,
      'metadata.sizeInKB',
    ],
    [
      'a size that is not a number',
      (g) => ({ group: g, type: 'Run', metadata: '{"sizeInKB":"big"}' }),
      true,
      M.sizeInKB,
      'metadata.sizeInKB',
    ],
    [
      'a negative duration',
      (g) => ({ group: g, type: 'Run', metadata: '{"duration":"-5"}' }),
      true,
      M.duration,
      'metadata.duration',
    ],
    [
      'metadata that is not JSON',
      (g) => ({ group: g, type: 'Run', metadata: 'size=1' }),
      true,
      M.metadataJson,
      'metadata',
    ],
    [
      'metadata that is not an object',
      (g) => ({ group: g, type: 'Run', metadata: '42' }),
      true,
      M.metadataJson,
      'metadata',
    ],
    ['a URL that is not one', (g) => ({ group: g, type: 'Run', githubUrl: 'ftp://x' }), true, M.githubUrl, 'githubUrl'],
  ];
  it.each(bad)('refuses %s with the spec message, keeping no file', async (_name, fields, withFile, message, field) => {
    const res = await leavesNothing('trial-repos', () =>
      upload('/api/trialRepo', ad, fields(group.id), withFile ? zip() : undefined),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, message, field });
  });

  it('accepts only the trial file types, by name and by content', async () => {
    await leavesNothing('trial-repos', async () => {
      const exe = await upload(
        '/api/trialRepo',
        ad,
        { group: group.id, type: 'Run' },
        zip('run.exe', SAMPLE_FILES.exe),
      );
      expect(exe.json().message).toBe(
        'This file type is not allowed. Allowed types: pdf, doc, docx, mp4, zip, rar, txt, jpg, jpeg, png, gif.',
      );
      const renamed = await upload(
        '/api/trialRepo',
        ad,
        { group: group.id, type: 'Run' },
        zip('video.mp4', SAMPLE_FILES.exe),
      );
      expect(renamed.statusCode).toBe(400);
      expect(renamed.json().message).toBe("The file's content does not match its .mp4 extension.");
    });
  });

  it('keeps an associate director to their own group', async () => {
    const other = await createGroup(app);
    const res = await leavesNothing('trial-repos', () =>
      upload('/api/trialRepo', ad, { group: other.id, type: 'Run' }, zip()),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(NOT_YOUR_GROUP);
  });

  it('answers a refusal judged on the first fields at once, and ends the connection instead of stalling the upload', async () => {
    // Over a real socket: the group is refused before the file is read, while the sender is still sending 64 MB.
    const other = await createGroup(app);
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const boundary = `----lp${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="group"\r\n\r\n${other.id}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nRun\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n` +
        `Content-Type: application/zip\r\n\r\n`,
    );
    const fileBytes = 64 * 1024 * 1024;
    const before = stored('trial-repos');
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/trialRepo',
      headers: {
        ...(await authHeaders(app, ad)),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + fileBytes,
      },
    });
    req.on('error', () => {}); // the server ends the connection while this side is still writing
    const closed = new Promise<void>((resolve) => req.on('close', resolve));
    const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve) =>
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      }),
    );
    req.write(head);
    req.write(SAMPLE_FILES.zip.subarray(0, 4)); // a ZIP's signature, then the rest of the declared 64 MB, slowly
    const chunk = Buffer.alloc(64 * 1024);
    const sending = setInterval(() => !req.destroyed && req.write(chunk), 5);
    try {
      const res = await answer;
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).message).toBe(NOT_YOUR_GROUP);
      expect(res.connection).toBe('close');
      await closed; // without "close" the server would stop reading and hold the connection until a time-out
    } finally {
      clearInterval(sending);
      req.destroy();
    }
    expect(stored('trial-repos')).toEqual(before);
  });
});
