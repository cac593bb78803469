import { randomUUID } from 'node:crypto';

import pg from 'pg';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { InboxPageJson, MovementJson } from '#shared/schemas/letter.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, groupIds, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { portal } from './portal.ts';
import { apiAs, createApprovedUser, inDays, registrationFor, type SeededUser, uploadLetter } from './seed.ts';

// Decisions 078, 079: an officer on leave names a delegate; the delegate receives and closes a letter
// marked to the officer, and the history says "on behalf of" (English and Hindi); after the end date the delegate's
// inbox no longer shows the officer's letters. Then pull back and copy to: a letter marked to one officer for action
// and another for information; the reader marks it seen (in Hindi); the uploader pulls back the unopened marking.
// axe-clean, screenshots at 1280 and 390 px.

const browser = useBrowser();

const person = (role: 'employee' | 'associate_director', name: string) =>
  createApprovedUser(role, groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

async function signOutAndIn(page: Page, user: SeededUser, to: string) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInAs(page, user, { to });
}

async function screenshotFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Sets the dates of the officer's delegations in the e2e portal's database (the end date passed). */
async function endByDate(officerId: string) {
  const client = new pg.Client({ connectionString: portal.databaseUrl });
  await client.connect();
  try {
    await client.query(`update dak_delegations set from_date = $2, to_date = $3 where officer_id = $1`, [
      officerId,
      inDays(-5),
      inDays(-1),
    ]);
  } finally {
    await client.end();
  }
}

