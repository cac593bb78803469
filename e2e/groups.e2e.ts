import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { GroupJson, GroupNameJson } from '#shared/schemas/group.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, groupIds, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, createApprovedUser, signedInAdmin } from './seed.ts';

// Decision 006: research groups. An admin creates a group with employees; a member opens the group page and its ten
// tabs and My Group; an outsider sees Access Denied; the admin fills the group through the admin panel (associate
// director, notice, project file, office member), the member sees it all, and the admin moves a member to another
// group. Selected by label, role and visible text, in English.

const browser = useBrowser();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The input with this label (a required field's label ends with ' *'). */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*)?$`));
const toast = (page: Page, text: string) => expectVisible(page.getByText(text, { exact: true }));
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const ACCESS_DENIED = 'Access Denied. You are not authorized to view this group. You are not a member of this group.';
const OTHER_GROUP = 'Explosives Safety Group'; // seeded by the e2e global setup (groupIds[1])

/** An approved employee with a recognisable name, signed in through the API. */
function employee(name: string, groupId = groupIds[1]!) {
  return createApprovedUser('employee', groupId, {
    personalDetails: { name, dob: '1990-05-14', mobile: '9876543210', address: 'Delhi' },
  });
}

async function chooseFile(page: Page, label: string, name: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: PDF });
  // The form with its file chosen, its clear button shown: axe down to moderate findings (decision 018).
  await expectVisible(page.getByRole('button', { name: 'Remove the chosen file' }));
  await checkA11y(page, { moderate: true });
}

async function openSection(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Group administration sections' })
    .getByRole('button', { name, exact: true })
    .click();
  await expectVisible(page.getByRole('heading', { name, level: 2 }));
}

