// Discovery through DiscoveryService against the scripted server, for the notes (not a test):
//   (a) the latency from sending a message to the first streamed character (onText), for a first
//       message and for an answer (which saves the answer to the round file first), median of 20;
//   (b) the prompt tokens each model call of a 3-round conversation sends, as the scripted
//       server's stand-in for the prompt cache reports them, with cache reads and without (the
//       cache emptied before every call, as when calls are more than the cache's lifetime apart).
// `node scripts/bench/discovery.mjs`. The TypeScript sources load through tsx; no build needed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'tsx';

const RUNS = 20;
const WARMUP = 3;
const KEY = 'sk-ant-bench-not-a-real-key';

const cjs = async (path) => (await import(path)).default;
const { startScriptedModelServer, reply, lastUserText } = await cjs('../../test/support/scriptedModelServer.ts');
const { DiscoveryService } = await cjs('../../src/core/discovery/discoveryService.ts');
const { openWorkspaceStore } = await cjs('../../src/core/node/openWorkspace.ts');
const { modelFromEnv, loadCliRole } = await cjs('../../src/cli/modelDeps.ts');
const { systemClock } = await cjs('../../src/core/clock.ts');

// Replies of a realistic size: five questions a round, then a brief.
const questions = (round) =>
  [
    `Round ${round}: a few things decide the shape of this.`,
    '1. Who will use it day to day, and how many people are they?',
    '2. Which records must it keep (contacts, companies, deals, notes, tasks)?',
    '3. Where does the data come from today: spreadsheets, email, another tool?',
    '4. Web, desktop or mobile, and does it need to work offline?',
    '5. Is there a deadline or a budget that limits the first version?',
  ].join('\n');
const BRIEF = [
  'IDEA_BRIEF:',
  'One-line summary: A web CRM for a five-person sales team',
  'Problem: Leads and follow-ups are lost in shared spreadsheets.',
  'Users: Five salespeople and their manager.',
  'MVP scope: Contacts, companies, a deal pipeline, reminders, CSV import.',
  'Technology: TypeScript, Node.js, SQLite, a server-rendered web UI.',
  'Out of scope: Invoicing, marketing email, mobile apps.',
  'Key decisions: Web only; one shared workspace; email login.',
  'Constraints: Two weeks; runs on one small server.',
].join('\n');
const ANSWERS = [
  'Five salespeople and a manager. Contacts, companies and deals, with notes. Today it is a shared Google Sheet plus Gmail. Web is fine, no offline. Two weeks.',
  'Gmail, about 2,000 contacts, we import from CSV once. The manager wants a pipeline board. No budget for paid services.',
  'Email login is enough. Reminders by email would be nice. Nothing else.',
];

// The round a call is for, from the prompt's header line.
const roundOf = (body) => /Discovery round (\d)\/3(: your questions are answered)?/.exec(lastUserText(body));
const server = await startScriptedModelServer([
  {
    name: 'discovery',
    times: Infinity,
    reply: (body) => {
      const m = roundOf(body);
      const final = m?.[2] !== undefined;
      // The marker line is held back by the stream filter, so the first visible character is in the second chunk.
      return final
        ? reply.text(['DISCOVERY_COMPLETE\n', BRIEF])
        : reply.text(['DISCOVERY_QUESTIONS\n', questions(Number(m?.[1] ?? 1))]);
    },
  },
]);

const dir = await mkdtemp(join(tmpdir(), 'groundwork-bench-discovery-'));
const store = openWorkspaceStore(dir);
const model = modelFromEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.baseURL });
// As the panel once did (src/vscode/discoverySetup.ts now caches them): the role files read again for every call, so
// an edited override applies to the next one. The second service loads them once, as the CLI does.
const loadRole = () => loadCliRole('build-discovery', store, (l) => console.error(l));
const service = new DiscoveryService({ store, llm: model.llm, clock: systemClock, role: loadRole, ttlMinutes: 30 });
let once;
const serviceRoleOnce = new DiscoveryService({
  store,
  llm: model.llm,
  clock: systemClock,
  role: () => (once ??= loadRole()),
  ttlMinutes: 30,
});
const options = (onText) => ({ lang: 'en', signal: new AbortController().signal, force: true, onText });

/** ms from calling `send` to the first streamed character, and the turn's total. */
async function timed(send) {
  let first;
  const t0 = performance.now();
  const result = await send(options(() => (first ??= performance.now() - t0)));
  return { first, total: performance.now() - t0, result };
}

