import type { Role } from '#shared/constants.ts';

import {
  isAdmin,
  leadsGroups,
  mayUploadRepositories,
  type ReaderKind,
  readsAuditTrail,
  seesAllPendency,
  seesEveryRepository,
} from '#web/lib/access.policy.ts';
import { paths } from '#web/lib/paths.ts';

/**
 * What Help says and to whom (decision 101): one section per feature, under the heading of the kind
 * of reader it is first for. Its texts live at roles.<group>.tasks.<task> of the namespace helpNamespace(group) names (a title, the
 * steps and `keys`, the keyboard path), in English and Hindi. A section is shown only to the roles that can use it,
 * by the web's role rules (web/lib/access.policy.ts), so a reader is not told of what the server would refuse them.
 */
export const HELP_GROUPS = ['everyone', 'visitor', 'employee', 'associateDirector', 'director', 'admin'] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number] & ('everyone' | ReaderKind);

/** The Help groups (not roles: a group names whom a part of Help is for) whose texts are in `help`. */
const IN_HELP = new Set<HelpGroup>(['everyone', 'visitor', 'employee']);
/** Where a group's texts are: `help` for everyone, visitors and staff; `help-officers` for the rest. */
export const helpNamespace = (group: HelpGroup) => (IN_HELP.has(group) ? 'help' : 'help-officers');

type RoleOf = Role | null;
const anyone = () => true;
const visitor = (role: RoleOf) => role === null;
const signedIn = (role: RoleOf) => role !== null;
/** The acknowledgement reports (decision 074): directors and administrators read all of them. */
const readsAllReports = (role: RoleOf) => seesAllPendency(role);

/** Each group's sections, in the order a newcomer meets them, with who may use each. */
export const HELP_SECTIONS: Record<HelpGroup, Record<string, (role: RoleOf) => boolean>> = {
  everyone: { search: anyone, display: anyone, footer: anyone },
  visitor: { read: anyone, register: visitor, forgotPassword: anyone, language: anyone },
  employee: {
    profile: signedIn,
    secondFactor: signedIn,
    passkeys: signedIn,
    recoveryCodes: signedIn,
    stepUp: signedIn,
    letter: signedIn,
    mark: signedIn,
    inbox: signedIn,
    receive: signedIn,
    pullBack: signedIn,
    copies: signedIn,
    delegation: signedIn,
    viewer: signedIn,
    acknowledge: signedIn,
    bell: signedIn,
    digest: signedIn,
    group: signedIn,
    closeGroup: signedIn,
    efiles: signedIn,
    efileNotes: signedIn,
    efileMoves: signedIn,
    efileDrafts: signedIn,
    dispatch: signedIn,
    session: signedIn,
  },
  associateDirector: {
    upload: mayUploadRepositories,
    manageGroup: leadsGroups,
    pendency: leadsGroups,
    acknowledgementReports: leadsGroups,
  },
  director: {
    letters: seesEveryRepository,
    repos: seesEveryRepository,
    pendency: seesAllPendency,
    acknowledgementReports: readsAllReports,
    auditTrail: readsAuditTrail,
  },
  admin: {
    approve: isAdmin,
    lab: isAdmin,
    groups: isAdmin,
    users: isAdmin,
    logs: isAdmin,
    feedback: isAdmin,
    pages: isAdmin,
    pendency: isAdmin,
    clearance: isAdmin,
    efileSettings: isAdmin,
    ocr: isAdmin,
    trustedRoots: isAdmin,
  },
};

/** A section's id: `<group>.<task>`, as in HELP_SCREENS. */
export type HelpSectionId = `${HelpGroup}.${string}`;

/** The sections this reader may use, by group; a group with none is left out. */
export function helpFor(role: RoleOf): { group: HelpGroup; tasks: string[] }[] {
  return HELP_GROUPS.map((group) => ({
    group,
    tasks: Object.entries(HELP_SECTIONS[group])
      .filter(([, may]) => may(role))
      .map(([task]) => task),
  })).filter((g) => g.tasks.length > 0);
}

