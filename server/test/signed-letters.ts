import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

import type { Seal } from '#server/config.ts';
import { signingConfig } from '#server/config/signing.ts';
import { directorEntries, efileHeads, type UserRow } from '#server/db/schema/index.ts';
import { sealSigner } from '#server/modules/signatures/seal.ts';
import { signPdf } from '#server/modules/signatures/sign-pdf.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';
import { makeTestCertificates, type TestCertificates } from '#server/test/signer-helper.ts';

/*
 * The set-up of the dispatch register's and the signature checks' tests (decisions 120, 123): a lab seal made by
 * openssl, PDFs it signs, e-files holding them as correspondence items, and pdfsig's verdict to compare with.
 */

export interface Kit {
  app: FastifyInstance;
  certs: TestCertificates;
  seal: Seal;
  work: string;
  close(): void;
}

export function makeKit(app: FastifyInstance): Kit {
  const certs = makeTestCertificates('Test Lab Seal');
  const seal = signingConfig({ SIGNING_P12: certs.p12Path, SIGNING_P12_PASSWORD: certs.p12Password })!;
  const work = mkdtempSync(path.join(os.tmpdir(), 'lp-dispatch-'));
  return {
    app,
    certs,
    seal,
    work,
    close: () => {
      certs.remove();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

export type Who = UserRow | null;
export const call = async (
  app: FastifyInstance,
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

export const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res;
};

/** A one-page letter sealed by the lab. */
export async function sealedPdf(kit: Kit, text = 'Letter to the Chief Controller of Explosives'): Promise<Buffer> {
  const signed = await signPdf(pdfWithPages([text]), sealSigner(kit.seal), {
    name: 'राम कुमार',
    designation: 'Director',
    reason: 'Approved',
    location: 'Test Lab',
    contactInfo: 'director@lab.example',
  });
  return Buffer.from(signed);
}

/** pdfsig's "Signature Validation" lines, one per signature. */
export function pdfsigValidations(kit: Kit, pdf: Uint8Array): string[] {
  const file = path.join(kit.work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  let out: string;
  try {
    out = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? '');
  }
  return [...out.matchAll(/Signature Validation: (.*)/g)].map((m) => m[1]!);
}

/** The PDF with one byte of its page text changed (a byte the first signature covers). */
export function tampered(pdf: Buffer): Buffer {
  const copy = Buffer.from(pdf);
  const at = copy.indexOf('Chief');
  expect(at).toBeGreaterThan(0);
  copy[at] = 'X'.charCodeAt(0);
  return copy;
}

/** A group with its employee (who opens files), a colleague, a director, an admin and an outsider. */
export async function cast(app: FastifyInstance) {
  const group = await createGroup(app, { name: `Dispatch Group ${Math.random().toString(36).slice(2, 8)}` });
  const employee = await createUser(app, 'employee', { groupId: group.id, name: 'Asha Verma' });
  const colleague = await createUser(app, 'employee', { groupId: group.id, name: 'Ravi Kumar' });
  const gh = await createUser(app, 'associate_director', { groupId: group.id, name: 'Dr Mehta' });
  await app.db
    .insert(directorEntries)
    .values({ groupId: group.id, userId: gh.id, designation: 'Group Head', from: '2020-01-01' });
  const director = await createUser(app, 'director', { name: 'Dr Rao' });
  const admin = await createUser(app, 'admin');
  const outsider = await createUser(app, 'employee');
  return { group, employee, colleague, gh, director, admin, outsider };
}

let headId: string | undefined;
/** Opens a file as `user`. */
export async function openFile(app: FastifyInstance, user: UserRow, over: Record<string, unknown> = {}) {
  headId ??= (await app.db.insert(efileHeads).values({ code: 'DSP', name: 'Dispatch' }).returning())[0]!.id;
  const res = ok(
    await call(app, 'POST', user, '/api/efiles', { subject: `Licence renewal ${Math.random()}`, headId, ...over }),
    201,
  );
  return res.json() as { _id: string; number: string; subject: string };
}

/** Uploads `pdf` into the file as its holder; answers the new item (its id and its file's address). */
export async function putPdfIn(app: FastifyInstance, user: UserRow, efileId: string, pdf: Buffer) {
  const body = multipart(
    {},
    { field: 'document', filename: 'letter.pdf', content: pdf, contentType: 'application/pdf' },
  );
  const res = await app.inject({
    method: 'POST',
    url: `/api/efiles/${efileId}/items`,
    payload: body.payload,
    headers: { ...body.headers, ...(await authHeaders(app, user)) },
  });
  ok(res, 201);
  const file = ok(await call(app, 'GET', user, `/api/efiles/${efileId}`)).json() as {
    items: { _id: string; seq: number; fileUrl: string }[];
  };
  const item = file.items.at(-1)!;
  return { itemId: item._id, seq: item.seq, fileUrl: item.fileUrl };
}

/** A valid dispatch body. */
export const byPost = (over: Record<string, unknown> = {}) => ({
  mode: 'post',
  recipients: [{ name: 'The Chief Controller of Explosives', address: 'A Block, CGO Complex, Nagpur 440006' }],
  ...over,
});
