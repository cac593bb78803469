// The demo's lab (server/demo/demo-seed.ts): its pages, director history, notices and the rest, and the gallery.
import { DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION, DEFAULT_DIRECTOR_DESIGNATION } from '#shared/constants.ts';

import { contactInfos, directorEntries, labItems, labPhotos, labs, officeMembers } from '#server/db/schema/index.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import {
  DEMO_GROUPS,
  DEMO_LAB,
  DIRECTOR_FROM,
  DIRECTOR_OFFICE,
  GALLERY,
  LAB_ITEMS,
  PAST_DIRECTORS,
} from './demo-data.ts';
import { makePdf, makePhoto, makePortrait } from './demo-files.ts';
import { DAY, type DemoWorld, isoDate, type LabRow, PORTRAIT_COLOURS, type SeedContext } from './demo-seed-context.ts';

/** The lab with its contact details and the office of the director. */
export async function seedLab(ctx: SeedContext): Promise<LabRow> {
  const { tx, daysAgo, add } = ctx;
  const [lab] = await tx
    .insert(labs)
    .values({
      name: DEMO_LAB.name,
      domain: DEMO_LAB.domain,
      about: DEMO_LAB.about,
      vision: DEMO_LAB.vision,
      mission: DEMO_LAB.mission,
      history: DEMO_LAB.history,
      createdAt: daysAgo(400),
    })
    .returning();
  await tx.insert(contactInfos).values(DEMO_LAB.contactInfo.map((c, position) => ({ labId: lab!.id, ...c, position })));
  await tx.insert(officeMembers).values(DIRECTOR_OFFICE.map((m, position) => ({ labId: lab!.id, ...m, position })));
  add('office members', DIRECTOR_OFFICE.length);
  return lab!;
}

/** Past directors and the present one, and each group's past and present head. */
export async function seedDirectorHistory(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, add } = ctx;
  const { lab, groupIds, admin, director, heads } = world;
  for (const [i, d] of PAST_DIRECTORS.entries()) {
    const image = await store.save(
      tx,
      'directors',
      `${d.name}.jpg`,
      await makePortrait(d.name, PORTRAIT_COLOURS[i]!),
      admin.id,
    );
    await tx.insert(directorEntries).values({
      labId: lab!.id,
      name: d.name,
      designation: DEFAULT_DIRECTOR_DESIGNATION,
      from: d.from,
      to: d.to,
      about: d.about,
      imageFileId: image.id,
    });
  }
  await tx.insert(directorEntries).values({
    labId: lab!.id,
    userId: director.id,
    name: director.name,
    designation: DEFAULT_DIRECTOR_DESIGNATION,
    from: DIRECTOR_FROM,
    about: `${director.name} took charge as Director on 1 April 2024. He leads the lab's programmes in fire suppression for submarines, explosives licensing and the remediation of firing ranges.`,
    imageFileId: director.photoFileId,
  });
  add('director entries', PAST_DIRECTORS.length + 1);
  for (const g of DEMO_GROUPS) {
    const groupId = groupIds.get(g.key)!;
    const head = heads.get(g.key)!;
    await tx.insert(directorEntries).values([
      {
        groupId,
        name: g.pastHead.name,
        designation: DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION,
        from: g.pastHead.from,
        to: g.pastHead.to,
        about: g.pastHead.about,
      },
      {
        groupId,
        userId: head.id,
        name: head.name,
        designation: DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION,
        from: g.headFrom,
        about: head.about,
        imageFileId: head.photoFileId,
      },
    ]);
    add('director entries', 2);
  }
}

/** Lab notices, circulars, products and advertisements, each with a PDF. */
export async function seedLabItems(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, daysAgo, add, heading } = ctx;
  const { lab, admin } = world;
  const areaOf = {
    notice: 'notices',
    circular: 'circulars',
    product: 'products',
    advertisement: 'advertisements',
  } as const;
  for (const kind of ['notice', 'circular', 'product', 'advertisement'] as const) {
    for (const [i, item] of LAB_ITEMS[kind].entries()) {
      const [name, description, ago = 30 + i * 20, validFor = null] = item as readonly [
        string,
        string,
        number?,
        (number | null)?,
      ];
      const issued = daysAgo(ago);
      const file = await store.save(
        tx,
        areaOf[kind],
        `${name}.pdf`,
        makePdf({
          heading,
          title: name,
          reference: `No. CFEES/${kind === 'circular' ? 'CIR' : kind === 'notice' ? 'NOT' : 'TECH'}/${issued.getFullYear()}/${101 + i}    Dated ${isoDate(issued)}`,
          body: `${description}\n\n${kind === 'notice' || kind === 'circular' ? 'All Heads of Groups are requested to bring this to the notice of their staff.' : 'For details, contact the Technical Coordination and Administration Group.'}`,
          signature: `(${admin.name})\n${admin.designation}\nfor Director`,
        }),
        admin.id,
      );
      await tx.insert(labItems).values({
        labId: lab!.id,
        kind,
        name,
        description,
        fileId: file.id,
        validUntil: validFor ? isoDate(new Date(issued.getTime() + validFor * DAY)) : null,
        createdAt: issued,
      });
      await recordActivity(
        tx,
        admin,
        'activity.lab_item_added',
        { kind: activityWord(kind), name },
        { type: 'lab', id: lab!.id },
      );
      add(`lab ${kind}s`);
    }
  }
}

/** Gallery photos, each in full size and a web copy. */
export async function seedGallery(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, daysAgo, add } = ctx;
  const { lab, admin } = world;
  for (const [i, photo] of GALLERY.entries()) {
    const { full, web } = await makePhoto({ title: photo.title, ...photo.scene });
    const fullFile = await store.save(tx, 'photos', `${photo.title}.jpg`, full, admin.id);
    const webFile = await store.save(tx, 'photos', `${photo.title} (web).jpg`, web, admin.id);
    await tx.insert(labPhotos).values({
      labId: lab!.id,
      name: photo.title,
      description: photo.description,
      fileId: fullFile.id,
      webFileId: webFile.id,
      createdAt: daysAgo(100 - i * 12),
    });
    await recordActivity(tx, admin, 'activity.lab_photo_uploaded', { name: photo.title }, { type: 'lab', id: lab!.id });
    add('photos');
  }
}
