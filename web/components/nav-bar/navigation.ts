import type { Role } from '#shared/constants.ts';

import { roleMenuOf } from '#web/lib/access.policy.ts';
import { paths } from '#web/lib/paths.ts';

/**
 * An entry of the main navigation. `label` is a key of the common namespace (or `site:` for the site pages), `text` a
 * name from the data, `tag` a key shown after it (the person's own group, decision 019).
 */
export type NavItem =
  | { kind: 'link'; id: string; label?: string; text?: string; tag?: string; to: string }
  | { kind: 'heading'; id: string; label: string }
  | { kind: 'note'; id: string; label: string }
  | { kind: 'sign-out'; id: string; label: string };

/**
 * A count beside a link: `count` drawn, `label` (a key of the common namespace, given `count` and `values`) said to a
 * screen reader after the link's name.
 */
export interface NavBadge {
  count: number;
  label: string;
  values?: Record<string, number>;
}

export type NavEntry =
  | { kind: 'link'; id: string; label: string; to: string; badge?: NavBadge }
  | { kind: 'menu'; id: string; label: string; items: NavItem[]; align?: 'end' };

export interface NavigationInput {
  role: Role | null;
  /**
   * GET /api/groups/menu, for the Groups dropdown and the admin's Manage Groups entries: `mine` marks the person's own
   * group (or one they lead), `canOpen: false` one whose page would refuse them (left out of the Groups dropdown).
   */
  groups: { _id: string; name: string; mine?: boolean; canOpen?: boolean }[];
  /** True only once GET /api/labs/only has answered 404: the admin's Add Lab entry (spec §6). */
  noLabYet: boolean;
  /** Letters marked to the person and not yet received (decision 020): the badge of "Marked to me". */
  inboxCount?: number;
  /** Notices and circulars waiting for the person's acknowledgement, and how many are overdue. */
  acknowledgementCount?: { pending: number; overdue: number };
}

const link = (id: string, to: string): NavItem => ({ kind: 'link', id, label: `nav.${id}`, to });

/**
 * The navigation for a role, exactly as spec §6's table: Home always; Login when logged out; when logged in the
 * Groups dropdown, the role's panel (web/lib/access.policy.ts roleMenuOf), Close Group Docs and the My Account menu
 * (View Profile, Sign Out).
 */
