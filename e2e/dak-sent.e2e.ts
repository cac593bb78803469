import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, groupIds, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, registrationFor, uploadLetter } from './seed.ts';

// Decision 099: "Sent" in Marked to Me. An employee marks a letter on to an associate director from the Letters
// Manager (the officer list open, axe-checked); the card then says with whom it is; the letter is under Sent with its
// state; the employee pulls it back from the Sent card and the state updates. A letter received by the officer shows
// "With …, received …" on its card. English and Hindi, axe clean down to moderate, screenshots at 1280 and 390 px.

const browser = useBrowser();

const person = (role: 'employee' | 'associate_director', name: string) =>
  createApprovedUser(role, groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

async function fromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('Sent in Marked to Me (decision 099)', () => {
  it('mark on → under Sent with its state → Pull Back from the Sent card → the state updates; English and Hindi', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const employee = await person('employee', `Asha Sender ${tag}`);
    const ad = await person('associate_director', `Ravi Holder ${tag}`);
    const subject = `Hostel water audit ${tag}`;
    const { letterId } = await uploadLetter(employee, subject, tag);
    // A second letter the officer has received: its card says "With …, received …".
    const other = await uploadLetter(employee, `Canteen licence ${tag}`, `${tag}b`);
    await apiAs(employee).post(`/api/dac/${other._id}/movements`, { to: [ad.id] });
    await apiAs(ad).post(`/api/dac/${other._id}/receive`);

    // 1. Marked on from the Letters Manager, with the officer list open checked by axe.
    await signInAs(page, employee, { to: '/dac' });
    const card = page.getByRole('listitem').filter({ hasText: subject });
    await card.getByRole('button', { name: `Mark letter ${letterId} to an officer` }).click();
    const dialog = page.getByRole('dialog', { name: `Mark letter ${letterId}` });
    await dialog.getByRole('combobox', { name: 'Mark to' }).fill(ad.name.split(' ')[0]!);
    await expectVisible(page.getByRole('option', { name: new RegExp(`^${ad.name}`) }));
    await checkA11y(page, { moderate: true });
    await page.getByRole('option', { name: new RegExp(`^${ad.name}`) }).click(); // the list closes after a pick
    await dialog.getByRole('button', { name: 'Mark Letter' }).click();
    await expectVisible(page.getByText(`Letter ${letterId} marked to 1 officer.`));
    await expectHidden(dialog);
    // The card says with whom it is, not only "Marked to an officer".
    await expectVisible(card.getByText(new RegExp(`Now: Marked to ${ad.name}.*, not yet received`)));
    const received = page.getByRole('listitem').filter({ hasText: `Canteen licence ${tag}` });
    await expectVisible(
      received.getByText(new RegExp(`Now: With ${ad.name}.* — received \\d{2} [A-Z][a-z]{2} \\d{4}`)),
    );
    await checkA11y(page, { moderate: true });
    await fromTop(page, 'dak-holder-line');
    await switchLanguage(page, 'hi');
    await expectVisible(card.getByText(new RegExp(`अभी: ${ad.name}.* को अंकित, अभी प्राप्त नहीं`)));
    await expectVisible(received.getByText(new RegExp(`अभी: ${ad.name}.* के पास — .* को प्राप्त`)));
    await checkA11y(page, { moderate: true });
    await fromTop(page, 'dak-holder-line-hi');
    await switchLanguage(page, 'en');

    // 2. Under Sent in Marked to Me, with its state and Pull Back.
    await page.goto('/dac/inbox');
    await expectVisible(page.getByRole('heading', { name: 'Marked to Me', level: 1 }));
    await page.getByRole('tab', { name: 'Sent', exact: true }).click();
    const sent = page.getByRole('article', { name: subject });
    await expectVisible(sent.getByText(new RegExp(`^${letterId} · marked to ${ad.name}`)));
    await expectVisible(sent.getByText('Not yet received', { exact: true }));
    await expectVisible(sent.getByText(new RegExp(`Now: Marked to ${ad.name}`)));
    const receivedSent = page.getByRole('article', { name: `Canteen licence ${tag}` });
    await expectVisible(receivedSent.getByText(/^Received /));
    await expectHidden(receivedSent.getByRole('button', { name: /^Pull back/ }));
    await checkA11y(page, { moderate: true });
    await fromTop(page, 'dak-sent');
    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('tab', { name: 'भेजे गए', exact: true }));
    await expectVisible(sent.getByRole('button', { name: `पत्र ${letterId} ${ad.name} से वापस लें` }));
    await checkA11y(page, { moderate: true });
    await fromTop(page, 'dak-sent-hi');
    await switchLanguage(page, 'en');

    // 3. Pulled back from the Sent card: the state says so, and nobody holds the letter now.
    await sent.getByRole('button', { name: `Pull back letter ${letterId} from ${ad.name}` }).click();
    await expectVisible(page.getByText(`Letter ${letterId} pulled back from ${ad.name}.`));
    await expectVisible(sent.getByText(/^Pulled back /));
    await expectVisible(sent.getByText('Now: Not with anyone now'));
    await expectHidden(sent.getByRole('button', { name: /^Pull back/ }));
    await checkA11y(page, { moderate: true });
    await fromTop(page, 'dak-sent-pulled-back');
  });
});
