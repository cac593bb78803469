import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { groups, labs } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';

import { MINIMAL_GROUP_NAMES, seedMinimal } from './seed-minimal.ts';

buildTestAppBeforeAll();

describe('seedMinimal (e2e global setup)', () => {
  it('creates the lab and two groups once, and finds them again on a second run', async () => {
    const app = await buildTestApp();
    const first = await seedMinimal(app.db);
    const second = await seedMinimal(app.db);
    expect(second).toEqual(first);
    expect(first.groupIds).toHaveLength(MINIMAL_GROUP_NAMES.length);
    expect(await app.db.select({ n: count() }).from(labs)).toEqual([{ n: 1 }]);
    expect(await app.db.select({ n: count() }).from(groups)).toEqual([{ n: 2 }]);
  });
});
