import { describe, expect, it } from 'vitest';

import { AppError } from '#server/lib/errors.ts';
import { buildTestAppBeforeAll } from '#server/test/app.ts';
import { createLab, createUser, signIn, TEST_PASSWORD } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';

import { adminPolicy } from './admin.policy.ts';

buildTestAppBeforeAll();

/**
 * The people modules' refusals carry their code, and the values of their sentence's places in `params` (decision 034):
 * the web words them in the reader's language from these; the English stays the spec's.
 */
describe('refusals of the people modules, by code', () => {
  it('tells a rejected user why, with the reason as a parameter', async () => {
    const { app } = await signIn('admin');
    const rejected = await createUser(app, 'employee', { status: 'rejected', statusReason: 'Not on the roll' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: rejected.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'Your registration was not approved. Reason: Not on the roll',
      message: 'Your registration was not approved. Reason: Not on the roll',
      code: 'auth.account_rejected_reason',
      params: { reason: 'Not on the roll' },
      status: 'rejected',
    });
    const plain = await createUser(app, 'employee', { status: 'rejected', statusReason: null });
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: plain.email, password: TEST_PASSWORD },
    });
    expect(again.json()).toMatchObject({
      code: 'auth.account_rejected',
      message: 'Your registration was not approved.',
    });
  });

  it('codes a wrong sign-in, a taken email and a schema sentence with a number', async () => {
    const { app, user } = await signIn('employee');
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'not-it' },
    });
    expect(wrong.json()).toMatchObject({ code: 'auth.invalid_credentials', message: 'Invalid email or password.' });
    const payload = { email: user.email, password: 'abc', personalDetails: { name: 'A' } };
    const short = await app.inject({ method: 'POST', url: '/api/auth/register', payload });
    expect(short.json()).toEqual({
      error: 'Password must be at least 6 characters.',
      message: 'Password must be at least 6 characters.',
      code: 'auth.password_too_short',
      params: { min: 6 },
      field: 'password',
    });
    const taken = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...payload, password: 'secret1' },
    });
    expect(taken.json()).toMatchObject({ code: 'auth.user_exists', message: 'User already exists', field: 'email' });
  });

  it('codes the profile and Manage Users refusals', async () => {
    const { app, headers } = await signIn('employee');
    const other = await createUser(app, 'employee');
    const res = await app.inject({ method: 'GET', url: `/api/users/${other.id}`, headers });
    expect(res.json()).toMatchObject({ code: 'users.own_profile_only' });
    const password = await app.inject({
      method: 'PUT',
      url: `/api/users/${other.id}/password`,
      headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'another1' },
    });
    expect(password.json()).toMatchObject({ code: 'users.own_password_only' });
    const admin = await signIn('admin');
    const own = await admin.app.inject({
      method: 'PUT',
      url: `/admin/users/${admin.user.id}/access`,
      headers: admin.headers,
      payload: { role: 'employee', groupId: null },
    });
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ code: 'admin.own_role', field: 'role' });
    const missing = await admin.app.inject({
      method: 'POST',
      url: '/admin/users/00000000-0000-4000-8000-000000000000/deactivate',
      headers: admin.headers,
      payload: {},
    });
    expect(missing.json()).toMatchObject({ code: 'users.not_found', message: 'User not found.' });
  });

  it("words a withdrawn clearance's refusal with the holder's name and a plural count", () => {
    const actor = { id: 'a', email: 'a@lab.test', name: 'Admin', role: 'admin', groupId: null, labId: null } as const;
    const user = { id: 'u', name: 'Asha Rao', role: 'employee' as const };
    const refusal = (() => {
      try {
        adminPolicy.authorize({ ...actor, cleared: true }, 'people.withdraw_clearance', { user, held: 2 });
      } catch (err) {
        return err as AppError;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      statusCode: 409,
      code: 'admin.holds_classified',
      params: { name: 'Asha Rao', count: 2 },
      message:
        'Asha Rao still holds 2 Confidential or Secret letters. They must be closed or marked to someone else first.',
    });
    const director = { ...user, role: 'director' as const };
    expect(
      adminPolicy.allows({ ...actor, cleared: true }, 'people.withdraw_clearance', { user: director, held: 2 }),
    ).toBe(true);
  });

  it('codes the site, gallery, search and director-history sentences', async () => {
    const { app, headers } = await signIn('admin');
    const feedback = await app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { name: 'A', email: 'a@lab.test', category: 'rant', subject: 'S', message: 'M' },
    });
    expect(feedback.json()).toMatchObject({ code: 'site.feedback_category_required', field: 'category' });

    const kinds = await app.inject({ method: 'GET', url: '/api/search?q=lab&kinds=letter,spells', headers });
    expect(kinds.statusCode).toBe(400);
    expect(kinds.json()).toMatchObject({
      code: 'search.unknown_kind',
      params: { kind: 'spells' },
      message: expect.stringMatching(/^Unknown kind "spells"\. Kinds: /),
    });

    const lab = await createLab(app);
    const photo = multipart({ name: 'Photo', description: 'A photo' });
    const upload = await app.inject({
      method: 'POST',
      url: `/api/labs/${lab.id}/upload-photo`,
      payload: photo.payload,
      headers: { ...headers, ...photo.headers },
    });
    expect(upload.json()).toMatchObject({ code: 'gallery.upload_incomplete', field: 'photo' });

    const entry = multipart({ name: 'A Director', from: '2020-01-01', to: '2019-01-01' });
    const director = await app.inject({
      method: 'POST',
      url: `/api/labs/${lab.id}/directors`,
      payload: entry.payload,
      headers: { ...headers, ...entry.headers },
    });
    expect(director.statusCode).toBe(400);
    expect(director.json()).toMatchObject({ code: 'director_history.end_before_start', field: 'to' });
  });
});
