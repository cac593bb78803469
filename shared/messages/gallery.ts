/** The lab's photo gallery (server/modules/gallery, shared/schemas/gallery.ts; spec §5 Photos). */
export const gallery = {
  upload_incomplete: 'Please fill all fields and select a file.',
  edit_incomplete: 'Photo name and description cannot be empty.',
  photo_not_found: 'This photo no longer exists.',
  lab_id_missing: 'Lab ID is missing.',
  invalid_photo_id: 'Invalid photo id.',
} as const;
