import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import pg from 'pg';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { ACKNOWLEDGEMENT_CSV_COLUMNS } from '#shared/schemas/acknowledgements.ts';
import type { GroupJson } from '#shared/schemas/group.ts';

import { checkA11y, screenshot, SCREENSHOT_WIDTHS } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, groupIds, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { portal } from './portal.ts';
import { apiAs, createApprovedUser, inDays, registrationFor, type SeededUser, signedInAdmin, tinyPdf } from './seed.ts';

// Decision 074: circulars that must be acknowledged. An admin publishes a lab circular to two groups with a
// deadline; the members of one group open it and acknowledge it; that group's head sees 100 % for it; the admin sees
// the other group's members pending and downloads the CSV. English and Hindi, 1280 and 390 px, axe-clean down to
// moderate findings (with the audience list open too). The groups and people are this file's own, seeded through the
// API; selected by label, role and visible text.

const browser = useBrowser();

const person = (role: 'employee' | 'associate_director', name: string) =>
  createApprovedUser(role, groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

/** A group of its own with these members, and `head` as its associate director when given (decision 030). */
async function groupOf(name: string, members: SeededUser[], head?: SeededUser) {
  const admin = apiAs(await signedInAdmin());
  const created = await admin.post<GroupJson>('/api/groups', {
    name,
    description: `${name}: seeded by acknowledgements.e2e.ts.`,
    employees: members.map((m) => m.id),
  });
  expect(created.status).toBe(201);
  if (head) {
    const entry = new FormData();
    entry.set('user', head.id);
    entry.set('from', '2025-01-01');
    expect((await admin.post(`/api/groups/${created.body._id}/assistant-director-history`, entry)).status).toBe(201);
  }
  return created.body;
}

/** The text box labelled `label` (a required one's label ends with ' *'). */
const textbox = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}( \\*)?$`) });

const navigation = (page: Page) => page.getByRole('navigation', { name: /^(Main navigation|मुख्य नेविगेशन)$/ });

async function signOutAndIn(page: Page, user: SeededUser, to: string) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  // Through the login form: it sets the download cookie the document's and the CSV's links are opened with.
  await signInAs(page, user, { via: 'ui', to });
}

async function screenshotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/**
 * Makes `user`'s row of the circular `name` overdue: its due date set `days` back in the e2e portal's database, as
 * no API sets a deadline in the past (the rows, the report and the CSV then say "Overdue" without waiting).
 */
async function makeOverdue(user: SeededUser, name: string, days: number) {
  const client = new pg.Client({ connectionString: portal.databaseUrl });
  await client.connect();
  try {
    const res = await client.query(
      `update acknowledgements a set due_on = (now() at time zone 'Asia/Kolkata')::date - $3::int
         from acknowledgement_requests r join lab_items i on i.id = r.lab_item_id
        where a.request_id = r.id and a.user_id = $1 and i.name = $2`,
      [user.id, name, days],
    );
    if (res.rowCount !== 1) throw new Error(`no row of ${user.name} for "${name}" to make overdue`);
  } finally {
    await client.end();
  }
}

/** The open option list at 1280 and 390 px, as the screen shows it (the viewport, not the whole page). */
async function screenshotOpenList(page: Page, name: string) {
  for (const size of SCREENSHOT_WIDTHS) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await expectVisible(page.getByRole('listbox'));
    await page.screenshot({ path: `e2e/screenshots/${name}-${size.width}.png`, animations: 'disabled' });
  }
  await page.setViewportSize(SCREENSHOT_WIDTHS[0]);
}

/** At 390 px nothing is wider than the screen: a person on a phone never scrolls sideways to read the page. */
async function fitsAPhone(page: Page) {
  await page.setViewportSize(SCREENSHOT_WIDTHS[1]);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewportSize(SCREENSHOT_WIDTHS[0]);
  expect(width).toBeLessThanOrEqual(390);
}

/** The person's "To acknowledge" list: the document opened (its new tab closed again), then acknowledged. */
async function openAndAcknowledge(page: Page, circular: string) {
  const card = page.getByRole('article', { name: circular });
  await expectVisible(card);
  const acknowledge = card.getByRole('button', { name: `Acknowledge ${circular}` });
  expect(await acknowledge.isDisabled()).toBe(true);
  const tab = page.context().waitForEvent('page');
  await card.getByRole('link', { name: `Open ${circular} (opens in a new tab)` }).click();
  await (await tab).close();
  await page.waitForFunction((button) => !(button as HTMLButtonElement).disabled, await acknowledge.elementHandle());
  await acknowledge.click();
  const dialog = page.getByRole('dialog', { name: 'Acknowledge this document?' });
  await expectVisible(dialog);
  return dialog;
}

/** Confirms in the dialog, and waits for the server's answer (which says what went wrong if anything does). */
async function confirmAcknowledgement(page: Page, circular: string) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/acknowledge'),
  );
  await page
    .getByRole('dialog', { name: 'Acknowledge this document?' })
    .getByRole('button', { name: 'Acknowledge', exact: true })
    .click();
  const answer = await answered;
  expect(answer.status(), await answer.text()).toBe(200);
  await expectVisible(page.getByText(`Acknowledged: ${circular}`, { exact: true }));
}

describe('Circulars that must be acknowledged (issue 31)', () => {
  it('admin publishes to two groups; one group acknowledges; its head sees 100 %; the admin sees the rest and the CSV', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const [magazineA, magazineB, magazineHead, rangeA, rangeB] = await Promise.all([
      person('employee', `Asha Magazine ${tag}`),
      person('employee', `Bharat Magazine ${tag}`),
      person('associate_director', `Chitra Head ${tag}`),
      person('employee', `Deepak Range ${tag}`),
      person('employee', `Esha Range ${tag}`),
    ]);
    const magazine = await groupOf(`Magazine Group ${tag}`, [magazineA, magazineB, magazineHead], magazineHead);
    const range = await groupOf(`Proof Range Group ${tag}`, [rangeA, rangeB]);
    const circular = `Storage of explosives ${tag}`;
    const deadline = inDays(10);
    const admin = await signedInAdmin();

    // 1. The admin publishes a lab circular that the two groups must acknowledge by the deadline.
    await signInAs(page, admin, { via: 'ui', to: '/admin/manage-lab?section=notices' });
    await expectVisible(page.getByRole('heading', { name: 'Manage Notices & Circulars', level: 1 }));
    await page.getByRole('tab', { name: 'Circulars', exact: true }).click();
    await textbox(page, 'Name').fill(circular);
    await textbox(page, 'Description').fill('Magazines are kept locked; keys with the duty officer.');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'File' }).click();
    await (await chooser).setFiles({ name: 'storage.pdf', mimeType: 'application/pdf', buffer: tinyPdf });
    await page.getByRole('switch', { name: 'Requires acknowledgement' }).check();
    const deadlineBox = textbox(page, 'Acknowledge by');
    await deadlineBox.fill(deadline.split('-').reverse().join('-'));
    await deadlineBox.press('Tab');
    await page.getByRole('radio', { name: 'Some groups' }).check();
    // The audience list open: drawn in the page (axe region), every finding down to moderate.
    const groupsBox = page.getByRole('combobox', { name: /^Groups/ });
    await groupsBox.click();
    await groupsBox.fill(tag);
    await expectVisible(page.getByRole('option', { name: magazine.name }));
    await checkA11y(page, { moderate: true });
    await screenshotOpenList(page, 'ack-audience-open');
    await page.getByRole('option', { name: magazine.name }).click();
    await groupsBox.fill(tag);
    await page.getByRole('option', { name: range.name }).click();
    await page.keyboard.press('Escape');
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-publish');
    await page.getByRole('button', { name: 'Add Circular' }).click();
    await expectVisible(page.getByText('Circular added successfully.', { exact: true }));
    const row = page.getByRole('row').filter({ hasText: circular });
    await expectVisible(row.getByRole('link', { name: `Acknowledgement report of ${circular}` }));
    // One of the other group is past the deadline: the report puts them first.
    await makeOverdue(rangeB, circular, 3);

    // 2. A member of the first group: the header's badge, the list, open, acknowledge.
    await signOutAndIn(page, magazineA, '/');
    // The navigation's "To acknowledge" with its count; on a phone, where the navigation folds into the menu, the
    // header's icon says it.
    const entry = navigation(page).getByRole('link', { name: /^To acknowledge\s*1 pending$/ });
    await expectVisible(entry);
    await page.setViewportSize(SCREENSHOT_WIDTHS[1]);
    await expectVisible(page.getByRole('banner').getByRole('link', { name: 'To acknowledge, 1 pending' }));
    await page.setViewportSize(SCREENSHOT_WIDTHS[0]);
    await entry.click();
    await expectPath(page, '/acknowledgements');
    await expectVisible(page.getByRole('heading', { name: 'To acknowledge', level: 1 }));
    const card = page.getByRole('article', { name: circular });
    await expectVisible(card.getByText(/^Acknowledge by \d{2} [A-Z][a-z]{2} \d{4}$/));
    await expectVisible(card.getByText(/^From the lab: /));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-to-acknowledge');
    await fitsAPhone(page);
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'पावती देनी है', level: 1 }));
    await expectVisible(navigation(page).getByRole('link', { name: /^पावती देनी है\s*1 लंबित$/ }));
    await expectVisible(card.getByRole('button', { name: `${circular} की पावती दें` }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-to-acknowledge-hi');
    await switchLanguage(page, 'en');
    const dialog = await openAndAcknowledge(page, circular);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'ack-confirm');
    await confirmAcknowledgement(page, circular);
    await expectHidden(dialog);
    const done = page.getByRole('region', { name: 'Acknowledged' });
    await expectVisible(done.getByRole('article', { name: circular }).getByText(/^Acknowledged on /));
    await expectVisible(page.getByText('Nothing is waiting for your acknowledgement.'));
    await expectVisible(navigation(page).getByRole('link', { name: 'To acknowledge', exact: true }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-acknowledged');

    // The rest of the first group, its head among them, do the same.
    for (const member of [magazineB, magazineHead]) {
      await signOutAndIn(page, member, '/acknowledgements');
      await openAndAcknowledge(page, circular);
      await confirmAcknowledgement(page, circular);
    }

    // 3. The first group's head: the reports from the menu, their group at 100 %.
    await page.goto('/');
    await page.getByRole('button', { name: 'Associate Director', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Acknowledgement Reports' }).click();
    await expectPath(page, '/acknowledgements/requests');
    const request = page.getByRole('article', { name: circular });
    await expectVisible(request.getByText(`Your group: ${magazine.name}`));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-requests');
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'पावती रिपोर्ट', level: 1 }));
    await expectVisible(request.getByText(`आपका समूह: ${magazine.name}`));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-requests-hi');
    await switchLanguage(page, 'en');
    await request.getByRole('link', { name: `View the acknowledgement report of ${circular}` }).click();
    await expectVisible(page.getByRole('heading', { name: `Acknowledgements: ${circular}`, level: 1 }));
    const byGroup = page.getByRole('table', { name: 'By group' });
    const headRow = byGroup.getByRole('row').filter({ hasText: magazine.name });
    await expectVisible(headRow.getByText('100 %', { exact: true }));
    expect(await byGroup.getByRole('row').filter({ hasText: range.name }).count()).toBe(0);
    await expectVisible(page.getByText('Everyone has acknowledged.'));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-head-report');

    // 4. The admin: from the published circular to its report; the other group's members by name, and the CSV.
    await signOutAndIn(page, admin, '/admin/manage-lab?section=notices');
    await page.getByRole('tab', { name: 'Circulars', exact: true }).click();
    await page.getByRole('link', { name: `Acknowledgement report of ${circular}` }).click();
    await expectVisible(page.getByRole('heading', { name: `Acknowledgements: ${circular}`, level: 1 }));
    const groups = page.getByRole('table', { name: 'By group' });
    await expectVisible(groups.getByRole('row').filter({ hasText: magazine.name }).getByText('100 %', { exact: true }));
    await expectVisible(groups.getByRole('row').filter({ hasText: range.name }).getByText('0 %', { exact: true }));
    const notYet = page.getByRole('table', { name: 'Not yet acknowledged' });
    for (const member of [rangeA, rangeB])
      await expectVisible(notYet.getByRole('row').filter({ hasText: member.name }));
    // Overdue first, marked so.
    const [first, second] = await notYet
      .getByRole('row')
      .filter({ hasNot: page.getByRole('columnheader') })
      .all();
    expect(await first!.innerText()).toContain(rangeB.name);
    await expectVisible(first!.getByText('Overdue', { exact: true }));
    expect(await second!.innerText()).toContain(rangeA.name);
    await expectVisible(second!.getByText('Pending', { exact: true }));
    for (const member of [magazineA, magazineB, magazineHead])
      expect(await notYet.getByRole('row').filter({ hasText: member.name }).count()).toBe(0);
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-report');
    await fitsAPhone(page);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8').replace(/^\uFEFF/, '');
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toBe(ACKNOWLEDGEMENT_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(5);
    for (const member of [magazineA, magazineB, magazineHead])
      expect(lines.find((l) => l.includes(member.name))).toMatch(/,Acknowledged,/);
    expect(lines.find((l) => l.includes(rangeA.name))).toMatch(/,Pending,/);
    expect(lines.find((l) => l.includes(rangeB.name))).toMatch(/,Overdue,/);

    // The report in Hindi.
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: `पावती: ${circular}`, level: 1 }));
    await expectVisible(page.getByRole('table', { name: 'समूहवार' }));
    await expectVisible(page.getByRole('link', { name: 'CSV डाउनलोड करें' }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-report-hi');
    await switchLanguage(page, 'en');
    expect(browser.pageErrors).toEqual([]);
  });

  it("a group's head asks their own group to acknowledge a notice; its member finds it to acknowledge", async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const [head, member] = await Promise.all([
      person('associate_director', `Farah Head ${tag}`),
      person('employee', `Gopal Member ${tag}`),
    ]);
    const group = await groupOf(`Fuze Group ${tag}`, [head, member], head);
    const notice = `Fuze handling ${tag}`;

    await signInAs(page, head, { to: `/groups/${group._id}/edit` });
    await page.getByRole('tab', { name: 'Manage Group Notices & Circulars' }).click();
    await textbox(page, 'Name').fill(notice);
    await textbox(page, 'Description').fill('Fuzes are carried in their boxes only.');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'File' }).click();
    await (await chooser).setFiles({ name: 'fuzes.pdf', mimeType: 'application/pdf', buffer: tinyPdf });
    await page.getByRole('switch', { name: 'Requires acknowledgement' }).check();
    // A group's notice goes to its own group, or to some roles in it; never to the lab or other groups.
    expect(await page.getByRole('radio', { name: `This group (${group.name})` }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Whole lab' }).count()).toBe(0);
    const deadlineBox = textbox(page, 'Acknowledge by');
    await deadlineBox.fill(inDays(5).split('-').reverse().join('-'));
    await deadlineBox.press('Tab');
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('switch', { name: 'पावती आवश्यक' }));
    await expectVisible(page.getByRole('radio', { name: `यह समूह (${group.name})` }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-publish-group-hi');
    await switchLanguage(page, 'en');
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'ack-publish-group');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectVisible(page.getByText('Saved successfully.', { exact: true }));
    await expectVisible(page.getByRole('link', { name: `Acknowledgement report of ${notice}` }));

    await signOutAndIn(page, member, '/acknowledgements');
    const card = page.getByRole('article', { name: notice });
    await expectVisible(card.getByText(`From the group: ${group.name}`));
    await expectVisible(card.getByText('Notice', { exact: true }));
    expect(browser.pageErrors).toEqual([]);
  });
});
