import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

// web/app/mantine-shell.css carries Mantine's styles for the first page only (decision 058); the rest load with the first
// lazy screen or control (web/lib/mantine-styles.ts). This follows the static imports from the entry (web/main.tsx)
// and the home route, as the bundler does (a dynamic import() or lazy() is where the full styles come in), and checks
// that every Mantine component they can draw has its style sheet in the list.

const root = path.resolve(import.meta.dirname, '..', '..');
const mantineEsm = path.join(root, 'node_modules', '@mantine', 'core', 'esm');
const FIRST_PAGE = ['web/main.tsx', 'web/app/routes/home.tsx'];

/** Static imports of a module: [names imported, where from]. Type-only imports draw nothing. */
function staticImports(source: string): Array<{ names: string[]; from: string }> {
  const found: Array<{ names: string[]; from: string }> = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gms)) {
    const braces = /\{([^}]*)\}/.exec(m[1]!);
    const names = braces
      ? braces[1]!
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '))
          .map((n) => n.split(/\s+as\s+/)[0]!.trim())
      : [];
    found.push({ names, from: m[2]! });
  }
  for (const m of source.matchAll(/^import\s+['"]([^'"]+)['"]/gm)) found.push({ names: [], from: m[1]! });
  return found;
}

function resolveProjectImport(from: string, importer: string): string | null {
  if (from.startsWith('#web/')) return path.join(root, 'web', from.slice(5));
  if (from.startsWith('#shared/')) return path.join(root, 'shared', from.slice(8));
  if (from.startsWith('.')) return path.resolve(path.dirname(importer), from);
  return null;
}

/** The Mantine core names the first page imports, following project modules statically. */
function firstPageMantineNames(): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const queue = FIRST_PAGE.map((f) => path.join(root, f));
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !/\.(ts|tsx)$/.test(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const { names: imported, from } of staticImports(readFileSync(file, 'utf8'))) {
      if (from === '@mantine/core') imported.forEach((n) => names.add(n));
      const next = resolveProjectImport(from, file);
      if (next) queue.push(next);
    }
  }
  return names;
}

/** Mantine's component folders (components/<Folder>/) a set of its exports reaches through its own imports. */
function mantineFolders(names: Set<string>): Set<string> {
  const index = readFileSync(path.join(mantineEsm, 'index.mjs'), 'utf8');
  const fileOf = new Map<string, string>();
  for (const { names: imported, from } of staticImports(index)) {
    for (const n of imported) fileOf.set(n, path.join(mantineEsm, from));
  }
  const folders = new Set<string>();
  const seen = new Set<string>();
  const queue = [...names].map((n) => {
    const file = fileOf.get(n);
    if (!file) throw new Error(`@mantine/core has no export ${n}`);
    return file;
  });
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const folder = /^components[\\/]([^\\/]+)[\\/]/.exec(path.relative(mantineEsm, file));
    if (folder) folders.add(folder[1]!);
    for (const { from } of staticImports(readFileSync(file, 'utf8'))) {
      if (from.startsWith('.')) queue.push(path.resolve(path.dirname(file), from));
    }
  }
  return folders;
}

describe('web/app/mantine-shell.css', () => {
  const listed = new Set(
    [
      ...readFileSync(path.join(root, 'web', 'app', 'mantine-shell.css'), 'utf8').matchAll(
        /styles\/([\w-]+)\.layer\.css/g,
      ),
    ].map((m) => m[1]!),
  );

  it("lists exactly the style sheets of the Mantine components the first page's modules import", () => {
    const names = firstPageMantineNames();
    expect(names).toContain('AppShell'); // the walk found the shell
    expect(names).toContain('Tabs'); // and the home page
    const needed = [...mantineFolders(names)].filter((folder) =>
      existsSync(path.join(mantineEsm, '..', 'styles', `${folder}.layer.css`)),
    );
    expect(
      needed.filter((folder) => !listed.has(folder)),
      'missing',
    ).toEqual([]);
    // and nothing more: what the first page does not draw loads later
    const base = ['baseline', 'default-css-variables', 'global'];
    expect(
      [...listed].filter((name) => !needed.includes(name) && !base.includes(name)),
      'not needed',
    ).toEqual([]);
  });

  it("lists them in the order of Mantine's own styles.css, so a component's base comes first", () => {
    // UnstyledButton after Button or Tabs reset their padding, border and background (seen on the visitor's home page:
    // its tabs and the header's text-size buttons drew as bare text until a later screen loaded the full sheet).
    const full = readFileSync(path.join(mantineEsm, '..', 'styles.layer.css'), 'utf8');
    const firstClass = (name: string) =>
      /\.m_[0-9a-f]{8}/.exec(readFileSync(path.join(mantineEsm, '..', 'styles', `${name}.layer.css`), 'utf8'))?.[0];
    const components = [...listed].filter((name) => firstClass(name));
    const inFullOrder = [...components].sort((a, b) => full.indexOf(firstClass(a)!) - full.indexOf(firstClass(b)!));
    expect(components).toEqual(inFullOrder);
    expect(components.indexOf('UnstyledButton')).toBeLessThan(components.indexOf('Button'));
  });

  it("keeps Mantine's own base layers and only files that exist", () => {
    for (const base of ['baseline', 'default-css-variables', 'global']) expect(listed).toContain(base);
    for (const name of listed) {
      expect(existsSync(path.join(mantineEsm, '..', 'styles', `${name}.layer.css`)), name).toBe(true);
    }
  });
});
