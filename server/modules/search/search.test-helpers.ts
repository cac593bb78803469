import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';

import { MARK_END, MARK_START, type SearchAnswerJson } from '#shared/schemas/search.ts';

import { directorEntries, type GroupRow, type LabRow, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { docxWithText, pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createGroup, createLab, createUser } from '#server/test/factories.ts';
import { multipart, type MultipartFile } from '#server/test/multipart.ts';

import { extractPendingFiles } from './extraction.ts';
import { TextExtractor } from './extractor.ts';

// The app, the people and the helpers of the search tests, split by subject: search.permissions, search.updates and
// search.extraction (.test.ts). Each test file that imports this module gets its own app, database and people, set before its first
// test (beforeAll): read them inside tests and hooks, not when a file is collected.

export let app: FastifyInstance;
export let lab: LabRow;
export let group: GroupRow;
export let otherGroup: GroupRow;
export let admin: UserRow;
export let director: UserRow;
/** Members of `group`. */
export let member: UserRow;
export let secondMember: UserRow;
/** An employee of `otherGroup`. */
export let outsider: UserRow;
/** Leads `group` while listed in `otherGroup`. */
export let associateDirector: UserRow;
export const extractor = new TextExtractor();

beforeAll(async () => {
  app = await buildTestApp();
  lab = await createLab(app);
  group = await createGroup(app, { name: `Fire Modelling ${uniqueWord('')}` });
  otherGroup = await createGroup(app);
  admin = await createUser(app, 'admin', { name: 'Admin Officer' });
  director = await createUser(app, 'director', { name: 'Dinesh Director' });
  member = await createUser(app, 'employee', { name: 'Meera Member', groupId: group.id });
  secondMember = await createUser(app, 'employee', { name: 'Sunil Member', groupId: group.id });
  outsider = await createUser(app, 'employee', { name: 'Owen Outsider', groupId: otherGroup.id });
  associateDirector = await createUser(app, 'associate_director', { name: 'Anita Lead', groupId: group.id });
  await app.db.insert(directorEntries).values({
    groupId: group.id,
    userId: associateDirector.id,
    designation: 'Assistant Director',
    from: '2024-01-01',
  });
});
afterAll(() => extractor.close());

export type Who = UserRow | null;

export async function search(who: Who, q: string, extra = ''): Promise<SearchAnswerJson> {
  const res = await app.inject({
    url: `/api/search?q=${encodeURIComponent(q)}${extra}`,
    headers: who ? await authHeaders(app, who) : {},
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/**
 * Does this person find exactly one result for the word, of this kind, with the word marked in its snippet (or, for
 * classified material, no snippet at all: decision 095)?
 */
export async function finds(who: Who, word: string, kind: string, classified = false): Promise<boolean> {
  const answer = await search(who, word);
  if (!answer.results.length) {
    expect(answer.counts).toEqual({});
    return false;
  }
  expect(answer.results).toHaveLength(1);
  const [hit] = answer.results;
  expect(hit!.kind).toBe(kind);
  if (classified) expect(hit!.snippet).toBe('');
  else expect(hit!.snippet.toLowerCase()).toContain(`${MARK_START}${word}${MARK_END}`);
  expect(answer.counts).toEqual({ [kind]: 1 });
  return true;
}

export async function send(
  who: UserRow,
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  file?: MultipartFile,
) {
  const body = file ? multipart(fields, file) : multipart(fields);
  const res = await app.inject({
    method,
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(await authHeaders(app, who)) },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

export const pdf = (word: string, field = 'file'): MultipartFile => ({
  field,
  filename: 'report.pdf',
  content: pdfWithText(`Quarterly findings ${word} on fire safety`),
});
export const docx = (word: string, field = 'file'): MultipartFile => ({
  field,
  filename: 'minutes.docx',
  content: docxWithText(`Minutes of the meeting about ${word} and the trial`),
});

export const extract = () => extractPendingFiles(app.db, app.storage, extractor);

/** Who finds the word, as a map: the permission table of a kind. */
export async function findersOf(word: string, kind: string, people: Record<string, Who>, classified = false) {
  const found: Record<string, boolean> = {};
  for (const [name, who] of Object.entries(people)) found[name] = await finds(who, word, kind, classified);
  return found;
}

/** A close group of two new employees (of `otherGroup`), made by the admin. */
export async function closeGroupWith2Members() {
  const alice = await createUser(app, 'employee', { name: 'Alice Rao', groupId: otherGroup.id });
  const bob = await createUser(app, 'employee', { name: 'Bob Singh', groupId: otherGroup.id });
  const today = new Date().toISOString().slice(0, 10);
  const res = await app.inject({
    method: 'POST',
    url: '/admin/close-group',
    headers: await authHeaders(app, admin),
    payload: {
      groupName: 'Blast wall review',
      groupPurpose: 'Review the blast wall design.',
      groupDuration: { from: '2020-01-01', to: `${Number(today.slice(0, 4)) + 1}-12-31` },
      requestedBy: [alice.id, bob.id],
      adminRemarks: '',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { closeGroup: res.json()._id as string, alice, bob };
}
