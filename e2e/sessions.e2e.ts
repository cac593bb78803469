import { describe, expect, it } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectPath, expectVisible, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, apiLogin, createApprovedUser } from './seed.ts';

// Decision 047: sign-out ends the session on the server, and the profile offers "Sign out of all devices".

const browser = useBrowser();

describe('sessions end on the server', () => {
  it('signs out of all devices from the profile: the other device is signed out too', async () => {
    const { page } = browser;
    const person = await createApprovedUser('employee');
    const otherDevice = await apiLogin(person.email, person.password);
    expect((await apiAs(otherDevice).get('/api/auth/me')).status).toBe(200);

    await signInAs(page, person, { to: '/profile' });
    await expectVisible(page.getByRole('heading', { name: 'Sign out of all devices' }));
    await checkA11y(page);
    await screenshot(page, 'sessions-profile');
    // The same section in Hindi.
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByRole('button', { name: 'सभी उपकरणों से साइन आउट करें' }));
    await checkA11y(page);
    await screenshot(page, 'sessions-profile-hi');
    await page.getByRole('button', { name: 'English' }).click();

    await page.getByRole('button', { name: 'Sign out of all devices' }).click();
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const other = await apiAs(otherDevice).get('/api/auth/me');
    expect(other.status).toBe(401);
  });

  it('signing out from the menu ends that token on the server', async () => {
    const { page } = browser;
    const person = await createApprovedUser('employee');
    await signInAs(page, person, { to: '/profile' });
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: /my account/i }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expectPath(page, '/login');
    await expect.poll(async () => (await apiAs({ token: token! }).get('/api/auth/me')).status).toBe(401);
  });
});
