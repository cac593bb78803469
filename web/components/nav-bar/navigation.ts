import type { Role } from '#shared/constants.ts';
import { paths } from '#web/app/paths.ts';

/** An entry of the main navigation. `label` is a key of the common namespace, `text` a name from the data. */
export type NavItem =
  | { kind: 'link'; id: string; label?: string; text?: string; to: string }
  | { kind: 'heading'; id: string; label: string }
  | { kind: 'note'; id: string; label: string }
  | { kind: 'sign-out'; id: string; label: string };

export type NavEntry =
  | { kind: 'link'; id: string; label: string; to: string }
  | { kind: 'menu'; id: string; label: string; items: NavItem[]; align?: 'end' };

export interface NavigationInput {
  role: Role | null;
  /** GET /api/groups/name, for the Groups dropdown and the admin's Manage Groups entries. */
  groups: { _id: string; name: string }[];
  /** True only once GET /api/labs/only has answered 404: the admin's Add Lab entry (spec §6). */
  noLabYet: boolean;
}

const link = (id: string, to: string): NavItem => ({ kind: 'link', id, label: `nav.${id}`, to });

/**
 * The navigation for a role, exactly as spec §6's table: Home always; Login when logged out; when logged in the
 * Groups dropdown, the role's panel, Close Group Docs and the My Account menu (View Profile, Sign Out).
 */
export function buildNavigation({ role, groups, noLabYet }: NavigationInput): NavEntry[] {
  const entries: NavEntry[] = [{ kind: 'link', id: 'home', label: 'nav.home', to: paths.home }];
  if (!role) {
    entries.push({ kind: 'link', id: 'login', label: 'nav.login', to: paths.login });
    return entries;
  }

  entries.push({
    kind: 'menu',
    id: 'groups',
    label: 'nav.groups',
    items: [
      // My Group (issue 5): the signed-in person's own group, then every group.
      { kind: 'link', id: 'myGroup', label: 'pages.myGroup', to: paths.myGroup },
      ...(groups.length
        ? groups.map((g): NavItem => ({ kind: 'link', id: `group-${g._id}`, text: g.name, to: paths.group.to(g._id) }))
        : [{ kind: 'note', id: 'no-groups', label: 'nav.noGroups' } as const]),
    ],
  });

  if (role === 'admin') {
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
        link('manageGallery', paths.admin.manageGallery),
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
        link('allSoftwareRepos', paths.viewSoftwareRepos),
        link('allTrialRepos', paths.viewTrialRepos),
        link('softwareRepoUpload', paths.uploadSoftwareRepo),
        link('trialRepoUpload', paths.uploadTrialRepo),
      ],
    });
  } else if (role === 'director') {
    entries.push({
      kind: 'menu',
      id: 'director',
      label: 'nav.directorPanel',
      items: [
        link('allLetters', paths.allLetters),
        link('allSoftwareRepos', paths.viewSoftwareRepos),
        link('allTrialRepos', paths.viewTrialRepos),
      ],
    });
  } else if (role === 'associate_director') {
    entries.push({
      kind: 'menu',
      id: 'associate-director',
      label: 'nav.associateDirectorPanel',
      items: [link('softwareRepoUpload', paths.uploadSoftwareRepo), link('trialRepoUpload', paths.uploadTrialRepo)],
    });
  } else if (role === 'employee') {
    entries.push({ kind: 'link', id: 'uploadLetter', label: 'nav.uploadLetter', to: paths.lettersManager });
  }

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
