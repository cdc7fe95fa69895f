// The agent runtime's own overhead, for the notes (not a test): `npm run bench:agent`.
//   (a) ms per tool turn for 200 turns that each write a small file, against an instant in-process
//       model (no network, no model time): what the runtime itself costs per turn (the transcript
//       append, run.json, changes.json, the write, the events);
//   (b) ms per turn for 20 turns that each run `node -e 0` (pre-approved) through the real
//       NodeCommandRunner, and the same minus the command's own time;
//   (c) the longest the event loop was blocked while a run streamed text and wrote files (the
//       extension host runs the same code: nothing there may freeze VS Code).
// Medians of 5 repeats, side by side. The TypeScript sources load through tsx; no build needed.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'tsx';

const REPEATS = 5;
const cjs = async (path) => (await import(path)).default;
const { AgentRunner } = await cjs('../../src/core/run/agentRun.ts');
const { RunStore } = await cjs('../../src/core/run/runStore.ts');
const { openWorkspaceStore } = await cjs('../../src/core/node/openWorkspace.ts');
const { NodeCommandRunner } = await cjs('../../src/core/node/nodeCommandRunner.ts');
const { SleepLog } = await cjs('../../src/core/sleep/sleepLog.ts');
const { Journal } = await cjs('../../src/core/journal/journal.ts');
const { parseJournalEntry } = await cjs('../../src/core/journal/journalEntry.ts');
const { systemClock } = await cjs('../../src/core/clock.ts');
const { secureRandomBytes } = await cjs('../../src/core/prompt/untrustedText.ts');
const { RunPrinter } = await cjs('../../src/core/run/runLines.ts');

const ROLE = {
  name: 'build-developer',
  description: 'bench',
  tools: ['read_file', 'write_file', 'edit_file', 'list_files', 'search', 'run_command', 'report_discovery', 'sleep'],
  model: { tier: 'fast' },
  permissionMode: 'workspaceWrite',
  maxTurns: 500,
  prompt: 'bench',
};
const USAGE = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheCreationTokens: 0 };

/** An instant model: `turns` tool turns made by `tool(i)`, each after `text(i)`, then an answer. */
function instantModel(turns, tool, text = () => '') {
  let i = 0;
  return {
    async *stream() {
      const n = i++;
      const said = text(n);
      if (said) for (const chunk of said.match(/[\s\S]{1,40}/g) ?? []) yield { type: 'text', text: chunk };
      if (n < turns) yield { type: 'tool_use', id: `toolu_${n}`, name: tool(n).name, input: tool(n).input };
      yield { type: 'usage', model: 'claude-sonnet-4-5', usage: USAGE };
      yield { type: 'stop', reason: n < turns ? 'tool_use' : 'end_turn' };
    },
  };
}

async function oneRun(turns, tool, text, approve = []) {
  const ws = await mkdtemp(join(tmpdir(), 'groundwork-bench-agent-'));
  try {
    const store = openWorkspaceStore(ws);
    const runs = new RunStore(store);
    const printer = new RunPrinter();
    let printed = 0;
    const runner = new AgentRunner({
      store,
      runs,
      llm: instantModel(turns, tool, text),
      clock: systemClock,
      hash: (b) => createHash('sha256').update(b).digest('hex'),
      random: secureRandomBytes,
      commands: new NodeCommandRunner(),
      isTrusted: () => true,
      autoApprove: () => [],
      sleepMaxSeconds: () => 60,
      sleepLog: new SleepLog(store.log('sleep.jsonl', SleepLog.parseRecord), systemClock),
      journal: new Journal(store.log('discoveries.jsonl', parseJournalEntry), systemClock),
      wait: (ms) => new Promise((r) => setTimeout(r, ms)),
      eventDone: async () => false,
      origin: 'cli',
    });
    let commandMs = 0;
    const started = performance.now();
    const run = await runner.start(
      { role: ROLE, task: 'bench', root: ws, approve },
      new AbortController().signal,
      (event) => {
        // What a terminal does with each event, so its cost is counted.
        for (const piece of printer.print(event)) printed += piece.text.length;
        if (event.type === 'exit') commandMs += event.durationMs;
      },
    );
    const ms = performance.now() - started;
    if (run.status !== 'completed') throw new Error(`bench run ${run.status}: ${run.reason}`);
    return { perTurn: ms / run.turns, ownPerTurn: (ms - commandMs) / run.turns, printed };
  } finally {
    await rm(ws, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const writes = [];
const commands = [];
const commandsOwn = [];
const blocks = [];
for (let r = 0; r < REPEATS; r++) {
  writes.push(
    (
      await oneRun(200, (i) => ({
        name: 'write_file',
        input: { path: `src/file-${i % 20}.js`, content: `export const n = ${i};\n`.repeat(10) },
      }))
    ).perTurn,
  );
  const c = await oneRun(20, () => ({ name: 'run_command', input: { command: 'node -e 0' } }), undefined, [
    'node -e 0',
  ]);
  commands.push(c.perTurn);
  commandsOwn.push(c.ownPerTurn);
  // (c): a 1 ms ticker measures the longest gap between ticks while a run streams 2 KB of text a turn and writes.
  let last = performance.now();
  let worst = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await oneRun(
    100,
    (i) => ({ name: 'write_file', input: { path: `out/${i}.txt`, content: 'x'.repeat(20_000) } }),
    (i) => `Turn ${i}: ${'thinking aloud about the design. '.repeat(60)}`,
  );
  clearInterval(ticker);
  blocks.push(worst);
}

const f = (x) => x.toFixed(2).padStart(8);
console.log(`agent runtime, median of ${REPEATS} repeats (all repeats in brackets)`);
console.log(
  `  ms per turn, 200 small writes        ${f(median(writes))}   [${writes.map((x) => x.toFixed(2)).join(', ')}]`,
);
console.log(
  `  ms per turn, 20 × node -e 0          ${f(median(commands))}   [${commands.map((x) => x.toFixed(2)).join(', ')}]`,
);
console.log(
  `  … of which the runtime's own          ${f(median(commandsOwn))}   [${commandsOwn.map((x) => x.toFixed(2)).join(', ')}]`,
);
console.log(
  `  longest event-loop block while streaming (ms) ${f(median(blocks))}   [${blocks.map((x) => x.toFixed(1)).join(', ')}]`,
);
