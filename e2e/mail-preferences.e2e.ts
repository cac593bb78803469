import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, signInAs, switchLanguage, useBrowser } from './fixtures.ts';
import { apiCall, createApprovedUser } from './seed.ts';

// My Account → Email (decision 081): each person chooses per kind of mail, immediately, in the daily digest,
// or off; the mandatory mails are named as always sent. The worker's e2e portal mails (e2e/global-setup.ts). English and
// Hindi, axe-clean down to moderate, 1280 and 390 px.

const state = useBrowser();

interface Prefs {
  email: boolean;
  preferences: { kind: string; choice: string }[];
}
const choices = async (token: string) =>
  Object.fromEntries(
    (await apiCall<Prefs>('GET', '/api/users/me/mail-preferences', token)).body.preferences.map((p) => [
      p.kind,
      p.choice,
    ]),
  );

describe('email choices in My Account (issue 32)', () => {
  it('a person chooses per kind, in English and in Hindi, and the choice is kept', async () => {
    const { page } = state;
    const user = await createApprovedUser('employee');
    await signInAs(page, user, { to: '/profile' });
    await expectVisible(page.getByRole('heading', { name: 'Email', exact: true }));
    const other = page.getByRole('radiogroup', { name: 'Other letters marked to you' });
    await expectVisible(other);
    expect(await other.getByRole('radio', { name: 'In the daily digest' }).isChecked()).toBe(true);
    await expectVisible(
      page.getByText('Approval of your registration, its rejection and password reset links are always sent.'),
    );
    // The admins' kind is not offered to an employee.
    expect(await page.getByRole('radiogroup', { name: 'New registrations (administrators)' }).count()).toBe(0);
    await other.getByRole('radio', { name: 'Immediately' }).click();
    await expectVisible(page.getByText('Your email choice is saved.'));
    expect((await choices(user.token)).letter_marked).toBe('now');
    await page.getByRole('heading', { name: 'Email', exact: true }).scrollIntoViewIfNeeded();
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'mail-preferences-en');

    await switchLanguage(page, 'hi');
    await expectVisible(page.getByRole('heading', { name: 'ईमेल', exact: true }));
    const returned = page.getByRole('radiogroup', { name: 'आपको वापस भेजे गए पत्र' });
    await returned.getByRole('radio', { name: 'बंद' }).click();
    await expectVisible(page.getByText('आपकी ईमेल पसंद सहेजी गई।'));
    expect(await choices(user.token)).toMatchObject({ letter_marked: 'now', letter_returned: 'off' });
    expect(
      await page.getByRole('radiogroup', { name: 'आपको अंकित अन्य पत्र' }).getByRole('radio', { name: 'तुरंत' }).isChecked(),
    ).toBe(true);
    await checkA11y(page, { moderate: true });
    await screenshot(page, 'mail-preferences-hi');
    await switchLanguage(page, 'en');
  });
});
