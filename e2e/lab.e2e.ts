import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import type { LabJson } from '#shared/schemas/lab.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { baseURL, expectVisible, groupIds, labId, signInAs, useBrowser } from './fixtures.ts';
import { apiAs, signedInAdmin } from './seed.ts';

// Decision 010: lab information. An admin fills the lab's information, adds directors (one with history), a notice with a
// PDF and photos; a visitor sees them on the home tabs, in the gallery carousel (past the first page of 3) and in the
// News Flash, and the PDF opens. Selected by label, role and visible text, in English.

const browser = useBrowser();

const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * A camera-sized photo (2400 x 1600 JPEG): a sky-to-ground gradient with a building outline, and grain so it does not
 * compress away, as a real photo would not.
 */
async function photo(hue: string): Promise<Buffer> {
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#bcd8f0"/><stop offset="0.62" stop-color="${hue}"/><stop offset="1" stop-color="#3d5a2a"/>
      </linearGradient></defs>
      <rect width="2400" height="1600" fill="url(#g)"/>
      <rect x="700" y="620" width="1000" height="520" fill="#e8e1d4" stroke="#5b4a3a" stroke-width="12"/>
      <polygon points="640,640 1200,360 1760,640" fill="#9c3b2e"/>
      ${Array.from({ length: 8 }, (_, i) => `<rect x="${760 + i * 118}" y="720" width="70" height="110" fill="#35506b"/>`).join('')}
      <rect x="1130" y="900" width="140" height="240" fill="#5b4a3a"/>
    </svg>`,
  );
  const grain = await sharp({
    create: {
      width: 2400,
      height: 1600,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 18 },
    },
  })
    .png()
    .toBuffer();
  return sharp(scene)
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The input labelled `label` (a required field's label ends with ' *'). */
const labelled = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
const field = (page: Page, label: string) => page.getByLabel(labelled(label));

async function chooseFile(page: Page, label: string, name: string, mimeType: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles({ name, mimeType, buffer });
  // The form with its file chosen, its clear button shown: axe down to moderate findings (decision 018).
  await expectVisible(page.getByRole('button', { name: 'Remove the chosen file' }));
  await checkA11y(page, { moderate: true });
}

async function typeDate(page: Page, label: string, value: string) {
  await field(page, label).fill(value);
  await field(page, label).press('Tab'); // the date input reads what was typed on blur
}

const toast = (page: Page, text: string) => expectVisible(page.getByText(text, { exact: true }));

describe('Lab information', () => {
  it(
    'an admin fills the lab, directors, a notice and photos; a visitor sees them on the home page',
    { timeout: 240_000 },
    async () => {
      const { page, context } = browser;
      const tag = randomUUID().slice(0, 6);
      const admin = await signedInAdmin();
      const labName = `Centre for Fire, Explosive and Environment Safety ${tag}`;

      // Add Lab: the one lab exists already (seeded), so the page says so and leads to Manage Labs.
      await signInAs(page, admin, { to: '/admin/add-labs' });
      await expectVisible(page.getByRole('heading', { name: 'Add New Lab Information', level: 1 }));
      await expectVisible(page.getByText('The lab already exists.', { exact: false }));
      await page.getByRole('link', { name: 'Go to Manage Labs' }).click();

      // Manage Labs: Update Lab Information, with a contact and a member of the director's office.
      await expectVisible(page.getByRole('heading', { name: 'Update Lab Information', level: 1 }));
      const menu = page.getByRole('navigation', { name: 'Lab Admin Panel' });
      for (const entry of [
        'Manage Labs',
        'Manage Directors',
        'Manage Notices & Circulars',
        'Manage Products & Achievements',
        'Manage Users',
      ])
        await expectVisible(menu.getByRole('link', { name: entry }));
      await field(page, 'Lab Name').fill('');
      await page.getByRole('button', { name: 'Update Lab Information' }).click();
      await expectVisible(page.getByText('Lab name is required', { exact: true }));
      await field(page, 'Lab Name').fill(labName);
      await field(page, 'Domain').fill('Fire, explosive and environment safety');
      await field(page, 'Vision').fill('A nation safe from fire and explosive hazards.');
      await field(page, 'Mission').fill('Research, test and train for fire and explosive safety.');
      await field(page, 'About').fill(
        `Founded for safety research ${tag}. It tests materials.\nIt trains fire officers.`,
      );
      await field(page, 'Lab History').fill('Set up in 1950 at Timarpur. Renamed in 1992.');
      await page.getByRole('button', { name: 'Add contact' }).click();
      await field(page, 'Label (optional)').fill('Reception');
      await field(page, 'Value').fill('011-2390 7000');
      await page.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'Phone' }).click();
      await page.getByRole('button', { name: 'Add office member' }).click();
      const office = page.getByRole('group', { name: 'O/o Director' });
      await office.getByLabel(labelled('Name')).fill(`R. Sharma ${tag}`);
      await office.getByLabel(labelled('Designation')).fill('PS to Director');
      await office.getByLabel(labelled('Email')).fill('ps.director@lab.test');
      await page.getByRole('button', { name: 'Update Lab Information' }).click();
      await toast(page, 'Lab information updated successfully!');
      await screenshot(page, 'admin-manage-lab');

      // Manage Directors: one with history (ended), one in office (no end date) with a photo.
      await menu.getByRole('link', { name: 'Manage Directors' }).click();
      await expectVisible(page.getByRole('heading', { name: 'Manage Directors', level: 1 }));
      await page.getByRole('button', { name: 'Add Director' }).click();
      await expectVisible(page.getByText('Please select a user or enter a name', { exact: true }));
      await field(page, 'Name').fill(`Dr. A. Kumar ${tag}`);
      await typeDate(page, 'From', '01 Apr 2012');
      await typeDate(page, 'To', '31 Mar 2020');
      await field(page, 'About').fill('Led the lab through its modernisation.');
      await page.getByRole('button', { name: 'Add Director' }).click();
      await toast(page, 'Director saved successfully.');
      await field(page, 'Name').fill(`Dr. S. Iyer ${tag}`);
      await typeDate(page, 'From', '01 Apr 2020');
      await field(page, 'About').fill('Fire scientist; leads the lab since 2020.');
      await chooseFile(page, 'Photo', 'iyer.jpg', 'image/jpeg', await photo('#8899aa'));
      await page.getByRole('button', { name: 'Add Director' }).click();
      await toast(page, 'Director saved successfully.');
      const history = page.getByRole('table', { name: 'Director History' });
      await expectVisible(history.getByText(`Dr. S. Iyer ${tag}`));
      await expectVisible(history.getByText('Present'));
      await screenshot(page, 'admin-manage-directors');

      // Manage Notices & Circulars: a notice with a PDF (file required on create), then a circular that has expired.
      await menu.getByRole('link', { name: 'Manage Notices & Circulars' }).click();
      await expectVisible(page.getByRole('heading', { name: 'Add Notice' }));
      await field(page, 'Name').fill(`Fire drill ${tag}`);
      await field(page, 'Description').fill('Evacuation drill on Friday at 11 am.');
      await page.getByRole('button', { name: 'Add Notice' }).click();
      await expectVisible(page.getByText('All fields are required', { exact: true }));
      await chooseFile(page, 'File', 'fire-drill.pdf', 'application/pdf', pdf);
      await page.getByRole('button', { name: 'Add Notice' }).click();
      await toast(page, 'Notice added successfully.');
      await expectVisible(
        page.getByRole('table', { name: 'Notices' }).getByRole('link', { name: `Fire drill ${tag}` }),
      );
      await screenshot(page, 'admin-manage-notices');

      // Products: add one, then delete it, which asks first.
      await menu.getByRole('link', { name: 'Manage Products & Achievements' }).click();
      await expectVisible(page.getByRole('tab', { name: 'Advertisements' }));
      await field(page, 'Name').fill(`Proximity suit ${tag}`);
      await field(page, 'Description').fill('Heat-reflective suit for fire fighters.');
      await chooseFile(page, 'File', 'proximity-suit.pdf', 'application/pdf', pdf); // axe with the file chosen
      await page.getByRole('button', { name: 'Add Product' }).click();
      await toast(page, 'Product added successfully.');
      await page.getByRole('button', { name: `Delete Proximity suit ${tag}` }).click();
      const dialog = page.getByRole('dialog');
      await expectVisible(
        dialog.getByText(`Delete the product "Proximity suit ${tag}" and its file?`, { exact: false }),
      );
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await toast(page, 'Product deleted successfully.');

      // Manage Lab Photos: four photos, so the carousel pages past the first 3.
      await page.goto('/admin/manageGallery');
      await expectVisible(page.getByRole('heading', { name: 'Manage Lab Photos', level: 1 }));
      await page.getByRole('button', { name: 'Upload Photo' }).click();
      await expectVisible(page.getByText('Please fill all fields and select a file.', { exact: true }));
      const hues = ['#a05030', '#3070a0', '#30a060', '#a0a030'];
      for (const [i, hue] of hues.entries()) {
        await field(page, 'Photo Title').fill(`Campus view ${i + 1} ${tag}`);
        await field(page, 'Description').fill(`View number ${i + 1} of the campus.`);
        await chooseFile(page, 'Image', `campus-${i + 1}.jpg`, 'image/jpeg', await photo(hue));
        await page.getByRole('button', { name: 'Upload Photo' }).click();
        await expectVisible(page.getByRole('listitem').getByText(`Campus view ${i + 1} ${tag}`, { exact: true }));
      }
      // Inline edit with Save.
      await page.getByRole('button', { name: `Edit photo Campus view 4 ${tag}` }).click();
      await field(page, 'Description').last().fill('The main gate at dawn.');
      await page.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Photo updated successfully!');
      await screenshot(page, 'admin-manage-gallery');
      await checkA11y(page);

      // A project of a group, for the Product & Achievements tab (seeded through the groups API).
      const project = new FormData();
      project.set('name', `Flame retardant coating ${tag}`);
      project.set('description', 'Intumescent coating for structural steel.');
      project.set('file', new Blob([pdf], { type: 'application/pdf' }), 'coating.pdf');
      const seeded = await apiAs(admin).post(`/api/group-files/${groupIds[0]}/projects`, project);
      expect(seeded.status).toBe(201);

      // A visitor: no sign-in.
      const visitor = await context
        .browser()!
        .newContext({ baseURL, viewport: { width: 1280, height: 900 }, locale: 'en-IN' });
      const home = await visitor.newPage();
      try {
        await home.goto('/');
        await expectVisible(home.getByRole('heading', { name: labName, level: 1 }));
        // About Lab (default tab): bullets split at sentence ends and line breaks.
        await expectVisible(
          home.getByRole('listitem').getByText(`Founded for safety research ${tag}.`, { exact: true }),
        );
        await expectVisible(home.getByRole('listitem').getByText('It trains fire officers.', { exact: true }));
        // The News Flash and the latest box carry the notice.
        const newsFlash = home.getByRole('region', { name: 'News Flash: lab notices and circulars' });
        await expectVisible(newsFlash.getByText(`Fire drill ${tag}`, { exact: false }));
        await newsFlash.getByRole('button', { name: 'Pause' }).click();
        await expectVisible(newsFlash.getByRole('button', { name: 'Play' }));
        const latest = home.getByRole('region', { name: 'Latest Notices & Circulars' });
        await expectVisible(latest.getByRole('link', { name: `Fire drill ${tag}` }));

        // The gallery: 3 photos first, the 4th and 'All Caught Up!' after paging.
        const gallery = home.getByRole('region', { name: 'Lab photo gallery' });
        await expectVisible(gallery.getByRole('img', { name: `Campus view 4 ${tag}` }));
        await gallery.getByRole('button', { name: 'Pause the gallery slideshow' }).click();
        await expectVisible(gallery.getByRole('button', { name: 'Play the gallery slideshow' }));
        const webCopy = await gallery.getByRole('img', { name: `Campus view 4 ${tag}` }).getAttribute('src');
        const webBytes = Number((await (await fetch(`${baseURL}${webCopy}`)).arrayBuffer()).byteLength);
        // Next until the 'All Caught Up!' card is inside the gallery's box (the 4th photo loads on the way).
        const caughtUp = gallery.getByRole('heading', { name: 'All Caught Up!' });
        const inView = async () =>
          (await caughtUp.count()) > 0 &&
          (await caughtUp.evaluate((card) => {
            const box = card.getBoundingClientRect();
            const frame = card.closest('section')!.getBoundingClientRect();
            return box.left >= frame.left - 1 && box.right <= frame.right + 1;
          }));
        // embla moves the slides frame by frame after a click: settled once a frame leaves them where the last one
        // did (a signal of the page's own, not a sleep; decision 106).
        const settled = () =>
          gallery.evaluate(
            (root) =>
              new Promise<void>((resolve) => {
                let last = Number.NaN;
                const frame = () => {
                  const left = root.querySelector('figure')?.getBoundingClientRect().left ?? 0;
                  if (left === last) resolve();
                  else {
                    last = left;
                    requestAnimationFrame(frame);
                  }
                };
                requestAnimationFrame(frame);
              }),
          );
        for (let i = 0; i < 12 && !(await inView()); i++) {
          await gallery.getByRole('button', { name: 'Next photos' }).click();
          await settled();
        }
        expect(await inView()).toBe(true);
        await expectVisible(gallery.getByRole('img', { name: `Campus view 1 ${tag}` }));
        expect(webBytes).toBeLessThan(200_000);
        await screenshot(home, 'lab-home');
        await checkA11y(home);

        // The tabs.
        const tab = (name: string) => home.getByRole('tab', { name, exact: true }).click();
        await tab('Vision and Mission');
        await expectVisible(home.getByText('A nation safe from fire and explosive hazards.'));
        await tab('Director Profile');
        await expectVisible(home.getByRole('heading', { name: `Dr. S. Iyer ${tag}` }));
        await tab('O/o Director');
        await expectVisible(home.getByRole('cell', { name: `R. Sharma ${tag}` }));
        await tab('Role & Honour');
        const roles = home.getByRole('table', { name: 'Role & Honour' });
        await expectVisible(roles.getByText(`Dr. A. Kumar ${tag}`));
        await expectVisible(roles.getByRole('cell', { name: 'Present' }));
        await tab('Lab History');
        await expectVisible(home.getByText('Renamed in 1992.', { exact: true }));
        await tab('Personnel Details');
        await expectVisible(home.getByText('Please log in to see them.', { exact: false }));
        await tab('Contact Us');
        await expectVisible(home.getByText('011-2390 7000'));
        await tab('Product & Achievements');
        const groupButton = home.getByRole('button', { name: 'Fire Safety Research Group' });
        await expectVisible(groupButton);
        if ((await groupButton.getAttribute('aria-expanded')) !== 'true') await groupButton.click();
        await expectVisible(home.getByText(`Flame retardant coating ${tag}`, { exact: true }));
        // The group's file is for its members: a visitor sees the item, not a link to the file.
        await expectVisible(home.getByText('Log in to open the attached file.').first());
        await screenshot(home, 'lab-home-products');
        await tab('Notices & Circular');
        const noticeLink = home.getByRole('tabpanel').getByRole('link', { name: `Fire drill ${tag}` });
        await expectVisible(noticeLink);
        await screenshot(home, 'lab-home-notices');
        await checkA11y(home);

        // The PDF opens in a new tab.
        const [popup] = await Promise.all([home.waitForEvent('popup'), noticeLink.click()]);
        // The new tab is at the file (Chromium shows it in its PDF viewer); the server sends it as a PDF, inline.
        await popup.waitForURL(/\/uploads\/notices\//);
        const file = await fetch(popup.url());
        expect(file.status).toBe(200);
        expect(file.headers.get('content-type')).toBe('application/pdf');
        expect(file.headers.get('content-disposition')).toContain('inline');
        await popup.close();
      } finally {
        await visitor.close();
      }

      // The lab record has what the admin entered (and the visitor saw).
      const lab = await apiAs(null).get<LabJson>(`/api/labs/${labId}`);
      expect(lab.body.currentDirector?.name).toBe(`Dr. S. Iyer ${tag}`);
      expect(lab.body.directorHistory.map((d) => d.name)).toEqual(expect.arrayContaining([`Dr. A. Kumar ${tag}`]));
    },
  );

  it('stops moving content for people who ask for reduced motion', async () => {
    const visitor = await browser.browser.newContext({
      baseURL,
      reducedMotion: 'reduce',
      viewport: { width: 390, height: 844 },
    });
    const page = await visitor.newPage();
    try {
      await page.goto('/');
      const gallery = page.getByRole('region', { name: 'Lab photo gallery' });
      // Starts paused: the button offers Play.
      await expectVisible(gallery.getByRole('button', { name: 'Play the gallery slideshow' }));
      const track = page.getByRole('region', { name: 'News Flash: lab notices and circulars' }).locator('ul').first();
      const animation = await track.evaluate((el) => getComputedStyle(el.parentElement!).animationName);
      expect(animation).toBe('none');
    } finally {
      await visitor.close();
    }
  });

  it('never draws the tab heading over the side tabs, at any text size, at 1280 and 390 px', async () => {
    // At A+ and 1280 px "About Lab" collided with the active side tab. A real lab's About runs to long
    // sentences, so the panel asks for all the width it can get; that is what squeezed the side menu.
    const as = apiAs(await signedInAdmin());
    const before = (await as.get<LabJson>(`/api/labs/${labId}`)).body;
    const update = (about: string) =>
      as.put(`/api/labs/${labId}`, {
        name: before.name,
        domain: before.domain || 'Fire safety',
        vision: before.vision || 'Safety.',
        mission: before.mission || 'Research.',
        about,
        LabHistoryDetails: before.LabHistoryDetails || 'Set up in 1950.',
      });
    const long =
      'The laboratory develops, tests and certifies fire-resistant materials, explosive detection systems and ' +
      'environmental safety equipment for the armed forces, the paramilitary and civil agencies across the country.';
    expect((await update(long)).status).toBe(200);
    const { page } = browser;
    try {
      const overlaps = () =>
        page.evaluate(() => {
          const heading = document.querySelector('[role="tabpanel"] h2')!.getBoundingClientRect();
          return [...document.querySelectorAll('[role="tab"]')]
            .map((tab) => ({ tab, box: tab.getBoundingClientRect() }))
            .filter(({ box }) => box.left < heading.right && heading.left < box.right)
            .filter(({ box }) => box.top < heading.bottom && heading.top < box.bottom)
            .map(({ tab }) => tab.textContent);
        });
      for (const size of ['Smaller text', 'Normal text size', 'Larger text']) {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto('/');
        await page.getByRole('group', { name: 'Display settings' }).getByRole('button', { name: size }).click();
        await expectVisible(page.getByRole('heading', { name: 'About Lab', level: 2 }));
        await expectVisible(page.getByText(long.slice(0, 40)));
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
          await expectVisible(page.getByRole('heading', { name: 'About Lab', level: 2 }));
          expect(await overlaps(), `tabs under the heading at ${width}px (${size})`).toEqual([]);
        }
        if (size === 'Larger text') await screenshot(page, 'lab-tabs-larger-text');
      }
    } finally {
      await update(before.about || 'Founded for safety research.');
      await page.evaluate(() => localStorage.removeItem('textSize'));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
