import { paths } from '#web/lib/paths.ts';

/** The lab admin panel's side menu (spec §2), in order. The four lab sections live at /admin/manage-lab?section=. */
export const LAB_ADMIN_SECTIONS = ['lab', 'directors', 'notices', 'products', 'users'] as const;
export type LabAdminSection = Exclude<(typeof LAB_ADMIN_SECTIONS)[number], 'users'>;

/** Manage Users is /admin/manage; the others are sections of /admin/manage-lab (Manage Labs without a parameter). */
export const sectionLink = (section: (typeof LAB_ADMIN_SECTIONS)[number]) =>
  section === 'users'
    ? paths.admin.manage
    : section === 'lab'
      ? paths.admin.manageLab
      : `${paths.admin.manageLab}?section=${section}`;
