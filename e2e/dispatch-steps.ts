import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { checkA11y } from './a11y.ts';
import { fill } from './efiles-journey.ts';
import { expectHidden, expectVisible } from './fixtures.ts';
import { apiAs, type SeededUser } from './seed.ts';

/** The dispatch register's steps (decision 120), shared by the dispatch and drafts-for-approval journeys. */

type Words<K extends string> = Record<K, string>;
interface DispatchTexts {
  register: Words<'title' | 'search'>;
  modes: Words<'email'>;
  dispatch: Words<'address' | 'buttonLabel' | 'email' | 'mode' | 'name' | 'submit' | 'title'>;
}
interface SignatureTexts {
  panel: Words<'allValid' | 'invalid' | 'title' | 'trusted'>;
}
const localeDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'web', 'i18n', 'locales');
const read = <T>(lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(localeDir, lang, `${ns}.json`), 'utf8')) as T;
export const TEXTS = {
  en: { d: read<DispatchTexts>('en', 'dispatch'), s: read<SignatureTexts>('en', 'signatures') },
  hi: { d: read<DispatchTexts>('hi', 'dispatch'), s: read<SignatureTexts>('hi', 'signatures') },
};

/** Dispatches the correspondence item `ref` of the open file by post (to an address) or by email. */
export async function dispatch(
  page: Page,
  lang: 'en' | 'hi',
  ref: string,
  mode: 'post' | 'email',
  who: { name: string; where: string },
) {
  const t = TEXTS[lang].d;
  await page.getByRole('button', { name: fill(t.dispatch.buttonLabel, { ref }) }).click();
  const dialog = page.getByRole('dialog', { name: fill(t.dispatch.title, { ref }) });
  await expectVisible(dialog);
  if (mode === 'email') {
    await dialog.getByRole('combobox', { name: t.dispatch.mode }).click();
    await page.getByRole('option', { name: t.modes.email }).click();
    await dialog.getByLabel(t.dispatch.email).fill(who.where);
  } else {
    await dialog.getByLabel(t.dispatch.address).fill(who.where);
  }
  await dialog.getByLabel(t.dispatch.name).fill(who.name);
  await checkA11y(page, { moderate: true });
  await dialog.getByRole('button', { name: t.dispatch.submit, exact: true }).click();
  await expectHidden(dialog);
}

/** The dispatch mail's subject: "Letter <number> from <lab>" (the lab's name from its page). */
export async function mailSubject(who: SeededUser, outward: string) {
  const lab = await apiAs(who).get<{ name: string }[] | { name: string }>('/api/labs');
  const name = Array.isArray(lab.body) ? lab.body[0]!.name : lab.body.name;
  return `Letter ${outward} from ${name}`;
}
