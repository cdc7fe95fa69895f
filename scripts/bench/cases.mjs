// The discovery-case store's own cost, for the notes (not a test): `npm run bench:cases`.
// Real files in a temp folder, through the real node adapters (openWorkspaceStore, node:crypto's
// SHA-256 as the Sha256 port). Printed, medians of 5 repeats side by side with the aims:
//   (a) loading a cases.jsonl of 100,000 realistic cases (content of 100–300 characters; mixed
//       scopes, statuses, impacts, categories and agents; archived, outdated, deleted and
//       validated ones with their metadata; 2,000 of them changed later, so their newer line is
//       appended at the end: 102,000 lines, some 60 MB, in the OS's file cache), a fresh CaseStore each
//       repeat so nothing is cached: the wall time, and the longest the event loop was held at once meanwhile (the
//       largest gap between the ticks of a 1 ms heartbeat: what the extension host would feel);
//   (b) the curator (Curator, which dedups by content hash) adding 1,000 distinct reports to a store
//       that already holds 1,000 cases (with its counters.json), a fresh store and curator each
//       repeat: one at a time (each awaited before the next; the median of the 1,000 adds, and
//       their 95th percentile), and as a burst (1,000 submitted at once: total, and per case);
//   (c) building the injection block (discoveryBlock) from the 100,000 loaded cases for one agent.
// Also printed: the heap the 100,000 loaded cases keep (after a full collection), for the record,
// and for scale the same file only JSON.parse'd line by line into a Map, nothing checked or kept
// from the event loop (what V8 itself needs to make 100,000 such objects on this machine).
// Garbage from one repeat is collected before the next, when the engine lets the script ask.
// The TypeScript sources load through tsx; no build needed.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import 'tsx';

const REPEATS = 5;
const LOADED = 100_000;
const CHANGED_LATER = 2_000;
const SEEDED = 1_000;
const ADDED = 1_000;
const AGENT = 'developer';

const cjs = async (path) => (await import(path)).default;
const { CaseStore } = await cjs('../../src/core/cases/caseStore.ts');
const { Curator } = await cjs('../../src/core/cases/curator.ts');
const { discoveryBlock } = await cjs('../../src/core/cases/injection.ts');
const { serializeCase, newCase } = await cjs('../../src/core/cases/caseRecord.ts');
const { formatCaseId } = await cjs('../../src/core/cases/caseId.ts');
const { openWorkspaceStore } = await cjs('../../src/core/node/openWorkspace.ts');
const { systemClock } = await cjs('../../src/core/clock.ts');

const hash = (bytes) => createHash('sha256').update(bytes).digest('hex');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
setFlagsFromString('--expose-gc');
const gc = runInNewContext('typeof gc === "function" ? gc : undefined');

// A small deterministic generator, so every run measures the same file.
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (list) => list[Math.floor(rand() * list.length)];

const SUBJECTS = [
  'The payments API',
  'The auth middleware',
  'The migration runner',
  'The React form hook',
  'The build script',
  'The gateway client',
  'The test fixtures',
  'The CSV importer',
  'The session store',
  'The search index',
  'The mailer',
  'The rate limiter',
];
const FACTS = [
  'retries a 502 from the upstream three times with backoff before it gives up, so call sites must not retry again',
  'expects dates as ISO-8601 strings in UTC; a local time is stored shifted by the server offset',
  'needs the DATABASE_URL variable set before the first import, or it connects to the default port',
  'uses vitest, not jest: the mocks are vi.fn() and the config lives in vite.config.ts',
  'goes through the gateway for every call; direct calls to the service bypass the quota checks',
  'requires cleanup in the effect, otherwise the subscription leaks on each re-render of the list',
  'breaks when two migrations share a timestamp; name them with the full date and a sequence number',
  'keeps its tokens for one hour only; refresh them before a long import or the import fails halfway',
  'should be called with the tenant id first; the older signature is kept only for the admin scripts',
  'returns 429 past 100 requests a minute per key; batch the lookups instead of looping over them',
  'formats money in minor units (cents); divide by 100 only at the edge, in the view',
  'prefers named exports; the lint rule import/no-default-export is on for the whole package',
];
const TAILS = [
  '',
  ' See src/payments/client.ts.',
  ' Checked against the staging database.',
  ' Found while fixing the flaky e2e test.',
  ' The README is wrong about this.',
  ' Confirmed with the team lead.',
];
const AGENTS = ['developer', 'qa', 'architect', 'reviewer', 'analyst', 'devops'];
const IMPACTS = ['low', 'medium', 'medium', 'high', 'high', 'critical'];
const CATEGORIES = ['Architecture', 'Conventions', 'Testing', 'Errors', 'API', 'Dependencies', 'Database', 'Frontend'];
const T0 = Date.UTC(2024, 5, 1);

