import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, groupIds, signInAs, useBrowser } from './fixtures.ts';
import { createApprovedUser, type SeededUser } from './seed.ts';

// Help describes every feature a role can use, with its keyboard path, and only those (decision 101).

const browser = useBrowser();

/** Switches the portal to Hindi with the header's language button (remembered per browser). */
async function toHindi(page: Page) {
  await page.getByRole('button', { name: 'हिन्दी' }).first().click();
  await page.waitForFunction(() => document.documentElement.lang === 'hi');
}

const h3 = (page: Page, name: string) => page.getByRole('main').getByRole('heading', { name, level: 3 });

let employee: SeededUser;
let director: SeededUser;

beforeAll(async () => {
  [employee, director] = await Promise.all([
    createApprovedUser('employee', groupIds[1]),
    createApprovedUser('director', groupIds[0]),
  ]);
});

describe('Help', () => {
  it("a member of staff finds this month's features with their keyboard paths, and nothing of other roles, in English and Hindi", async () => {
    const { page } = browser;
    await signInAs(page, employee, { to: '/help' });
    await expectVisible(page.getByRole('heading', { name: 'Help', level: 1 }));
    const main = page.getByRole('main');
    for (const heading of [
      'Acknowledge a circular or notice',
      'The second factor: an authenticator app',
      'Passkeys',
      'Recovery codes',
      '“Confirm it is you”',
      'Delegate your dak while away',
      'Pull back a letter you marked',
      'Copies for information',
      'Your emails and the morning digest',
      'Read a document in the viewer',
      'Mark a letter to officers',
      'Search the portal',
    ]) {
      await expectVisible(h3(page, heading));
    }
    // Every section ends with its keyboard path.
    expect(await main.getByText('Keyboard:', { exact: true }).count()).toBe(
      await main.getByRole('heading', { level: 3, includeHidden: true }).count(),
    );
    await expectVisible(
      main.getByText(
        /Keyboard: Tab once to “Skip to navigation”, Enter, then Tab to Marked to Me, Enter; Tab to Delegation of Dak/,
      ),
    );
    // What a member of staff cannot use is not there.
    expect(await main.getByRole('button', { name: /^Directors/ }).count()).toBe(0);
    expect(await main.getByRole('button', { name: /^Administrators/ }).count()).toBe(0);
    expect(await h3(page, 'Register as a member of staff').count()).toBe(0);
    // The keyboard reaches the sections: the visitors' section opens with Enter.
    const visitors = main.getByRole('button', { name: /^Visitors/ });
    await visitors.focus();
    await page.keyboard.press('Enter');
    await expectVisible(h3(page, 'Forgot your password'));
    expect(await visitors.getAttribute('aria-expanded')).toBe('true');
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'help-staff');

    await toHindi(page);
    await expectVisible(page.getByRole('heading', { name: 'सहायता', level: 1 }));
    for (const heading of [
      'परिपत्र या सूचना की पावती दें',
      'पासकी',
      'रिकवरी कोड',
      '“पुष्टि करें कि यह आप हैं”',
      'अनुपस्थिति में अपनी डाक सौंपें',
      'अंकित पत्र वापस लें',
      'सूचनार्थ प्रतियाँ',
      'आपके ईमेल और सुबह का सारांश',
      'दस्तावेज़ दर्शक में पढ़ें',
    ]) {
      await expectVisible(h3(page, heading));
    }
    expect(await main.getByText('कीबोर्ड:', { exact: true }).count()).toBeGreaterThan(20);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'help-staff-hi');
  });

  it('a director finds the audit trail, acknowledgement reports and pendency, but not the administrators’ tasks', async () => {
    const { page } = browser;
    await signInAs(page, director, { to: '/help' });
    await expectVisible(page.getByRole('heading', { name: 'Help', level: 1 }));
    for (const heading of ['Read the audit trail', 'Acknowledgement reports', 'Watch the pendency of letters']) {
      await expectVisible(h3(page, heading));
    }
    await expectVisible(page.getByRole('main').getByText(/^Pending counts the letters each officer holds now/));
    expect(
      await page
        .getByRole('main')
        .getByRole('button', { name: /^Administrators/ })
        .count(),
    ).toBe(0);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'help-director');
  });

  it('a visitor finds how to register and reset a password, and no staff sections', async () => {
    const { page } = browser;
    await page.goto('/help');
    await expectVisible(h3(page, 'Register as a member of staff'));
    await expectVisible(h3(page, 'Forgot your password'));
    expect(
      await page
        .getByRole('main')
        .getByRole('button', { name: /^Staff/ })
        .count(),
    ).toBe(0);
    await checkA11y(page, { moderate: true });
  });
});
