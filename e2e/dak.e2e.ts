import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { InboxPageJson, PendencyJson } from '#shared/schemas/letter.ts';

import { checkA11y, screenshot, SCREENSHOT_WIDTHS } from './a11y.ts';
import { expectHidden, expectVisible, groupIds, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, inDays, registrationFor, type SeededUser, tinyPdf } from './seed.ts';

// Decision 020: dak that moves. An employee uploads a letter and marks it to an associate director with a due date; the
// associate director sees it in "Marked to Me" with the badge, receives it and marks it on to an employee, who
// closes it with a disposal; the director sees it in pendency before and after. English and Hindi, axe-clean,
// screenshots at 1280 and 390 px. Selected by label, role and visible text.

const browser = useBrowser();

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

/** An approved member of staff of the first group with a name that no other test uses. */
const person = (role: 'employee' | 'associate_director' | 'director', name: string) =>
  createApprovedUser(role, groupIds[0], {
    personalDetails: { ...registrationFor().personalDetails, name },
  });

async function screenshotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function signOutAndIn(page: Page, user: SeededUser, to: string) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInAs(page, user, { to });
}

/** Chooses officers in the Mark dialog's multi-select by typing part of their name. */
async function chooseOfficer(page: Page, name: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Mark to' }).fill(name.split(' ')[0]!);
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  // The list closes by itself after a pick (it stayed open over "For information").
  await expectHidden(dialog.getByRole('listbox'));
}

