// `pnpm run deps`: the house rules on imports. dependency-cruiser checks the rules in .dependency-cruiser.cjs
// (features through their index.ts, platform/ and lib/ import no feature, ...) over the apps and packages;
// then this script folds the graph it built to feature folders and refuses any cycle between them.
// Biome's noImportCycles already refuses cycles between files; a cycle between folders is one level up:
// `a/x.ts → b/y.ts` and `b/z.ts → a/w.ts` are two files each, and no file cycle, yet neither feature can be
// understood (or removed) without the other.
import { createRequire } from 'node:module';
import { cruise, format } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const SOURCES = ['apps/server/src', 'apps/server/bench', 'apps/console/src', 'apps/console/bench', 'packages', 'e2e'];

/** The feature folders whose graph must have no cycle, and the folder each module belongs to. */
const FOLDERS = [
  // The control database's migrations are the platform layer's schema: counted with platform/.
  { pattern: /^apps\/server\/src\/(migrations)\//, name: () => 'server/platform' },
  { pattern: /^apps\/server\/src\/([^/]+)\//, name: (m) => `server/${m[1]}` },
  { pattern: /^apps\/console\/src\/features\/([^/]+)\//, name: (m) => `console/features/${m[1]}` },
  { pattern: /^apps\/console\/src\/(lib|components)\//, name: (m) => `console/${m[1]}` },
];

// Tests and their helpers may use several features at once (a journey fixture in an audit test); the
// folder graph is the one of the code that ships.
const isTestCode = (path) => /\.test\.tsx?$|\/testing\//.test(path);

function folderOf(path) {
  for (const { pattern, name } of FOLDERS) {
    const m = pattern.exec(path);
    if (m) return name(m);
  }
  return null;
}

/** Strongly connected components of more than one folder (Tarjan), each a set of folders in a cycle. */
function folderCycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const require = createRequire(import.meta.url);
const options = await extractDepcruiseOptions(require.resolve('../.dependency-cruiser.cjs'));
const result = await cruise(SOURCES, { ...options, validate: true, ruleSet: options.ruleSet });
const { output } = await format(result.output, { outputType: 'err' });

// folder → folder → one module-level import that makes the edge (to name in the message)
const graph = new Map();
for (const mod of result.output.modules) {
  const from = folderOf(mod.source);
  if (!from || isTestCode(mod.source)) continue;
  for (const dep of mod.dependencies) {
    const to = folderOf(dep.resolved);
    if (!to || to === from || isTestCode(dep.resolved)) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    const edges = graph.get(from);
    if (!edges.has(to)) edges.set(to, `${mod.source} → ${dep.resolved}`);
  }
}
const cycles = folderCycles(graph);

process.stdout.write(output);
for (const cycle of cycles) {
  process.stdout.write(`\n  error folder-cycle: ${cycle.join(', ')} import each other in a cycle:\n`);
  for (const a of cycle)
    for (const b of cycle) {
      const edge = graph.get(a)?.get(b);
      if (edge) process.stdout.write(`    ${edge}\n`);
    }
}
if (cycles.length > 0) {
  process.stdout.write(
    '\n  Break each cycle: move the shared rule down (platform/, or the lower feature), or let the lower feature take a callback that the app registers (as folders/ takes folder entries).\n',
  );
}
const failed = result.output.summary.error > 0 || cycles.length > 0;
process.stdout.write(
  `\n[deps] ${result.output.summary.totalCruised} modules, ${graph.size} feature folders: ${failed ? 'house rules broken' : 'house rules kept'}\n`,
);
process.exitCode = failed ? 1 : 0;
