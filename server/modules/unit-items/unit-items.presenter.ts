import type { ItemAcknowledgementJson } from '#shared/schemas/acknowledgements.ts';
import type { UnitItemJson } from '#shared/schemas/unit.ts';

import { fileUrl } from '#server/modules/files/storage-areas.ts';

/**
 * What a lab item (lab_items) and a group item (group_items) row have in common, with its file's original name. The
 * two tables stay two (docs/decisions/037-lab-and-group-items.md); their JSON is one shape.
 */
export interface UnitItemRow {
  id: string;
  name: string;
  description: string;
  fileId: string | null;
  fileName: string | null;
  validUntil: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The acknowledgement request of a notice or circular, when it has one (loaded by acknowledgements' service). */
  acknowledgement?: ItemAcknowledgementJson | null;
}

/**
 * Row -> spec JSON for a lab or group notice, circular, product, advertisement or group file. `area` is the storage
 * area its file is served from; `today` (YYYY-MM-DD in India) decides whether its 'valid until' date has passed.
 */
export function presentUnitItem(item: UnitItemRow, area: string, today: string): UnitItemJson {
  return {
    _id: item.id,
    name: item.name,
    description: item.description,
    fileUrl: fileUrl(area, item.fileId),
    fileName: item.fileName,
    validUntil: item.validUntil,
    expired: item.validUntil !== null && item.validUntil < today,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
    acknowledgement: item.acknowledgement ?? null,
  };
}
