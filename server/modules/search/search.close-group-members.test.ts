import { describe, expect, it } from 'vitest';

import { pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { createUser } from '#server/test/factories.ts';

import {
  admin,
  app,
  closeGroupWith2Members,
  director,
  extract,
  lab,
  member,
  otherGroup,
  pdf,
  search,
  send,
  type Who,
} from './search.test-helpers.ts';

// Decision 015: a person's name is also found inside close-group documents, whose text names the group's members. Those
// documents are found only by whoever may see the close group (its members and admins, close-groups.policy
// 'close_groups.view'), and rank below every result whose title holds the name.

/** A staff member with a name found nowhere else, a close group's document naming them, and a notice titled with it. */
async function nameInAMemberList() {
  const surname = uniqueWord('Zq');
  const name = `Kavita ${surname[0]!.toUpperCase()}${surname.slice(1)}`;
  const person = await createUser(app, 'employee', { name, groupId: otherGroup.id });
  const { closeGroup, alice, bob } = await closeGroupWith2Members();
  await send(
    alice,
    'POST',
    `/api/close-groups/${closeGroup}/upload`,
    {},
    {
      field: 'document',
      filename: 'Board minutes.pdf',
      content: pdfWithText(`Minutes of the review board. Members: ${name}, Alice Rao, Bob Singh.`),
    },
  );
  const notice = { name: `Talk by ${name}`, description: 'All welcome' };
  await send(admin, 'POST', `/api/labs/${lab.id}/notices`, notice, pdf(uniqueWord()));
  await extract();
  return { surname, name, person, alice, bob };
}

const kindsOf = async (who: Who, q: string) => (await search(who, q)).results.map((r) => r.kind);

describe('GET /api/search: a name in a close group member list', () => {
  it('finds the close-group document only for those who may see the close group', async () => {
    const { surname, alice, bob } = await nameInAMemberList();
    const people = { alice, bob, admin, nonMember: member, director, visitor: null };
    const found: Record<string, boolean> = {};
    for (const [who, reader] of Object.entries(people)) {
      found[who] = (await kindsOf(reader, surname)).includes('close-group-document');
    }
    expect(found).toEqual({ alice: true, bob: true, admin: true, nonMember: false, director: false, visitor: false });
    // What each finds besides: the person for the signed-in, the notice titled with the name for everyone.
    expect((await kindsOf(member, surname)).sort()).toEqual(['notice', 'person']);
    expect(await kindsOf(null, surname)).toEqual(['notice']);
    // The counts tell no more than the results.
    expect((await search(member, surname)).counts).toEqual({ notice: 1, person: 1 });
  });

  it('ranks the close-group document below the results whose title holds the name', async () => {
    const { surname, name, alice } = await nameInAMemberList();
    for (const q of [surname, name, surname.slice(0, 6)]) {
      for (const reader of [alice, admin]) {
        const kinds = await kindsOf(reader, q);
        expect(kinds.slice(0, 2).sort(), `${q}`).toEqual(['notice', 'person']);
        expect(kinds[2], `${q}`).toBe('close-group-document');
      }
    }
  });
});
