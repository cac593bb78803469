import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, groupIds, keepLanguage, signInAs, useBrowser } from './fixtures.ts';
import { createApprovedUser, createPendingUser, type SeededUser, signedInAdmin } from './seed.ts';

// Decision 019: the site pages of GIGW 3.0 linked from every footer (items 9, 11), feedback from a visitor
// answered in the admin panel, the role-aware upload groups and Groups menu (items 6, 7), and no failed-login message
// lingering on /pending-approval (item 8). By label, role and visible text.

const browser = useBrowser();
const tag = randomUUID().slice(0, 6);

const footer = (page: Page) => page.getByRole('navigation', { name: 'Site information' });

/** Switches the portal to Hindi with the header's language button (remembered per browser). */
async function toHindi(page: Page) {
  await page.getByRole('button', { name: 'हिन्दी' }).first().click();
  await page.waitForFunction(() => document.documentElement.lang === 'hi');
}

/** Opens `to`, checks axe, and takes 1280/390 screenshots as `name` in English, then in Hindi. */
async function bothLanguages(page: Page, name: string, englishHeading: string, hindiHeading: string) {
  await expectVisible(page.getByRole('heading', { name: englishHeading, level: 1 }));
  await checkA11y(page);
  await screenshot(page, name);
  await toHindi(page);
  await expectVisible(page.getByRole('heading', { name: hindiHeading, level: 1 }));
  await checkA11y(page);
  await screenshot(page, `${name}-hi`);
}

let associateDirector: SeededUser;
let employee: SeededUser;

beforeAll(async () => {
  [associateDirector, employee] = await Promise.all([
    createApprovedUser('associate_director', groupIds[0]),
    createApprovedUser('employee', groupIds[1]),
  ]);
});

describe('the site pages of the footer (items 9 and 11)', () => {
  it('a visitor reaches Help, Sitemap, Terms, Privacy, Accessibility and the Archive from the footer, in both languages', async () => {
    const { page } = browser;
    await page.goto('/');
    await footer(page).getByRole('link', { name: 'Help' }).click();
    await expectPath(page, '/help');
    await expectVisible(page.getByRole('button', { name: /Visitors/ }));
    await expectVisible(page.getByText('Choose Login, then Register.'));
    // Decision 101: the section for everyone (search, text size and contrast) is open for a visitor too.
    await expectVisible(page.getByRole('heading', { name: 'Search the portal', level: 3 }));
    await expectVisible(page.getByText(/People are found only after signing in\./));
    await bothLanguages(page, 'help', 'Help', 'सहायता');

    await keepLanguage(page, 'en');
    await page.goto('/');
    await footer(page).getByRole('link', { name: 'Sitemap' }).click();
    await expectPath(page, '/sitemap');
    // A visitor's sitemap: the main navigation (Home, Login), the site pages and Register.
    await expectVisible(page.getByRole('link', { name: 'Register' }));
    await expectVisible(page.getByRole('main').getByRole('link', { name: 'Privacy policy' }));
    await bothLanguages(page, 'sitemap', 'Sitemap', 'साइटमैप');

    for (const [to, name, en, hi] of [
      ['/terms', 'terms', 'Terms of use', 'उपयोग की शर्तें'],
      ['/privacy', 'privacy', 'Privacy policy', 'गोपनीयता नीति'],
      ['/accessibility', 'accessibility', 'Accessibility statement', 'अभिगम्यता विवरण'],
      ['/archive', 'archive', 'Archive of notices and circulars', 'सूचनाओं और परिपत्रों का संग्रह'],
    ] as const) {
      await keepLanguage(page, 'en');
      await page.goto('/');
      await footer(page)
        .getByRole('link', { name: en === 'Archive of notices and circulars' ? 'Archive' : en })
        .click();
      await expectPath(page, to);
      await bothLanguages(page, name, en, hi);
    }
    // The default Terms text, and no edit button for a visitor.
    await keepLanguage(page, 'en');
    await page.goto('/terms');
    await expectVisible(page.getByText(/This portal is the intranet of the laboratory/));
    expect(await page.getByRole('button', { name: 'Edit this page' }).count()).toBe(0);
  });

  it('the News Flash and the Notices & Circular tab lead to the Archive; the lab tabs say when they were last updated', async () => {
    const { page } = browser;
    await page.goto('/?tab=notices');
    await expectVisible(page.getByRole('link', { name: 'Archive of expired notices and circulars' }).first());
    await expectVisible(page.getByText(/^Last updated: \d{2} \w{3} \d{4}$/).first());
    await page
      .getByRole('region', { name: /News Flash/i })
      .getByRole('link', { name: /Archive/ })
      .click();
    await expectPath(page, '/archive');
  });

  it('a signed-in employee sees their own pages in the sitemap and their group marked in the Groups menu', async () => {
    const { page } = browser;
    await signInAs(page, employee, { to: '/sitemap' });
    await expectVisible(page.getByRole('heading', { name: 'Sitemap', level: 1 }));
    await expectVisible(page.getByRole('main').getByRole('link', { name: 'Upload Letter' }));
    await expectVisible(page.getByRole('main').getByRole('link', { name: 'Employee Directory' }));
    await expectVisible(page.getByRole('main').getByRole('link', { name: /\(Your group\)$/ }));
    expect(await page.getByRole('main').getByRole('link', { name: 'Register', exact: true }).count()).toBe(0);
    // The Groups menu: the own group marked, the group the employee may not open left out.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Groups' }).click();
    // The dropdown's code loads on first use: wait for it to open before reading its items.
    await expectVisible(page.getByRole('menuitem').first());
    const items = await page.getByRole('menuitem').allInnerTexts();
    expect(items.filter((i) => i.endsWith('(Your group)'))).toHaveLength(1);
    expect(items.length).toBe(3); // My Group, the Employee Directory and the own group
    expect(items).toContain('Employee Directory');
    await checkA11y(page);
  });
  // Help's own journey per role is e2e/help.e2e.ts (decision 101).
});

