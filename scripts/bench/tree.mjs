// What the plan explorer's model costs, for the notes (not a test): `npm run bench:tree`.
// Printed, medians of 5 repeats side by side with the aims, for a workspace of 1,000 plans (each
// with an Idea Brief, a brainstorm's document and context and 3 rounds), 200 builds made from them
// and 10,000 discovery cases reported by those builds (and by runs of no plan):
//   (a) the model made from those facts: every plan with its documents, builds and cases, and the
//       sessions waiting with their time left; aim under 50 ms;
//   (b) its refresh after one file of one plan changed: that plan's node made again; aim under 5 ms;
//   (b') the same with the plan folder read again from a real disk (what the explorer does);
//   (c) reading all 1,000 plan folders from a real disk (explorerReader, once when the view opens).
// The TypeScript sources load through tsx; no build needed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'tsx';

const REPEATS = 5;
const PLANS = 1_000;
const BUILDS = 200;
const CASES = 10_000;
const cjs = async (path) => (await import(path)).default;
const { ExplorerTree } = await cjs('../../src/core/explorer/explorerTree.ts');
const { readExplorer, readPlanFacts } = await cjs('../../src/core/explorer/explorerReader.ts');
const { NodeWorkspaceFs } = await cjs('../../src/core/node/nodeWorkspaceFs.ts');
const { WorkspaceStore } = await cjs('../../src/core/storage/workspaceStore.ts');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const slug = (i) => `plan-${String(i).padStart(4, '0')}`;
const FILES = ['idea-brief.md', '00-brainstorming.md', '00-brainstorming.context.md', '.brainstorm-complete', 'rounds'];
const ROUNDS = ['round-1.md', 'round-2.md', 'round-3.md'];

const plans = Array.from({ length: PLANS }, (_, i) => ({ slug: slug(i), files: FILES, rounds: ROUNDS }));
const builds = Array.from({ length: BUILDS }, (_, i) => ({ id: `build-${i}`, plan: slug((i * 7) % PLANS) }));
const cases = Array.from({ length: CASES }, (_, i) => ({
  id: `disc-${String(i + 1).padStart(3, '0')}`,
  task: i % 5 === 0 ? `run-${i}` : `build-${i % BUILDS}`,
  parent: null,
}));
const now = Date.now();
const sessions = Array.from({ length: 20 }, (_, i) => ({
  kind: 'discovery',
  session: `s${i}`,
  file: `discovery/s${i}.md`,
  request: 'build me a CRM',
  round: 1,
  maxRounds: 3,
  createdMs: now - i * 60_000,
  ttlMs: 30 * 60_000,
}));

function time(fn) {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}
async function timeAsync(fn) {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Everything a view could show: each plan's node with its lists, and the sessions with their time left. */
function make() {
  const tree = new ExplorerTree({ plans, builds, cases, sessions });
  let shown = 0;
  for (const node of tree.planNodes()) shown += node.documents.length + node.builds.length + node.cases.length;
  return { tree, shown, waiting: tree.waiting(now) };
}

// The same workspace on a real disk, for the reads.
const dir = mkdtempSync(join(tmpdir(), 'gw-bench-tree-'));
for (const p of plans) {
  const folder = join(dir, '.groundwork/plans', p.slug);
  mkdirSync(join(folder, 'rounds'), { recursive: true });
  for (const f of FILES.filter((name) => name !== 'rounds')) writeFileSync(join(folder, f), '# text\n');
  for (const r of ROUNDS) writeFileSync(join(folder, 'rounds', r), 'q\n');
}
const store = new WorkspaceStore(new NodeWorkspaceFs(), dir);

const first = make();
const expected = PLANS * 6 + BUILDS + CASES - CASES / 5;
if (first.shown !== expected) throw new Error(`the model shows ${first.shown} rows, not ${expected}`);
for (let i = 0; i < 5; i++) make(); // warm-up: the JIT

const runs = { make: [], update: [], updateRead: [], read: [] };
for (let i = 0; i < REPEATS; i++) {
  runs.make.push(time(make).ms);
  const { tree } = make();
  const target = slug(7 * i);
  const changed = { slug: target, files: [...FILES, 'seeded-from.md'], rounds: [...ROUNDS, 'round-4.md'] };
  const u = time(() => tree.updatePlan(target, changed));
  if (u.value.documents.length !== 8 || u.value.builds.length === 0)
    throw new Error('the refreshed plan lost its documents or builds');
  runs.update.push(u.ms);
  runs.updateRead.push((await timeAsync(async () => tree.updatePlan(target, await readPlanFacts(store, target)))).ms);
  const r = await timeAsync(() => readExplorer(store, 30 * 60_000));
  if (r.value.plans.length !== PLANS) throw new Error(`read ${r.value.plans.length} plans`);
  runs.read.push(r.ms);
}
rmSync(dir, { recursive: true, force: true });

const f = (x) => x.toFixed(2).padStart(9);
const row = (label, xs, aim = '') =>
  console.log(`  ${label.padEnd(62)}${f(median(xs))}  ${aim.padEnd(10)}[${xs.map((x) => x.toFixed(2)).join(', ')}]`);
console.log(
  `plan explorer model, ${PLANS} plans, ${BUILDS} builds, ${CASES} cases; median of ${REPEATS} repeats (all in brackets)`,
);
console.log(`  ${''.padEnd(62)}${'median'.padStart(9)}  ${'aim'.padEnd(10)}`);
row(`ms, the model made (${expected} rows: documents, builds, cases)`, runs.make, '< 50');
row('ms, refresh after one file of one plan changed', runs.update, '< 5');
row("ms, … with that plan's folder read again from disk", runs.updateRead);
row(`ms, reading ${PLANS} plan folders from disk (when the view opens)`, runs.read);