function content(n) {
  let text = `${pick(SUBJECTS)} ${pick(FACTS)}.${pick(TAILS)} (#${n})`;
  while (text.length < 100) text += ` ${pick(FACTS)}.`;
  return text.length > 300 ? `${text.slice(0, 290).trimEnd()} (#${n})` : text;
}

function makeCase(n) {
  const created = new Date(T0 + n * 300_000 + Math.floor(rand() * 60_000)).toISOString();
  const agent = pick(AGENTS);
  const task = rand() < 0.9 ? `build-${Math.floor(n / 200)}/${agent}` : undefined;
  const draft = {
    content: content(n),
    scope: rand() < 0.6 ? 'global' : 'local',
    impact: pick(IMPACTS),
    category: pick(CATEGORIES),
    sourceAgentId: agent,
    ...(task ? { sourceTaskId: task } : {}),
  };
  const c = newCase(formatCaseId(n), draft, created);
  return {
    ...c,
    metadata: {
      ...c.metadata,
      appliedTo: Array.from({ length: Math.floor(rand() * 4) }, (_, i) => `build-${Math.floor(n / 200) + i + 1}/qa`),
    },
  };
}

/** The case changed: archived, outdated, deleted or validated, with the metadata that goes with it. */
function changed(c) {
  const at = new Date(Date.parse(c.createdAt) + 86_400_000).toISOString();
  const r = rand();
  if (r < 0.4)
    return {
      ...c,
      status: 'archived',
      updatedAt: at,
      metadata: { ...c.metadata, archivedAt: at, archivedReason: 'parent_task_completed' },
    };
  if (r < 0.65)
    return {
      ...c,
      status: 'outdated',
      updatedAt: at,
      metadata: {
        ...c.metadata,
        outdatedAt: at,
        outdatedReason: 'affected files modified',
        outdatedCommit: hash(c.id).slice(0, 40),
      },
    };
  if (r < 0.75) return { ...c, status: 'deleted', updatedAt: at, metadata: { ...c.metadata, deletedAt: at } };
  return { ...c, validatedAt: at, updatedAt: at, metadata: { ...c.metadata, validated: true } };
}

/** cases.jsonl of `count` cases, about a third of them no longer active, and `later` changed afterwards. */
function casesFile(count, later) {
  seed = 42;
  const lines = [];
  const cases = [];
  for (let n = 1; n <= count; n++) {
    const c = makeCase(n);
    cases.push(c);
    lines.push(serializeCase(rand() < 0.3 ? changed(c) : c));
  }
  for (let i = 0; i < later; i++) lines.push(serializeCase(changed(cases[Math.floor(rand() * count)])));
  return lines.join('');
}

async function workspace(file, counter) {
  const ws = await mkdtemp(join(tmpdir(), 'groundwork-bench-cases-'));
  await mkdir(join(ws, '.groundwork/metrics'), { recursive: true });
  await writeFile(join(ws, '.groundwork/cases.jsonl'), file);
  await writeFile(
    join(ws, '.groundwork/metrics/counters.json'),
    `${JSON.stringify({ discovery: counter }, null, 2)}\n`,
  );
  return ws;
}

/** Runs `fn` under a 1 ms heartbeat; returns its time and the longest gap between two beats. */
async function heldAtMost(fn) {
  let last = performance.now();
  let longest = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const value = await fn();
  const ms = performance.now() - started;
  clearInterval(beat);
  longest = Math.max(longest, performance.now() - last);
  return { value, ms, longest };
}

const bigFile = casesFile(LOADED, CHANGED_LATER);
const bigWs = await workspace(bigFile, LOADED);
const seededFile = casesFile(SEEDED, 0);
const temps = [bigWs];
const report = (n) => ({
  scope: n % 3 === 0 ? 'local' : 'global',
  content: `A new learning: ${content(LOADED + n)}`,
  taskId: `build-bench/${pick(AGENTS)}`,
  agentId: pick(AGENTS),
});

async function oneLoad() {
  gc?.();
  const store = new CaseStore(openWorkspaceStore(bigWs), systemClock, hash);
  const { value, ms, longest } = await heldAtMost(() => store.load());
  if (value.cases.length !== LOADED || value.problems.length !== 0)
    throw new Error(`loaded ${value.cases.length} cases, ${value.problems.length} problems`);
  return { ms, longest, cases: value.cases };
}

/** For scale, not a product path: the same file read and each line only JSON.parse'd, kept in a Map, nothing checked. */
async function oneReference() {
  gc?.();
  const started = performance.now();
  const text = new TextDecoder().decode(await readFile(join(bigWs, '.groundwork/cases.jsonl')));
  const cases = new Map();
  for (let from = 0, at = text.indexOf('\n'); at >= 0; from = at + 1, at = text.indexOf('\n', from)) {
    const c = JSON.parse(text.slice(from, at));
    cases.set(c.id, c);
  }
  if (cases.size !== LOADED) throw new Error(`the reference read ${cases.size} cases`);
  return performance.now() - started;
}