describe('Research groups', () => {
  it('admin creates a group with employees; a member opens its page, tabs and My Group; an outsider sees Access Denied', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const [first, second, outsider] = await Promise.all([
      employee(`Ishaan Grover ${tag}`),
      employee(`Tara Kulkarni ${tag}`),
      employee(`Owen Outsider ${tag}`),
    ]);
    const groupName = `Thermal Hazards Group ${tag}`;
    const admin = await signedInAdmin();

    // The admin creates the group and assigns two employees found with the filter.
    await signInAs(page, admin, { to: '/admin/add-groups' });
    await expectVisible(page.getByRole('heading', { name: 'Create New Research Group' }));
    await expectVisible(page.getByText('Assign Employees to Group'));
    await page.getByRole('button', { name: 'Create Group' }).click();
    await expectVisible(page.getByText('Group name is required'));
    await field(page, 'Name').fill(groupName);
    await field(page, 'Description').fill('Studies heat release and thermal runaway in stored energetics.');
    await field(page, 'Vision').fill('No thermal surprise in any magazine.');
    await field(page, 'Mission').fill('Measure, model and advise on thermal hazards.');
    await field(page, 'About').fill('Set up in 2012 with a cone calorimeter.\nNow runs three test cells.');
    await field(page, 'Filter employees').fill(tag);
    await expectVisible(page.getByRole('checkbox', { name: first.name }));
    await expectHidden(page.getByRole('checkbox', { name: 'Admin' }));
    await page.getByRole('checkbox', { name: first.name }).check();
    await page.getByRole('checkbox', { name: second.name }).check();
    await expectVisible(page.getByText('2 employees selected'));
    await checkA11y(page);
    await screenshot(page, 'group-create');
    await page.getByRole('button', { name: 'Create Group' }).click();
    await toast(page, 'Group created successfully!');
    await expectPath(page, '/');

    const names = await apiAs(admin).get<GroupNameJson[]>('/api/groups/name');
    const groupId = names.body.find((g) => g.name === groupName)!._id;
    expect(groupId).toBeTruthy();

    // A member opens the group page: the ten tabs, with their texts and empty states.
    await signInAs(page, first, { to: `/group/id/${groupId}` });
    await expectVisible(page.getByRole('heading', { name: groupName, level: 1 }));
    await expectVisible(page.getByText('Set up in 2012 with a cone calorimeter.'));
    const tabs: [string, string][] = [
      ['Vision and Mission', 'No thermal surprise in any magazine.'],
      ['Group Leader Profile', 'No information provided yet.'],
      ['O/o Group Leader', 'No group leader office data available.'],
      ['Role & Honour', 'No data available'],
      ['Group History', 'No group history available.'],
      ['Members', second.name],
      ['Notices & Circular', 'No notices found for this group.'],
      ['Product & Advertisement', 'No projects found.'],
      ['Contact Us', 'No contact information available.'],
      ['About Group', 'Now runs three test cells.'],
    ];
    for (const [name, text] of tabs) {
      await tab(page, name).click();
      await expectVisible(page.getByRole('heading', { name, level: 2 }));
      await expectVisible(page.getByText(text, { exact: true }));
      if (name === 'Members') {
        await checkA11y(page);
        await screenshot(page, 'group-page-members');
      }
    }
    await checkA11y(page);
    await screenshot(page, 'group-page');

    // My Group: the group's name, description and members with their emails.
    await page.goto('/my-group');
    await expectVisible(page.getByRole('heading', { name: groupName, level: 1 }));
    await expectVisible(page.getByText(second.email));
    await checkA11y(page);
    await screenshot(page, 'my-group');

    // An outsider is refused, with the spec's words.
    await signInAs(page, outsider, { to: `/group/id/${groupId}` });
    await expectVisible(page.getByText(ACCESS_DENIED));
    await checkA11y(page);
    await screenshot(page, 'group-access-denied');
  });

  it('admin adds an associate director, a notice, a project file and an office member; the member sees them; admin moves a member', async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const [member, mover] = await Promise.all([employee(`Meera Joshi ${tag}`), employee(`Rohan Nair ${tag}`)]);
    const admin = await signedInAdmin();
    const created = await apiAs(admin).post<GroupJson>('/api/groups', {
      name: `Smoke Toxicity Group ${tag}`,
      description: 'Measures toxic gases in fire smoke.',
      employees: [member.id, mover.id],
    });
    expect(created.status).toBe(201);
    const group = created.body;

    await signInAs(page, admin, { to: `/admin/group/${group._id}` });
    await expectVisible(page.getByRole('heading', { name: 'Group Admin Panel', level: 1 }));
    await expectVisible(page.getByRole('heading', { name: 'Manage Groups', level: 2 }));
    await expectVisible(field(page, 'Name'));
    await checkA11y(page);
    await screenshot(page, 'group-admin-info');

    // Manage AssociateDirectors: a manual name, from date, blank designation (Assistant Director).
    await openSection(page, 'Manage AssociateDirectors');
    await field(page, 'Name').fill('Dr. Kavita Rao');
    await field(page, 'From').fill('2024-04-01');
    await field(page, 'About').fill('Leads the smoke toxicity work since 2024.');
    await page.getByRole('button', { name: 'Add Entry' }).click();
    await toast(page, 'Entry saved.');
    await expectVisible(page.getByRole('cell', { name: /Dr\. Kavita Rao/ }));
    await expectVisible(page.getByText('Current', { exact: true }));
    await checkA11y(page);
    await screenshot(page, 'group-admin-directors');

    // Manage Group Notices & Circulars: a notice with a PDF.
    await openSection(page, 'Manage Group Notices & Circulars');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectVisible(page.getByText('All fields are required').first());
    await field(page, 'Name').fill('Respirator fit test');
    await field(page, 'Description').fill('All members: fit test on Monday, 10 am.');
    await chooseFile(page, 'File', 'fit-test.pdf');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Saved successfully.');
    await expectVisible(page.getByRole('cell', { name: /Respirator fit test/ }));
    // A second notice whose 'valid until' (typed the Indian way) has passed: archived, and in the Archive.
    await field(page, 'Name').fill('Evacuation drill 2024');
    await field(page, 'Description').fill('Drill of the east wing.');
    const validUntil = page.getByRole('textbox', { name: 'Valid until', exact: true });
    await validUntil.fill('15/01/2024');
    await validUntil.press('Tab');
    expect(await validUntil.inputValue()).toBe('15 Jan 2024');
    await chooseFile(page, 'File', 'drill.pdf');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Saved successfully.');
    await expectVisible(page.getByRole('cell', { name: '15 Jan 2024', exact: true }));
    await checkA11y(page, { moderate: true });

    // Manage Group Products & Achievements: a project with a PDF.
    await openSection(page, 'Manage Group Products & Achievements');
    await expectVisible(tab(page, 'Publications'));
    await field(page, 'Name').fill('Cone calorimeter study');
    await field(page, 'Description').fill('CO and HCN yields of cable insulation.');
    await chooseFile(page, 'File', 'cone-study.pdf');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Saved successfully.');
    await expectVisible(page.getByRole('cell', { name: /Cone calorimeter study/ }));
    await checkA11y(page);
    await screenshot(page, 'group-admin-files');

    // ManageOffice: name and designation required.
    await openSection(page, 'ManageOffice');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await expectVisible(page.getByText('Name is required.'));
    await field(page, 'Name').fill('Sunil Verma');
    await field(page, 'Designation').fill('Technical Officer');
    await field(page, 'Contact Number').fill('011-2390 7123');
    await field(page, 'Email').fill('sunil.verma@lab.test');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await toast(page, 'Office member saved.');
    await expectVisible(page.getByRole('cell', { name: 'Sunil Verma' }));

    // The member sees all four on the group page, and may open the project's file.
    await signInAs(page, member, { via: 'ui', to: `/group/id/${group._id}` });
    await expectVisible(page.getByRole('heading', { name: group.name, level: 1 }));
    await tab(page, 'Group Leader Profile').click();
    await expectVisible(page.getByRole('heading', { name: 'Dr. Kavita Rao' }));
    await expectVisible(page.getByText('Assistant Director', { exact: true }));
    await tab(page, 'Role & Honour').click();
    await expectVisible(page.getByText('Present', { exact: true }));
    await tab(page, 'Notices & Circular').click();
    await expectVisible(page.getByRole('link', { name: /Respirator fit test/ }));
    const drill = page.getByRole('listitem').filter({ hasText: 'Evacuation drill 2024' });
    await expectVisible(drill.getByText('Archived', { exact: true }));
    await expectVisible(drill.getByText(/valid until 15 Jan 2024/));
    await tab(page, 'O/o Group Leader').click();
    await expectVisible(page.getByRole('cell', { name: 'Sunil Verma' }));
    await tab(page, 'Product & Advertisement').click();
    const project = page.getByRole('link', { name: /Cone calorimeter study/ });
    await expectVisible(project);
    const href = await project.getAttribute('href');
    expect(href).toMatch(/^\/uploads\/group-files\/[0-9a-f-]{36}$/);
    const download = await page.context().request.get(href!);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-disposition']).toContain('cone-study.pdf');
    await checkA11y(page);
    await screenshot(page, 'group-page-products');
    // The Archive lists the group's expired notice to its member, under its year.
    await page.goto('/archive');
    const archived = page
      .getByRole('region', { name: /^2024 / })
      .getByRole('listitem')
      .filter({ hasText: 'Evacuation drill 2024' });
    await expectVisible(archived.getByText(new RegExp(`Group: ${escapeRegExp(group.name)}`)));
    await expectVisible(archived.getByText(/Valid until 15 Jan 2024/));

    // Manage Members: the admin moves Rohan to the other group.
    await signInAs(page, admin, { to: `/admin/group/${group._id}` });
    await openSection(page, 'Manage Members');
    const moverItem = page.getByRole('listitem').filter({ hasText: mover.name });
    await expectVisible(moverItem);
    await checkA11y(page);
    await screenshot(page, 'group-admin-members');
    await page.getByRole('combobox', { name: `Move ${mover.name} to` }).click();
    await page.getByRole('option', { name: OTHER_GROUP }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: mover.name })
      .getByRole('button', { name: 'Move', exact: true })
      .click();
    await toast(page, `${mover.name} moved to ${OTHER_GROUP}.`);
    await expectHidden(moverItem);

    // Rohan's My Group is now the other group; the old group's page refuses him.
    await signInAs(page, mover, { to: '/my-group' });
    await expectVisible(page.getByRole('heading', { name: OTHER_GROUP, level: 1 }));
    await page.goto(`/group/id/${group._id}`);
    await expectVisible(page.getByText(ACCESS_DENIED));
  });

  it("the group's associate director edits it and returns to the group page; the page reads in Hindi too", async () => {
    const { page } = browser;
    const tag = randomUUID().slice(0, 6);
    const lead = await createApprovedUser('associate_director', groupIds[1], {
      personalDetails: { name: `Anjali Deshpande ${tag}`, dob: '1980-02-01', mobile: '9876543210', address: 'Delhi' },
    });
    const admin = await signedInAdmin();
    const created = await apiAs(admin).post<GroupJson>('/api/groups', {
      name: `Blast Effects Group ${tag}`,
      description: 'Blast waves and structures.',
      employees: [lead.id],
    });
    const group = created.body;
    const entry = new FormData();
    entry.set('user', lead.id);
    entry.set('from', '2025-01-01');
    expect((await apiAs(admin).post(`/api/groups/${group._id}/assistant-director-history`, entry)).status).toBe(201);

    await signInAs(page, lead, { to: `/group/id/${group._id}` });
    await page.getByRole('link', { name: 'Edit Group' }).click();
    await expectPath(page, `/groups/${group._id}/edit`);
    await expectVisible(page.getByRole('heading', { name: `Edit Group: ${group.name}`, level: 1 }));
    await expectVisible(tab(page, 'Manage Group Notices & Circulars'));
    await field(page, 'Description').fill('Blast waves, fragments and protective structures.');
    await field(page, 'Group History').fill('Formed in 1998 from the ballistics wing.');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await field(page, 'Value').fill('blast@lab.test');
    await checkA11y(page);
    await screenshot(page, 'group-edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Group updated successfully!');
    await expectPath(page, `/group/id/${group._id}`);
    await expectVisible(page.getByText('Blast waves, fragments and protective structures.').first());
    await tab(page, 'Contact Us').click();
    await expectVisible(page.getByRole('link', { name: 'blast@lab.test' }));
    await tab(page, 'Group Leader Profile').click();
    await expectVisible(page.getByRole('heading', { name: lead.name }));

    // The same page in Hindi.
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expectVisible(page.getByRole('tab', { name: 'समूह के बारे में' }));
    await expectVisible(page.getByRole('tab', { name: 'संपर्क करें' }));
    await checkA11y(page);
    await screenshot(page, 'group-page-hindi');
    await page.getByRole('button', { name: 'English' }).click();
    await expectVisible(tab(page, 'About Group'));
  });
});