/** Screenshots of the open Mark to list inside its dialog at 1280 and 390 px (the viewport, not the full page). */
async function screenshotOpenList(page: Page, name: string) {
  const original = page.viewportSize();
  // A short screen too (a phone held sideways): the list keeps to the room left in the dialog.
  for (const size of [...SCREENSHOT_WIDTHS, { width: 390, height: 560 }]) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const listbox = page.getByRole('dialog').getByRole('listbox');
    await expectVisible(listbox);
    // The whole list is drawn inside the dialog's box and the viewport: not clipped by the dialog.
    const [list, dialog] = await Promise.all([listbox.boundingBox(), page.getByRole('dialog').boundingBox()]);
    expect(list && dialog).toBeTruthy();
    expect(list!.y + list!.height).toBeLessThanOrEqual(Math.min(dialog!.y + dialog!.height, size.height) + 1);
    const suffix = size.height === 560 ? `${size.width}-short` : `${size.width}`;
    await page.screenshot({ path: `e2e/screenshots/${name}-${suffix}.png`, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

describe('Dak that moves (issue 17)', () => {
  it('upload → mark to an AD with a due date → AD receives and marks on → employee closes; pendency before and after', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const employee = await person('employee', `Asha Uploader ${tag}`);
    const ad = await person('associate_director', `Ravi Associate ${tag}`);
    const officer = await person('employee', `Meera Officer ${tag}`);
    const director = await person('director', `Kavita Director ${tag}`);
    // Enough officers that the open Mark to list scrolls, as in a real lab: its scrolling must be keyboard-reachable
    // (axe scrollable-region-focusable), whatever ran before this file.
    await Promise.all(Array.from({ length: 12 }, (_, i) => person('employee', `Extra Officer ${i + 1} ${tag}`)));
    const subject = `Fire safety audit of store house ${tag}`;
    const groups = await apiAs(director).get<{ _id: string; name: string }[]>('/api/groups/name');
    const groupName = groups.body.find((g) => g._id === groupIds[0])!.name;
    const due = inDays(7);

    // 1. The employee uploads the letter in the Letters Manager and marks it to the associate director.
    await signInAs(page, employee, { to: '/dac' });
    await expectVisible(page.getByRole('heading', { name: 'Upload New Letter' }));
    for (const [label, value] of Object.entries({
      Language: 'English',
      'Communicated By': 'Speed Post',
      'Docket Date': inDays(-1),
      'Letter Date': inDays(-3),
      'Letter No': `HQ/FS/${tag}`,
      Category: 'Letter',
      Establishment: 'DRDO HQ',
      Subject: subject,
      'Docket No': `D-${tag}`,
    })) {
      await field(page, label).fill(value);
      if (label.endsWith('Date')) await field(page, label).press('Tab');
    }
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'File' }).click();
    await (await chooser).setFiles({ name: 'audit.pdf', mimeType: 'application/pdf', buffer: tinyPdf });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('✅ Letter uploaded'));
    const card = page.getByRole('listitem').filter({ hasText: subject });
    const [uploaded] = (await apiAs(employee).get<{ _id: string; letterId: string }[]>(`/api/dac?q=${tag}`)).body;
    const letterId = uploaded!.letterId;
    await card.getByRole('button', { name: `Mark letter ${letterId} to an officer` }).click();
    const dialog = page.getByRole('dialog', { name: `Mark letter ${letterId}` });
    await expectVisible(dialog);
    // Nobody chosen: the form says so.
    await dialog.getByRole('button', { name: 'Mark Letter' }).click();
    await expectVisible(dialog.getByText('Please choose at least one officer.'));
    // The whole list of officers open: inside the dialog (axe region, decision 018) and not clipped by it.
    await dialog.getByRole('combobox', { name: 'Mark to' }).click();
    await expectVisible(dialog.getByRole('option').first());
    await checkA11y(page, { moderate: true });
    await screenshotOpenList(page, 'dak-mark-to-open');
    await page.keyboard.press('Escape'); // closes the option list, not the dialog
    await chooseOfficer(page, ad.name);
    await expectVisible(dialog.getByText(new RegExp(`Associate Director`)).first());
    await dialog.getByRole('textbox', { name: 'Remarks' }).fill('Please examine and put up');
    await dialog.getByRole('textbox', { name: 'Due date' }).fill(due);
    await dialog.getByRole('textbox', { name: 'Due date' }).press('Tab');
    await dialog.getByRole('combobox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'dak-mark-dialog');
    await dialog.getByRole('button', { name: 'Mark Letter' }).click();
    await expectVisible(page.getByText(`Letter ${letterId} marked to 1 officer.`));
    await expectHidden(dialog);
    // Marked: the card says with whom it is (decision 099), and its register entry is frozen for the uploader.
    await expectVisible(card.getByText(new RegExp(`Marked to ${ad.name}.*, not yet received`)));
    await expectVisible(card.getByText('Only an administrator may now change its register entry.'));
    await expectHidden(card.getByRole('button', { name: `Delete letter: ${subject}` }));

    // 2. The director sees it pending with the associate director.
    await signOutAndIn(page, director, '/dac/pendency');
    await expectVisible(page.getByRole('heading', { name: 'Pendency of Letters', level: 1 }));
    await page.getByLabel('Group').first().click();
    await page.getByRole('option', { name: groupName, exact: true }).click(); // where everyone of this test works
    const officers = page.getByRole('table', { name: 'By officer' });
    const adRow = officers.getByRole('row').filter({ hasText: ad.name });
    await expectVisible(adRow);
    expect(await adRow.getByRole('cell').nth(2).innerText()).toBe('1'); // pending
    const oldest = page.getByRole('table', { name: 'Oldest pending first' });
    await expectVisible(oldest.getByRole('row').filter({ hasText: letterId }));
    await checkA11y(page);
    await screenshotFromTop(page, 'dak-pendency-before');
    const before = await apiAs(director).get<PendencyJson>(`/api/dac/pendency?groupId=${groupIds[0]}`);
    expect(before.body.officers.find((o) => o.officer._id === ad.id)).toMatchObject({ pending: 1, overdue: 0 });

    // 3. The associate director: the badge in the navigation, the inbox, receipt, and marking on.
    await signOutAndIn(page, ad, '/');
    const inboxLink = page.getByRole('link', { name: /^Marked to Me/ });
    await expectVisible(inboxLink);
    await expectVisible(inboxLink.getByText('1 letter not yet received'));
    await expectVisible(page.getByRole('button', { name: 'Notifications: 1 unread' }));
    await inboxLink.click();
    await expectVisible(page.getByRole('heading', { name: 'Marked to Me', level: 1 }));
    const item = page.getByRole('article', { name: subject });
    await expectVisible(item);
    for (const text of ['New', 'Urgent', 'Not yet received', 'Remarks: Please examine and put up']) {
      await expectVisible(item.getByText(text, { exact: true }));
    }
    await expectVisible(item.getByText(/^Due \d{2} [A-Z][a-z]{2} \d{4}$/));
    await expectVisible(item.getByText(`${letterId} · marked by ${employee.name}`, { exact: false }));
    await checkA11y(page);
    await screenshotFromTop(page, 'dak-inbox');
    // The same screen in Hindi.
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'मुझे अंकित', level: 1 }));
    await expectVisible(item.getByRole('button', { name: `पत्र ${letterId} प्राप्त करें` }));
    await checkA11y(page);
    await screenshotFromTop(page, 'dak-inbox-hi');
    await switchLanguage(page, 'en');

    await item.getByRole('button', { name: `Receive letter ${letterId}` }).click();
    await expectVisible(page.getByText(`Letter ${letterId} received.`));
    await expectHidden(inboxLink.getByText('1 letter not yet received'));
    await page.getByRole('tab', { name: 'Received', exact: true }).click();
    const held = page.getByRole('article', { name: subject });
    await held.getByRole('button', { name: `Mark letter ${letterId} on to another officer` }).click();
    await chooseOfficer(page, officer.name);
    await page.getByRole('dialog').getByRole('textbox', { name: 'Remarks' }).fill('For reply to HQ');
    await page.getByRole('dialog').getByRole('button', { name: 'Mark Letter' }).click();
    await expectVisible(page.getByText(`Letter ${letterId} marked to 1 officer.`));
    await page.getByRole('tab', { name: 'Closed', exact: true }).click();
    await expectVisible(page.getByRole('article', { name: subject }).getByText(/^Marked on /));

    // 4. The employee it was marked to receives it and closes it with a disposal.
    await signOutAndIn(page, officer, '/dac/inbox');
    const mine = page.getByRole('article', { name: subject });
    await expectVisible(mine);
    await mine.getByRole('button', { name: `Show Details of letter ${letterId}`, exact: true }).click();
    await expectVisible(mine.getByText(`${employee.name} → ${ad.name}`));
    await expectVisible(mine.getByText(`${ad.name} → ${officer.name}`));
    await checkA11y(page, { moderate: true }); // the Show Details panel's headings in order
    // The Send Back dialog, checked and left (heading-order).
    await mine.getByRole('button', { name: new RegExp(`^Send letter ${letterId} back`) }).click();
    const backDialog = page.getByRole('dialog', { name: new RegExp(`^Send letter ${letterId} back`) });
    await expectVisible(backDialog);
    await checkA11y(page, { moderate: true });
    await backDialog.getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(backDialog);
    await mine.getByRole('button', { name: `Receive letter ${letterId}` }).click();
    await expectVisible(page.getByText(`Letter ${letterId} received.`));
    await page.getByRole('tab', { name: 'Received', exact: true }).click();
    await page
      .getByRole('article', { name: subject })
      .getByRole('button', { name: `Close letter ${letterId} with its disposal` })
      .click();
    const closeDialog = page.getByRole('dialog', { name: `Close letter ${letterId}` });
    await closeDialog.getByRole('button', { name: 'Close Letter' }).click();
    await expectVisible(closeDialog.getByText('Please write the disposal (action taken).'));
    await closeDialog.getByRole('textbox', { name: 'Disposal (action taken)' }).fill('Reply sent to HQ');
    await closeDialog.getByRole('textbox', { name: 'File No' }).fill(`CFEES/FS/${tag}`);
    await checkA11y(page);
    await closeDialog.getByRole('button', { name: 'Close Letter' }).click();
    await expectVisible(page.getByText(`Letter ${letterId} closed.`));
    await page.getByRole('tab', { name: 'Closed', exact: true }).click();
    await expectVisible(page.getByRole('article', { name: subject }).getByText(/^Closed /));
    const closed = await apiAs(officer).get<InboxPageJson>('/api/dac/inbox?status=closed');
    expect(closed.body.letters[0]?.movement).toMatchObject({ disposal: 'Reply sent to HQ', outcome: 'closed' });

    // 5. The director sees it closed in pendency, in English and Hindi, and prints it without the portal chrome.
    await signOutAndIn(page, director, '/dac/pendency');
    await page.getByLabel('Group').first().click();
    await page.getByRole('option', { name: groupName, exact: true }).click();
    const officerRow = page
      .getByRole('table', { name: 'By officer' })
      .getByRole('row')
      .filter({ hasText: officer.name });
    await expectVisible(officerRow);
    expect(await officerRow.getByRole('cell').nth(2).innerText()).toBe('0'); // pending
    expect(await officerRow.getByRole('cell').nth(4).innerText()).toBe('1'); // closed in period
    await expectHidden(
      page.getByRole('table', { name: 'Oldest pending first' }).getByRole('row').filter({ hasText: letterId }),
    );
    await checkA11y(page);
    await screenshotFromTop(page, 'dak-pendency-after');
    await page.emulateMedia({ media: 'print' });
    await expectHidden(page.getByRole('navigation', { name: 'Main navigation' }));
    await expectHidden(page.getByRole('button', { name: 'Print' }));
    await expectVisible(page.getByRole('table', { name: 'By officer' }));
    await page.emulateMedia({ media: 'screen' });
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'पत्रों की लंबितता', level: 1 }));
    await checkA11y(page);
    await screenshotFromTop(page, 'dak-pendency-hi');
    await switchLanguage(page, 'en');
    const after = await apiAs(director).get<PendencyJson>(`/api/dac/pendency?groupId=${groupIds[0]}`);
    expect(after.body.officers.find((o) => o.officer._id === officer.id)).toMatchObject({ pending: 0, closed: 1 });
    expect(after.body.officers.find((o) => o.officer._id === ad.id)).toBeUndefined();

    // The movements in the letter's history panel.
    await page.goto(`/allLetter?q=${letterId}`);
    const found = page.getByRole('article', { name: subject });
    await found.getByRole('button', { name: 'Show History' }).click();
    await expectVisible(found.getByText('Disposal: Reply sent to HQ', { exact: false }));
    await checkA11y(page);
  });
});
