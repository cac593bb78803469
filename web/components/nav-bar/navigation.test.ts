import { describe, expect, it } from 'vitest';

import { buildNavigation, type NavEntry } from './navigation.ts';

const groups = [{ _id: '7f1c2a9e-0000-4000-8000-000000000001', name: 'Fire Safety' }];
/** Top-level labels, and the labels (or names) inside each menu. */
const shape = (entries: NavEntry[]) =>
  entries.map((e) =>
    e.kind === 'link'
      ? e.label
      : { [e.label]: e.items.map((i) => ('text' in i && i.text) || ('label' in i ? i.label : '')) },
  );

describe('buildNavigation (spec §6 menu by role)', () => {
  it('shows Home and Login to a visitor', () => {
    expect(shape(buildNavigation({ role: null, groups, noLabYet: true }))).toEqual(['nav.home', 'nav.login']);
  });

  it('gives an employee Upload Letter besides Groups, Close Group Docs and My Account', () => {
    expect(shape(buildNavigation({ role: 'employee', groups, noLabYet: false }))).toEqual([
      'nav.home',
      { 'nav.groups': ['pages.myGroup', 'pages.employees', 'Fire Safety'] },
      'nav.uploadLetter',
      'nav.inbox',
      'nav.myFiles',
      'nav.dispatchRegister',
      'nav.toAcknowledge',
      'nav.closeGroupDocs',
      { 'nav.myAccount': ['nav.viewProfile', 'nav.signOut'] },
    ]);
  });

  it('gives a director all letters, all repositories and the acknowledgement reports (issue 31)', () => {
    const menu = buildNavigation({ role: 'director', groups, noLabYet: false }).find((e) => e.id === 'director');
    expect(menu && shape([menu])).toEqual([
      {
        'nav.directorPanel': [
          'nav.allLetters',
          'nav.pendency',
          'nav.allSoftwareRepos',
          'nav.allTrialRepos',
          'nav.auditTrail',
          'nav.acknowledgementReports',
        ],
      },
    ]);
  });

  it('gives an associate director the two repository uploads, pendency and the acknowledgement reports', () => {
    const menu = buildNavigation({ role: 'associate_director', groups, noLabYet: false }).find(
      (e) => e.id === 'associate-director',
    );
    expect(menu && shape([menu])).toEqual([
      {
        'nav.associateDirectorPanel': [
          'nav.softwareRepoUpload',
          'nav.trialRepoUpload',
          'nav.pendency',
          'nav.acknowledgementReports',
        ],
      },
    ]);
  });

  it('gives every signed-in person "Marked to me" with the count of letters not yet received (issue 17)', () => {
    for (const role of ['employee', 'director', 'associate_director', 'admin'] as const) {
      const inbox = buildNavigation({ role, groups, noLabYet: false, inboxCount: 3 }).find((e) => e.id === 'inbox');
      expect(inbox).toEqual({
        kind: 'link',
        id: 'inbox',
        label: 'nav.inbox',
        to: '/dac/inbox',
        badge: { count: 3, label: 'nav.inboxCount' },
      });
    }
  });

  it('gives every signed-in person "To acknowledge" with the count still waiting, the overdue said (issue 31)', () => {
    for (const role of ['employee', 'director', 'associate_director', 'admin'] as const) {
      const find = (pending: number, overdue: number) =>
        buildNavigation({ role, groups, noLabYet: false, acknowledgementCount: { pending, overdue } }).find(
          (e) => e.id === 'acknowledgements',
        );
      expect(find(3, 0)).toEqual({
        kind: 'link',
        id: 'acknowledgements',
        label: 'nav.toAcknowledge',
        to: '/acknowledgements',
        badge: { count: 3, label: 'nav.toAcknowledgeCount', values: { overdue: 0 } },
      });
      expect(find(3, 1)).toMatchObject({
        badge: { count: 3, label: 'nav.toAcknowledgeOverdue', values: { overdue: 1 } },
      });
    }
    expect(buildNavigation({ role: null, groups, noLabYet: false }).some((e) => e.id === 'acknowledgements')).toBe(
      false,
    );
  });

  it('gives an admin every admin entry, Manage Groups per group, and Add Lab only while no lab exists', () => {
    const withoutLab = buildNavigation({ role: 'admin', groups, noLabYet: true });
    expect(shape(withoutLab)).toEqual([
      'nav.home',
      { 'nav.groups': ['pages.myGroup', 'pages.employees', 'Fire Safety'] },
      {
        'nav.adminPanel': [
          'nav.addLab',
          'nav.addGroup',
          'nav.manageLabs',
          'nav.manageCloseGroup',
          'nav.approveUsers',
          'nav.logs',
          'nav.auditTrail',
          'nav.manageGallery',
          'nav.efileSettings',
          'nav.ocrAdmin',
          'nav.trustedRoots',
          'site:nav.feedback',
          'nav.acknowledgementReports',
          'nav.manageGroups',
          'Fire Safety',
        ],
      },
      {
        'nav.lettersAndRepos': [
          'nav.allLetters',
          'nav.pendency',
          'nav.allSoftwareRepos',
          'nav.allTrialRepos',
          'nav.softwareRepoUpload',
          'nav.trialRepoUpload',
        ],
      },
      'nav.inbox',
      'nav.myFiles',
      'nav.dispatchRegister',
      'nav.toAcknowledge',
      'nav.closeGroupDocs',
      { 'nav.myAccount': ['nav.viewProfile', 'nav.signOut'] },
    ]);
    const admin = buildNavigation({ role: 'admin', groups, noLabYet: false }).find((e) => e.id === 'admin');
    expect(admin?.kind === 'menu' && admin.items.some((i) => i.id === 'addLab')).toBe(false);
    const manage =
      admin?.kind === 'menu' ? admin.items.find((i) => i.kind === 'link' && i.text === 'Fire Safety') : undefined;
    expect(manage && 'to' in manage && manage.to).toBe(`/admin/group/${groups[0]!._id}`);
  });

  it("puts the person's own group first, marked, and leaves out groups whose page would refuse them", () => {
    const menu = buildNavigation({
      role: 'employee',
      noLabYet: false,
      groups: [
        { _id: 'a', name: 'Alpha', mine: false, canOpen: false },
        { _id: 'b', name: 'Blast', mine: true, canOpen: true },
        { _id: 'c', name: 'Chem', mine: false, canOpen: false },
      ],
    }).find((e) => e.id === 'groups');
    const items = menu?.kind === 'menu' ? menu.items : [];
    expect(items.map((i) => ('text' in i && i.text) || ('label' in i ? i.label : ''))).toEqual([
      'pages.myGroup',
      'pages.employees',
      'Blast',
    ]);
    expect(items[2]).toMatchObject({ tag: 'site:nav.yourGroup', to: '/group/id/b' });
    const director = buildNavigation({
      role: 'director',
      noLabYet: false,
      groups: [
        { _id: 'a', name: 'Alpha', mine: false, canOpen: true },
        { _id: 'b', name: 'Blast', mine: true, canOpen: true },
      ],
    }).find((e) => e.id === 'groups');
    expect(director?.kind === 'menu' && director.items.map((i) => ('text' in i && i.text) || i.id)).toEqual([
      'myGroup',
      'employees',
      'Blast',
      'Alpha',
    ]);
  });
});