/** MB of heap one loaded store keeps; undefined when the engine does not let the script collect. */
async function heapKept() {
  if (gc === undefined) return undefined;
  gc();
  const before = process.memoryUsage().heapUsed;
  const stores = [new CaseStore(openWorkspaceStore(bigWs), systemClock, hash)];
  await stores[0].load();
  gc();
  const mb = (process.memoryUsage().heapUsed - before) / 1e6;
  stores.pop(); // held until measured
  return mb;
}

async function oneByOne() {
  const ws = await workspace(seededFile, SEEDED);
  temps.push(ws);
  gc?.();
  const curator = new Curator({ store: new CaseStore(openWorkspaceStore(ws), systemClock, hash) });
  const times = [];
  for (let i = 0; i < ADDED; i++) {
    const started = performance.now();
    const result = await curator.submit(report(i));
    times.push(performance.now() - started);
    if (result.kind !== 'created') throw new Error(`report ${i} was a ${result.kind}`);
  }
  return { median: median(times), p95: percentile(times, 0.95), first: times[0] };
}

async function burst() {
  const ws = await workspace(seededFile, SEEDED);
  temps.push(ws);
  gc?.();
  const curator = new Curator({ store: new CaseStore(openWorkspaceStore(ws), systemClock, hash) });
  const { value, ms, longest } = await heldAtMost(() =>
    Promise.all(Array.from({ length: ADDED }, (_, i) => curator.submit(report(i)))),
  );
  if (value.some((r) => r.kind !== 'created')) throw new Error('a report of the burst was not created');
  return { ms, perCase: ms / ADDED, longest };
}

try {
  const cold = await oneLoad(); // warm-up: module loading, the first compilation of the parsers
  const loads = [];
  // Only the figures are kept: five stores' cases at once would weigh on the collector.
  for (let i = 0; i < REPEATS; i++) loads.push(await oneLoad().then(({ ms, longest }) => ({ ms, longest })));
  const references = [];
  for (let i = 0; i < REPEATS; i++) references.push(await oneReference());
  const kept = await heapKept();
  const blocks = [];
  let block;
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    block = await discoveryBlock(cold.cases, AGENT);
    blocks.push(performance.now() - started);
  }
  const singles = [];
  const bursts = [];
  for (let i = 0; i < REPEATS; i++) {
    singles.push(await oneByOne());
    bursts.push(await burst());
  }

  const f = (x) => x.toFixed(2).padStart(9);
  const row = (label, xs, aim = '') =>
    console.log(`  ${label.padEnd(52)}${f(median(xs))}  ${aim.padEnd(10)}[${xs.map((x) => x.toFixed(2)).join(', ')}]`);
  console.log(
    `discovery cases, median of ${REPEATS} repeats (all repeats in brackets); ${(bigFile.length / 1e6).toFixed(1)} MB of cases.jsonl`,
  );
  console.log(`  ${''.padEnd(52)}${'median'.padStart(9)}  ${'aim'.padEnd(10)}`);
  row(
    `ms, load ${LOADED.toLocaleString('en')} cases`,
    loads.map((r) => r.ms),
    '< 400',
  );
  row(
    'ms, … longest the event loop was held',
    loads.map((r) => r.longest),
    '<= 50',
  );
  row('ms, … for scale: JSON.parse of each line into a Map', references);
  console.log(
    `  (first load in the process, JIT cold: ${cold.ms.toFixed(0)} ms, held at most ${cold.longest.toFixed(0)} ms)`,
  );
  if (kept !== undefined)
    console.log(`  (the ${LOADED.toLocaleString('en')} loaded cases keep ${kept.toFixed(0)} MB of heap)`);
  row(
    `ms per add, curator one at a time (${SEEDED.toLocaleString('en')} held)`,
    singles.map((r) => r.median),
    '< 2',
  );
  row(
    'ms, … 95th percentile of the adds',
    singles.map((r) => r.p95),
  );
  row(
    'ms, … the first add (reads the store, first fsyncs)',
    singles.map((r) => r.first),
  );
  row(
    `ms, curator burst of ${ADDED.toLocaleString('en')} at once, total`,
    bursts.map((r) => r.ms),
  );
  row(
    'ms per case, … of the burst',
    bursts.map((r) => r.perCase),
    '< 2',
  );
  row(
    'ms, … longest the event loop was held',
    bursts.map((r) => r.longest),
  );
  row(`ms, injection block from ${LOADED.toLocaleString('en')} cases (${AGENT})`, blocks);
  console.log(
    `  (the block carries ${block.globalIds.length} global and ${block.localIds.length} local cases, ${block.text.length} characters)`,
  );
} finally {
  await Promise.all(temps.map((ws) => rm(ws, { recursive: true, force: true })));
}