export function buildNavigation({
  role,
  groups,
  noLabYet,
  inboxCount = 0,
  acknowledgementCount = { pending: 0, overdue: 0 },
}: NavigationInput): NavEntry[] {
  const entries: NavEntry[] = [{ kind: 'link', id: 'home', label: 'nav.home', to: paths.home }];
  if (!role) {
    entries.push({ kind: 'link', id: 'login', label: 'nav.login', to: paths.login });
    return entries;
  }

  const openable = [...groups.filter((g) => g.mine), ...groups.filter((g) => !g.mine && g.canOpen !== false)];
  entries.push({
    kind: 'menu',
    id: 'groups',
    label: 'nav.groups',
    items: [
      // My Group (decision 006): the signed-in person's own group, then every group.
      { kind: 'link', id: 'myGroup', label: 'pages.myGroup', to: paths.myGroup },
      // The staff directory (spec §2 /employees): in no menu before, so found by nobody.
      { kind: 'link', id: 'employees', label: 'pages.employees', to: paths.employees },
      // Own groups first, then the others the person may open; groups whose page would say Access Denied are left out.
      ...(openable.length
        ? openable.map((g): NavItem => ({
            kind: 'link',
            id: `group-${g._id}`,
            text: g.name,
            ...(g.mine ? { tag: 'site:nav.yourGroup' } : {}),
            to: paths.group.to(g._id),
          }))
        : [{ kind: 'note', id: 'no-groups', label: 'nav.noGroups' } as const]),
    ],
  });

  const menu = roleMenuOf(role);
  if (menu === 'adminPanel') {
    entries.push({
      kind: 'menu',
      id: 'admin',
      label: 'nav.adminPanel',
      items: [
        ...(noLabYet ? [link('addLab', paths.admin.addLab)] : []),
        link('addGroup', paths.admin.addGroups),
        link('manageLabs', paths.admin.manageLab),
        link('manageCloseGroup', paths.admin.closeGroups),
        link('approveUsers', paths.admin.approval),
        link('logs', paths.admin.logs),
        link('auditTrail', paths.admin.auditTrail),
        link('manageGallery', paths.admin.manageGallery),
        // e-Files (decision 107): the numbering scheme and the heads.
        link('efileSettings', paths.admin.efiles),
        // Text recognised in scans (decision 113): the files waiting and failed.
        link('ocrAdmin', paths.admin.ocr),
        // Signatures (decision 123): the roots a signer's chain may end at.
        link('trustedRoots', paths.admin.trustedRoots),
        { kind: 'link', id: 'feedback', label: 'site:nav.feedback', to: paths.admin.feedback },
        // Who has acknowledged the notices and circulars that ask for it.
        link('acknowledgementReports', paths.acknowledgementRequests),
        { kind: 'heading', id: 'manage-groups', label: 'nav.manageGroups' },
        ...(groups.length
          ? groups.map((g): NavItem => ({
              kind: 'link',
              id: `manage-group-${g._id}`,
              text: g.name,
              to: paths.admin.group.to(g._id),
            }))
          : [{ kind: 'note', id: 'no-groups-to-manage', label: 'nav.noGroups' } as const]),
      ],
    });
    entries.push({
      kind: 'menu',
      id: 'records',
      label: 'nav.lettersAndRepos',
      items: [
        link('allLetters', paths.allLetters),
        link('pendency', paths.pendency),
        link('allSoftwareRepos', paths.viewSoftwareRepos),
        link('allTrialRepos', paths.viewTrialRepos),
        link('softwareRepoUpload', paths.uploadSoftwareRepo),
        link('trialRepoUpload', paths.uploadTrialRepo),
      ],
    });
  } else if (menu === 'directorPanel') {
    entries.push({
      kind: 'menu',
      id: 'director',
      label: 'nav.directorPanel',
      items: [
        link('allLetters', paths.allLetters),
        link('pendency', paths.pendency),
        link('allSoftwareRepos', paths.viewSoftwareRepos),
        link('allTrialRepos', paths.viewTrialRepos),
        // Directors read the audit trail (read-only).
        link('auditTrail', paths.admin.auditTrail),
        link('acknowledgementReports', paths.acknowledgementRequests),
      ],
    });
  } else if (menu === 'associateDirectorPanel') {
    entries.push({
      kind: 'menu',
      id: 'associate-director',
      label: 'nav.associateDirectorPanel',
      items: [
        link('softwareRepoUpload', paths.uploadSoftwareRepo),
        link('trialRepoUpload', paths.uploadTrialRepo),
        link('pendency', paths.pendency),
        link('acknowledgementReports', paths.acknowledgementRequests),
      ],
    });
  } else if (menu === 'uploadLetter') {
    entries.push({ kind: 'link', id: 'uploadLetter', label: 'nav.uploadLetter', to: paths.lettersManager });
  }

  // Decision 020: every signed-in person's inbox of letters marked to them, with the count not yet received.
  entries.push({
    kind: 'link',
    id: 'inbox',
    label: 'nav.inbox',
    to: paths.inbox,
    badge: { count: inboxCount, label: 'nav.inboxCount' },
  });
  // e-Files (decision 107): the files with the person, created, sent, parked, closed.
  entries.push({ kind: 'link', id: 'myFiles', label: 'nav.myFiles', to: paths.efiles });
  // The dispatch register (decision 120): the lab's outward letters.
  entries.push({ kind: 'link', id: 'dispatchRegister', label: 'nav.dispatchRegister', to: paths.dispatchRegister });
  // The notices and circulars they are asked to acknowledge, with the count still waiting (overdue said).
  const { pending, overdue } = acknowledgementCount;
  entries.push({
    kind: 'link',
    id: 'acknowledgements',
    label: 'nav.toAcknowledge',
    to: paths.acknowledgements,
    badge: {
      count: pending,
      label: overdue ? 'nav.toAcknowledgeOverdue' : 'nav.toAcknowledgeCount',
      values: { overdue },
    },
  });
  entries.push({ kind: 'link', id: 'closeGroupDocs', label: 'nav.closeGroupDocs', to: paths.closeGroupDocs });
  entries.push({
    kind: 'menu',
    id: 'account',
    label: 'nav.myAccount',
    align: 'end',
    items: [link('viewProfile', paths.profile), { kind: 'sign-out', id: 'signOut', label: 'nav.signOut' }],
  });
  return entries;
}
