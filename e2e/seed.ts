import { randomUUID } from 'node:crypto';

import pg from 'pg';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

import type { Role } from '#shared/constants.ts';
import type { RegisterInput, SessionJson } from '#shared/schemas/auth.ts';
import type { UserJson } from '#shared/schemas/user.ts';

import { pdfWithText } from '#server/test/documents.ts';

import { portal } from './portal.ts';

// e2e helpers (see e2e/fixtures.ts): data is seeded through the API (the embedded database belongs to the server
// process) and only the journey under test goes through the UI.

const baseURL = portal.baseURL;
const admin = inject('admin');
const labId = portal.labId;
const groupIds = portal.groupIds;

// ---------------------------------------------------------------------------------------------------------------
// Seeding through the API

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

/** Calls the API as a signed-in user (or anonymously with no token); never throws on a 4xx. */
export async function apiCall<T = unknown>(method: string, url: string, token?: string | null, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${baseURL}${url}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T } satisfies ApiResponse<T>;
}

/** A small API client bound to one user's token: `await apiAs(user).get('/api/groups')`. */
export function apiAs(user: { token: string } | null) {
  const token = user?.token ?? null;
  return {
    get: <T = unknown>(url: string) => apiCall<T>('GET', url, token),
    post: <T = unknown>(url: string, body?: unknown) => apiCall<T>('POST', url, token, body),
    put: <T = unknown>(url: string, body?: unknown) => apiCall<T>('PUT', url, token, body),
    del: <T = unknown>(url: string) => apiCall<T>('DELETE', url, token),
  };
}

/** Signs in through the API; throws with the server's message when refused. */
export async function apiLogin(email: string, password: string): Promise<SessionJson> {
  const res = await apiCall<SessionJson & { message?: string }>('POST', '/api/auth/login', null, { email, password });
  if (res.status !== 200) throw new Error(`Login of ${email} failed (${res.status}): ${res.body.message}`);
  return res.body;
}

let adminLogin: Promise<SessionJson> | undefined;
/** The bootstrap administrator of the e2e server (ADMIN_EMAIL / ADMIN_PASSWORD), signed in once per file. */
export async function signedInAdmin(): Promise<SeededUser> {
  adminLogin ??= apiLogin(admin.email, admin.password);
  const { token, user } = await adminLogin;
  return {
    id: user._id,
    email: admin.email,
    password: admin.password,
    name: user.personalDetails.name,
    role: 'admin',
    token,
    user,
  };
}

export interface SeededUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: Role;
  /** A bearer token from a real login ('' for a user who may not sign in, e.g. pending). */
  token: string;
  user: UserJson;
}

const FIRST_NAMES = ['Aarav', 'Priya', 'Rohan', 'Ananya', 'Vikram', 'Kavya', 'Arjun', 'Meera', 'Siddharth', 'Neha'];
const LAST_NAMES = ['Sharma', 'Iyer', 'Verma', 'Nair', 'Gupta', 'Reddy', 'Chatterjee', 'Singh', 'Menon', 'Joshi'];
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

/** A registration payload with a unique email; `overrides` replace top-level fields. */
export function registrationFor(
  overrides: Partial<RegisterInput> = {},
): RegisterInput & { email: string; password: string } {
  const tag = randomUUID().slice(0, 8);
  return {
    email: `user-${tag}@lab.test`,
    password: 'secret-123',
    role: 'employee',
    about: '',
    personalDetails: {
      name: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
      dob: '1990-05-14',
      mobile: '9876543210',
      address: 'Delhi',
    },
    professionalDetails: {
      designation: "Scientist 'B'",
      cadre: 'DRDS',
      intercom: '4321',
      internetEmail: '',
      dronaEmail: '',
      pis: tag,
      aebasId: '',
    },
    employmentPeriod: { from: '2020-01-01', to: null },
    ...overrides,
  } as RegisterInput & { email: string; password: string };
}

/** Registers a pending user through POST /api/auth/register (token ''; a pending user may not sign in). */
/**
 * A person's name no other test user has: a test that finds someone by name on a list all tests share (the approval
 * list, the staff list) must not meet a namesake from another test.
 */
export function uniquePersonName(): string {
  return `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${randomUUID().slice(0, 6).toUpperCase()}`;
}

