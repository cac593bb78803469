import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, expect } from 'vitest';

import { noteFromText } from '#shared/schemas/efile-note.ts';

import { activityLogs, directorEntries, efileHeads, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';
import { makeTestCertificates, startSignerHelper } from '#server/test/signer-helper.ts';

/**
 * The apps and helpers of the drafts-for-approval tests (decision 122): an app with the lab's seal (a test
 * certificate made by openssl) and, when asked, a real signer helper for personal signatures (decision 119).
 */
export type Who = UserRow | null;
export const word = () => `w${Math.random().toString(36).slice(2, 10)}`;
export const body = (text: string) => noteFromText(text);
export const codeOf = (res: LightMyRequestResponse) => (res.json() as { code?: string }).code;

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-drafts-'));
const cleanups: (() => unknown)[] = [() => rmSync(work, { recursive: true, force: true })];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

/** pdfsig's report of a PDF: one entry per signature. */
export function pdfsig(pdf: Uint8Array) {
  const file = path.join(work, `${word()}.pdf`);
  writeFileSync(file, pdf);
  const out = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  return out
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((part) => ({
      commonName: /Signer Certificate Common Name: (.*)/.exec(part)?.[1] ?? '',
      type: /Signature Type: (.*)/.exec(part)?.[1] ?? '',
      whole: /^\s*- Total document signed$/m.test(part),
      validation: /Signature Validation: (.*)/.exec(part)?.[1] ?? '',
    }));
}

/** The text pdftotext reads from a PDF. */
export function pdfText(pdf: Uint8Array): string {
  const file = path.join(work, `${word()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** An app for these tests: sealed (`seal`), with a signer helper (`helper`), or neither. */
export async function draftsWorld({ seal = true, helper = false } = {}) {
  const overrides: Record<string, string> = {};
  let helperServer: Awaited<ReturnType<typeof startSignerHelper>> | undefined;
  if (seal) {
    const certs = makeTestCertificates('Test Lab Seal');
    cleanups.push(() => certs.remove());
    overrides.SIGNING_P12 = certs.p12Path;
    overrides.SIGNING_P12_PASSWORD = certs.p12Password;
  }
  if (helper) {
    const person = makeTestCertificates('Dr Rao DSC');
    cleanups.push(() => person.remove());
    helperServer = await startSignerHelper(person);
    cleanups.push(() => helperServer!.close());
    overrides.SIGNER_HELPER_URL = helperServer.url;
  }
  const app: FastifyInstance = await buildTestApp(overrides);
  return { app, helper: helperServer, ...helpersFor(app) };
}

function helpersFor(app: FastifyInstance) {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    user: Who,
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: user ? await authHeaders(app, user) : {},
    });
  const upload = async (
    user: Who,
    url: string,
    fields: Record<string, string>,
    file?: { filename: string; content: Buffer | string },
  ) => {
    const form = file ? multipart(fields, { field: 'document', ...file }) : multipart(fields);
    return app.inject({
      method: 'POST',
      url,
      payload: form.payload,
      headers: { ...form.headers, ...(user ? await authHeaders(app, user) : {}) },
    });
  };
  let head: { id: string } | undefined;
  /** A group with an employee (the author), a colleague, its head, a director, an admin and an outsider. */
  const cast = async () => {
    const group = await createGroup(app, { name: `Fire Safety Group ${word()}` });
    const employee = await createUser(app, 'employee', {
      groupId: group.id,
      name: 'Asha Verma',
      designation: 'Scientist B',
    });
    const colleague = await createUser(app, 'employee', { groupId: group.id, name: 'Ravi Kumar' });
    const gh = await createUser(app, 'associate_director', {
      groupId: group.id,
      name: 'Dr Mehta',
      designation: 'Group Head',
    });
    await app.db
      .insert(directorEntries)
      .values({ groupId: group.id, userId: gh.id, designation: 'Group Head', from: '2020-01-01' });
    const director = await createUser(app, 'director', { name: 'डॉ. राव', designation: 'Director' });
    const admin = await createUser(app, 'admin');
    const outsider = await createUser(app, 'employee');
    return { group, employee, colleague, gh, director, admin, outsider };
  };
  /** Opens a file as `user`. */
  const open = async (user: UserRow, over: Record<string, unknown> = {}) => {
    head ??= (
      await app.db
        .insert(efileHeads)
        .values({ code: `D${word()}`.slice(0, 9), name: 'Purchase' })
        .returning()
    )[0]!;
    const res = await call('POST', user, '/api/efiles', { subject: `Fire audit ${word()}`, headId: head.id, ...over });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { _id: string; number: string };
  };
  /** A rich-text draft v1 in the file, written by its holder. */
  const draft = async (user: UserRow, fileId: string, text = 'The fire audit of Building 4 is due.') => {
    const res = await call('POST', user, `/api/efiles/${fileId}/drafts`, {
      title: 'Letter to the fire officer',
      body: body(text),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { _id: string; ref: string };
  };
  const drafts = async (user: Who, fileId: string) => {
    const res = await call('GET', user, `/api/efiles/${fileId}/drafts`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      _id: string;
      state: string;
      versions: { version: number }[];
      item: { ref: string; fileUrl: string } | null;
      can: Record<string, boolean>;
    }[];
  };
  const receive = (user: Who, id: string) => call('POST', user, `/api/efiles/${id}/receive`);
  const putUp = (user: Who, id: string, draftId: string, to: string, remarks = '') =>
    call('POST', user, `/api/efiles/${id}/drafts/${draftId}/put-up`, { to, remarks });
  const logsFor = (id: string) => app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));
  return { call, upload, cast, open, draft, drafts, receive, putUp, logsFor };
}

export const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res;
};
