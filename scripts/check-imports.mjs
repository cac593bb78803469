// `npm run lint` (after ESLint): import cycles and the layers of ../shared/STYLE.md, over every TypeScript file of
// server/, shared/, web/, e2e/ and scripts/. eslint-plugin-import-x would do this, but its resolver (unrs-resolver)
// ships platform packages this registry lacks, so `npm ci` could not install from our lock file (decision 021).
// Type-only imports are ignored for cycles (they vanish at run time); dynamic imports count.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALIASES = { '#server/': 'server/', '#web/': 'web/', '#shared/': 'shared/' };
const SKIP = new Set(['node_modules', 'dist', 'migrations', 'screenshots']);

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const files = ['server', 'shared', 'web', 'e2e', 'scripts'].flatMap((d) => walk(path.join(root, d)));
const rel = (p) => path.relative(root, p).split(path.sep).join('/');
const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolve(from, spec) {
  let target;
  const alias = Object.keys(ALIASES).find((a) => spec.startsWith(a));
  if (alias) target = path.join(root, ALIASES[alias], spec.slice(alias.length));
  else if (spec.startsWith('.')) target = path.resolve(path.dirname(from), spec);
  else return null;
  return existsSync(target) ? target : null;
}

const graph = new Map();
const problems = [];
const features = readdirSync(path.join(root, 'web/features'));
const layerOf = (r) => {
  const m = /^web\/features\/([^/]+)\//.exec(r);
  if (m) return { area: 'feature', feature: m[1] };
  if (r.startsWith('web/app/') || r === 'web/main.tsx') return { area: 'app' }; // main.tsx mounts the app
  if (r.startsWith('web/')) return { area: 'web-shared' }; // components, lib, i18n
  return { area: r.split('/')[0] };
};

for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const edges = [];
  for (const m of source.matchAll(IMPORT)) {
    const typeOnly = Boolean(m[2]);
    const spec = m[3] ?? m[4];
    const target = resolve(file, spec);
    if (!target) continue;
    const [a, b] = [rel(file), rel(target)];
    const [la, lb] = [layerOf(a), layerOf(b)];
    const refuse = (why) => problems.push(`${a}: imports ${b} — ${why}`);
    if (la.area === 'shared' && lb.area !== 'shared') refuse('shared/ imports nothing of ours');
    if (a.startsWith('web/') && (lb.area === 'server' || lb.area === 'e2e' || lb.area === 'scripts'))
      refuse('web/ never imports server/');
    if (la.area === 'feature' && lb.area === 'feature' && la.feature !== lb.feature)
      refuse('a feature never imports another feature: compose them in a route file');
    if ((la.area === 'feature' || la.area === 'web-shared') && lb.area === 'app')
      refuse('only web/app imports web/app');
    if (!typeOnly) edges.push(b);
  }
  graph.set(rel(file), edges);
}
void features;

// Cycles (Tarjan's strongly connected components), the Drizzle schema's files included: director_entries has its own
// file so that labs.ts and users.ts no longer import each other.
let index = 0;
const stack = [];
const info = new Map();
function strong(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!info.has(w)) {
      strong(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    const selfLoop = (graph.get(v) ?? []).includes(v);
    if (component.length > 1 || selfLoop) {
      problems.push(`import cycle: ${component.sort().join(' -> ')}`);
    }
  }
}
for (const v of graph.keys()) if (!info.has(v)) strong(v);

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`${problems.length} import problem(s).`);
  process.exit(1);
}
console.log(`Imports: ${graph.size} files, no cycles, layers kept.`);
