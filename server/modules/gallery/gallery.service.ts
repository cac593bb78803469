import { and, count, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';

import { GALLERY_SLIDE_WIDTH_PX } from '#shared/constants.ts';
import type { updatePhotoInput, uploadPhotoInput } from '#shared/schemas/gallery.ts';

import type { Config } from '#server/config.ts';
import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { labPhotos } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { makeWebImage } from '#server/modules/files/images.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import { labWrite } from '#server/modules/labs/labs.cache.ts';
import type { Actor } from '#server/plugins/auth.ts';

export type PhotoRow = typeof labPhotos.$inferSelect;

/**
 * The web copy the carousel loads: at most twice the 500 px slide (sharp screens), never enlarged, turned upright
 * from its EXIF orientation, re-encoded as WebP (which also drops the camera's EXIF data, GPS included).
 */
export const WEB_PHOTO_MAX_PX = GALLERY_SLIDE_WIDTH_PX * 2;

/** Makes the resized web copy of an uploaded photo next to it. The caller removes it if the request fails. */
export const makeWebPhoto = (store: FileStore, sandbox: Config['sandbox'], original: StoredFile): Promise<StoredFile> =>
  makeWebImage(store, sandbox, original, WEB_PHOTO_MAX_PX, 'photo');

/** A page of the lab's photos, newest first, and how many there are. Public. */
export async function listPhotos(db: DbOrTx, labId: string, page: { skip: number; limit: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(labPhotos)
      .where(eq(labPhotos.labId, labId))
      .orderBy(desc(labPhotos.createdAt), desc(labPhotos.id))
      .limit(page.limit)
      .offset(page.skip),
    db.select({ n: count() }).from(labPhotos).where(eq(labPhotos.labId, labId)),
  ]);
  return { photos: rows, total: total?.n ?? 0 };
}

/** Stores an uploaded photo with its web copy (two files rows). Callers check that the actor is an admin. */
export async function createPhoto(
  db: Db,
  actor: Actor,
  labId: string,
  input: z.output<typeof uploadPhotoInput>,
  original: StoredFile,
  web: StoredFile,
): Promise<PhotoRow> {
  return labWrite(db, async (tx) => {
    const fileRow = await saveFileRow(tx, original, actor.id);
    const webRow = await saveFileRow(tx, web, actor.id);
    const [photo] = await tx
      .insert(labPhotos)
      .values({ labId, name: input.name, description: input.description, fileId: fileRow.id, webFileId: webRow.id })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.lab_photo_uploaded',
      { name: input.name },
      { type: 'lab-photo', id: photo!.id },
    );
    return photo!;
  });
}

async function lockPhoto(tx: Tx, labId: string, photoId: string): Promise<PhotoRow> {
  const [photo] = await tx
    .select()
    .from(labPhotos)
    .where(and(eq(labPhotos.id, photoId), eq(labPhotos.labId, labId)))
    .limit(1)
    .for('update');
  if (!photo) throw notFound('gallery.photo_not_found');
  return photo;
}

/** Renames or re-describes a photo. Callers check that the actor is an admin. */
export async function updatePhoto(
  db: Db,
  actor: Actor,
  labId: string,
  photoId: string,
  input: z.output<typeof updatePhotoInput>,
): Promise<PhotoRow> {
  return labWrite(db, async (tx) => {
    const photo = await lockPhoto(tx, labId, photoId);
    const [updated] = await tx.update(labPhotos).set(input).where(eq(labPhotos.id, photo.id)).returning();
    await recordActivity(
      tx,
      actor,
      'activity.lab_photo_updated',
      { name: input.name },
      { type: 'lab-photo', id: photo.id },
    );
    return updated!;
  });
}

/** Deletes a photo with its original and web copy. Callers check that the actor is an admin. */
export async function deletePhoto(
  db: Db,
  store: FileStore,
  actor: Actor,
  labId: string,
  photoId: string,
): Promise<void> {
  await transactionDroppingFiles(
    db,
    store,
    async (tx, dropFiles) => {
      const photo = await lockPhoto(tx, labId, photoId);
      await tx.delete(labPhotos).where(eq(labPhotos.id, photo.id));
      await dropFiles([photo.fileId, photo.webFileId]);
      await recordActivity(
        tx,
        actor,
        'activity.lab_photo_deleted',
        { name: photo.name },
        { type: 'lab-photo', id: photo.id },
      );
    },
    labWrite,
  );
}
