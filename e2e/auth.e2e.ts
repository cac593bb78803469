import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { UserJson } from '#shared/schemas/user.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, approveUser, createApprovedUser, signedInAdmin } from './seed.ts';

// Register → pending → admin approves → sign in → sign out, the guards, and the register and login
// messages of spec §5 and §8. Selected by label, role and visible text, in English.

const browser = useBrowser();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The input with this label (a required field's label ends with ' *'). */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));

/** Types a date the Indian way into a date field and closes its calendar. */
async function fillDate(page: Page, label: string, text: string) {
  await field(page, label).fill(text);
  await field(page, label).press('Escape');
}

async function fillLogin(page: Page, email: string, password: string) {
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** The main navigation of the wide layout. */
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

describe('register, wait for approval, sign in, sign out', () => {
  it('takes a new member of staff from registration to signing out', async () => {
    const { page } = browser;
    const email = `new.scientist-${randomUUID().slice(0, 8)}@lab.test`;
    const password = 'fire-safety-1';

    // A visitor registers with every field of the form.
    await page.goto('/register');
    await expectVisible(page.getByRole('heading', { name: 'Register New User' }));
    await checkA11y(page);
    await screenshot(page, 'register');

    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill(password);
    await field(page, 'Role').selectOption({ label: 'Employee' });
    await field(page, 'About').fill('Works on fire-retardant coatings for naval interiors.');
    await field(page, 'Name').fill('Kavya Raghavan');
    await fillDate(page, 'Date of Birth', '15 Aug 1991');
    await field(page, 'Mobile').fill('9876501234');
    await field(page, 'Address').fill('12, Probyn Road, Timarpur, Delhi 110054');
    await field(page, 'Cadre').selectOption('DRDS');
    await field(page, 'Designation').selectOption("Scientist 'C'");
    await field(page, 'Intercom').fill('4251');
    await field(page, 'Internet Email').fill('kavya.raghavan@lab.example.in');
    await field(page, 'DRONA Email').fill('kavya.raghavan@drona.lab.local');
    await field(page, 'PIS').fill('800777');
    await field(page, 'AEBAS ID').fill('71009999');
    await fillDate(page, 'From', '01 Jul 2019');
    await fillDate(page, 'To', '31 Aug 2049');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expectVisible(page.getByText('User saved successfully!'));
    await checkA11y(page);

    // Every field reached the server.
    const admin = await signedInAdmin();
    const pending = await apiAs(admin).get<UserJson[]>('/admin/pending-users?limit=100');
    const registered = pending.body.find((u) => u.email === email);
    expect(registered).toMatchObject({
      role: 'employee',
      status: 'pending',
      about: 'Works on fire-retardant coatings for naval interiors.',
      personalDetails: {
        name: 'Kavya Raghavan',
        dob: '1991-08-15',
        mobile: '9876501234',
        address: '12, Probyn Road, Timarpur, Delhi 110054',
      },
      professionalDetails: {
        cadre: 'DRDS',
        designation: "Scientist 'C'",
        intercom: '4251',
        internetEmail: 'kavya.raghavan@lab.example.in',
        dronaEmail: 'kavya.raghavan@drona.lab.local',
        pis: '800777',
        aebasId: '71009999',
      },
      employmentPeriod: { from: '2019-07-01', to: '2049-08-31' },
    });

    // Signing in before approval lands on /pending-approval.
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Login' }));
    await checkA11y(page);
    await screenshot(page, 'login');
    await fillLogin(page, email, password);
    await expectPath(page, '/pending-approval');
    await expectVisible(page.getByRole('heading', { name: 'Awaiting Admin Approval' }));
    await checkA11y(page);
    await screenshot(page, 'pending-approval');

    // The admin approves (the approval screen comes with a later issue).
    await approveUser(registered!._id, 'employee');

    // Now the sign-in goes home, with the signed-in navigation.
    await page.goto('/login');
    await fillLogin(page, email, password);
    await expectPath(page, '/');
    await expectVisible(page.getByText('Login successful!'));
    await page.getByRole('button', { name: 'Close notification' }).first().click();
    await expectHidden(page.getByText('Login successful!'));
    const nav = mainNav(page);
    await expectVisible(nav.getByRole('button', { name: 'My Account' }));
    await expectVisible(nav.getByRole('button', { name: 'Groups' }));
    await expectVisible(nav.getByRole('link', { name: 'Close Group Docs' }));
    await expectHidden(nav.getByRole('link', { name: 'Login', exact: true }));
    await checkA11y(page);
    await screenshot(page, 'home');

    // Sign out from My Account: back on /login, signed out.
    await nav.getByRole('button', { name: 'My Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expectPath(page, '/login');
    await expectVisible(mainNav(page).getByRole('link', { name: 'Login', exact: true }));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await checkA11y(page);
  });
});

describe('guards', () => {
  it('sends a signed-out visitor who opens /dac to /login', async () => {
    const { page } = browser;
    await page.goto('/dac');
    await expectPath(page, '/login');
    await expectVisible(page.getByRole('heading', { name: 'Login' }));
    await checkA11y(page);
  });

  it('sends a signed-in employee who opens /admin/logs to /', async () => {
    const { page } = browser;
    const employee = await createApprovedUser('employee');
    await signInAs(page, employee, { to: '/admin/logs' });
    await expectPath(page, '/');
    await expectVisible(mainNav(page).getByRole('button', { name: 'My Account' }));
    await checkA11y(page);
  });
});

describe('register and login messages (spec §5, §8)', () => {
  it('says what is missing or wrong before anything is sent', async () => {
    const { page } = browser;
    await page.goto('/register');
    const register = page.getByRole('button', { name: 'Register', exact: true });

    await register.click();
    await expectVisible(page.getByText('Email is required.'));
    await expectVisible(page.getByText('Password is required.'));
    await expectVisible(page.getByText('Name is required.'));
    await checkA11y(page);

    await field(page, 'Email').fill('not-an-email');
    await field(page, 'Password').fill('12345');
    await field(page, 'Name').fill('Arjun Mehta');
    await field(page, 'Mobile').fill('98765');
    await field(page, 'Cadre').selectOption('DRTC');
    await register.click();
    await expectVisible(page.getByText('Invalid email address.'));
    await expectVisible(page.getByText('Password must be at least 6 characters.'));
    await expectVisible(page.getByText('Mobile number must be 10 digits.'));
    await expectVisible(page.getByText('Designation is required.'));

    // Changing the cadre clears the designation; for Other it is free text and must not be blank.
    await field(page, 'Designation').selectOption("Technical Officer 'A'");
    await field(page, 'Cadre').selectOption('Other');
    expect(await field(page, 'Designation').inputValue()).toBe('');
    await field(page, 'Designation').fill('   ');
    await register.click();
    await expectVisible(page.getByText('Designation is required.'));
    await checkA11y(page);
  });

  it("shows 'Email ID is already registered.' for an email that is taken", async () => {
    const { page } = browser;
    const taken = await createApprovedUser('employee');
    await page.goto('/register');
    await field(page, 'Email').fill(taken.email.toUpperCase());
    await field(page, 'Password').fill('another-password');
    await field(page, 'Name').fill('Someone Else');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expectVisible(page.getByText('Email ID is already registered.'));
    await checkA11y(page);
  });

  it('asks for email and password, and shows the server message for a wrong password', async () => {
    const { page } = browser;
    const user = await createApprovedUser('employee');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectVisible(page.getByText('Email is required.'));
    await expectVisible(page.getByText('Password is required.'));

    await fillLogin(page, user.email, 'wrong-password');
    await expectVisible(page.getByText('Invalid email or password.'));
    await expectPath(page, '/login');
    await checkA11y(page);
  });
});
