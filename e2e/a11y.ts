import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

// e2e helpers (see e2e/fixtures.ts): the accessibility checks (axe-core) and the screenshots of a page.

const e2eDir = path.dirname(new URL(import.meta.url).pathname);
const screenshotDir = path.join(e2eDir, 'screenshots');

// ---------------------------------------------------------------------------------------------------------------
// Accessibility and screenshots

/** axe-core's own script, put into a page once per document (it stays through the app's own page changes). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is now, from `axe.run` in the page itself. Not @axe-core/playwright: its
 * analyze() injects the whole script again and opens a blank page to finish every run, about a second a check
 * against 0.2 s for the run itself (measured on the lab home and the site pages); the portal has no frames to visit.
 */
async function runAxe(page: Page, tags: string[]): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const options: RunOptions = { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] };
  return page.evaluate((options) => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: RunOptions) => Promise<AxeResults> } }).axe;
    return axe.run(document, options).then((r) => r.violations);
  }, options);
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now and fails on any serious or critical
 * violation, naming the rule, the elements and how to fix it. `moderate: true` (GIGW 3.0, decision 018) adds axe's
 * best-practice rules (heading order, unique landmarks, one banner) and fails on moderate findings too.
 */
export async function checkA11y(page: Page, opts: { moderate?: boolean } = {}): Promise<void> {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', ...(opts.moderate ? ['best-practice'] : [])];
  const impacts = opts.moderate ? ['moderate', 'serious', 'critical'] : ['serious', 'critical'];
  const findings = async () => {
    // A toast fading in or out is half transparent, and axe would measure its contrast mid-fade: let CSS transitions
    // finish first (the News Flash's endless CSS animation is not a transition, so it does not hold this up).
    await page
      .waitForFunction(
        () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => {});
    // A list still loading its next page is dimmed (aria-busy): measure it once the new rows are in.
    await page
      .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 10_000 })
      .catch(() => {});
    return (await runAxe(page, tags)).filter((v) => impacts.includes(v.impact ?? ''));
  };
  // A toast that starts to close while axe runs is measured mid-fade (seen once: #e3e3e3 on white): what is found is
  // measured once more, and only what is still there counts.
  let bad = await findings();
  if (bad.length) bad = await findings();
  if (!bad.length) return;
  const lines = bad.map((v) => {
    const nodes = v.nodes
      .slice(0, 5)
      .map((n) => `      ${n.target.join(' ')}${n.failureSummary ? `: ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`)
      .join('\n');
    return `  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element(s), ${v.helpUrl})\n${nodes}`;
  });
  throw new Error(`Accessibility violations on ${new URL(page.url()).pathname}:\n${lines.join('\n')}`);
}

export const SCREENSHOT_WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Writes e2e/screenshots/<name>-1280.png and <name>-390.png (full page, animations stopped), then restores the viewport. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  try {
    for (const size of SCREENSHOT_WIDTHS) {
      await page.setViewportSize(size);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.screenshot({
        path: path.join(screenshotDir, `${name}-${size.width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
}