describe('feedback (item 9)', () => {
  const subject = `Larger print on notices ${tag}`;

  it('a visitor sends feedback; an admin finds it in the admin panel and answers it', async () => {
    const { page } = browser;
    await page.goto('/');
    await footer(page).getByRole('link', { name: 'Feedback' }).click();
    await expectPath(page, '/feedback');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expectVisible(page.getByText('Please enter your name.'));
    await checkA11y(page);
    await page.getByLabel('Your name').fill('Vimla Visitor');
    await page.getByLabel('Your email').fill('vimla@example.in');
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await page.getByLabel('Message').fill('The notices are hard to read on a phone.');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expectVisible(page.getByText('Thank you. Your feedback has been sent to the administrators.'));
    await checkA11y(page);
    await screenshot(page, 'feedback');
    await toHindi(page);
    await expectVisible(page.getByRole('heading', { name: 'प्रतिक्रिया', level: 1 }));
    await checkA11y(page);
    await screenshot(page, 'feedback-hi');

    const admin = await signedInAdmin();
    await signInAs(page, admin, { to: '/' });
    await keepLanguage(page, 'en');
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Admin', exact: true })
      .click();
    await page.getByRole('menuitem', { name: 'Feedback' }).click();
    await expectPath(page, '/admin/feedback');
    const card = page.getByRole('article', { name: subject });
    await expectVisible(card);
    await expectVisible(card.getByText(/Visitor/));
    await checkA11y(page);
    await screenshot(page, 'admin-feedback');

    // Marking it answered without a reply is refused with the reason; with a reply it is saved.
    await card.getByRole('button', { name: 'Save' }).click();
    await expectVisible(card.getByText('Please write a reply before marking the feedback answered.'));
    await card.getByLabel('Reply').fill('Thank you: the notices now have larger text.');
    await card.getByRole('button', { name: 'Save' }).click();
    await expectVisible(page.getByText('Feedback updated.'));
    await expectHidden(page.getByRole('article', { name: subject })); // it left the "New" list
    await page.locator('label', { hasText: /^Answered$/ }).click();
    const answered = page.getByRole('article', { name: subject });
    await expectVisible(answered.getByText(/Replied by .* on /));
    await toHindi(page);
    await expectVisible(page.getByRole('heading', { name: 'प्रतिक्रिया', level: 1 }));
    await checkA11y(page);
    await screenshot(page, 'admin-feedback-hi');
  });

  it('an admin edits the Terms of use in both languages', async () => {
    const { page } = browser;
    await signInAs(page, await signedInAdmin(), { to: '/terms' });
    await page.getByRole('button', { name: 'Edit this page' }).click();
    await page.getByLabel('English text').fill(`Use the portal for official work only. ${tag}`);
    await page.getByLabel('Hindi text').fill('पोर्टल का उपयोग केवल आधिकारिक कार्य के लिए करें।');
    await checkA11y(page);
    await page.getByRole('button', { name: 'Save page' }).click();
    await expectVisible(page.getByText(`Use the portal for official work only. ${tag}`));
    await expectVisible(page.getByText(/^Last updated: /));
  });
});

describe('role-aware screens (items 6, 7, 8)', () => {
  it('an associate director is offered only their own group, which stays chosen when clicked again, and gets a link to the list', async () => {
    const { page } = browser;
    await signInAs(page, associateDirector, { to: '/upload-repo' });
    await expectVisible(page.getByRole('heading', { name: 'Upload Software Repository' }));
    const group = page.getByRole('combobox', { name: 'Group', exact: true });
    await expect.poll(() => group.inputValue()).not.toBe('');
    const own = await group.inputValue();
    await group.click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options).toEqual([own]);
    await page.getByRole('option', { name: own }).click(); // clicking the chosen group again
    expect(await group.inputValue()).toBe(own);
    await page.getByRole('combobox', { name: 'Type', exact: true }).click();
    await page.getByRole('option', { name: 'Code', exact: true }).click();
    await page.getByLabel('GitHub URL').fill(`https://github.com/lab/site-${tag}`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Software repository uploaded successfully!'));
    await page.getByRole('link', { name: 'View software repositories' }).click();
    await expectPath(page, '/view-repo');

    await page.goto('/upload-trialRepo');
    const trialGroup = page.getByRole('combobox', { name: 'Group', exact: true });
    await expect.poll(() => trialGroup.inputValue()).toBe(own);
    await trialGroup.click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual([own]);
  });

  it('a failed sign-in message does not follow the person to /pending-approval', async () => {
    const { page } = browser;
    const pending = await createPendingUser({ role: 'pending_director' });
    await page.goto('/login');
    await page.getByLabel('Email', { exact: false }).first().fill(pending.email);
    await page.getByLabel('Password', { exact: false }).first().fill('wrong-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectVisible(page.getByText('Invalid email or password.'));
    await page.getByLabel('Password', { exact: false }).first().fill(pending.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectPath(page, '/pending-approval');
    await expectHidden(page.getByText('Invalid email or password.'));
  });
});
