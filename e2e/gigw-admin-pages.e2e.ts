import { describe, it } from 'vitest';

import { as, cast, check, COMBINATIONS, eachTab, open, openMenu, page, useAxeWalk, walk } from './axe-walk.ts';
import { expectVisible } from './fixtures.ts';

// Axe finds nothing critical, serious or moderate on any page, in both languages and both
// themes (each page in each language once, alternating the theme: e2e/axe-walk.ts's inHalf). The pages of the managers: Edit Group and its tabs as an associate director, pendency and repositories as a
// director, every admin page with the group admin panel and its tabbed file editor, a date picker open and a
// confirmation dialog open. The walk is e2e/axe-walk.ts; the pages of everyone are e2e/gigw-pages.e2e.ts.

useAxeWalk();

describe('axe at "moderate" on every route (issue 16)', () => {
  for (const [language, contrast] of COMBINATIONS) {
    const where = `(${language}, ${contrast})`;

    it(
      `associate director: Edit Group and its tabs, repository uploads, pendency ${where}`,
      { timeout: 120_000 },
      async () => {
        const { group, lead } = cast;
        await as(lead, '/upload-repo');
        await walk(
          ['/upload-repo', '/upload-trialRepo', '/view-repo', '/view-trialRepo', '/dac/pendency'],
          language,
          contrast,
          async () => {
            await open(`/groups/${group._id}/edit`);
            await eachTab(`Edit Group ${where}`);
          },
        );
      },
    );
  }

  for (const [language, contrast] of COMBINATIONS) {
    const where = `(${language}, ${contrast})`;

    it(
      `director: pendency, repositories, letters, director profile, people ${where}`,
      { timeout: 120_000 },
      async () => {
        await as(cast.director, '/dac/pendency');
        await walk(
          [
            '/dac/pendency',
            '/view-trialRepo',
            '/view-repo',
            '/allLetter',
            '/directorprofile',
            '/employees',
            '/admin/audit-trail',
            '/acknowledgements/requests',
          ],
          language,
          contrast,
          () => openMenu(language === 'en' ? 'Director' : 'निदेशक', 'Director'),
        );
      },
    );
  }

  for (const [language, contrast] of COMBINATIONS) {
    const where = `(${language}, ${contrast})`;

    it(
      `admin: admin pages, group admin panel and file editor, date picker, dialog ${where}`,
      { timeout: 240_000 },
      async () => {
        const { group } = cast;
        await as(cast.admin, '/admin/approval');
        const routes = [
          '/add-group',
          '/admin/approval',
          '/admin/add-labs',
          '/admin/manageGallery',
          '/admin/add-groups',
          '/admin/logs',
          '/admin/audit-trail',
          '/acknowledgements/requests',
          '/admin/closeGroup',
          '/admin/feedback',
          '/admin/manage-lab',
          '/admin/manage-lab?section=directors',
          '/admin/manage-lab?section=notices',
          '/admin/manage-lab?section=products',
          '/admin/manage',
          `/admin/groups/${group._id}`,
          `/admin/group/${group._id}`,
          `/admin/group/${group._id}?section=directors`,
          `/admin/group/${group._id}?section=office`,
          `/admin/group/${group._id}?section=members`,
        ];
        await walk(routes, language, contrast, async () => {
          await openMenu(language === 'en' ? 'Admin' : 'प्रशासन', 'Admin');
          // The group's notices and its five file lists: each tab of the editor.
          await open(`/admin/group/${group._id}?section=notices`);
          await eachTab(`group notices ${where}`);
          await open(`/admin/group/${group._id}?section=files`);
          await eachTab(`group files ${where}`);
          // The notices form's 'valid until' date picker, open.
          await open(`/admin/group/${group._id}?section=notices`);
          const validUntil = page.getByRole('textbox', { name: language === 'en' ? 'Valid until' : 'तक मान्य' });
          await validUntil.click();
          await expectVisible(page.locator('[data-dates-dropdown]'));
          await check(`group notice date picker ${where}`);
          await page.keyboard.press('Escape');
          // A confirmation dialog: delete a notice, then cancel.
          await page
            .getByRole('button', { name: language === 'en' ? 'Delete Fit test' : 'Fit test हटाएँ', exact: true })
            .click();
          await expectVisible(page.getByRole('dialog'));
          await check(`delete dialog ${where}`);
          await page.keyboard.press('Escape');
        });
      },
    );
  }
});
