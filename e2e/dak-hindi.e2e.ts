import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, groupIds, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, registrationFor, signedInAdmin, uploadLetter } from './seed.ts';

// Decision 034: a refusal that carries a name reads in Hindi in Hindi mode. An officer holds a letter; their
// account is deactivated while the uploader has them chosen in the dak's "Mark to" dialog, with the portal in Hindi;
// the server's refusal (letters.officer_deactivated, {name}) shows on the dialog in Hindi, with the officer's name.
// Screenshots at 1280 and 390 px.

const browser = useBrowser();

/** An approved employee of the first group with a name that no other test uses. */
const person = (name: string) =>
  createApprovedUser('employee', groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

/** Registers a letter through the API as `user`; returns its id and Letter ID. */

describe('The dak in Hindi (issue 29)', () => {
  it('marking to an officer deactivated meanwhile: the refusal in Hindi, with the name', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const uploader = await person(`Asha Uploader ${tag}`);
    const officer = await person(`Kavita Officer ${tag}`);
    // The officer holds a letter of the uploader's already.
    const first = await uploadLetter(uploader, `Store house inspection ${tag}`, `${tag}-1`);
    expect((await apiAs(uploader).post(`/api/dac/${first._id}/movements`, { to: [officer.id] })).status).toBe(201);
    const subject = `Fire safety audit ${tag}`;
    const second = await uploadLetter(uploader, subject, `${tag}-2`);

    // The uploader, in Hindi, opens the Mark dialog of the second letter and chooses the officer.
    await signInAs(page, uploader, { to: '/dac' });
    await switchLanguage(page, 'hi');
    const card = page.getByRole('listitem').filter({ hasText: subject });
    await card.getByRole('button', { name: `पत्र ${second.letterId} किसी अधिकारी को अंकित करें` }).click();
    const dialog = page.getByRole('dialog', { name: `पत्र ${second.letterId} अंकित करें` });
    await expectVisible(dialog);
    await dialog.getByRole('combobox', { name: 'किसे अंकित करें' }).fill('Kavita');
    await page.getByRole('option', { name: new RegExp(`^${officer.name}`) }).click();
    await expectHidden(dialog.getByRole('listbox')); // the list closes by itself after a pick

    // Meanwhile the administrator deactivates the officer's account.
    const admin = await signedInAdmin();
    expect((await apiAs(admin).post(`/admin/users/${officer.id}/deactivate`, { reason: '' })).status).toBe(200);

    // Marking is refused by code; the dialog words it in Hindi around the officer's name, on the "Mark to" input.
    await dialog.getByRole('button', { name: 'पत्र अंकित करें' }).click();
    const refusal = `${officer.name} का खाता निष्क्रिय कर दिया गया है। कृपया कोई अन्य अधिकारी चुनें।`;
    await expectVisible(dialog.getByText(refusal, { exact: true }));
    expect(await dialog.getByText('account is deactivated').count()).toBe(0); // not the English
    // Nothing was marked.
    const movements = await apiAs(uploader).get<unknown[]>(`/api/dac/${second._id}/movements`);
    expect(movements.body).toEqual([]);
    // The refused input takes the focus and opens its list: closed, so the refusal under it shows.
    if (await dialog.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
    await expectHidden(dialog.getByRole('listbox'));
    await expectVisible(dialog);
    await checkA11y(page, { moderate: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'dak-officer-deactivated-hi');
  });
});
