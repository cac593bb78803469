// The demo's circulars and notices that must be acknowledged (server/demo/demo-seed.ts; decisions 073 and 074): lab
// circulars past their deadline (most acknowledged, some people overdue), a notice still open, and a group circular,
// published and acknowledged through the service functions the API calls, so that the rows, the bell's notifications,
// the audit trail and the activity are the API's own. Every approved role but the publisher has something in
// "To acknowledge"; the administrator, who publishes the lab's, reads the reports.
import { eq, inArray } from 'drizzle-orm';

import type { AcknowledgedDocumentKind } from '#shared/schemas/acknowledgements.ts';

import type { Db } from '#server/db/client.ts';
import {
  acknowledgementRequests,
  acknowledgements,
  groupItems,
  labItems,
  notifications,
  type UserRow,
  users,
} from '#server/db/schema/index.ts';
import {
  acknowledge,
  openAcknowledgement,
  publishAcknowledgement,
} from '#server/modules/acknowledgements/acknowledgements.service.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { AuditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { toActor } from '#server/plugins/auth.ts';

import { makePdf } from './demo-files.ts';
import { DAY, type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';

interface DemoRequest {
  kind: AcknowledgedDocumentKind;
  name: string;
  body: string;
  /** Published this many days ago, due this many days after publishing. */
  ago: number;
  span: number;
  /** A group's circular, published by its head to the group (decision 073); else the lab's, by the administrator. */
  group?: string;
  /** Who acknowledges: every n-th person of the audience does not (0: nobody acknowledges). */
  skipEvery: number;
  /** The demo's printed people (the demo employee, the first head, the director) acknowledge it too. */
  demoPeopleAcknowledge: boolean;
}

const REQUESTS: DemoRequest[] = [
  {
    kind: 'circular',
    name: 'Fire drill schedule and assembly points for 2026-27',
    body: 'Every member of staff is to read the fire drill schedule and the assembly point of their building, and acknowledge having done so.',
    ago: 35,
    span: 14,
    skipEvery: 5,
    demoPeopleAcknowledge: true,
  },
  {
    kind: 'circular',
    name: 'Revised standing orders for the storage of explosives in magazines',
    body: 'The standing orders for the magazines are revised with effect from the date of this circular. All staff are to read them and acknowledge.',
    ago: 24,
    span: 14,
    skipEvery: 3,
    demoPeopleAcknowledge: false,
  },
  {
    kind: 'notice',
    name: 'Annual immovable property return due by the end of the month',
    body: 'Officers are to file their annual immovable property return through the establishment section and acknowledge this notice.',
    ago: 2,
    span: 12,
    skipEvery: 4,
    demoPeopleAcknowledge: false,
  },
  {
    kind: 'circular',
    name: 'Leave roster of the coordination office for the winter months',
    body: 'Members of the group are to enter their planned leave in the roster kept by the office, and acknowledge this circular.',
    ago: 3,
    span: 10,
    group: 'coordination',
    skipEvery: 0,
    demoPeopleAcknowledge: false,
  },
];

const HOUR = 3600_000;

/** The demo's requests, with some people acknowledged (on time or late) and some not, so the lists and reports show both. */
export async function seedAcknowledgements(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, today, daysAgo, add, heading } = ctx;
  const db = tx as unknown as Db; // the service opens a transaction: here a savepoint of the seed's
  const demoPeople = new Set(
    [
      world.director.id,
      world.heads.get('fire')?.id,
      (world.byGroup.get('fire') ?? []).find((u) => u.role === 'employee')?.id,
    ].filter((id): id is string => Boolean(id)),
  );
  const whoOf = (u: UserRow): AuditWho => ({
    actor: { id: u.id, name: u.name, role: u.role },
    address: null,
    userAgent: 'npm run demo',
  });

  for (const [n, r] of REQUESTS.entries()) {
    const publisher = r.group ? world.heads.get(r.group)! : world.admin;
    const published = daysAgo(r.ago);
    const deadline = isoDate(new Date(published.getTime() + r.span * DAY));
    const reference = `No. CFEES/${r.kind === 'circular' ? 'CIR' : 'NOT'}/${published.getFullYear()}/${201 + n}    Dated ${isoDate(published)}`;
    const file = await store.save(
      tx,
      r.kind === 'circular' ? 'circulars' : 'notices',
      `${r.name}.pdf`,
      makePdf({
        heading,
        title: r.name,
        reference,
        body: `${r.body}\n\nTo be acknowledged on the portal by ${deadline}.`,
        signature: `(${publisher.name})\n${publisher.designation}`,
      }),
      publisher.id,
    );
    let owner: { type: 'lab' } | { type: 'group'; groupId: string };
    let itemId: string;
    if (r.group) {
      const groupId = world.groupIds.get(r.group)!;
      const [row] = await tx
        .insert(groupItems)
        .values({ groupId, kind: r.kind, name: r.name, description: r.body, fileId: file.id, createdAt: published })
        .returning({ id: groupItems.id });
      owner = { type: 'group', groupId };
      itemId = row!.id;
    } else {
      const [row] = await tx
        .insert(labItems)
        .values({
          labId: world.lab.id,
          kind: r.kind,
          name: r.name,
          description: r.body,
          fileId: file.id,
          createdAt: published,
        })
        .returning({ id: labItems.id });
      owner = { type: 'lab' };
      itemId = row!.id;
      await recordActivity(
        tx,
        publisher,
        'activity.lab_item_added',
        { kind: activityWord(r.kind), name: r.name },
        { type: 'lab', id: world.lab.id },
      );
    }
    await publishAcknowledgement(
      tx,
      toActor(publisher),
      { owner, itemId, kind: r.kind, name: r.name },
      {
        requiresAcknowledgement: true,
        acknowledgeBy: deadline,
        audienceScope: r.group ? 'groups' : 'lab',
        audienceGroups: r.group ? [owner.type === 'group' ? owner.groupId : ''] : [],
        audienceRoles: [],
      },
    );
    add('acknowledgement requests');

    // Published on its day: the request, its rows and the bell's notices dated then.
    const request = (
      owner.type === 'lab'
        ? await tx.select().from(acknowledgementRequests).where(eq(acknowledgementRequests.labItemId, itemId))
        : await tx.select().from(acknowledgementRequests).where(eq(acknowledgementRequests.groupItemId, itemId))
    )[0]!;
    await tx
      .update(acknowledgementRequests)
      .set({ publishedAt: published, spanDays: r.span })
      .where(eq(acknowledgementRequests.id, request.id));
    const rows = await tx
      .select({ id: acknowledgements.id, user: users })
      .from(acknowledgements)
      .innerJoin(users, eq(users.id, acknowledgements.userId))
      .where(eq(acknowledgements.requestId, request.id))
      .orderBy(users.name);
    await tx.update(acknowledgements).set({ addedAt: published }).where(eq(acknowledgements.requestId, request.id));
    await tx
      .update(notifications)
      .set({ createdAt: published })
      .where(
        inArray(
          notifications.sourceId,
          rows.map((row) => row.id),
        ),
      );

    for (const [i, row] of rows.entries()) {
      const isDemo = demoPeople.has(row.user.id);
      const acknowledges = isDemo ? r.demoPeopleAcknowledge : r.skipEvery > 0 && i % r.skipEvery !== 0;
      if (!acknowledges) continue;
      await openAcknowledgement(db, toActor(row.user), row.id);
      await acknowledge(db, toActor(row.user), whoOf(row.user), row.id);
      // Most within the time given, every seventh a day after the deadline; none later than an hour ago.
      const late = i % 7 === 6;
      const when = new Date(
        Math.min(
          published.getTime() + (late ? r.span + 1 : 1 + (i % Math.max(1, r.span - 1))) * DAY + 3 * HOUR,
          today.getTime() - HOUR,
        ),
      );
      await tx
        .update(acknowledgements)
        .set({ openedAt: new Date(when.getTime() - 10 * 60_000), acknowledgedAt: when })
        .where(eq(acknowledgements.id, row.id));
      add('acknowledgements');
    }
  }
}
