// bench:load (scripts/bench-load.ts): the setup. A fresh database, the demo staff signed in, the letters to upload.
import pg from 'pg';

import { DEMO_STAFF } from '#server/demo/demo-data.ts';
import { makePdf } from '#server/demo/demo-files.ts';
import { DEMO_PASSWORD, demoEmail } from '#server/demo/demo-seed.ts';

export interface Session {
  token: string;
  userId: string;
  groupId: string | null;
  name: string;
  role: string;
  /** The audited mix: a Confidential letter this person uploaded, whose every opening is written to the audit trail. */
  confidentialLetterId?: string;
}

/** A fresh database on the server of DATABASE_URL, dropped by the returned function. */
export async function freshExternalDatabase(url: string) {
  const name = `lp_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Signs in every approved demo account (the staff list of server/demo/demo-data.ts). */
export async function signIn(baseURL: string): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const person of DEMO_STAFF) {
    const res = await fetch(`${baseURL}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail(person.name), password: DEMO_PASSWORD }),
    });
    if (!res.ok) continue; // e.g. a deactivated demo account
    const body = await json<{ token: string; user: { _id: string; role: string; group: { _id: string } | null } }>(res);
    sessions.push({
      token: body.token,
      userId: body.user._id,
      groupId: body.user.group?._id ?? null,
      name: person.name,
      role: body.user.role,
    });
  }
  if (!sessions.length) throw new Error('No demo account could sign in: is this the demo lab?');
  return sessions;
}

/** A multipart body (the letter form with a small PDF), as bytes with its content type. */
export async function letterUpload(i: number, classification = 'Normal') {
  const form = new FormData();
  const fields: Record<string, string> = {
    letterLanguage: 'English',
    letterCommunBy: 'Post',
    docketDate: '2026-06-01',
    letterDate: '2026-05-28',
    letterNo: `BENCH/${i}`,
    category: 'Administration',
    establishment: 'HQ',
    letterSub: `Morning load letter ${i}`,
    docketNo: `D-${i}`,
    classification,
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(
    'file',
    new Blob(
      [new Uint8Array(makePdf({ heading: 'Bench Lab', title: `Letter ${i}`, body: 'Uploaded by bench:load.' }))],
      {
        type: 'application/pdf',
      },
    ),
    `letter-${i}.pdf`,
  );
  const res = new Response(form);
  return { contentType: res.headers.get('content-type')!, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * The audited mix: each signed-in person uploads one Confidential letter of their own (an uploader may always open
 * their letter), so that every opening of it in the mix writes an audit row (decision 070).
 */
export async function uploadConfidentialLetters(baseURL: string, sessions: Session[]) {
  for (const [i, s] of sessions.entries()) {
    const upload = await letterUpload(1000 + i, 'Confidential');
    const letter = await json<{ _id: string; classification: string }>(
      await fetch(`${baseURL}/api/dac`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': upload.contentType },
        body: upload.body,
      }),
    );
    if (letter.classification !== 'Confidential') throw new Error('The letter was not stored as Confidential.');
    s.confidentialLetterId = letter._id;
  }
}
