import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import type { ProfileJson } from '#shared/schemas/user.ts';

import { MINIMAL_GROUP_NAMES } from '#server/demo/seed-minimal.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, signInAs, useBrowser } from './fixtures.ts';
import {
  apiAs,
  apiLogin,
  createApprovedUser,
  createPendingUser,
  registrationFor,
  signedInAdmin,
  uniquePersonName,
} from './seed.ts';

// Decision 005: a pending user is approved into a group with a role on the approval screen, edits their profile (a cadre
// change clears the designation), uploads a photo and sees it; the admin finds the approval in the activity log. Also
// the directory, a rejection told at login, and Manage Users. Selected by label, role and visible text, in English.

const browser = useBrowser();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The input with this label (a required field's label ends with ' *'). */
const field = (scope: Page | ReturnType<Page['locator']>, label: string) =>
  scope.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));
const tag = () => randomUUID().slice(0, 6);

describe('people: approval, profile, photo, activity log', () => {
  it('approves a pending user, who edits their profile and photo; the admin finds the approval in the log', async () => {
    const { page } = browser;
    const name = `Ishaan Kapoor ${tag()}`;
    const pending = await createPendingUser({
      personalDetails: { name, dob: '1992-02-20', mobile: '9811122233', address: 'Timarpur, Delhi' },
    });
    const admin = await signedInAdmin();
    const groupName = MINIMAL_GROUP_NAMES[1];

    // The admin opens Pending User Approvals: a card for the new user with what they registered, nothing made up.
    await signInAs(page, admin, { to: '/admin/approval' });
    await expectVisible(page.getByRole('heading', { name: 'Pending User Approvals', level: 1 }));
    const card = page.getByRole('article', { name });
    await expectVisible(card);
    await expectVisible(card.getByText(pending.email));
    await checkA11y(page);
    await screenshot(page, 'people-approval');

    await card.getByRole('button', { name: 'View Profile' }).click();
    const modal = page.getByRole('dialog', { name: `Profile of ${name}` });
    await expectVisible(modal.getByText('9811122233'));
    await expectVisible(modal.getByText("Scientist 'B'"));
    await checkA11y(page);
    await screenshot(page, 'people-approval-profile');
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await expectHidden(modal);

    // Group and role are both required; then the chosen role overrides the requested one and the card disappears.
    expect(await field(card, 'Lab').inputValue()).not.toBe('');
    await card.getByRole('button', { name: 'Approve User' }).click();
    await expectVisible(card.getByText('Please select a Group and a Role for the user.'));
    await field(card, 'Group').selectOption({ label: groupName });
    await field(card, 'Role').selectOption({ label: 'Associate Director' });
    await card.getByRole('button', { name: 'Approve User' }).click();
    await expectVisible(page.getByText('User approved successfully!'));
    await expectHidden(card);

    // The approved user opens My Profile.
    await signInAs(page, { ...pending, token: '' }, { to: '/profile' });
    await expectVisible(page.getByRole('heading', { name: `Welcome, ${name}!` }));
    const main = page.getByRole('main');
    await expectVisible(main.getByText('Associate Director', { exact: true }));
    await expectVisible(main.getByText(groupName, { exact: true }));
    for (const section of ['Personal Details', 'Professional Details', 'About Me', 'Employment Period']) {
      await expectVisible(page.getByRole('heading', { name: section, level: 2 }));
    }
    await checkA11y(page);
    await screenshot(page, 'people-profile');

    // Edit Profile: changing the cadre clears the designation; Save Profile keeps every section.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await field(page, 'Designation').inputValue()).toBe("Scientist 'B'");
    await field(page, 'Cadre').selectOption('DRTC');
    expect(await field(page, 'Designation').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expectVisible(page.getByText('Designation is required.'));
    await field(page, 'Designation').selectOption("Technical Officer 'A'");
    await field(page, 'Mobile').fill('98111');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expectVisible(page.getByText('Mobile number must be 10 digits.'));
    await field(page, 'Mobile').fill('9811100000');
    await field(page, 'Gender').selectOption('Male');
    await field(page, 'Blood Group').selectOption('B+');
    await field(page, 'Skills').fill(' thermal imaging ,  hazard analysis ,');
    await field(page, 'Contact Name').fill('Riya Kapoor');
    await field(page, 'About').fill('Studies smoke movement in tall buildings.');
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'people-profile-edit');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expectVisible(page.getByText('Profile updated successfully!'));
    await expectVisible(page.getByRole('button', { name: 'Edit Profile' }));
    await expectVisible(page.getByText("Technical Officer 'A'").first());
    await expectVisible(page.getByText('hazard analysis', { exact: true }));
    await expectVisible(page.getByText('Studies smoke movement in tall buildings.'));
    const saved = await apiAs(await apiLogin(pending.email, pending.password)).get<ProfileJson>(
      `/api/users/${pending.id}`,
    );
    expect(saved.body).toMatchObject({
      personalDetails: {
        mobile: '9811100000',
        gender: 'Male',
        bloodGroup: 'B+',
        emergencyContact: { name: 'Riya Kapoor' },
      },
      professionalDetails: {
        cadre: 'DRTC',
        designation: "Technical Officer 'A'",
        skills: ['thermal imaging', 'hazard analysis'],
      },
    });

    // Photo: 'Upload' appears only once a file is chosen; the new photo is shown.
    await expectHidden(page.getByRole('button', { name: 'Upload', exact: true }));
    const photo = await sharp({ create: { width: 240, height: 240, channels: 3, background: '#2d67ae' } })
      .png()
      .toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Change Photo' }).click();
    await (await chooser).setFiles({ name: 'ishaan.png', mimeType: 'image/png', buffer: photo });
    await expectVisible(page.getByText('Chosen photo: ishaan.png'));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Photo updated successfully!'));
    await expectHidden(page.getByRole('button', { name: 'Upload', exact: true }));
    const img = page.getByRole('img', { name: `Photo of ${name}` });
    await expectVisible(img);
    await page.waitForFunction(
      (alt) => {
        const el = document.querySelector<HTMLImageElement>(`img[alt="${alt}"]`);
        return Boolean(el?.src.includes('/uploads/profile-photos/') && el.complete && el.naturalWidth > 0);
      },
      `Photo of ${name}`,
      { timeout: 15_000 },
    );
    await checkA11y(page);
    await screenshot(page, 'people-profile-photo');

    // The admin finds the approval in the activity log by the user's email.
    await signInAs(page, admin, { to: '/admin/logs' });
    await expectVisible(page.getByRole('heading', { name: 'Admin Activity Logs', level: 1 }));
    await expectVisible(page.getByRole('columnheader', { name: 'Timestamp' }));
    await field(page, 'Search name, email or action').fill(pending.email);
    const approval = page.getByRole('row', {
      name: new RegExp(escapeRegExp(`Approved user ${pending.email} as associate_director in group ${groupName}`)),
    });
    await expectVisible(approval);
    await expectVisible(approval.getByRole('cell', { name: admin.email }));
    await checkA11y(page);
    await screenshot(page, 'people-logs');

    await field(page, 'Search name, email or action').fill(`nothing-like-this-${tag()}`);
    await expectVisible(page.getByText('No activity logs found matching your criteria.'));
    await checkA11y(page);
  });
});

