// The import rules of npm run lint (.dependency-cruiser.mjs) run by the real dependency-cruiser on a throw-away
// project that breaks each of them once: every cycle of values (an alias or import() counts, type-only imports do
// not) and every layer of ../shared/STYLE.md must be reported, and nothing else. On the same project, ESLint's
// `ownership/tables` rule (scripts/lint/table-ownership.js, decision 103) must report each module that reads or
// writes another module's table, by its Drizzle object or in SQL text, naming both sides, and nothing else.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const files: Record<string, string> = {
  'package.json': JSON.stringify({
    type: 'module',
    imports: { '#server/*': './server/*', '#web/*': './web/*', '#shared/*': './shared/*' },
  }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', allowImportingTsExtensions: true, noEmit: true },
  }),
  // a cycle through an alias
  'server/a.ts': "import { b } from './b.ts';\nexport const a = b + 1;\n",
  'server/b.ts': "import { a } from '#server/a.ts';\nexport const b = 1;\nexport const c = () => a;\n",
  // a cycle closed by a type-only import: allowed (both spellings of a type import)
  'server/t1.ts': "import type { T2 } from './t2.ts';\nexport const x: T2 = 1;\n",
  'server/t2.ts': "import { x } from './t1.ts';\nexport type T2 = number;\nexport const y = x;\n",
  'server/t3.ts': "import { type T2, y } from './t2.ts';\nexport const z: T2 = y;\n",
  // a cycle through import()
  'server/d1.ts': "export const load = () => import('./d2.ts');\n",
  'server/d2.ts': "import { load } from './d1.ts';\nexport const run = load;\n",
  'server/u.ts': "import { z } from '#server/missing.ts';\nexport const m = z;\n",
  'shared/s.ts': "import { a } from '#server/a.ts';\nimport { ok } from './ok.ts';\nexport const s = [a, ok];\n",
  'shared/ok.ts': 'export const ok = 1;\n',
  'web/features/one/one.tsx': "import { two } from '#web/features/two/two.tsx';\nexport const one = two;\n",
  'web/features/two/two.tsx': 'export const two = 2;\n',
  'web/components/c.ts': "import { routes } from '#web/app/routes.ts';\nexport const c = routes;\n",
  'web/app/routes.ts': "import { c } from '#web/components/c.ts';\nexport const routes = [c];\n",
  'web/lib/w.ts': "import type { T2 } from '#server/t2.ts';\nexport const w: T2 = 1;\n",
  // allowed: main.tsx mounts the app; anything of web/ imports shared/ and its own feature
  'web/main.tsx': "import { routes } from './app/routes.ts';\nexport const main = routes;\n",
  'web/features/two/three.tsx':
    "import { ok } from '#shared/ok.ts';\nimport { two } from './two.tsx';\nexport const t = [ok, two];\n",
  // table ownership (ESLint): a schema with a table nobody owns
  'server/db/schema/index.ts': [
    'const pgTable = (name: string) => ({ name });',
    "export const letters = pgTable('letters');",
    "export const closeGroupMembers = pgTable('close_group_members');",
    "export const gadgets = pgTable('gadgets');",
    '',
  ].join('\n'),
  // the mail module reads the letters module's table by its Drizzle object and close-groups' in SQL text
  'server/modules/mail/mail.items.ts': [
    "import { letters } from '#server/db/schema/index.ts';",
    'const sql = (s: TemplateStringsArray, ...v: unknown[]) => [s, v];',
    'export const from = letters;',
    'export const q = sql`select m.user_id from close_group_members m where m.group_id = ${1}`;',
    "export const w = 'insert into letters (id) values ($1)';",
    '',
  ].join('\n'),
  // allowed: the owner's own table; a test of another module; a type of the schema; words that are not SQL
  'server/modules/letters/letters.queries.ts': [
    "import { letters } from '#server/db/schema/index.ts';",
    'export const own = [letters, `select id from letters l join letter_movements m on m.letter_id = l.id`];',
    '',
  ].join('\n'),
  'server/modules/mail/mail.test.ts': [
    "import { closeGroupMembers } from '#server/db/schema/index.ts';",
    "export const t = [closeGroupMembers, 'delete from letters'];",
    '',
  ].join('\n'),
  'server/modules/mail/mail.words.ts': [
    "import type { letters } from '#server/db/schema/index.ts';",
    'export type L = typeof letters;',
    "export const words = 'A letter came from the letters register';",
    '',
  ].join('\n'),
  'eslint.config.js': `import { tableOwnershipConfig } from '${
    pathToFileURL(path.join(root, 'scripts/lint/table-ownership.js')).href
  }';\nexport default [tableOwnershipConfig];\n`,
};

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

