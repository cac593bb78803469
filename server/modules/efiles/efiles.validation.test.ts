import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { createUser } from '#server/test/factories.ts';

import { aHead, app, call, cast, note, open, send } from './efiles.test-helpers.ts';

// Each validation message of /api/efiles (shared/schemas/efile.ts, efile-note.ts): a 400 with its code.

const para = (text: string) => ({ t: 'p', c: [{ text }] });
const long = (n: number) => 'x'.repeat(n);

describe('the validation of e-files', () => {
  it('words each bad input with its code', async () => {
    const c = await cast();
    const headId = (await aHead()).id;
    const file = await open(c.employee);
    const deactivated = await createUser(app, 'employee', { status: 'deactivated', name: 'Old Hand' });
    const pending = await createUser(app, 'employee', { status: 'pending', name: 'New Hand' });
    const cases: [string, Parameters<typeof call>[0], string, unknown, string][] = [
      ['no subject', 'POST', '/api/efiles', { headId }, 'efiles.subject_required'],
      ['blank subject', 'POST', '/api/efiles', { subject: '  ', headId }, 'efiles.subject_required'],
      ['long subject', 'POST', '/api/efiles', { subject: long(501), headId }, 'efiles.subject_too_long'],
      ['no head', 'POST', '/api/efiles', { subject: 'a' }, 'efiles.head_required'],
      ['unknown head', 'POST', '/api/efiles', { subject: 'a', headId: randomUUID() }, 'efiles.head_not_found'],
      [
        'classification',
        'POST',
        '/api/efiles',
        { subject: 'a', headId, classification: 'Top' },
        'close_groups.choose_classification',
      ],
      ['group id', 'POST', '/api/efiles', { subject: 'a', headId, ownerGroupId: 'x' }, 'efiles.owner_group_not_found'],
      [
        'route officer',
        'POST',
        '/api/efiles',
        { subject: 'a', headId, route: ['x'] },
        'letters.choose_officers_from_list',
      ],
      [
        'unknown route officer',
        'POST',
        '/api/efiles',
        { subject: 'a', headId, route: [randomUUID()] },
        'letters.officer_not_found',
      ],
      [
        'long route',
        'POST',
        '/api/efiles',
        { subject: 'a', headId, route: Array.from({ length: 21 }, () => randomUUID()) },
        'efiles.route_too_long',
      ],
      ['empty note', 'POST', `/api/efiles/${file._id}/notes`, { body: { blocks: [] } }, 'efiles.note_empty'],
      ['blank note', 'POST', `/api/efiles/${file._id}/notes`, { body: { blocks: [para('  ')] } }, 'efiles.note_empty'],
      ['no blocks', 'POST', `/api/efiles/${file._id}/notes`, { body: {} }, 'efiles.note_empty'],
      [
        'long note',
        'POST',
        `/api/efiles/${file._id}/notes`,
        { body: { blocks: [para(long(50_001))] } },
        'efiles.note_too_long',
      ],
      [
        'many blocks',
        'POST',
        `/api/efiles/${file._id}/notes`,
        { body: { blocks: Array.from({ length: 301 }, () => para('a')) } },
        'efiles.note_too_complex',
      ],
      [
        'html block',
        'POST',
        `/api/efiles/${file._id}/notes`,
        { body: { blocks: [{ t: 'script', c: [] }] } },
        'efiles.note_bad_block',
      ],
      [
        'bad ref',
        'POST',
        `/api/efiles/${file._id}/notes`,
        { body: { blocks: [{ t: 'p', c: [{ ref: 'X/1' }] }] } },
        'efiles.note_bad_reference',
      ],
      ['missing ref', 'POST', `/api/efiles/${file._id}/notes`, note('See C/9.'), 'efiles.note_reference_missing'],
      ['no officer', 'POST', `/api/efiles/${file._id}/send`, {}, 'efiles.choose_officer'],
      ['unknown officer', 'POST', `/api/efiles/${file._id}/send`, { to: randomUUID() }, 'letters.officer_not_found'],
      ['self', 'POST', `/api/efiles/${file._id}/send`, { to: c.employee.id }, 'efiles.send_to_self'],
      ['deactivated', 'POST', `/api/efiles/${file._id}/send`, { to: deactivated.id }, 'letters.officer_deactivated'],
      ['not approved', 'POST', `/api/efiles/${file._id}/send`, { to: pending.id }, 'letters.officer_not_approved'],
      [
        'copy twice',
        'POST',
        `/api/efiles/${file._id}/send`,
        { to: c.gh.id, copies: [c.director.id, c.director.id] },
        'letters.officer_chosen_twice',
      ],
      [
        'long remarks',
        'POST',
        `/api/efiles/${file._id}/send`,
        { to: c.gh.id, remarks: long(2001) },
        'letters.remarks_too_long',
      ],
      [
        'bad due date',
        'POST',
        `/api/efiles/${file._id}/send`,
        { to: c.gh.id, dueDate: '2026-13-40' },
        'efiles.due_date_invalid',
      ],
      [
        'past due date',
        'POST',
        `/api/efiles/${file._id}/send`,
        { to: c.gh.id, dueDate: '2020-01-01' },
        'letters.due_date_past',
      ],
      [
        'priority',
        'POST',
        `/api/efiles/${file._id}/send`,
        { to: c.gh.id, priority: 'Soon' },
        'letters.choose_priority',
      ],
      ['search', 'GET', '/api/efiles/search?q=a', undefined, 'efiles.search_too_short'],
      [
        'scheme',
        'PUT',
        '/api/efiles/settings',
        { numberScheme: '{lab}/{serial}', labCode: 'LAB' },
        'efiles.scheme_incomplete',
      ],
      [
        'scheme place',
        'PUT',
        '/api/efiles/settings',
        { numberScheme: '{group}/{year}/{serial}/{x}', labCode: 'LAB' },
        'efiles.scheme_unknown_place',
      ],
      [
        'lab code',
        'PUT',
        '/api/efiles/settings',
        { numberScheme: '{group}/{year}/{serial}', labCode: 'a b' },
        'efiles.lab_code_required',
      ],
      ['head code', 'POST', '/api/efiles/heads', { code: 'a b', name: 'x' }, 'efiles.head_code_invalid'],
      ['head name', 'POST', '/api/efiles/heads', { code: 'AB' }, 'efiles.head_name_required'],
    ];
    for (const [what, method, url, payload, code] of cases) {
      const who = url.includes('settings') || url.includes('heads') ? c.admin : c.employee;
      const res = await call(method, who, url, payload);
      expect([what, res.statusCode, res.json().code], res.body).toEqual([what, 400, code]);
    }
    const upload = await app.inject({
      method: 'POST',
      url: `/api/efiles/${file._id}/items`,
      payload: '--x--\r\n',
      headers: {
        ...(await import('#server/test/factories.ts').then((f) => f.authHeaders(app, c.employee))),
        'content-type': 'multipart/form-data; boundary=x',
      },
    });
    expect(upload.statusCode).toBe(400);
    void send;
  });
});
