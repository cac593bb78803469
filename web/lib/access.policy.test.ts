import { describe, expect, it } from 'vitest';

import { APPROVAL_ROLES, type Role, ROLES } from '#shared/constants.ts';

import {
  assignableRoles,
  awaitsDirectorApproval,
  isAdmin,
  leadsGroups,
  mayUploadRepositories,
  readerKindOf,
  readsAuditTrail,
  roleMenuOf,
  seesAllPendency,
  seesEveryRepository,
  writesAuditCheckpoints,
} from './access.policy.ts';

/** The roles for which `rule` holds, of every role and a visitor (null). */
const holdsFor = (rule: (role: Role | null) => boolean) => [...ROLES, null].filter((role) => rule(role));

describe('the web access policy (mirrors the server, spec §6)', () => {
  it('knows administrators (the admin guard)', () => {
    expect(holdsFor(isAdmin)).toEqual(['admin']);
    expect(isAdmin(undefined)).toBe(false);
  });

  it('lets directors and administrators read the audit trail, and only administrators write a checkpoint', () => {
    expect(holdsFor(readsAuditTrail)).toEqual(['director', 'admin']);
    expect(holdsFor(writesAuditCheckpoints)).toEqual(['admin']);
  });

  it('shows every repository to directors and administrators', () => {
    expect(holdsFor(seesEveryRepository)).toEqual(['director', 'admin']);
  });

  it('lets associate directors and administrators upload repositories (repositories.policy.ts UPLOADER_ROLES)', () => {
    expect(holdsFor(mayUploadRepositories)).toEqual(['associate_director', 'admin']);
  });

  it("shows the whole lab's pendency to directors and administrators", () => {
    expect(holdsFor(seesAllPendency)).toEqual(['director', 'admin']);
  });

  it('sends only a pending director to wait for approval', () => {
    expect(holdsFor(awaitsDirectorApproval)).toEqual(['pending_director']);
  });

  it('puts associate directors first among officers, also when the role comes as text from the API', () => {
    expect(holdsFor(leadsGroups)).toEqual(['associate_director']);
    expect(leadsGroups('someone_else')).toBe(false);
  });

  it('assigns every role but pending_director, as the server schema of Manage Users accepts', () => {
    expect(assignableRoles).toEqual([...APPROVAL_ROLES]);
  });

  it("gives each role its menu of spec §6's table, and none to visitors or people awaiting approval", () => {
    expect(Object.fromEntries([...ROLES, null].map((role) => [String(role), roleMenuOf(role)]))).toEqual({
      employee: 'uploadLetter',
      director: 'directorPanel',
      associate_director: 'associateDirectorPanel',
      pending_director: null,
      admin: 'adminPanel',
      null: null,
    });
  });

  it('reads the help as a visitor, or by role (a pending director as an employee)', () => {
    expect(Object.fromEntries([...ROLES, null].map((role) => [String(role), readerKindOf(role)]))).toEqual({
      employee: 'employee',
      director: 'director',
      associate_director: 'associateDirector',
      pending_director: 'employee',
      admin: 'admin',
      null: 'visitor',
    });
  });
});