function depcruise(...args: string[]) {
  const bin = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const config = path.join(root, '.dependency-cruiser.mjs');
  return spawnSync(process.execPath, [bin, '--config', config, ...args, 'server', 'shared', 'web'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

function eslint(...args: string[]) {
  const bin = path.join(root, 'node_modules/eslint/bin/eslint.js');
  return spawnSync(process.execPath, [bin, '--config', 'eslint.config.js', ...args, 'server'], {
    cwd: dir,
    encoding: 'utf8',
  });
}

describe('import rules (dependency-cruiser)', () => {
  it('reports every broken rule and nothing else', () => {
    const run = depcruise('--output-type', 'json');
    const violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
    const found = violations.map((v) => [v.rule.name, v.from, v.to].join(' ')).sort();
    expect(found).toEqual([
      'no-cycle server/a.ts server/b.ts',
      'no-cycle server/d1.ts server/d2.ts',
      'no-cycle web/app/routes.ts web/components/c.ts',
      'no-feature-to-feature web/features/one/one.tsx web/features/two/two.tsx',
      'not-to-unresolvable server/u.ts #server/missing.ts',
      'only-app-imports-app web/components/c.ts web/app/routes.ts',
      'shared-imports-nothing-of-ours shared/s.ts server/a.ts',
      'web-never-imports-server web/lib/w.ts server/t2.ts',
    ]);
  });

  it('fails and names both files of a cycle in the text npm run lint prints', () => {
    const run = depcruise();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/error no-cycle: server\/a\.ts → \s*server\/b\.ts →\s*server\/a\.ts/);
  });
});

describe('table ownership (ESLint ownership/tables)', () => {
  it("is a rule of the project's own ESLint configuration", async () => {
    const config = (await import(pathToFileURL(path.join(root, 'eslint.config.js')).href)) as {
      default: { rules?: Record<string, unknown> }[];
    };
    expect(config.default.some((c) => c.rules?.['ownership/tables'] === 'error')).toBe(true);
  });

  it("reports each reach-in into another module's table and a table without an owner, and nothing else", () => {
    const run = eslint('--format', 'json');
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { line: number; message: string }[] }[];
    const found = results
      .flatMap((r) => r.messages.map((m) => `${path.relative(dir, r.filePath)}:${m.line} ${m.message}`))
      .sort();
    expect(found).toEqual([
      "server/db/schema/index.ts:4 Table 'gadgets' has no owning module in server/db/table-owners.js (docs/decisions/103).",
      "server/modules/mail/mail.items.ts:1 Module 'mail' imports the Drizzle table 'letters', owned by module 'letters': " +
        "call the 'letters' module's exported functions instead (server/db/table-owners.js, docs/decisions/103).",
      "server/modules/mail/mail.items.ts:4 Module 'mail' names in SQL the table 'close_group_members', owned by module " +
        "'close-groups': call the 'close-groups' module's exported functions instead (server/db/table-owners.js, " +
        'docs/decisions/103).',
      "server/modules/mail/mail.items.ts:5 Module 'mail' names in SQL the table 'letters', owned by module 'letters': " +
        "call the 'letters' module's exported functions instead (server/db/table-owners.js, docs/decisions/103).",
    ]);
  });

  it('fails npm run lint and names the file, its module, the table and its owner', () => {
    const run = eslint();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('server/modules/mail/mail.items.ts');
    expect(run.stdout).toMatch(/Module 'mail' imports the Drizzle table 'letters', owned by module 'letters'/);
  });
});

// The size rule of npm run lint (eslint.config.js `max-lines`, docs/decisions/105) on a throw-away project of its own:
// a file of 401 lines fails and is named; one of 400 passes.
describe('file size (ESLint max-lines)', () => {
  let sized = '';
  beforeAll(() => {
    sized = mkdtempSync(path.join(tmpdir(), 'size-rule-'));
    mkdirSync(path.join(sized, 'server'));
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join('');
    writeFileSync(path.join(sized, 'server/long.ts'), lines(401));
    writeFileSync(path.join(sized, 'server/fits.ts'), lines(400));
  });
  afterAll(() => rmSync(sized, { recursive: true, force: true }));

  it('fails on a file over 400 lines and names it', () => {
    const bin = path.join(root, 'node_modules/eslint/bin/eslint.js');
    const config = path.join(root, 'eslint.config.js');
    const run = spawnSync(process.execPath, [bin, '--config', config, 'server'], { cwd: sized, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(
      /server\/long\.ts\s+401:1\s+error\s+File has too many lines \(401\)\. Maximum allowed is 400\s+max-lines/,
    );
    expect(run.stdout).not.toContain('fits.ts');
  });
});
