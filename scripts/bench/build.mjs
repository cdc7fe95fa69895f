// The build orchestrator's own cost, for the notes (not a test): `npm run bench:build`.
// A seven-phase build (test/support/buildScript.ts: the analyst to delivery, QA failing once, so
// nine phase runs and eighteen model calls) against the scripted model server on 127.0.0.1, which
// answers at once, through the real SDK client, the real agent runtime, real files and the real
// `node --test` re-run. Printed, medians of 5 repeats side by side:
//   - the wall time of the whole build, the model's time (each request's time at the server), the
//     commands' time (Groundwork's own re-run), and what remains: ours (orchestrator + runtime +
//     SDK client), and of that the orchestrator's alone (the time outside the agent runs: build.yaml,
//     the log and audit lines, the checks, the project files, the report);
//   - the final verification after delivery (the test contract hashed and compared, the frozen
//     TEST command re-run, its tests counted, the requirements marked), and of that its command;
//   - the input tokens sent per phase (input + cache writes + cache reads, as the server counts
//     them), and whether every request marked its stable prefix for caching.
// The TypeScript sources load through tsx; no build needed.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'tsx';

const REPEATS = 5;
const cjs = async (path) => (await import(path)).default;
const { BuildRunner } = await cjs('../../src/core/build/buildRunner.ts');
const { BuildStore } = await cjs('../../src/core/build/buildStore.ts');
const { parseWorkflow } = await cjs('../../src/core/build/workflow.ts');
const { AgentRunner } = await cjs('../../src/core/run/agentRun.ts');
const { RunStore } = await cjs('../../src/core/run/runStore.ts');
const { openWorkspaceStore } = await cjs('../../src/core/node/openWorkspace.ts');
const { NodeCommandRunner } = await cjs('../../src/core/node/nodeCommandRunner.ts');
const { SleepLog } = await cjs('../../src/core/sleep/sleepLog.ts');
const { Journal } = await cjs('../../src/core/journal/journal.ts');
const { parseJournalEntry } = await cjs('../../src/core/journal/journalEntry.ts');
const { systemClock } = await cjs('../../src/core/clock.ts');
const { secureRandomBytes } = await cjs('../../src/core/prompt/untrustedText.ts');
const { modelFromEnv, loadCliRole } = await cjs('../../src/cli/modelDeps.ts');
const { startScriptedModelServer } = await cjs('../../test/support/scriptedModelServer.ts');
const { buildRules, BRIEF_MD, VERIFY } = await cjs('../../test/support/buildScript.ts');
const { readFileSync } = await import('node:fs');

