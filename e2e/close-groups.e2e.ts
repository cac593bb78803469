import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, newContext, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, apiCall, createApprovedUser, type SeededUser, signedInAdmin } from './seed.ts';

// Close groups. An admin creates a close group with two members through Manage Close Groups; one member
// uploads a document, marked Restricted (decision 072: the select, then the badge), renames it, marks it Confidential and back from its dialog; the other opens it but may not rename or delete it; a non-member cannot open it
// by its link; after the end date uploads are refused until the admin extends the group; the admin deletes a group.
// Selected by label, role and visible text, in English.

const browser = useBrowser();

const indiaDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** YYYY-MM-DD `days` from today in India. */
function dayFromToday(days: number): string {
  const d = new Date(`${indiaDay.format(new Date())}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const MINUTES = 'Minutes of the blast wall review: wall B needs a second coat.\n';

async function pickMember(page: Page, user: SeededUser) {
  const picker = page.getByRole('combobox', { name: 'Requested By' });
  await picker.click();
  await picker.fill(user.email);
  await page.getByRole('option', { name: `${user.name} (${user.email})` }).click();
}

async function chooseDocument(page: Page, name: string, content: string) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Document', exact: true }).click(),
  ]);
  await chooser.setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
}

/** Seeds a close group through the admin API. */
async function seedCloseGroup(name: string, members: SeededUser[], from: string, to: string): Promise<CloseGroupJson> {
  const res = await apiAs(await signedInAdmin()).post<CloseGroupJson>('/admin/close-group', {
    groupName: name,
    groupPurpose: 'Trial planning.',
    groupDuration: { from, to },
    requestedBy: members.map((m) => m.id),
    adminRemarks: '',
  });
  if (res.status !== 201) throw new Error(`Seeding a close group failed (${res.status})`);
  return res.body;
}

describe('Close groups', () => {
  it('admin creates a close group; a member uploads and renames; the other opens it but may not change it; an outsider may not open it', async () => {
    const { page, browser: chromium } = browser;
    const tag = randomUUID().slice(0, 6);
    const groupName = `Blast wall review ${tag}`;
    const [alice, bob, outsider] = await Promise.all([
      createApprovedUser('employee'),
      createApprovedUser('employee'),
      createApprovedUser('employee'),
    ]);

    // --- The admin creates the close group.
    await signInAs(page, await signedInAdmin(), { to: '/admin/closeGroup' });
    await expectVisible(page.getByRole('heading', { name: 'Manage Close Groups', level: 1 }));
    await expectVisible(page.getByRole('heading', { name: 'Create Close Group' }));
    await page.getByRole('button', { name: 'Create Group' }).click();
    for (const message of [
      'Group Name is required.',
      'Group Purpose is required.',
      'Group Duration (From and To dates) are required.',
    ]) {
      await expectVisible(page.getByText(message, { exact: true }));
    }
    await expectVisible(page.getByText('Please select at least one user for Requested By.'));

    await page.getByLabel('Group Name').fill(groupName);
    await page.getByLabel('Group Purpose').fill('Review the blast wall design before the field trial.');
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(dayFromToday(3));
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(dayFromToday(1));
    await page.getByRole('button', { name: 'Create Group' }).click();
    await expectVisible(page.getByText('Start date cannot be after end date.'));
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(dayFromToday(-1));
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(dayFromToday(30));
    await pickMember(page, alice);
    // The Requested By list open: inside the page's landmarks (axe region, decision 018).
    const picker = page.getByRole('combobox', { name: 'Requested By' });
    await picker.fill(bob.email);
    await expectVisible(page.getByRole('option', { name: `${bob.name} (${bob.email})` }));
    await checkA11y(page, { moderate: true });
    await page.keyboard.press('Escape');
    await pickMember(page, bob);
    await page.keyboard.press('Escape');
    await page.getByLabel('Admin Remarks').fill('Approved by the Director.');
    await checkA11y(page, { moderate: true });
    await page.getByRole('button', { name: 'Create Group' }).click();
    await expectVisible(page.getByText('Group created successfully!'));
    const row = page.getByRole('row').filter({ hasText: groupName });
    await expectVisible(row);
    await expectVisible(row.getByText(alice.name));
    await expectVisible(row.getByText(bob.name));
    await expectVisible(row.getByText('Active'));
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'admin-close-group');

    // --- Alice uploads a document, then renames it.
    const aliceContext = await newContext(chromium);
    const alicePage = await aliceContext.newPage();
    await signInAs(alicePage, alice, { via: 'ui', to: '/closeGroup' });
    await expectVisible(alicePage.getByRole('heading', { name: 'My Group Documents', level: 1 }));
    await expectVisible(alicePage.getByRole('button', { name: new RegExp(groupName) }));
    await expectVisible(alicePage.getByText('No documents yet.'));
    await alicePage.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(alicePage.getByText('Please select a file to upload.'));
    await chooseDocument(alicePage, 'minutes.txt', MINUTES);
    // Its classification (decision 072): Unclassified unless chosen; the open list is axe-clean in the page.
    const classification = alicePage.getByRole('combobox', { name: 'Classification' });
    await expect(classification.inputValue()).resolves.toBe('Unclassified');
    await classification.click();
    await expectVisible(alicePage.getByRole('option', { name: 'Secret' }));
    await checkA11y(alicePage, { moderate: true });
    await alicePage.getByRole('option', { name: 'Restricted' }).click();
    await expect(classification.inputValue()).resolves.toBe('Restricted');
    await alicePage.getByRole('button', { name: 'Upload', exact: true }).click();
    const uploadedMessage = alicePage.getByText('Document uploaded successfully!');
    await expectVisible(uploadedMessage);
    const docRow = alicePage.getByRole('row').filter({ hasText: 'minutes.txt' });
    await expectVisible(docRow.getByText(alice.name));
    await expectVisible(docRow.getByText('Restricted', { exact: true }));
    await expectVisible(docRow.getByText(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} (am|pm)$/i)); // Indian style, 12-hour
    // Each message shows for 5 seconds, then clears (spec §9).
    await expectHidden(uploadedMessage, 8_000);

    await alicePage.getByRole('button', { name: 'Rename minutes.txt' }).click();
    const renameDialog = alicePage.getByRole('dialog', { name: 'Rename document' });
    const newName = renameDialog.getByLabel('New file name');
    await newName.fill('minutes');
    await renameDialog.getByRole('button', { name: 'Save' }).click();
    await expectVisible(renameDialog.getByText('New filename is the same as the current filename.'));
    await newName.fill('  ');
    await renameDialog.getByRole('button', { name: 'Save' }).click();
    await expectVisible(renameDialog.getByText('Please enter a new filename.'));
    await newName.fill('Blast wall minutes');
    await renameDialog.getByRole('button', { name: 'Save' }).click();
    await expectVisible(alicePage.getByText('Document renamed successfully!'));
    await expectVisible(alicePage.getByRole('link', { name: 'Blast wall minutes.txt (opens in a new tab)' }));
    // The uploader changes its classification from its dialog (decision 072), axe-clean with the list open; then back.
    const reclassify = async (from: string, to: string) => {
      await alicePage.getByRole('button', { name: 'Change the classification of Blast wall minutes.txt' }).click();
      const dialog = alicePage.getByRole('dialog', { name: 'Classification of Blast wall minutes.txt' });
      const select = dialog.getByRole('combobox', { name: 'Classification' });
      await expect(select.inputValue()).resolves.toBe(from);
      await select.click();
      await expectVisible(dialog.getByRole('option', { name: to }));
      if (to === 'Confidential') await checkA11y(alicePage, { moderate: true });
      await dialog.getByRole('option', { name: to }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expectVisible(alicePage.getByText(`Blast wall minutes.txt is now ${to}.`));
      await expectHidden(dialog);
      await expectVisible(
        alicePage.getByRole('row').filter({ hasText: 'Blast wall minutes.txt' }).getByText(to, { exact: true }),
      );
    };
    await reclassify('Restricted', 'Confidential');
    await reclassify('Confidential', 'Restricted');
    await checkA11y(alicePage);
    await alicePage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(alicePage, 'close-group-documents');
    // The same screen in Hindi: the select's label and the badge in the reader's language.
    await alicePage.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(alicePage.getByRole('heading', { name: 'मेरे समूह के दस्तावेज़', level: 1 }));
    await expectVisible(alicePage.getByRole('combobox', { name: 'वर्गीकरण' }));
    await expectVisible(
      alicePage.getByRole('row').filter({ hasText: 'Blast wall minutes.txt' }).getByText('प्रतिबंधित', { exact: true }),
    );
    await checkA11y(alicePage);
    await alicePage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(alicePage, 'close-group-documents-hi');
    await alicePage.getByRole('button', { name: 'English' }).click();
    await expectVisible(alicePage.getByRole('heading', { name: 'My Group Documents', level: 1 }));
    const [doc] = (await apiAs(alice).get<CloseGroupJson[]>('/api/close-groups/mine')).body.find(
      (g) => g.groupName === groupName,
    )!.documents;
    await aliceContext.close();

    // --- Bob opens it from its link but may not rename or delete it.
    await signInAs(page, bob, { via: 'ui', to: '/closeGroup' });
    const link = page.getByRole('link', { name: 'Blast wall minutes.txt (opens in a new tab)' });
    await expectVisible(link);
    await expectVisible(page.getByRole('row').filter({ hasText: 'Blast wall minutes.txt' }).getByText(alice.name));
    expect(await page.getByRole('button', { name: 'Rename Blast wall minutes.txt' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Blast wall minutes.txt' }).count()).toBe(0);
    const popup = page.waitForEvent('popup');
    await link.click();
    const opened = await popup;
    await expectVisible(opened.getByText('wall B needs a second coat', { exact: false }));
    await opened.close();
    const groupId = (await apiAs(bob).get<CloseGroupJson[]>('/api/close-groups/mine')).body.find(
      (g) => g.groupName === groupName,
    )!._id;
    const bobRename = await apiAs(bob).put<{ message: string }>(`/api/close-groups/${groupId}/documents/${doc!._id}`, {
      newFilename: 'mine now',
    });
    expect(bobRename).toMatchObject({
      status: 403,
      body: { message: 'Only the person who uploaded this document or an administrator can rename it.' },
    });
    expect((await apiAs(bob).del(`/api/close-groups/${groupId}/documents/${doc!._id}`)).status).toBe(403);

    // --- An outsider and a visitor cannot reach the file by its link.
    const outsiderContext = await newContext(chromium);
    const outsiderPage = await outsiderContext.newPage();
    await signInAs(outsiderPage, outsider, { via: 'ui', to: '/closeGroup' });
    await expectVisible(outsiderPage.getByText('You are not a member of any close group yet.'));
    const refused = await outsiderPage.goto(doc!.url);
    expect(refused?.status()).toBe(403);
    await outsiderContext.close();
    expect((await apiCall('GET', doc!.url)).status).toBe(401);
  });

  it('after the end date uploads are refused until an admin extends the group; an admin deletes a group', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const member = await createApprovedUser('employee');
    const ended = await seedCloseGroup(`Smoke trial ${tag}`, [member], dayFromToday(-20), dayFromToday(-1));

    // The member sees the group read-only.
    await signInAs(page, member, { to: '/closeGroup' });
    const item = page.getByRole('button', { name: new RegExp(`Smoke trial ${tag}`) });
    await expectVisible(item);
    await expectVisible(page.getByText('Read-only'));
    await expectVisible(
      page.getByText(/^This close group ended on \d{2} [A-Z][a-z]{2} \d{4}\. Its documents can be read/),
    );
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).count()).toBe(0);
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'close-group-read-only');
    // The same screen in Hindi.
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByRole('heading', { name: 'मेरे समूह के दस्तावेज़', level: 1 }));
    await expectVisible(page.getByText('केवल पढ़ने के लिए'));
    await expectVisible(page.getByText('अभी कोई दस्तावेज़ नहीं है।'));
    await checkA11y(page);
    await screenshot(page, 'close-group-read-only-hi');
    await page.getByRole('button', { name: 'English' }).click();
    await expectVisible(page.getByRole('heading', { name: 'My Group Documents', level: 1 }));
    // The server refuses an upload all the same.
    const form = new FormData();
    form.set('document', new Blob([MINUTES], { type: 'text/plain' }), 'late.txt');
    const late = await apiAs(member).post<{ message: string }>(`/api/close-groups/${ended._id}/upload`, form);
    expect(late.status).toBe(403);
    expect(late.body.message).toMatch(/^This close group ended on /);

    // The admin extends it.
    const admin = await signedInAdmin();
    const adminContext = await newContext(browser.browser);
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, admin, { to: '/admin/closeGroup' });
    await adminPage.getByRole('button', { name: `Edit Smoke trial ${tag}` }).click();
    await expectVisible(adminPage.getByRole('heading', { name: `Edit Close Group: Smoke trial ${tag}` }));
    await expectVisible(adminPage.getByRole('button', { name: 'Cancel' }));
    await adminPage.getByRole('textbox', { name: 'To', exact: true }).fill(dayFromToday(14));
    await adminPage.getByRole('button', { name: 'Update Group' }).click();
    await expectVisible(adminPage.getByText('Group updated successfully!'));
    await expectVisible(adminPage.getByRole('heading', { name: 'Create Close Group' }));

    await page.reload();
    await expectVisible(page.getByRole('button', { name: 'Upload', exact: true }));
    expect(await page.getByText('Read-only').count()).toBe(0);

    // The admin deletes it, after confirming.
    await adminPage.getByRole('button', { name: `Delete Smoke trial ${tag}` }).click();
    const dialog = adminPage.getByRole('dialog');
    await expectVisible(
      dialog.getByText(`Delete the close group "Smoke trial ${tag}" and all its documents?`, { exact: false }),
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectVisible(adminPage.getByText('Group deleted successfully!'));
    await expectHidden(adminPage.getByRole('row').filter({ hasText: `Smoke trial ${tag}` }));
    await adminContext.close();
    expect((await apiAs(member).get(`/api/close-groups/${ended._id}`)).status).toBe(404);
  });
});
