import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';

import { ROLES } from '#shared/constants.ts';

import { routes } from '#web/app/router.tsx';
import {
  HELP_GROUPS,
  HELP_SCREENS,
  HELP_SECTIONS,
  helpFor,
  helpNamespace,
  SCREENS_WITHOUT_HELP,
} from '#web/features/site/help-sections.ts';
import en from '#web/i18n/locales/en/help.json';
import enOfficers from '#web/i18n/locales/en/help-officers.json';
import hi from '#web/i18n/locales/hi/help.json';
import hiOfficers from '#web/i18n/locales/hi/help-officers.json';

/** Every path the router matches, as its full pattern ('/' for the home page, '*' for "not found"). */
function routePatterns(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    const own = route.index ? parent || '/' : route.path === '*' ? '*' : route.path ? `${parent}/${route.path}` : null;
    const children = route.children
      ? routePatterns(route.children, route.path ? `${parent}/${route.path}` : parent)
      : [];
    return [...(own ? [own] : []), ...children];
  });
}

type Task = { title?: string; steps?: Record<string, string>; keys?: string };
type Catalogue = { roles: Record<string, { title: string; tasks: Record<string, Task> }> };
const catalogues = { en: [en, enOfficers], hi: [hi, hiOfficers] } as unknown as Record<'en' | 'hi', Catalogue[]>;
/** A group's tasks in a language, from the namespace helpNamespace names. */
const tasksOf = (lang: 'en' | 'hi', group: (typeof HELP_GROUPS)[number]) =>
  catalogues[lang][helpNamespace(group) === 'help' ? 0 : 1]!.roles[group]!.tasks;

describe('Help covers every screen (decision 101)', () => {
  const screens = routePatterns(routes);

  it('finds the screens of the router', () => {
    expect(screens).toContain('/');
    expect(screens).toContain('/dac/inbox');
    expect(screens).toContain('/admin/manage-lab');
    expect(screens.length).toBeGreaterThan(45);
  });

  it('maps every screen to a Help section, or names it among the few that need none', () => {
    const missing = screens.filter((path) => !(path in HELP_SCREENS) && !(path in SCREENS_WITHOUT_HELP));
    expect(missing, 'screens with no Help section: add one in help-sections.ts').toEqual([]);
    // No stale entries: every mapped screen still exists.
    expect(Object.keys(HELP_SCREENS).filter((path) => !screens.includes(path))).toEqual([]);
    expect(Object.keys(SCREENS_WITHOUT_HELP).filter((path) => !screens.includes(path))).toEqual([]);
    expect(Object.keys(SCREENS_WITHOUT_HELP).length).toBeLessThanOrEqual(3);
  });

  it('points each screen at a section that exists', () => {
    for (const [path, id] of Object.entries(HELP_SCREENS)) {
      const [group, task] = id.split('.') as [keyof typeof HELP_SECTIONS, string];
      expect(HELP_SECTIONS[group]?.[task], `${path} → ${id}`).toBeTypeOf('function');
    }
  });

  it('has a title, steps and a keyboard path for every section, in English and in Hindi', () => {
    for (const group of HELP_GROUPS) {
      for (const task of Object.keys(HELP_SECTIONS[group])) {
        for (const lang of ['en', 'hi'] as const) {
          const text = tasksOf(lang, group)[task];
          const where = `${lang} roles.${group}.tasks.${task}`;
          expect(text?.title, where).toBeTruthy();
          expect(Object.values(text?.steps ?? {}).length, where).toBeGreaterThan(0);
          expect(text?.keys, where).toMatch(/Tab|Enter|Escape|End|\//);
        }
        // The Hindi is not the English left in place.
        expect(tasksOf('hi', group)[task]!.title).not.toBe(tasksOf('en', group)[task]!.title);
      }
      // No text without a section: the catalogue holds only what is shown.
      expect(Object.keys(tasksOf('en', group)).sort()).toEqual(Object.keys(HELP_SECTIONS[group]).sort());
      expect(Object.keys(tasksOf('hi', group)).sort()).toEqual(Object.keys(HELP_SECTIONS[group]).sort());
    }
  });

  it("shows each reader the sections of what their role can use, and each screen's section to someone", () => {
    const ids = (role: (typeof ROLES)[number] | null) =>
      helpFor(role).flatMap(({ group, tasks }) => tasks.map((task) => `${group}.${task}`));
    const visitor = ids(null);
    expect(visitor).toContain('visitor.register');
    expect(visitor).toContain('visitor.forgotPassword');
    expect(visitor).not.toContain('employee.inbox');
    const employee = ids('employee');
    for (const id of ['employee.acknowledge', 'employee.passkeys', 'employee.delegation', 'employee.pullBack']) {
      expect(employee).toContain(id);
    }
    expect(employee).not.toContain('visitor.register');
    expect(employee).not.toContain('director.auditTrail');
    expect(employee).not.toContain('admin.approve');
    expect(ids('associate_director')).toContain('associateDirector.acknowledgementReports');
    expect(ids('associate_director')).not.toContain('director.letters');
    expect(ids('director')).toContain('director.auditTrail');
    expect(ids('director')).not.toContain('admin.logs');
    expect(ids('admin')).toContain('admin.logs');
    const seen = new Set([null, ...ROLES].flatMap((role) => ids(role)));
    for (const [path, id] of Object.entries(HELP_SCREENS)) expect(seen.has(id), `${path} → ${id}`).toBe(true);
  });
});