export async function createPendingUser(overrides: Partial<RegisterInput> = {}): Promise<SeededUser> {
  const input = registrationFor(overrides);
  const res = await apiCall<{ user: UserJson; message: string }>('POST', '/api/auth/register', null, input);
  if (res.status !== 201) throw new Error(`Registering ${input.email} failed (${res.status}): ${res.body.message}`);
  const user = res.body.user;
  return {
    id: user._id,
    email: input.email,
    password: input.password,
    name: user.personalDetails.name,
    role: user.role,
    token: '',
    user,
  };
}

/** Approves a pending user as the admin would (POST /admin/approve-user/{id}); the role overrides the requested one. */
export async function approveUser(userId: string, role: Exclude<Role, 'pending_director'>, groupId = groupIds[0]!) {
  const res = await apiAs(await signedInAdmin()).post<{ message: string }>(`/admin/approve-user/${userId}`, {
    labId,
    groupId,
    role,
  });
  if (res.status !== 200) throw new Error(`Approving ${userId} failed (${res.status}): ${res.body.message}`);
}

/**
 * A member of staff with `role`, registered and approved through the API into `groupId` (the first seeded group by
 * default), and signed in through the API (so `token` works with apiAs).
 */
export async function createApprovedUser(
  role: Exclude<Role, 'pending_director'> = 'employee',
  groupId?: string,
  overrides: Partial<RegisterInput> = {},
): Promise<SeededUser> {
  const pending = await createPendingUser(overrides);
  await approveUser(pending.id, role, groupId);
  const { token, user } = await apiLogin(pending.email, pending.password);
  return { ...pending, role, token, user };
}

// ---------------------------------------------------------------------------------------------------------------
// Letters

/** The day `n` days from today in India (YYYY-MM-DD), as the letter form's dates are given. */
export const inDays = (n: number) => new Date(Date.now() + n * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 10);

/** The smallest PDF the upload's content check accepts. */
export const tinyPdf = Buffer.concat([
  Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n'),
  Buffer.from('\n%%EOF\n'),
]);

/** Registers a letter through the API as `user` (letter and docket numbers made of `tag`); returns its id and Letter ID. */
export async function uploadLetter(user: { token: string }, subject: string, tag: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    letterLanguage: 'English',
    letterCommunBy: 'Speed Post',
    docketDate: inDays(-1),
    letterDate: inDays(-3),
    letterNo: `HQ/FS/${tag}`,
    category: 'Letter',
    establishment: 'DRDO HQ',
    letterSub: subject,
    docketNo: `D-${tag}`,
  })) {
    form.set(name, value);
  }
  form.set('file', new Blob([tinyPdf], { type: 'application/pdf' }), 'letter.pdf');
  const res = await apiAs(user).post<{ _id: string; letterId: string }>('/api/dac', form);
  if (res.status !== 201) throw new Error(`uploading letter "${subject}": ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Ages the page's session: its proof time (`verified_at`) set `minutes` back in the e2e portal's database, for the
 * step-up before Secret letters (decision 066) without waiting.
 */
export async function ageSession(page: Page, minutes: number) {
  const sid = await page.evaluate(() => {
    const token = localStorage.getItem('token') ?? '';
    return (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sid: string }).sid;
  });
  const client = new pg.Client({ connectionString: portal.databaseUrl });
  await client.connect();
  try {
    const res = await client.query(
      `update sessions set verified_at = now() - make_interval(mins => $2::int) where id = $1`,
      [sid, minutes],
    );
    if (res.rowCount !== 1) throw new Error(`no session ${sid} to age`);
  } finally {
    await client.end();
  }
}

/** Registers a Secret letter through the API as `user`; returns its id and Letter ID. */
export async function uploadSecretLetter(user: { token: string }, subject: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    letterSub: subject,
    letterNo: `HQ/S/${subject.slice(-6)}`,
    letterDate: '2026-11-20',
    docketNo: `D-${subject.slice(-6)}`,
    docketDate: '2026-11-21',
    category: 'Letter',
    establishment: 'DRDO HQ',
    letterLanguage: 'English',
    letterCommunBy: 'By Hand',
    classification: 'Secret',
  })) {
    form.set(name, value);
  }
  // A real page: a Secret letter's PDF is sent watermarked, and one that cannot be watermarked is refused (decision 071).
  const pdf = pdfWithText(`Secret letter ${subject}`);
  form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'secret-letter.pdf');
  const res = await apiAs(user).post<{ _id: string; letterId: string }>('/api/dac', form);
  if (res.status !== 201)
    throw new Error(`uploading Secret letter "${subject}": ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
