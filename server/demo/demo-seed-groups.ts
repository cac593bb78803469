// The demo's research groups (server/demo/demo-seed.ts): the groups and their notices, circulars and files.
import { contactInfos, groupItems, groups, officeMembers } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import { DEMO_GROUPS, DEMO_LAB, type DemoGroup } from './demo-data.ts';
import { makePdf } from './demo-files.ts';
import { type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';

/** The five groups with contact details and office; returns their ids by key. */
export async function seedGroups(ctx: SeedContext, world: Pick<DemoWorld, 'lab'>): Promise<Map<string, string>> {
  const { tx, daysAgo, add } = ctx;
  const { lab } = world;
  const groupIds = new Map<string, string>();
  for (const g of DEMO_GROUPS) {
    const [group] = await tx
      .insert(groups)
      .values({
        labId: lab!.id,
        name: g.name,
        description: g.description,
        about: g.about,
        vision: g.vision,
        mission: g.mission,
        history: g.history,
        createdAt: daysAgo(390),
      })
      .returning();
    groupIds.set(g.key, group!.id);
    await tx.insert(contactInfos).values([
      {
        groupId: group!.id,
        type: 'Address',
        label: 'Office',
        value: `${g.building}, ${DEMO_LAB.contactInfo[0].value}`,
        position: 0,
      },
      { groupId: group!.id, type: 'Phone', label: 'Office', value: g.phone, position: 1 },
      { groupId: group!.id, type: 'Email', label: 'Group', value: g.email, position: 2 },
    ]);
    await tx.insert(officeMembers).values(g.office.map((m, position) => ({ groupId: group!.id, ...m, position })));
    add('groups');
    add('office members', g.office.length);
  }
  return groupIds;
}

/** Each group's notices, circulars, projects, patents, technologies, courses and publications. */
export async function seedGroupItems(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, daysAgo, add, heading } = ctx;
  const { groupIds, heads } = world;
  const groupKinds = [
    ['notices', 'notice'],
    ['circulars', 'circular'],
    ['projects', 'project'],
    ['patents', 'patent'],
    ['technologies', 'technology'],
    ['courses', 'course'],
    ['publications', 'publication'],
  ] as const;
  for (const g of DEMO_GROUPS) {
    const groupId = groupIds.get(g.key)!;
    const head = heads.get(g.key)!;
    for (const [field, kind] of groupKinds) {
      for (const [i, [name, description]] of (g[field as keyof DemoGroup] as [string, string][]).entries()) {
        const issued = daysAgo(kind === 'notice' || kind === 'circular' ? 3 + i * 9 : 60 + i * 45);
        const file = await store.save(
          tx,
          'group-files',
          `${name}.pdf`,
          makePdf({
            heading: `${heading} - ${g.name}`,
            title: name,
            reference: `Dated ${isoDate(issued)}`,
            body: `${description}\n\n${g.about}`,
            signature: `(${head.name})\nHead, ${g.name}`,
          }),
          head.id,
        );
        await tx.insert(groupItems).values({ groupId, kind, name, description, fileId: file.id, createdAt: issued });
        add(`group ${field}`);
      }
    }
    await recordActivity(
      tx,
      head,
      'activity.group_documents_updated',
      { group: g.name },
      { type: 'group', id: groupId },
    );
  }
}
