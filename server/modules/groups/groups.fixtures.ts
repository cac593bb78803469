import type { FastifyInstance } from 'fastify';

import { directorEntries, type GroupRow, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';

// Every file that imports these fixtures builds its shared app before its first test.
buildTestAppBeforeAll();

/** Who calls a groups route, in the permission tables of the tests (anonymous sends no token). */
export const PEOPLE = ['anonymous', 'member', 'outsider', 'director', 'associateDirector', 'admin'] as const;
export type Person = (typeof PEOPLE)[number];

export interface GroupCast {
  app: FastifyInstance;
  group: GroupRow;
  otherGroup: GroupRow;
  admin: UserRow;
  member: UserRow;
  /** An employee of another group. */
  outsider: UserRow;
  director: UserRow;
  /** The group's current associate director: a member of the group whose current history entry names them (decision 030). */
  associateDirector: UserRow;
  /** Headers to call as a person; anonymous gets none. */
  as: (who: Person | UserRow) => Promise<Record<string, string>>;
}

/** A group with a member, its current associate director, and the other people the permission tests need. */
export async function groupCast(): Promise<GroupCast> {
  const app = await buildTestApp();
  const group = await createGroup(app, { name: `Fire Modelling ${Math.random().toString(36).slice(2, 7)}` });
  const otherGroup = await createGroup(app);
  const admin = await createUser(app, 'admin', { name: 'Admin Officer' });
  const member = await createUser(app, 'employee', { name: 'Meera Member', groupId: group.id });
  const outsider = await createUser(app, 'employee', { name: 'Owen Outsider', groupId: otherGroup.id });
  const director = await createUser(app, 'director', { name: 'Dinesh Director' });
  const associateDirector = await createUser(app, 'associate_director', { name: 'Anita Lead', groupId: group.id });
  await app.db.insert(directorEntries).values({
    groupId: group.id,
    userId: associateDirector.id,
    designation: 'Assistant Director',
    from: '2024-01-01',
  });
  const people: Record<Exclude<Person, 'anonymous'>, UserRow> = {
    admin,
    member,
    outsider,
    director,
    associateDirector,
  };
  const as = async (who: Person | UserRow): Promise<Record<string, string>> => {
    if (who === 'anonymous') return {};
    return authHeaders(app, typeof who === 'string' ? people[who] : who);
  };
  return { app, group, otherGroup, admin, member, outsider, director, associateDirector, as };
}