let n = 0;
const cold = await timed((o) => service.handle(`cold-${n++}`, 'Build me a CRM', o));
const latency = { first: [], answer: [], firstOnce: [], answerOnce: [] };
for (let i = 0; i < WARMUP + RUNS; i++) {
  // Alternate which service goes first, so neither always runs on the connection the other warmed.
  const order =
    i % 2 === 0
      ? [
          [service, ''],
          [serviceRoleOnce, 'Once'],
        ]
      : [
          [serviceRoleOnce, 'Once'],
          [service, ''],
        ];
  for (const [svc, suffix] of order) {
    const session = `latency-${suffix}-${i}`;
    const a = await timed((o) => svc.handle(session, 'Build me a CRM', o));
    const b = await timed((o) => svc.handle(session, ANSWERS[0], o));
    if (i >= WARMUP) {
      latency[`first${suffix}`].push(a);
      latency[`answer${suffix}`].push(b);
    }
    await svc.cancel(session, 'en');
  }
}

/** One 3-round conversation; each call's usage. */
async function conversation(session, beforeEachCall) {
  const calls = [];
  const messages = ['Build me a CRM', ...ANSWERS];
  for (const text of messages) {
    beforeEachCall();
    const { result } = await timed((o) => service.handle(session, text, o));
    calls.push({ kind: result.outcome.kind, usage: result.usage });
    if (result.outcome.kind === 'complete') break;
  }
  return calls;
}
server.cache.clear();
const cached = await conversation('tokens-cached', () => undefined);
const uncached = await conversation('tokens-uncached', () => server.cache.clear());

await server.close();
await rm(dir, { recursive: true, force: true });
if (server.unmatched.length) throw new Error(`${server.unmatched.length} requests were not scripted`);

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => sorted(xs)[Math.max(0, Math.ceil(p * xs.length) - 1)];
const ms = (x) => `${x.toFixed(2).padStart(8)} ms`;
const latencyRow = (label, rs) => {
  const f = rs.map((r) => r.first);
  return `${label.padEnd(44)} ${ms(pct(f, 0.5))} ${ms(pct(f, 0.9))} ${ms(sorted(f)[0])} ${ms(
    pct(
      rs.map((r) => r.total),
      0.5,
    ),
  )}`;
};

console.log(
  `(a) send → first streamed character, DiscoveryService + AnthropicClient + SDK, scripted server on 127.0.0.1`,
);
console.log(
  `    (no wait before the first chunk: this is what Groundwork adds to the model's own time to first token)`,
);
console.log(
  `    ${RUNS} runs each after ${WARMUP} warm-up runs; Node ${process.version}; round files on ${tmpdir()}\n`,
);
console.log(
  `${''.padEnd(44)} ${'median'.padStart(11)} ${'p90'.padStart(11)} ${'min'.padStart(11)} ${'whole turn'.padStart(11)}`,
);
console.log('roles read for every call (for comparison; neither front end does this now):');
console.log(latencyRow('  first message (no round file yet)', latency.first));
console.log(latencyRow('  an answer (saved to the round file first)', latency.answer));
console.log('roles read once (the CLI per process; the panel until .groundwork/ changes):');
console.log(latencyRow('  first message (no round file yet)', latency.firstOnce));
console.log(latencyRow('  an answer (saved to the round file first)', latency.answerOnce));
console.log(
  `first call of the process (loads the SDK and the role): first character after ${cold.first.toFixed(1)} ms\n`,
);

const tokenRow = (i, c) => {
  const u = c.usage;
  const total = u.inputTokens + u.cacheReadTokens + u.cacheCreationTokens;
  return `${String(i + 1).padStart(4)}  ${c.kind.padEnd(9)} ${String(total).padStart(7)} ${String(u.inputTokens).padStart(7)} ${String(u.cacheReadTokens).padStart(11)} ${String(u.cacheCreationTokens).padStart(12)}`;
};
const sum = (calls, f) => calls.reduce((n, c) => n + f(c.usage), 0);
for (const [label, calls] of [
  ['with cache reads (calls within the cache lifetime)', cached],
  ['without cache reads (cache emptied before each call)', uncached],
]) {
  console.log(`(b) prompt tokens per model call, ${label}`);
  console.log(`call  reply       total   input  cache read  cache write`);
  calls.forEach((c, i) => console.log(tokenRow(i, c)));
  const total = sum(calls, (u) => u.inputTokens + u.cacheReadTokens + u.cacheCreationTokens);
  console.log(
    `sum              ${String(total).padStart(7)} ${String(sum(calls, (u) => u.inputTokens)).padStart(7)} ${String(sum(calls, (u) => u.cacheReadTokens)).padStart(11)} ${String(sum(calls, (u) => u.cacheCreationTokens)).padStart(12)}\n`,
  );
}
console.log("Tokens are the stand-in's estimate (4 characters a token, the real tokenizer differs); it caches any");
console.log('prefix, where the API caches only prefixes of at least 1,024 tokens (Sonnet).');