describe('Dak for absent officers (issue 32)', () => {
  it('an officer on leave delegates; the delegate receives and closes on their behalf; it ends by its date', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const uploader = await person('employee', `Asha Uploader ${tag}`);
    const officer = await person('associate_director', `Ravi Onleave ${tag}`);
    const deputy = await person('employee', `Meera Deputy ${tag}`);
    const subject = `Annual fire drill report ${tag}`;
    const letter = await uploadLetter(uploader, subject, `${tag}-1`);
    expect((await apiAs(uploader).post(`/api/dac/${letter._id}/movements`, { to: [officer.id] })).status).toBe(201);

    // 1. The officer names the deputy from today for three days, from the inbox's Delegation page.
    await signInAs(page, officer, { to: '/dac/inbox' });
    await page.getByRole('link', { name: 'Delegation' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Delegation of Dak', level: 1 }));
    await page.getByRole('combobox', { name: /^Delegate/ }).fill('Meera');
    await page.getByRole('option', { name: new RegExp(`^${deputy.name}`) }).click();
    await page.getByRole('button', { name: 'Name Delegate' }).click();
    await expectVisible(page.getByText(new RegExp(`^${deputy.name} will handle the dak from`)));
    const row = page.getByRole('listitem').filter({ hasText: `${deputy.name} for ${officer.name}` });
    await expectVisible(row.getByText('Running', { exact: true }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-delegation');
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'डाक का प्रतिनिधित्व', level: 1 }));
    const rowHi = page.getByRole('listitem').filter({ hasText: `${officer.name} के लिए ${deputy.name}` });
    await expectVisible(rowHi.getByText('चालू', { exact: true }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-delegation-hi');
    await switchLanguage(page, 'en');

    // 2. The deputy sees the officer's letter, marked as such; receives it and closes it.
    await signOutAndIn(page, deputy, '/dac/inbox');
    const item = page.getByRole('article', { name: subject });
    await expectVisible(item.getByText(`For ${officer.name} (delegated to you)`));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-delegate-inbox');
    await item.getByRole('button', { name: `Receive letter ${letter.letterId}` }).click();
    await expectVisible(page.getByText(`Letter ${letter.letterId} received.`));
    await page.getByRole('tab', { name: 'Received', exact: true }).click();
    await page
      .getByRole('article', { name: subject })
      .getByRole('button', { name: `Close letter ${letter.letterId} with its disposal` })
      .click();
    const closeDialog = page.getByRole('dialog', { name: `Close letter ${letter.letterId}` });
    await closeDialog.getByRole('textbox', { name: 'Disposal (action taken)' }).fill('Filed for record');
    await closeDialog.getByRole('button', { name: 'Close Letter' }).click();
    await expectVisible(page.getByText(`Letter ${letter.letterId} closed.`));

    // 3. The history says who acted on behalf of whom, in English and in Hindi.
    await page.getByRole('tab', { name: 'Closed', exact: true }).click();
    const closed = page.getByRole('article', { name: subject });
    await closed.getByRole('button', { name: 'Show Details' }).click();
    await expectVisible(closed.getByText(`Received by ${deputy.name} on behalf of ${officer.name}`));
    await expectVisible(closed.getByText(`Done by ${deputy.name} on behalf of ${officer.name}`));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-delegate-history');
    await switchLanguage(page, 'hi');
    await expectVisible(closed.getByText(`${officer.name} की ओर से ${deputy.name} द्वारा प्राप्त`));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-delegate-history-hi');
    await switchLanguage(page, 'en');

    // 4. After the end date the deputy's inbox no longer shows the officer's letters.
    const later = await uploadLetter(uploader, `Store audit ${tag}`, `${tag}-2`);
    expect((await apiAs(uploader).post(`/api/dac/${later._id}/movements`, { to: [officer.id] })).status).toBe(201);
    const before = await apiAs(deputy).get<InboxPageJson>('/api/dac/inbox');
    expect(before.body.letters.map((l) => l._id)).toContain(later._id);
    await endByDate(officer.id);
    await page.getByRole('tab', { name: 'Not Received', exact: true }).click();
    await page.reload();
    await expectVisible(page.getByText('No letters waiting for you.'));
    await expectHidden(page.getByRole('article', { name: `Store audit ${tag}` }));
    const after = await apiAs(deputy).get<InboxPageJson>('/api/dac/inbox');
    expect(after.body.letters).toEqual([]);
  });

  it('copy to: for action and for information; the reader marks it seen; the uploader pulls back', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const uploader = await person('employee', `Kavita Sender ${tag}`);
    const actor = await person('employee', `Anil Action ${tag}`);
    const reader = await person('employee', `Priya Reader ${tag}`);
    const subject = `Hazard survey ${tag}`;
    const letter = await uploadLetter(uploader, subject, `${tag}-3`);

    // 1. The uploader marks it to one officer for action and another for information, in the Mark dialog.
    await signInAs(page, uploader, { to: `/allLetter?q=${letter.letterId}` });
    const card = page.getByRole('article', { name: subject });
    await card.getByRole('button', { name: `Mark letter ${letter.letterId} to an officer` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Mark to' }).fill('Anil');
    await page.getByRole('option', { name: new RegExp(`^${actor.name}`) }).click();
    await expectHidden(dialog.getByRole('listbox')); // each list closes by itself after a pick
    await dialog.getByRole('combobox', { name: 'For information' }).fill('Priya');
    await page.getByRole('option', { name: new RegExp(`^${reader.name}`) }).click();
    await expectHidden(dialog.getByRole('listbox'));
    await checkA11y(page, { moderate: true });
    await dialog.getByRole('button', { name: 'Mark Letter' }).click();
    await expectVisible(page.getByText(`Letter ${letter.letterId} marked to 1 officer. With 1 copy for information.`));
    const movements = await apiAs(uploader).get<MovementJson[]>(`/api/dac/${letter._id}/movements`);
    expect(movements.body.map((m) => [m.to._id, m.forInformation]).sort()).toEqual(
      [
        [actor.id, false],
        [reader.id, true],
      ].sort(),
    );

    // 2. The reader, in Hindi: the "For information" box, read-only; marks it seen. Not counted as pending.
    await signOutAndIn(page, reader, '/dac/inbox');
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByText('आपके लिए कोई पत्र प्रतीक्षा में नहीं है।'));
    await page.getByRole('tab', { name: 'सूचनार्थ', exact: true }).click();
    const copy = page.getByRole('article', { name: subject });
    await expectVisible(copy.getByText('अभी देखा नहीं गया'));
    await expectHidden(copy.getByRole('button', { name: `पत्र ${letter.letterId} प्राप्त करें` }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-for-information-hi');
    await copy.getByRole('button', { name: `पत्र ${letter.letterId} को देखा गया चिह्नित करें` }).click();
    await expectVisible(page.getByText(`पत्र ${letter.letterId} देखा गया चिह्नित किया गया।`));
    await expectVisible(copy.getByText(/को देखा$/));
    await switchLanguage(page, 'en');

    // 3. The uploader pulls back the unopened marking for action, from the letter's history.
    await signOutAndIn(page, uploader, `/allLetter?q=${letter.letterId}`);
    const again = page.getByRole('article', { name: subject });
    await again.getByRole('button', { name: 'Show History' }).click();
    await expectVisible(again.getByText('For information', { exact: true }));
    await checkA11y(page, { moderate: true });
    await screenshotFromTop(page, 'dak-pull-back');
    await again.getByRole('button', { name: `Pull back letter ${letter.letterId} from ${actor.name}` }).click();
    await expectVisible(page.getByText(`Letter ${letter.letterId} pulled back from ${actor.name}.`));
    await expectVisible(again.getByText(/^.*Pulled back /));
    const box = await apiAs(actor).get<InboxPageJson>('/api/dac/inbox');
    expect(box.body.letters).toEqual([]);
  });
});
