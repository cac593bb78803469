// ESLint rule `ownership/tables`: each module owns its tables (docs/decisions/103-each-module-owns-its-tables.md).
// A file of server/modules/<m>/ fails when it reads or writes a table another module owns (server/db/table-owners.js):
// - by the Drizzle table object: a value import of that table from the schema (`import { letters } from
//   '#server/db/schema/index.ts'`, `await import(...)` destructured, or `schema.letters` of a namespace import);
// - in SQL text: a string or template literal naming it after from, join, into, update, table or truncate
//   (`sql\`select … from letters l, users u\``, `insert into notifications`, `left join close_group_members`).
// The message names both sides: the file's module and the table with its owner. In the schema files, a pgTable
// whose name has no owner in the map fails.
import path from 'node:path';

import tseslint from 'typescript-eslint';

import { OWNERSHIP_EXCEPTIONS, TABLE_OWNERS } from '../../server/db/table-owners.js';

const SCHEMA_IMPORT = /(^|\/)db\/schema\//;
const MODULE_FILE = /^server\/modules\/([^/]+)\//;
const SCHEMA_FILE = /^server\/db\/schema\/[^/]+\.ts$/;
/** SQL words after which a table name comes. */
const TABLE_WORD = /\b(from|join|into|update|table|truncate)\s+/gi;
/** Words that end a from-list item rather than name an alias. */
const NOT_ALIAS = new Set(
  'where join left right inner outer full cross natural on using group order limit offset for union except intersect having window lateral returning set values select with as and or when then'.split(
    ' ',
  ),
);
const exceptions = OWNERSHIP_EXCEPTIONS.map((e) => ({
  ...e,
  applies: e.paths ? (file) => e.paths.includes(file) : (file) => new RegExp(e.files).test(file),
}));

/** letterMovements → letter_movements: the schema's export names are the tables' names in camel case. */
const sqlName = (exportName) => exportName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Tables named in a piece of SQL text, with their offsets. */
export function tablesInSql(text) {
  const found = [];
  const ident = /\s*(?:only\s+)?(?:public\.)?"?([A-Za-z_][A-Za-z0-9_]*)"?/y;
  const alias = /\s+(?:as\s+)?([A-Za-z_][A-Za-z0-9_]*)/iy;
  const comma = /\s*,/y;
  for (const m of text.matchAll(TABLE_WORD)) {
    let at = m.index + m[0].length;
    for (;;) {
      ident.lastIndex = at;
      const name = ident.exec(text);
      if (!name) break;
      found.push({ table: name[1].toLowerCase(), index: at });
      at = ident.lastIndex;
      // only a from-list goes on with commas: `from letters l, users u`
      if (m[1].toLowerCase() !== 'from') break;
      alias.lastIndex = at;
      const a = alias.exec(text);
      if (a && !NOT_ALIAS.has(a[1].toLowerCase())) at = alias.lastIndex;
      comma.lastIndex = at;
      if (!comma.exec(text)) break;
      at = comma.lastIndex;
    }
  }
  return found;
}

/** @type {import('eslint').Rule.RuleModule} */
const tablesRule = {
  meta: {
    type: 'problem',
    docs: { description: "A module reads and writes only its own tables; another module's through its functions" },
    schema: [],
    messages: {
      reachIn:
        "Module '{{module}}' {{how}} table '{{table}}', owned by module '{{owner}}': call the '{{owner}}' module's " +
        'exported functions instead (server/db/table-owners.js, docs/decisions/103).',
      noOwner: "Table '{{table}}' has no owning module in server/db/table-owners.js (docs/decisions/103).",
    },
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    if (SCHEMA_FILE.test(file)) {
      return {
        CallExpression(node) {
          const [name] = node.arguments;
          if (node.callee.type !== 'Identifier' || node.callee.name !== 'pgTable') return;
          if (name?.type === 'Literal' && typeof name.value === 'string' && !(name.value in TABLE_OWNERS))
            context.report({ node: name, messageId: 'noOwner', data: { table: name.value } });
        },
      };
    }
    const module = MODULE_FILE.exec(file)?.[1];
    if (!module) return {};
    const allowed = (table) =>
      exceptions.some((e) => e.applies(file) && (e.tables.includes('*') || e.tables.includes(table)));
    const check = (node, table, how) => {
      // a table whose rows each belong to one of two modules (a lab's or a group's office) lists both
      const owners = [TABLE_OWNERS[table] ?? []].flat();
      if (!owners.length || owners.includes(module) || allowed(table)) return;
      context.report({ node, messageId: 'reachIn', data: { module, how, table, owner: owners.join("' or '") } });
    };
    const namespaces = new Set();
    const checkSql = (node, text) => {
      for (const table of new Set(tablesInSql(text).map((t) => t.table))) check(node, table, 'names in SQL the');
    };
    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type' || !SCHEMA_IMPORT.test(String(node.source.value))) return;
        for (const s of node.specifiers) {
          if (s.type === 'ImportNamespaceSpecifier') namespaces.add(s.local.name);
          else if (s.type === 'ImportSpecifier' && s.importKind !== 'type')
            check(s, sqlName(s.imported.name ?? s.imported.value), 'imports the Drizzle');
        }
      },
      ImportExpression(node) {
        if (node.source.type !== 'Literal' || !SCHEMA_IMPORT.test(String(node.source.value))) return;
        let up = node.parent;
        if (up?.type === 'AwaitExpression') up = up.parent;
        if (up?.type !== 'VariableDeclarator' || up.id.type !== 'ObjectPattern') return;
        for (const p of up.id.properties)
          if (p.type === 'Property' && p.key.type === 'Identifier')
            check(p, sqlName(p.key.name), 'imports the Drizzle');
      },
      MemberExpression(node) {
        if (
          node.object.type === 'Identifier' &&
          namespaces.has(node.object.name) &&
          node.property.type === 'Identifier'
        )
          check(node, sqlName(node.property.name), 'uses the Drizzle');
      },
      Literal(node) {
        if (typeof node.value === 'string') checkSql(node, node.value);
      },
      TemplateElement(node) {
        checkSql(node, node.value.cooked ?? node.value.raw);
      },
    };
  },
};

export const tableOwnershipPlugin = { rules: { tables: tablesRule } };

/** The flat-config block of eslint.config.js, also run alone by scripts/import-rules.test.ts. */
export const tableOwnershipConfig = {
  files: ['server/**/*.{ts,tsx,js,mjs}'],
  languageOptions: { parser: tseslint.parser },
  plugins: { ownership: tableOwnershipPlugin },
  rules: { 'ownership/tables': 'error' },
};
