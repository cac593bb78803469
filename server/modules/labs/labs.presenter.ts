import type { LabItemJson, LabJson, LabSummaryJson } from '#shared/schemas/lab.ts';

import type { LabRow } from '#server/db/schema/index.ts';
import { presentDirectorEntry } from '#server/modules/director-history/director-history.presenter.ts';
import { presentUnitItem } from '#server/modules/unit-items/unit-items.presenter.ts';

import type { LabItemKind, LabItemWithFile, LabRecord } from './labs.service.ts';

/** The storage area (and URL segment) of each kind of lab item. */
export const AREA_OF: Record<LabItemKind, 'notices' | 'circulars' | 'products' | 'advertisements'> = {
  notice: 'notices',
  circular: 'circulars',
  product: 'products',
  advertisement: 'advertisements',
};

/** Row -> spec JSON for a notice, circular, product or advertisement. `today` is YYYY-MM-DD in India. */
export function presentLabItem(item: LabItemWithFile, today: string): LabItemJson {
  return presentUnitItem(item, AREA_OF[item.kind], today);
}

export function presentLabSummary(lab: LabRow): LabSummaryJson {
  return {
    _id: lab.id,
    name: lab.name,
    domain: lab.domain,
    about: lab.about,
    vision: lab.vision,
    mission: lab.mission,
    LabHistoryDetails: lab.history,
    updatedAt: lab.updatedAt.toISOString(),
  };
}

/** The whole lab record (spec §3 Lab). */
export function presentLab(record: LabRecord): LabJson {
  const items = (kind: LabItemKind) =>
    record.items.filter((i) => i.kind === kind).map((i) => presentLabItem(i, record.today));
  const directorHistory = record.directors.map(presentDirectorEntry);
  return {
    ...presentLabSummary(record.lab),
    contactInfo: record.contacts.map((c) => ({ _id: c.id, type: c.type, label: c.label, value: c.value })),
    directorHistory,
    currentDirector: record.currentDirectorId
      ? (directorHistory.find((d) => d._id === record.currentDirectorId) ?? null)
      : null,
    officeOfDirector: record.office.map((m) => ({
      _id: m.id,
      name: m.name,
      designation: m.designation,
      contactNumber: m.contactNumber,
      email: m.email,
    })),
    notices: items('notice'),
    circulars: items('circular'),
    products: items('product'),
    advertisements: items('advertisement'),
    lastUpdated: new Date(
      Math.max(
        record.lab.updatedAt.getTime(),
        ...record.items.map((i) => i.updatedAt.getTime()),
        ...record.directors.map((d) => d.updatedAt.getTime()),
      ),
    ).toISOString(),
  };
}