const repo = join(import.meta.dirname, '../..');
const workflow = parseWorkflow(
  readFileSync(join(repo, 'roles/build.workflow.yaml'), 'utf8'),
  'roles/build.workflow.yaml',
);
if (!workflow.ok) throw new Error('the bundled workflow does not parse');
const hash = (b) => createHash('sha256').update(b).digest('hex');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function oneBuild() {
  const server = await startScriptedModelServer(buildRules());
  const ws = await mkdtemp(join(tmpdir(), 'groundwork-bench-build-'));
  try {
    await writeFile(join(ws, 'brief.md'), BRIEF_MD);
    const store = openWorkspaceStore(ws);
    const model = modelFromEnv({ ANTHROPIC_API_KEY: 'sk-ant-bench-0123456789', ANTHROPIC_BASE_URL: server.baseURL });
    const gate = { commands: new NodeCommandRunner(), isTrusted: () => true, autoApprove: () => [] };
    const agents = new AgentRunner({
      store,
      runs: new RunStore(store),
      llm: model.llm,
      clock: systemClock,
      hash,
      random: secureRandomBytes,
      ...gate,
      sleepMaxSeconds: () => 60,
      sleepLog: new SleepLog(store.log('sleep.jsonl', SleepLog.parseRecord), systemClock),
      journal: new Journal(store.log('discoveries.jsonl', parseJournalEntry), systemClock),
      wait: (ms) => new Promise((r) => setTimeout(r, ms)),
      origin: 'cli',
    });
    const roles = new Map();
    const runner = new BuildRunner({
      store,
      builds: new BuildStore(store),
      agents,
      gate,
      clock: systemClock,
      random: secureRandomBytes,
      hash,
      loadRole: (name) =>
        roles.has(name)
          ? roles.get(name)
          : roles
              .set(
                name,
                loadCliRole(name, store, () => {}, repo),
              )
              .get(name),
      origin: 'cli',
    });
    let commandMs = 0;
    let runsMs = 0;
    const runsDone = { delivery: false };
    let runStarted = 0;
    // The final verification: from delivery's check to its own, and the command it re-ran.
    let lastCheckAt = 0;
    let finalMs = 0;
    let finalCommandMs = 0;
    const emit = (e) => {
      if (e.type === 'checked') {
        if (e.phase === 'final verification') finalMs = performance.now() - lastCheckAt;
        else lastCheckAt = performance.now();
        return;
      }
      if (e.type !== 'run') return;
      if (e.event.type === 'exit') commandMs += e.event.durationMs;
      if (e.event.type === 'exit' && lastCheckAt > 0 && e.phase === 'delivery' && runsDone.delivery)
        finalCommandMs += e.event.durationMs;
      if (e.event.type === 'ended' && e.phase === 'delivery') runsDone.delivery = true;
      // From the runtime's first event to its last: the agent run itself (its model calls included).
      if (e.event.type === 'started') runStarted = performance.now();
      if (e.event.type === 'ended') runsMs += performance.now() - runStarted;
    };
    const started = performance.now();
    const build = await runner.start(
      {
        source: { kind: 'brief', path: 'brief.md' },
        input: BRIEF_MD,
        phases: workflow.workflow.phases,
        approve: [VERIFY],
        name: 'bench',
      },
      new AbortController().signal,
      emit,
    );
    const totalMs = performance.now() - started;
    if (build.status !== 'completed') throw new Error(`the build ${build.status}: ${build.reason}`);
    const modelMs = server.requests.reduce((n, q) => n + ((q.finishedAt ?? q.receivedAt) - q.receivedAt), 0);
    const cached = server.requests.every((q) => JSON.stringify(q.body).includes('"cache_control"'));
    const tokens = new Map();
    for (const phase of build.phases) {
      for (const a of phase.attempts) {
        const u = a.usage;
        if (u)
          tokens.set(
            phase.name,
            (tokens.get(phase.name) ?? 0) + u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens,
          );
      }
    }
    return {
      totalMs,
      modelMs,
      commandMs,
      ownMs: totalMs - modelMs - commandMs,
      orchestratorMs: totalMs - runsMs - commandMs,
      finalMs,
      finalCommandMs,
      calls: server.requests.length,
      cached,
      tokens,
    };
  } finally {
    await server.close();
    await rm(ws, { recursive: true, force: true });
  }
}

await oneBuild(); // warm-up: module loading, the SDK's first import
const runs = [];
for (let i = 0; i < REPEATS; i++) runs.push(await oneBuild());
const f = (x) => x.toFixed(1).padStart(8);
const row = (label, pick) =>
  console.log(
    `  ${label.padEnd(44)}${f(median(runs.map(pick)))}   [${runs.map((r) => pick(r).toFixed(1)).join(', ')}]`,
  );
console.log(
  `build orchestrator, seven phases (${runs[0].calls} model calls), median of ${REPEATS} repeats (all repeats in brackets)`,
);
row('ms, whole build', (r) => r.totalMs);
row('ms, the model (at the scripted server)', (r) => r.modelMs);
row('ms, commands (node --test re-run)', (r) => r.commandMs);
row('ms, ours (orchestrator + runtime + client)', (r) => r.ownMs);
row('ms, … of which the orchestrator (outside runs)', (r) => r.orchestratorMs);
row('ms, final verification (all of it)', (r) => r.finalMs);
row('ms, … its node --test re-run', (r) => r.finalCommandMs);
row('ms, … the rest (contract hashed, tests counted, specs marked)', (r) => r.finalMs - r.finalCommandMs);
console.log(`  every request marked its stable prefix for caching: ${runs.every((r) => r.cached) ? 'yes' : 'NO'}`);
console.log('  input tokens sent per phase (input + cache writes + cache reads; median):');
for (const phase of workflow.workflow.phases)
  console.log(
    `    ${phase.name.padEnd(14)}${String(median(runs.map((r) => r.tokens.get(phase.name) ?? 0))).padStart(8)}`,
  );
