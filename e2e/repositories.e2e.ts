import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

import { storedZip } from '#server/lib/zip.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectVisible, groupIds, signInAs, useBrowser } from './fixtures.ts';
import { createApprovedUser, type SeededUser } from './seed.ts';

// Decision 008: an associate director uploads a software repository with metadata and a trial repository with a ZIP; a
// member of that group sees the trial repository and downloads it; a member of another group does not see it; a
// director sees both. By label, role and visible text, in English.

const browser = useBrowser();
const tag = randomUUID().slice(0, 6);
const TRIAL_TYPE = `Blast chamber run ${tag}`;
const GITHUB_URL = `https://github.com/lab/fire-sim-${tag}`;

/** A small ZIP (one stored entry), named for the journey. */
const zipFile = (name: string) => ({
  name,
  mimeType: 'application/zip',
  buffer: storedZip([{ name: 'data.txt', text: 'hello' }]),
});

async function chooseFile(page: Page, label: string, file: ReturnType<typeof zipFile>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles(file);
  // The form with its file chosen, its clear button shown: axe down to moderate findings (decision 018).
  await expectVisible(page.getByRole('button', { name: 'Remove the chosen file' }));
  await checkA11y(page, { moderate: true });
}

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Waits for a repository list to finish loading. */
const listLoaded = (page: Page, loading: string) => expectHidden(page.getByText(loading));

let associateDirector: SeededUser;
let member: SeededUser;
let outsider: SeededUser;
let director: SeededUser;

beforeAll(async () => {
  [associateDirector, member, outsider, director] = await Promise.all([
    createApprovedUser('associate_director', groupIds[0]),
    createApprovedUser('employee', groupIds[0]),
    createApprovedUser('employee', groupIds[1]),
    createApprovedUser('director', groupIds[1]),
  ]);
});

describe('software and trial repositories', () => {
  it('an associate director uploads a software repository with metadata and a trial repository with a ZIP', async () => {
    const { page } = browser;
    await signInAs(page, associateDirector, { to: '/upload-repo' });
    await expectVisible(page.getByRole('heading', { name: 'Upload Software Repository' }));

    // Nothing chosen: the spec's words (the group is already the associate director's own).
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Please select both a Group and a Type.'));
    await pickOption(page, 'Type', 'ZIP File');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Please provide either a file, a GitHub URL, or a Cloned Repository Path.'));
    await page.getByLabel('Metadata').fill('{"version": "1.0",');
    await page.getByLabel('GitHub URL').fill(GITHUB_URL);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Invalid JSON format for metadata. Please check your input.'));
    await checkA11y(page);

    await page.getByLabel('Metadata').fill(`{"version": "1.0", "tag": "${tag}"}`);
    await page.getByLabel('Cloned Repository Path').fill('/srv/git/fire-sim');
    await chooseFile(page, 'File', zipFile(`fire-sim-${tag}.zip`));
    await expectVisible(page.getByText(`Selected file: fire-sim-${tag}.zip`));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Software repository uploaded successfully!'));
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'upload-repo');

    await page.goto('/upload-trialRepo');
    await expectVisible(page.getByRole('heading', { name: 'Upload Trial Repository' }));
    await page.getByRole('textbox', { name: 'Type', exact: true }).fill(TRIAL_TYPE);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Please fill in all required fields (Group, Type, and upload a File).'));
    await page.getByLabel('GitHub URL').fill(GITHUB_URL);
    await page.getByLabel('Size (KB)').fill('2048');
    await page.getByLabel('Duration (minutes)').fill('15');
    await page.getByLabel('Languages Used (comma separated)').fill(' C, Python,, MATLAB ');
    await chooseFile(page, 'File', zipFile(`trial-${tag}.zip`));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectVisible(page.getByText('Trial repository uploaded successfully!'));
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'upload-trial-repo');
  });

  it('a member of that group sees the trial repository and downloads its file', async () => {
    const { page } = browser;
    // Through the login form, so the browser also holds the download cookie, as a real visit does.
    await signInAs(page, member, { via: 'ui', to: '/view-trialRepo' });
    await expectVisible(page.getByRole('heading', { name: 'My Group Trial Repositories' }));
    await listLoaded(page, 'Loading trial repositories...');
    const card = page.getByRole('article').filter({ hasText: TRIAL_TYPE });
    await expectVisible(card);
    await expectVisible(card.getByText('C, Python, MATLAB'));
    await expectVisible(card.getByText(associateDirector.name));
    await expectVisible(card.getByRole('link', { name: GITHUB_URL }));
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'view-trial-repo');

    const download = page.waitForEvent('download');
    await card.getByRole('link', { name: /^Download File/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`trial-${tag}.zip`);
    expect(readFileSync((await file.path())!).equals(zipFile('x').buffer)).toBe(true);
  });

  it('a member of another group does not see it', async () => {
    const { page } = browser;
    await signInAs(page, outsider, { to: '/view-trialRepo' });
    await expectVisible(page.getByRole('heading', { name: 'My Group Trial Repositories' }));
    await listLoaded(page, 'Loading trial repositories...');
    expect(await page.getByText(TRIAL_TYPE).count()).toBe(0);
    await page.goto('/view-repo');
    await listLoaded(page, 'Loading software repositories...');
    expect(await page.getByText(GITHUB_URL).count()).toBe(0);
  });

  it('a director sees both, the metadata as formatted JSON', async () => {
    const { page } = browser;
    await signInAs(page, director, { to: '/view-repo' });
    await expectVisible(page.getByRole('heading', { name: 'Software Repositories' }));
    await listLoaded(page, 'Loading software repositories...');
    const software = page.getByRole('article').filter({ hasText: GITHUB_URL });
    await expectVisible(software);
    await expectVisible(software.getByText(`"tag": "${tag}"`));
    await expectVisible(software.getByText(`fire-sim-${tag}.zip`));
    await expectVisible(software.getByRole('link', { name: /^Download File/ }));
    await checkA11y(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'view-repo');

    await page.goto('/view-trialRepo');
    await expectVisible(page.getByRole('heading', { name: 'All Trial Repositories' }));
    await listLoaded(page, 'Loading trial repositories...');
    await expectVisible(page.getByRole('article').filter({ hasText: TRIAL_TYPE }));
  });
});
