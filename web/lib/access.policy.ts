import { type Role, ROLES } from '#shared/constants.ts';

/**
 * What the signed-in person's role lets the web show them (decision 035): the one place in web/
 * where a role is compared (server/policy-layer.test.ts). Each rule mirrors the server's, which alone decides: these
 * only choose menus, titles and forms, so a person is not offered what the server would refuse them.
 *
 * A role as the browser has it: the session's `Role` (null for a visitor), or a person's from the API (an officer's
 * is plain text, shared/schemas/letter.ts officerJson).
 */
type RoleOf = string | null | undefined;

/** Administrators: the admin guard and everything admin-only (spec §6; server/lib/roles.policy.ts isAdmin). */
export const isAdmin = (role: RoleOf): boolean => role === 'admin';

/**
 * Directors and administrators see every repository of the lab, hence "All Software/Trial Repositories" (spec §6
 * menu; server/modules/repositories/repositories.policy.ts seesEveryRepository).
 */
export const seesEveryRepository = (role: RoleOf): boolean => role === 'director' || role === 'admin';

/**
 * Associate directors and administrators may upload software and trial repositories (decision 008; spec §6
 * menu; repositories.policy.ts UPLOADER_ROLES, rule 'repositories.upload').
 */
export const mayUploadRepositories = (role: RoleOf): boolean => role === 'associate_director' || role === 'admin';

/**
 * Directors and administrators see the pendency of any group or of the whole lab; an associate director only that of
 * their own group (decision 020; server/modules/letters/letters.policy.ts pendencyScope).
 */
export const seesAllPendency = (role: RoleOf): boolean => role === 'director' || role === 'admin';

/**
 * Directors and administrators read the audit trail (decision 069; server/modules/audit-trail/
 * audit-trail.policy.ts 'audit.read'): its screen and its place in their menu.
 */
export const readsAuditTrail = (role: RoleOf): boolean => role === 'director' || role === 'admin';

/**
 * Only administrators write an audit checkpoint on demand (audit-trail.policy.ts 'audit.checkpoint'): a director reads
 * the trail and changes nothing of it.
 */
export const writesAuditCheckpoints = (role: RoleOf): boolean => isAdmin(role);

/**
 * A person who registered as pending_director waits for an administrator's approval: after signing in they are sent
 * to /pending-approval (spec §4 States), and an administrator grants them a role (spec §6).
 */
export const awaitsDirectorApproval = (role: RoleOf): boolean => role === 'pending_director';

/**
 * Associate directors lead a research group (decision 030: the group's current entry must name them too, which the
 * server checks): officer lists put them first and name them with their group.
 */
export const leadsGroups = (role: RoleOf): boolean => role === 'associate_director';

/**
 * Approvers of drafts for approval: group heads (associate directors) and directors (decision 122; efiles.policy.ts
 * `efiles.draft_put_up`): the put-up dialog offers only them.
 */
export const approvesDrafts = (role: RoleOf): boolean => role === 'associate_director' || role === 'director';

/**
 * The roles an approved member of staff can hold, which an administrator assigns (spec §6 "Only an admin may approve
 * users and assign the role"): every role but pending_director, in the order of ROLES (shared/constants.ts
 * APPROVAL_ROLES, the server's schema of Manage Users).
 */
export const assignableRoles = ROLES.filter(
  (role): role is Exclude<Role, 'pending_director'> => !awaitsDirectorApproval(role),
);

/**
 * The role's own entry of the navigation (spec §6 "Menu by role"), named as its label: the admin panel, the director
 * panel, the associate director panel, or the employee's Upload Letter link. None for a visitor or a person awaiting
 * approval.
 */
export type RoleMenu = 'adminPanel' | 'directorPanel' | 'associateDirectorPanel' | 'uploadLetter';

export function roleMenuOf(role: RoleOf): RoleMenu | null {
  switch (role) {
    case 'admin':
      return 'adminPanel';
    case 'director':
      return 'directorPanel';
    case 'associate_director':
      return 'associateDirectorPanel';
    case 'employee':
      return 'uploadLetter';
    default:
      return null;
  }
}

/**
 * The kind of reader a role makes, for texts written per kind (the help's sections, decision 019): a visitor, or a
 * signed-in person by role, one awaiting approval reading as an employee does.
 */
export type ReaderKind = 'visitor' | 'employee' | 'associateDirector' | 'director' | 'admin';

export function readerKindOf(role: RoleOf): ReaderKind {
  switch (role) {
    case 'admin':
    case 'director':
      return role;
    case 'associate_director':
      return 'associateDirector';
    default:
      return role ? 'employee' : 'visitor';
  }
}
