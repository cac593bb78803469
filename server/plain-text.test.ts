import { describe, expect, it } from 'vitest';

import { withoutBidiControls } from '#shared/format.ts';

import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

buildTestAppBeforeAll();

/**
 * Decision 049: no free text shown to others keeps a bidirectional control, so "photo<U+202E>gnp.exe" never reads
 * as "photoexe.png" on another person's screen. Every control of the class is tried.
 */
const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
const tricky = (word: string) => `${word} photo\u202egnp.exe ${BIDI.join('')}end`;
const clean = (word: string) => `${word} photognp.exe end`;

describe('bidirectional controls are stripped from free text (issue 28 item 11)', () => {
  it('strips every one of them and keeps line breaks', () => {
    expect(withoutBidiControls(`a${BIDI.join('')}b\nc\td`)).toBe('a' + 'b\nc\td');
  });

  it('feedback: its name, subject and message as the admin page lists them', async () => {
    const app = await buildTestApp();
    const admin = await createUser(app, 'admin');
    const sent = await app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: {
        name: tricky('Ravi'),
        email: 'ravi@example.org',
        category: 'other',
        subject: tricky('Hello'),
        message: tricky('Look'),
      },
    });
    expect(sent.statusCode).toBe(201);
    const list = await app.inject({ url: '/api/feedback', headers: await authHeaders(app, admin) });
    const mine = list.json().items.find((f: { email: string }) => f.email === 'ravi@example.org');
    expect(mine).toMatchObject({ name: clean('Ravi'), subject: clean('Hello'), message: clean('Look') });
  });

  it('a group name, a letter subject and a profile field', async () => {
    const app = await buildTestApp();
    const admin = await createUser(app, 'admin');
    const group = await app.inject({
      method: 'POST',
      url: '/api/groups',
      payload: { name: tricky(`Group ${Date.now()}`), description: tricky('About') },
      headers: await authHeaders(app, admin),
    });
    expect(group.statusCode).toBe(201);
    expect(group.json().name).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    expect(group.json().description).toBe(clean('About'));

    const officer = await createUser(app, 'employee');
    const letter = await postLetter(app, officer, letterFields({ letterSub: tricky('Subject') }), letterPdf());
    expect(letter.statusCode).toBe(201);
    expect(letter.json().letterSub).toBe(clean('Subject'));

    const profile = await app.inject({
      method: 'PUT',
      url: `/api/users/${officer.id}`,
      payload: { about: tricky('About me') },
      headers: await authHeaders(app, officer),
    });
    expect(profile.statusCode).toBe(200);
    const shown = await app.inject({ url: `/api/users/${officer.id}`, headers: await authHeaders(app, admin) });
    expect(JSON.stringify(shown.json())).toContain(clean('About me'));
  });
});
