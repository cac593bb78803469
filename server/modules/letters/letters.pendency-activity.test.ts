import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';

// Opening the pendency report wrote an activity row every time (10 of the newest 20 rows after a
// walk). A view is a read and records nothing; the CSV export is recorded.

const app = await buildTestApp();

const rowsOf = async (userId: string) =>
  (await app.db.select().from(activityLogs).where(eq(activityLogs.userId, userId))).map((r) => r.action);

describe('GET /api/dac/pendency and the activity log', () => {
  it('viewing the report adds no activity row; exporting it as CSV adds one', async () => {
    const group = await createGroup(app, { name: 'Pendency Audit Group' });
    const director = await createUser(app, 'director');
    const before = await rowsOf(director.id);

    for (const url of ['/api/dac/pendency', `/api/dac/pendency?groupId=${group.id}&from=2026-01-01&to=2026-01-31`]) {
      const view = await app.inject({ method: 'GET', url, headers: await authHeaders(app, director) });
      expect(view.statusCode, view.body).toBe(200);
    }
    expect(await rowsOf(director.id)).toEqual(before);

    const csv = await app.inject({
      method: 'GET',
      url: `/api/dac/pendency/export?groupId=${group.id}&from=2026-01-01&to=2026-01-31`,
      headers: await authHeaders(app, director),
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const after = await rowsOf(director.id);
    expect(after).toHaveLength(before.length + 1);
    // The row names the export (its wording may become an action code; decision 060).
    expect(after.filter((a) => !before.includes(a))).toEqual([expect.stringMatching(/pendency/i)]);
  });
});
