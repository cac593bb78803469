import { builtinModules } from 'node:module';

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import citations from './scripts/lint/no-issue-citations.mjs';
import { tableOwnershipConfig } from './scripts/lint/table-ownership.js';

// Import cycles and the layers of ../shared/STYLE.md are checked by dependency-cruiser (.dependency-cruiser.mjs, run by
// npm run lint after ESLint); the order of imports by eslint-plugin-simple-import-sort below, which `npx eslint --fix`
// applies (docs/decisions/036-import-rules-by-dependency-cruiser.md).

/** Import groups, a blank line between: side effects, Node built-ins, packages, #shared, #server and #web, relative. */
const importGroups = [
  ['^\\u0000'],
  ['^node:', `^(${builtinModules.join('|')})(/|$)`],
  ['^@?\\w'],
  ['^#shared/'],
  ['^#server/', '^#web/', '^#'],
  ['^\\.'],
];

/**
 * No source file over 400 lines (docs/decisions/105): every file of server/, shared/, web/, e2e/ and scripts/, tests
 * included, counted as `wc -l` does. Left out: migrations (generated SQL and its snapshots, ignored above) and the demo's
 * data (server/demo/demo-data.ts: records, not logic). Files over it today, each to be split, not to grow (none):
 */
const OVER_400_FOR_NOW = [];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', '.test-data', 'server/db/migrations', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': ['error', { groups: importGroups }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'react', '#server/*', '#web/*', 'drizzle-orm*'] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['#server/*'] }] },
  },
  // Each module owns its tables (docs/decisions/103-each-module-owns-its-tables.md).
  tableOwnershipConfig,
  {
    files: ['{server,shared,web,e2e,scripts}/**/*.{ts,tsx,js,mjs,cjs,mts,cts}'],
    ignores: ['server/demo/demo-data.ts', ...OVER_400_FOR_NOW],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Comments cite decisions by number, never the numbers of issues (scripts/lint/no-issue-citations.mjs).
    plugins: { citations },
    rules: { 'citations/no-issue-citations': 'error' },
  },
);
