// House rules on imports, checked by `pnpm run deps` (scripts/deps.mjs, part of `pnpm check` and `npm test`).
// Folder-level cycles are checked by that script over the graph dependency-cruiser builds with this file.
// ARCHITECTURE.md ("House rules") says why each rule exists.

const SERVER = '^apps/server/src/';
const CONSOLE = '^apps/console/src/';
// Shared by every feature, not features themselves: the platform layer (with the control database's
// migrations, which are its schema) and the test harness.
const SERVER_SHARED = `${SERVER}(platform|migrations|testing)/`;
// Tests and the test helpers kept in a feature's `testing/` folder.
const TEST_CODE = '(\\.test\\.tsx?$|/testing/)';

/** From one feature folder, another feature is reached only through its `index.ts`. */
function throughIndex(name, features, extra = {}) {
  return {
    name,
    severity: 'error',
    comment:
      'A feature imports another feature only through its index.ts: export what you need there (or move shared code to platform/ or lib/).',
    from: { path: `${features}([^/]+)/`, ...(extra.fromPathNot ? { pathNot: extra.fromPathNot } : {}) },
    to: {
      path: `${features}[^/]+/`,
      pathNot: [`${features}$1/`, `${features}[^/]+/index\\.tsx?$`, ...(extra.toPathNot ?? [])],
    },
  };
}

module.exports = {
  forbidden: [
    throughIndex('server-feature-through-index', SERVER, {
      fromPathNot: [TEST_CODE, `${SERVER}workers/`],
      toPathNot: [SERVER_SHARED],
    }),
    // Tests may also use the helpers in another feature's `testing/` folder (fixtures, fake identity providers).
    {
      ...throughIndex('server-test-through-index', SERVER, {
        toPathNot: [SERVER_SHARED, `${SERVER}[^/]+/testing/`],
      }),
      from: { path: `${SERVER}([^/]+)/`, pathNot: `^(?!.*${TEST_CODE})` },
    },
    // The one exception: the worker threads' task table takes each feature's tasks.ts directly, because an
    // index would load the feature's routes (and what they import) into every worker thread.
    {
      ...throughIndex('server-workers-take-tasks', SERVER, {
        toPathNot: [SERVER_SHARED, `${SERVER}[^/]+/tasks\\.ts$`],
      }),
      from: { path: `${SERVER}(workers)/` },
    },
    {
      name: 'platform-imports-no-feature',
      severity: 'error',
      comment: 'platform/ imports no feature: move what it needs into platform/, or let the feature pass it in.',
      from: { path: `${SERVER}platform/`, pathNot: TEST_CODE },
      to: { path: SERVER, pathNot: `${SERVER}(platform|migrations)/` },
    },
    throughIndex('console-feature-through-index', `${CONSOLE}features/`),
    {
      name: 'console-lib-imports-no-feature',
      severity: 'error',
      comment: 'lib/ imports no feature: features import lib, never the other way.',
      from: { path: `${CONSOLE}lib/` },
      to: { path: `${CONSOLE}(features|app)/` },
    },
    {
      name: 'apps-and-packages-apart',
      severity: 'error',
      comment: 'The console never imports the server (and packages no app): share code through packages/.',
      from: { path: '^(apps/console|packages)/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'This import resolves to nothing: a typo, or a package missing from package.json.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.data|test-results|playwright-report)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
