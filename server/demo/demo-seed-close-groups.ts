// The demo's close groups (server/demo/demo-seed.ts).
import { closeGroupDocuments, closeGroupMembers, closeGroups } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import { CLOSE_GROUPS } from './demo-data.ts';
import { makePdf } from './demo-files.ts';
import { type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';

/** Close groups with their members and documents. */
export async function seedCloseGroups(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, daysAgo, add } = ctx;
  const { byGroup, admin } = world;
  for (const cg of CLOSE_GROUPS) {
    const members = cg.members.flatMap((key) => byGroup.get(key) ?? []).slice(0, cg.size);
    const [closeGroup] = await tx
      .insert(closeGroups)
      .values({
        groupName: cg.groupName,
        groupPurpose: cg.groupPurpose,
        durationFrom: isoDate(daysAgo(cg.fromDaysAgo)),
        durationTo: isoDate(daysAgo(-cg.toDaysAhead)),
        adminRemarks: cg.adminRemarks,
        createdBy: admin.id,
        createdAt: daysAgo(cg.fromDaysAgo),
      })
      .returning();
    await tx.insert(closeGroupMembers).values(members.map((m) => ({ closeGroupId: closeGroup!.id, userId: m.id })));
    await recordActivity(
      tx,
      admin,
      'activity.close_group_created',
      { group: cg.groupName },
      { type: 'close-group', id: closeGroup!.id },
    );
    for (const [i, filename] of cg.documents.entries()) {
      const uploader = members[i % members.length]!;
      const file = await store.save(
        tx,
        'close-groups',
        filename,
        makePdf({
          heading: `${cg.groupName} (restricted)`,
          title: filename.replace(/\.pdf$/, ''),
          reference: `Close group document ${i + 1}`,
          body: `${cg.groupPurpose}\n\nMembers: ${members.map((m) => m.name).join(', ')}.`,
          signature: `(${uploader.name})`,
        }),
        uploader.id,
      );
      await tx.insert(closeGroupDocuments).values({
        closeGroupId: closeGroup!.id,
        fileId: file.id,
        filename,
        uploadedBy: uploader.id,
        uploadedAt: daysAgo(cg.fromDaysAgo - 5 - i * 7),
      });
      add('close group documents');
    }
    add('close groups');
  }
}
