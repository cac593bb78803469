// dependency-cruiser (npm run lint): import cycles and the layers of ../shared/STYLE.md over every source file of
// server/, shared/, web/, e2e/ and scripts/ (docs/decisions/036-import-rules-by-dependency-cruiser.md).
// Type-only imports are ignored for cycles (they vanish at run time); dynamic imports count.

/** Our own files outside shared/: what shared/ must not import. */
const OURS_OUTSIDE_SHARED = '^(?!shared/|node_modules/)[^:]+$';
/** web/app and web/main.tsx, which mounts the app. */
const WEB_APP = '^web/(app/|main\\.tsx$)';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle of values (type-only imports vanish at run time and do not count; import() does).',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves: a wrong path, or an alias missing from package.json "imports".',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'shared-imports-nothing-of-ours',
      comment: 'shared/ imports nothing of ours (STYLE.md).',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: OURS_OUTSIDE_SHARED, dependencyTypesNot: ['core'] },
    },
    {
      name: 'web-never-imports-server',
      comment: 'web/ never imports server/ (nor e2e/ or scripts/) (STYLE.md).',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(server|e2e|scripts)/' },
    },
    {
      name: 'no-feature-to-feature',
      comment: 'A web feature never imports another feature: compose them in a route file (STYLE.md).',
      severity: 'error',
      from: { path: '^web/features/([^/]+)/' },
      to: { path: '^web/features/', pathNot: '^web/features/$1/' },
    },
    {
      name: 'only-app-imports-app',
      comment: 'Only web/app (and web/main.tsx, which mounts it) imports web/app: shared → features → app.',
      severity: 'error',
      from: { path: '^web/', pathNot: WEB_APP },
      to: { path: WEB_APP },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|migrations|screenshots)/' },
    // See type-only imports (labelled "type-only") rather than the compiled output, where they are gone: the layer
    // rules hold for them too, the cycle rule skips them.
    tsPreCompilationDeps: true,
    // package.json "imports" (#server/*, #web/*, #shared/*) and "exports" resolve as Node resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.d.ts', '.d.mts'],
    },
    tsConfig: { fileName: 'tsconfig.json' },
    skipAnalysisNotInRules: true,
  },
};
