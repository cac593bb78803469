import { z } from 'zod';

import { GALLERY_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { plainText } from './common.ts';

// Messages are the spec's (§5 Photos).
const UPLOAD_MESSAGE = msg('gallery.upload_incomplete');
const EDIT_MESSAGE = msg('gallery.edit_incomplete');

/** Upload form fields (multipart: photo, name, description); the file is checked separately with the same message. */
export const uploadPhotoInput = z.object({
  name: plainText({ error: UPLOAD_MESSAGE }).min(1, UPLOAD_MESSAGE).max(300),
  description: plainText({ error: UPLOAD_MESSAGE }).min(1, UPLOAD_MESSAGE).max(5000),
});
export type UploadPhotoInput = z.input<typeof uploadPhotoInput>;

/** Inline edit of a photo (PUT /api/labs/{labId}/photos/{photoId}). */
export const updatePhotoInput = z.object({
  name: plainText({ error: EDIT_MESSAGE }).min(1, EDIT_MESSAGE).max(300),
  description: plainText({ error: EDIT_MESSAGE }).min(1, EDIT_MESSAGE).max(5000),
});
export type UpdatePhotoInput = z.input<typeof updatePhotoInput>;

/** GET /api/labs/{id}/photos?skip&limit: a page of photos, 3 by default (spec §9). */
export const photoPageQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(GALLERY_PAGE_SIZE),
});

/** A lab photo (spec §3 Lab photo); `fileUrl` is the original, `webUrl` the resized copy the carousel shows. */
export const photoJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  description: z.string(),
  fileUrl: z.string().nullable(),
  webUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type PhotoJson = z.infer<typeof photoJson>;