/**
 * The Help section of every screen, by its route pattern (web/app/router.tsx): help-sections.test.ts fails when a
 * route has neither a section here nor a place in SCREENS_WITHOUT_HELP, so a new screen comes with its Help.
 */
export const HELP_SCREENS: Record<string, HelpSectionId> = {
  [paths.home]: 'visitor.read',
  [paths.labs]: 'visitor.read',
  [paths.directorProfile]: 'visitor.read',
  [paths.register]: 'visitor.register',
  [paths.pendingApproval]: 'visitor.register',
  [paths.forgotPassword]: 'visitor.forgotPassword',
  [paths.resetPassword]: 'visitor.forgotPassword',
  '/search': 'everyone.search',
  [paths.feedback]: 'everyone.footer',
  [paths.accessibility]: 'everyone.footer',
  [paths.sitemap]: 'everyone.footer',
  [paths.terms]: 'everyone.footer',
  [paths.privacy]: 'everyone.footer',
  [paths.archive]: 'everyone.footer',
  [paths.secondFactor]: 'employee.secondFactor',
  [paths.profile]: 'employee.profile',
  [paths.employees]: 'employee.group',
  [paths.myGroup]: 'employee.group',
  [paths.group.pattern]: 'employee.group',
  [paths.closeGroupDocs]: 'employee.closeGroup',
  [paths.lettersManager]: 'employee.letter',
  [paths.inbox]: 'employee.inbox',
  [paths.delegation]: 'employee.delegation',
  [paths.acknowledgements]: 'employee.acknowledge',
  [paths.editGroup.pattern]: 'associateDirector.manageGroup',
  [paths.groupAfterEdit.pattern]: 'associateDirector.manageGroup',
  [paths.uploadSoftwareRepo]: 'associateDirector.upload',
  [paths.uploadTrialRepo]: 'associateDirector.upload',
  [paths.acknowledgementRequests]: 'associateDirector.acknowledgementReports',
  [paths.acknowledgementRequest.pattern]: 'associateDirector.acknowledgementReports',
  [paths.pendency]: 'director.pendency',
  [paths.allLetters]: 'director.letters',
  [paths.viewSoftwareRepos]: 'director.repos',
  [paths.viewTrialRepos]: 'director.repos',
  [paths.admin.auditTrail]: 'director.auditTrail',
  [paths.admin.approval]: 'admin.approve',
  [paths.admin.root]: 'admin.lab',
  [paths.admin.manageLab]: 'admin.lab',
  [paths.admin.addLab]: 'admin.lab',
  [paths.admin.manageGallery]: 'admin.lab',
  [paths.admin.manage]: 'admin.users',
  [paths.addGroup]: 'admin.groups',
  [paths.admin.addGroups]: 'admin.groups',
  [paths.admin.closeGroups]: 'admin.groups',
  [paths.admin.group.pattern]: 'admin.groups',
  [paths.admin.groups.pattern]: 'admin.groups',
  [paths.admin.logs]: 'admin.logs',
  [paths.admin.feedback]: 'admin.feedback',
  [paths.efiles]: 'employee.efiles',
  [paths.efile.pattern]: 'employee.efileNotes',
  [paths.admin.efiles]: 'admin.efileSettings',
  [paths.admin.ocr]: 'admin.ocr',
  [paths.dispatchRegister]: 'employee.dispatch',
  [paths.admin.trustedRoots]: 'admin.trustedRoots',
};

/** The screens that need no Help section of their own, and why. Keep it short. */
export const SCREENS_WITHOUT_HELP: Record<string, string> = {
  [paths.login]: 'the sign-in form; what follows it (forgot password, second factor, passkeys) has sections',
  [paths.help]: 'Help itself',
  '*': 'page not found: it offers only the way back home',
};
