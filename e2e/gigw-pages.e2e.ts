import { describe, it } from 'vitest';

import {
  as,
  cast,
  COMBINATIONS,
  GROUP_TABS,
  LAB_TABS,
  open,
  openMenu,
  useAxeWalk,
  VISITOR_ROUTES,
  walk,
} from './axe-walk.ts';

// Decision 019: axe finds nothing critical, serious or moderate on any page, in both languages and both
// themes. The pages of everyone: every public route and the lab home's tabs as a visitor, and as an employee their
// group's ten tabs, My Group, letters, repositories and the Groups and My Account menus open. The walk is
// e2e/axe-walk.ts; the pages of the managers are e2e/gigw-admin-pages.e2e.ts.

useAxeWalk();

describe('axe at "moderate" on every route (issue 16)', () => {
  for (const [language, contrast] of COMBINATIONS) {
    const where = `(${language}, ${contrast})`;

    it(`visitor: public pages and the lab home's tabs ${where}`, { timeout: 180_000 }, async () => {
      await as(null, '/');
      await walk([...VISITOR_ROUTES, ...LAB_TABS.map((tab) => `/?tab=${tab}`)], language, contrast);
    });
  }

  for (const [language, contrast] of COMBINATIONS) {
    const where = `(${language}, ${contrast})`;

    it(
      `employee: own group (ten tabs), My Group, letters, repositories, menus ${where}`,
      { timeout: 180_000 },
      async () => {
        const { group, employee } = cast;
        await as(employee, '/profile');
        const routes = [
          '/profile',
          '/employees',
          '/closeGroup',
          '/my-group',
          ...GROUP_TABS.map((tab) => `/group/id/${group._id}${tab === 'about' ? '' : `?tab=${tab}`}`),
          `/group/${group._id}`,
          '/dac',
          '/dac/inbox',
          '/allLetter',
          '/acknowledgements',
          '/acknowledgements/requests',
          '/view-repo',
          '/view-trialRepo',
          '/upload-repo',
          '/archive',
          '/help',
          '/feedback',
        ];
        await walk(routes, language, contrast, async () => {
          await open('/profile');
          await openMenu(language === 'en' ? 'Groups' : 'समूह', 'Groups');
          await openMenu(language === 'en' ? 'My Account' : 'मेरा खाता', 'My Account');
        });
      },
    );
  }
});
