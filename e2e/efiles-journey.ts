import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import { checkA11y, screenshot } from './a11y.ts';
import { expectHidden, expectPath, expectVisible, groupIds, keepLanguage, signInAs } from './fixtures.ts';
import { apiAs, createApprovedUser, registrationFor, type SeededUser, signedInAdmin, uploadLetter } from './seed.ts';

// The e-file journey's people, data and steps (decision 112), in either language: the screens' words are read from
// the translation files, so the English run and the Hindi run press the same buttons by their visible names.

const localeDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'web', 'i18n', 'locales');
type Texts = Record<string, Record<string, string> & Record<string, Record<string, string>>>;
const texts = (lang: 'en' | 'hi', ns: string) =>
  JSON.parse(readFileSync(path.join(localeDir, lang, `${ns}.json`), 'utf8')) as Texts;
/** `{{name}}` filled in. */
export const fill = (text: string, values: Record<string, string> = {}) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

export interface Cast {
  tag: string;
  employee: SeededUser;
  head: SeededUser;
  finance: SeededUser;
  director: SeededUser;
  letter: { _id: string; letterId: string };
  subject: string;
  headCode: string;
}

const person = (role: 'employee' | 'associate_director' | 'director', name: string) =>
  createApprovedUser(role, groupIds[0], { personalDetails: { ...registrationFor().personalDetails, name } });

/**
 * Everyone in the journey: an employee holding a received letter, their group head, a second head on the changed
 * route (finance), the director; a head of files the admin added.
 */
export async function seedCast(tag: string): Promise<Cast> {
  const admin = await signedInAdmin();
  const headCode = `FS-${tag}`.toUpperCase(); // the server keeps codes in capitals
  const head = await apiAs(admin).post('/api/efiles/heads', { code: headCode, name: `Fire safety ${tag}` });
  expect(head.status).toBe(201);
  const [employee, groupHead, finance, director, clerk] = await Promise.all([
    person('employee', `Ravi Noter ${tag}`),
    person('associate_director', `Meena Head ${tag}`),
    person('associate_director', `Arun Finance ${tag}`),
    person('director', `Sunita Director ${tag}`),
    person('employee', `Kiran Clerk ${tag}`),
  ]);
  const subject = `Annual fire drill ${tag}`;
  const letter = await uploadLetter(clerk!, subject, tag);
  expect((await apiAs(clerk!).post(`/api/dac/${letter._id}/movements`, { to: [employee!.id] })).status).toBe(201);
  expect((await apiAs(employee!).post(`/api/dac/${letter._id}/receive`)).status).toBe(200);
  return {
    tag,
    employee: employee!,
    head: groupHead!,
    finance: finance!,
    director: director!,
    letter,
    subject,
    headCode,
  };
}

/** The journey's screens in one language. */
export function journey(page: Page, lang: 'en' | 'hi') {
  const T = texts(lang, 'efiles');
  const t = (key: string, values?: Record<string, string>) => {
    const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], T);
    return fill(String(value), values);
  };
  const shot = async (name: string) => {
    await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header at the top, not over the middle
    await screenshot(page, `efiles-${name}-${lang}`);
  };
  const a11y = () => checkA11y(page, { moderate: true });

  /** Signs `who` in on the file's page, in this language. */
  async function open(who: SeededUser, fileId: string) {
    await signInAs(page, who, { to: '/api/health' });
    await keepLanguage(page, lang);
    await page.goto(`/efiles/${fileId}`);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await expectVisible(page.getByRole('heading', { level: 2, name: t('noting.title') }));
  }

  /** Chooses `name` in the select labelled `label` inside `scope`. */
  async function choose(label: string, name: string) {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: label }).fill(name.split(' ')[0]!);
    await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  }

  /** Writes a note of paragraphs (part 1) and, when given, a numbered list or table as part 2. */
  async function writeNote(text: string, second?: { kind: 'ol' | 'table'; text: string }) {
    await page.getByRole('button', { name: t('noting.write') }).click();
    await page.getByLabel(t('editor.text', { n: '1' })).fill(text);
    if (second) {
      await page.getByRole('button', { name: t('editor.addBlock') }).click();
      await page.getByRole('combobox', { name: t('editor.kind', { n: '2' }) }).click();
      await page.getByRole('option', { name: t(`editor.kinds.${second.kind}`) }).click();
      await page.getByLabel(t('editor.text', { n: '2' })).fill(second.text);
    }
    await page.getByRole('button', { name: t('editor.save') }).click();
  }

  /** The note's card, by its number. */
  const note = (ref: string) =>
    page.getByRole('article').filter({ has: page.getByRole('heading', { name: ref, exact: true }) });

  async function receive() {
    await page.getByRole('button', { name: t('moves.receive.button') }).click();
    await expectHidden(page.getByRole('button', { name: t('moves.receive.button') }));
  }

  /** Sends the file on; `to` chosen unless the route already chose them. */
  async function send(number: string, to: SeededUser | null, opts: { remarks?: string; route?: SeededUser[] } = {}) {
    await page.getByRole('button', { name: t('send.button'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t('send.title', { number }) });
    await expectVisible(dialog);
    if (to) await choose(t('send.to'), to.name);
    for (const r of opts.route ?? []) await choose(t('send.route'), r.name);
    if (opts.remarks) await dialog.getByLabel(t('send.remarks')).fill(opts.remarks);
    await dialog.getByRole('button', { name: t('send.submit') }).click();
    await expectHidden(dialog);
  }

  return { t, open, choose, writeNote, note, receive, send, shot, a11y, expectPath };
}
