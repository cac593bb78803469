import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { type UserRow, users } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

// Decision 034: the letters' and the dak's refusals that carry a name or a number send it as a parameter of their code,
// so each language words the sentence around it (web/i18n/locales/hi/messages.json); a sentence that varied by a word
// is one code per action. The English is the sentence the API always sent.

const app = await buildTestApp();

const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  user: UserRow,
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  app.inject({ method, url, ...(payload ? { payload } : {}), headers: await authHeaders(app, user) });

async function upload(user: UserRow) {
  const res = await postLetter(app, user, letterFields(), letterPdf());
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

describe('letters refuse by code, with names and numbers as params', () => {
  it("marking to a deactivated officer: letters.officer_deactivated with the officer's {name}", async () => {
    const uploader = await createUser(app, 'employee');
    const gone = await createUser(app, 'employee', { name: 'Kavita Joshi', status: 'deactivated' });
    const id = await upload(uploader);
    const res = await call('POST', uploader, `/api/dac/${id}/movements`, { to: [gone.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: "Kavita Joshi's account is deactivated. Please choose another officer.",
      message: "Kavita Joshi's account is deactivated. Please choose another officer.",
      code: 'letters.officer_deactivated',
      params: { name: 'Kavita Joshi' },
      field: 'to',
    });
  });

  it('the holders by {names}, the holder by {name}, a sender gone since by {name}', async () => {
    const uploader = await createUser(app, 'employee', { name: 'Asha Verma' });
    const first = await createUser(app, 'employee', { name: 'Ravi Rao' });
    const second = await createUser(app, 'employee', { name: 'Meera Nair' });
    const id = await upload(uploader);
    expect((await call('POST', uploader, `/api/dac/${id}/movements`, { to: [first.id, second.id] })).statusCode).toBe(
      201,
    );

    const again = await call('POST', uploader, `/api/dac/${id}/movements`, { to: [first.id, second.id] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'letters.already_holds', field: 'to' });
    expect(again.json().params.names.split(', ').sort()).toEqual(['Meera Nair', 'Ravi Rao']);

    const admin = await createUser(app, 'admin');
    const deleted = await call('DELETE', admin, `/api/dac/${id}`);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json()).toMatchObject({ code: 'letters.still_held', params: { name: expect.any(String) } });

    await app.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, uploader.id));
    const back = await call('POST', first, `/api/dac/${id}/return`, { remarks: 'Not mine' });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toEqual({
      error: "Asha Verma's account is deactivated. Please mark it to another officer instead.",
      message: "Asha Verma's account is deactivated. Please mark it to another officer instead.",
      code: 'letters.sender_deactivated',
      params: { name: 'Asha Verma' },
    });
  });

  it('sending back to a sender no longer cleared: letters.sender_not_cleared with {name} and {classification}', async () => {
    const uploader = await createUser(app, 'employee', { name: 'Nisha Pillai', classifiedClearance: true });
    const officer = await createUser(app, 'employee', { classifiedClearance: true });
    const res = await postLetter(app, uploader, { ...letterFields(), classification: 'Confidential' }, letterPdf());
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { _id: string })._id;
    expect((await call('POST', uploader, `/api/dac/${id}/movements`, { to: [officer.id] })).statusCode).toBe(201);
    await app.db.update(users).set({ classifiedClearance: false }).where(eq(users.id, uploader.id));
    const back = await call('POST', officer, `/api/dac/${id}/return`, { remarks: 'Not mine' });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({
      message:
        'Nisha Pillai is not cleared for Confidential letters. Only directors, administrators and officers an administrator has cleared may receive them. Please mark it to another officer instead.',
      code: 'letters.sender_not_cleared',
      params: { name: 'Nisha Pillai', classification: 'Confidential' },
    });
  });

  it('one code per action for a letter the person does not hold', async () => {
    const uploader = await createUser(app, 'employee');
    const id = await upload(uploader);
    const close = await call('POST', uploader, `/api/dac/${id}/close`, { disposal: 'Filed' });
    expect(close.statusCode).toBe(403);
    expect(close.json()).toMatchObject({
      message: 'You do not hold this letter, so you cannot close it.',
      code: 'letters.close_not_held',
    });
    const back = await call('POST', uploader, `/api/dac/${id}/return`, { remarks: 'Wrong desk' });
    expect(back.statusCode).toBe(403);
    expect(back.json()).toMatchObject({
      message: 'You do not hold this letter, so you cannot send it back.',
      code: 'letters.send_back_not_held',
    });
  });

  it("a schema's length limit: its code with {max}", async () => {
    const uploader = await createUser(app, 'employee');
    const res = await postLetter(app, uploader, letterFields({ letterSub: 'x'.repeat(1001) }), letterPdf());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'Subject must be at most 1000 characters.',
      code: 'letters.subject_too_long',
      params: { max: 1000 },
      field: 'letterSub',
    });
  });
});
