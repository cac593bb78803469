import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { projectRoot } from '#server/lib/project-root.ts';

/**
 * One permission layer (decision 035): no role is compared outside a `*.policy.ts` file and the
 * sign-in plugin, on the server and in the web (whose menus and guards ask web/lib/access.policy.ts). The audit of
 * classified reads hooks into the policies, so a decision made elsewhere would escape it.
 */
const ROLE_TEST = [
  /\.role\s*[!=]==?/, // actor.role === 'admin', user.role !== input.role
  /[!=]==?\s*'(admin|director|associate_director|employee|pending_director)'/,
  /\.includes\([^)]*\.role\)/, // ROLES.includes(actor.role)
  /\b(eq|ne|inArray)\(users\.role\b/, // the same in SQL
  /role"?\}?\s*(=|<>|!=)\s*'[a-z_]+'/, // and written as SQL text: r.role = 'associate_director', ${user.role} = 'admin'
  /role"?\}?\s+(not\s+)?in\s*\(\s*'[a-z_]+'/i, // r.role in ('director', 'admin'), "role" not in (...)
  /role"?(::text)?\s*=\s*any\s*\(\s*(array\s*\[\s*)?'/i, // u.role = any(array['admin', 'director'])
];

/** Lines the patterns must catch (the check of the check): role tests in TypeScript and in SQL text. */
const MUST_CATCH = [
  "if (actor.role === 'admin') return true;",
  "where u.status = 'approved' and r.role = 'associate_director'",
  "where ${users.role} = 'admin'",
  "select id from users where role in ('director', 'admin')",
  'select id from users u where u."role" <> \'employee\'',
  "where u.role = any(array['admin', 'director'])",
  'db.select().from(users).where(eq(users.role, role))',
];

/** Files that compare roles for a reason other than a permission (decision 035 lists them). */
const EXCEPTIONS = new Map<string, string>([
  ['server/plugins/auth.ts', 'the sign-in plugin'],
  ['server/demo/', 'demo data: the roles the demo lab is made of'],
  ['server/test/', 'test helpers (and every *.test.ts and *.test-helpers.ts beside the code)'],
  ['server/db/', 'schema and migrations'],
]);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test(-helpers)?\.tsx?$/.test(name) && !name.endsWith('.policy.ts'))
      out.push(p);
  }
  return out;
}

describe('the permission layer', () => {
  it('its patterns catch a role test written in TypeScript or in SQL text', () => {
    expect(MUST_CATCH.filter((line) => !ROLE_TEST.some((re) => re.test(line)))).toEqual([]);
  });

  it('compares roles only in policies and the sign-in plugin', () => {
    const found: string[] = [];
    for (const file of ['server', 'shared', 'web'].flatMap((d) => sources(path.join(projectRoot, d)))) {
      const rel = path.relative(projectRoot, file).split(path.sep).join('/');
      if ([...EXCEPTIONS.keys()].some((prefix) => rel.startsWith(prefix))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return; // comments
          if (ROLE_TEST.some((re) => re.test(line))) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