describe('employee directory', () => {
  it('finds a colleague by name, group and role, and pages on the server', async () => {
    const { page } = browser;
    const surname = `Venkataraman${tag()}`;
    await createApprovedUser('director', undefined, {
      personalDetails: { name: `Lakshmi ${surname}`, dob: null, mobile: '', address: '' },
    });
    const viewer = await createApprovedUser('employee');
    await signInAs(page, viewer, { to: '/employees' });
    await expectVisible(page.getByRole('heading', { name: 'Employee Directory', level: 1 }));
    await expectVisible(page.getByRole('article').first());
    await field(page, 'Search by name or email').fill(surname.toLowerCase());
    const card = page.getByRole('article', { name: `Lakshmi ${surname}` });
    await expectVisible(card);
    await expectVisible(card.getByText('Director', { exact: true }));
    await expectVisible(card.getByText(MINIMAL_GROUP_NAMES[0]));
    await expectVisible(page.getByText('1 person'));
    await checkA11y(page);
    await screenshot(page, 'people-directory');

    await field(page, 'Role').selectOption({ label: 'Employee' });
    await expectVisible(page.getByText('No employees found.'));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectVisible(page.getByRole('article').first());
    await checkA11y(page);
  });
});

describe('rejection', () => {
  it('rejects a registration with a reason the person is told at login', async () => {
    const { page } = browser;
    const pending = await createPendingUser({
      personalDetails: { ...registrationFor().personalDetails, name: uniquePersonName() },
    });
    await signInAs(page, await signedInAdmin(), { to: '/admin/approval' });
    const card = page.getByRole('article', { name: pending.name, exact: true });
    await card.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: `Reject ${pending.name}` });
    await dialog.getByRole('button', { name: 'Reject User' }).click();
    await expectVisible(dialog.getByText('Please give a reason for rejecting this user.'));
    await field(dialog, 'Reason').fill('Not on the establishment roll.');
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Reject User' }).click();
    await expectVisible(page.getByText('User rejected.'));
    await expectHidden(card);

    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    await field(page, 'Email').fill(pending.email);
    await field(page, 'Password').fill(pending.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectVisible(page.getByText('Your registration was not approved. Reason: Not on the establishment roll.'));
  });
});

