import type { DirectorEntryJson } from '#shared/schemas/unit.ts';

import { fileUrl } from '#server/modules/files/storage-areas.ts';

import { DIRECTOR_IMAGES_AREA, type DirectorEntryWithUser } from './director-history.service.ts';

/** Row -> spec JSON for a director or associate-director entry: the manual name, else the linked user's. */
export function presentDirectorEntry(entry: DirectorEntryWithUser): DirectorEntryJson {
  const user = entry.user
    ? {
        _id: entry.user.id,
        name: entry.user.name,
        photo: fileUrl('profile-photos', entry.user.photoFileId),
        about: entry.user.about,
      }
    : null;
  return {
    _id: entry.id,
    user,
    name: entry.name || user?.name || '',
    designation: entry.designation,
    from: entry.from,
    to: entry.to,
    about: entry.about,
    image: fileUrl(DIRECTOR_IMAGES_AREA, entry.imageFileId),
  };
}