describe('Manage Users (lab admin panel)', () => {
  it('changes role and group, keeps a document on the record, and deactivates and reactivates an account', async () => {
    const { page } = browser;
    const person = await createApprovedUser('employee', undefined, {
      personalDetails: { name: `Meera Pillai ${tag()}`, dob: null, mobile: '', address: '' },
    });
    await signInAs(page, await signedInAdmin(), { to: '/admin/manage' });
    await expectVisible(page.getByRole('heading', { name: 'Manage Users', level: 1 }));
    await field(page, 'Search by name or email').fill(person.email);
    const row = page.getByRole('row', { name: new RegExp(escapeRegExp(person.email)) });
    await expectVisible(row);
    await checkA11y(page);
    await screenshot(page, 'people-manage-users');

    // Role and group.
    await row.getByRole('button', { name: `Actions for ${person.name}` }).click();
    await page.getByRole('menuitem', { name: 'Change Role & Group' }).click();
    const access = page.getByRole('dialog', { name: `Role and group of ${person.name}` });
    await field(access, 'Role').selectOption({ label: 'Director' });
    await field(access, 'Group').selectOption({ label: MINIMAL_GROUP_NAMES[1] });
    await checkA11y(page);
    await access.getByRole('button', { name: 'Save' }).click();
    await expectVisible(page.getByText('User updated successfully!'));
    await expectVisible(row.getByRole('cell', { name: 'Director', exact: true }));
    await expectVisible(row.getByRole('cell', { name: MINIMAL_GROUP_NAMES[1], exact: true }));

    // A document on the record, which the person can open from their profile.
    await row.getByRole('button', { name: `Actions for ${person.name}` }).click();
    await page.getByRole('menuitem', { name: 'Documents' }).click();
    const documents = page.getByRole('dialog', { name: `Documents of ${person.name}` });
    await expectVisible(documents.getByText('No documents on this record.'));
    await documents.getByRole('button', { name: 'Upload' }).click();
    await expectVisible(documents.getByText('Please select a file to upload.'));
    const chooser = page.waitForEvent('filechooser');
    await field(documents, 'Document').click();
    await (
      await chooser
    ).setFiles({ name: 'service-record.pdf', mimeType: 'application/pdf', buffer: SAMPLE_FILES.pdf });
    await documents.getByRole('button', { name: 'Upload' }).click();
    await expectVisible(page.getByText('Document uploaded.'));
    await expectVisible(documents.getByRole('link', { name: /service-record\.pdf/ }));
    await checkA11y(page);
    await screenshot(page, 'people-manage-documents');
    await documents.getByRole('button', { name: 'Close' }).last().click();
    await expectVisible(row.getByRole('button', { name: '1 document' }));

    // Deactivated: the person cannot log in; reactivated: they can again.
    await row.getByRole('button', { name: `Actions for ${person.name}` }).click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    const deactivate = page.getByRole('dialog', { name: `Deactivate ${person.name}` });
    await field(deactivate, 'Reason (optional)').fill('Transferred to another lab.');
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await expectVisible(page.getByText('User deactivated.'));
    await expectVisible(row.getByText('Deactivated', { exact: true }));
    await expect(apiLogin(person.email, person.password)).rejects.toThrow(/deactivated/);

    await row.getByRole('button', { name: `Actions for ${person.name}` }).click();
    await page.getByRole('menuitem', { name: 'Reactivate' }).click();
    await expectVisible(page.getByText('User reactivated.'));
    await expectVisible(row.getByText('Active', { exact: true }));
    const back = await apiLogin(person.email, person.password);
    expect(back.user).toMatchObject({ role: 'director', group: { name: MINIMAL_GROUP_NAMES[1] } });
    await checkA11y(page);
  });
});
