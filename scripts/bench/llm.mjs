// Time to first token through the LlmClient port (AnthropicClient) against the raw SDK
// (client.messages.stream) on the same scripted server, interleaved, in one run. The server waits
// a fixed FIRST_CHUNK_MS before the first text delta, so both figures are that wait plus what
// each path adds. A figure for the notes, not a test: `npm run bench:llm`.
//
// The TypeScript sources load through tsx's loader, so no build (and no dist/) is needed.
import { performance } from 'node:perf_hooks';
// What `node --import tsx` loads: TypeScript for both import() and require(), process-wide, so
// the client's lazy import of the SDK resolves from its own file as it does in the extension.
import 'tsx';

const WARMUP = 5;
const RUNS = 30;
const FIRST_CHUNK_MS = 20;
const MODEL = 'claude-haiku-4-5';
const KEY = 'sk-ant-bench-not-a-real-key';
const SYSTEM = 'You are a benchmark role. '.repeat(40);
const QUESTION = 'Say hello.';

// The sources are CommonJS to Node (package.json has no "type"), so their exports are `default`.
const cjs = async (path) => (await import(path)).default;
const { startScriptedModelServer, reply } = await cjs('../../test/support/scriptedModelServer.ts');
const { AnthropicClient } = await cjs('../../src/core/node/anthropicClient.ts');

const server = await startScriptedModelServer([
  {
    name: 'bench',
    times: Infinity,
    reply: reply.text(['Hello', ' from', ' the', ' scripted', ' server.'], {
      firstChunkDelayMs: FIRST_CHUNK_MS,
      chunkDelayMs: 2,
    }),
  },
]);

// The same settings on both sides, so the difference is the port's own work.
const settings = { baseURL: server.baseURL, maxRetries: 0, timeoutMs: 10_000 };
const port = new AnthropicClient({
  apiKey: async () => KEY,
  models: () => MODEL,
  baseURL: settings.baseURL,
  limits: { maxRetries: settings.maxRetries, firstByteTimeoutMs: settings.timeoutMs },
});
const portRequest = {
  system: SYSTEM,
  messages: [{ role: 'user', content: QUESTION }],
  model: { tier: 'fast' },
  maxTokens: 256,
};

async function viaPort() {
  const t0 = performance.now();
  let ttft;
  for await (const e of port.stream(portRequest, new AbortController().signal)) {
    if (e.type === 'text' && ttft === undefined) ttft = performance.now() - t0;
  }
  return { ttft, total: performance.now() - t0 };
}

// The first call through the port also loads the SDK (lazily), so it is measured before anything
// else has loaded it.
const cold = await viaPort();

const { default: Anthropic } = await import('@anthropic-ai/sdk');
const sdk = new Anthropic({
  apiKey: KEY,
  baseURL: settings.baseURL,
  maxRetries: settings.maxRetries,
  timeout: settings.timeoutMs,
  logLevel: 'off',
  openTelemetry: false,
});
// The body the port sends: the system prompt as a cached block.
const sdkParams = {
  model: MODEL,
  max_tokens: 256,
  system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: QUESTION }],
};

async function viaSdk() {
  const t0 = performance.now();
  let ttft;
  for await (const e of sdk.messages.stream(sdkParams)) {
    if (e.type === 'content_block_delta' && e.delta.type === 'text_delta' && ttft === undefined)
      ttft = performance.now() - t0;
  }
  return { ttft, total: performance.now() - t0 };
}

for (let i = 0; i < WARMUP; i++) {
  await viaPort();
  await viaSdk();
}
const results = { port: [], sdk: [] };
for (let i = 0; i < RUNS; i++) {
  // Alternate which goes first, so neither always runs on the connection the other just warmed.
  const order = i % 2 === 0 ? ['port', 'sdk'] : ['sdk', 'port'];
  for (const which of order) results[which].push(await (which === 'port' ? viaPort() : viaSdk()));
}
await server.close();

const unmatched = server.unmatched.length;
if (unmatched) throw new Error(`${unmatched} requests were not scripted`);

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => sorted(xs)[Math.max(0, Math.ceil(p * xs.length) - 1)];
const ms = (x) => `${x.toFixed(2).padStart(7)} ms`;
const row = (label, rs) => {
  const ttft = rs.map((r) => r.ttft);
  const total = rs.map((r) => r.total);
  return `${label.padEnd(34)} ${ms(pct(ttft, 0.5))} ${ms(pct(ttft, 0.9))} ${ms(sorted(ttft)[0])}   ${ms(pct(total, 0.5))}`;
};
const paired = results.port.map((r, i) => r.ttft - results.sdk[i].ttft);
const signed = (x) => (Math.abs(x) < 0.005 ? '0.00' : x.toFixed(2));

console.log(
  `time to first token, scripted server on 127.0.0.1 with a ${FIRST_CHUNK_MS} ms wait before the first chunk`,
);
console.log(`${RUNS} runs each, interleaved, after ${WARMUP} warm-up runs each; Node ${process.version}\n`);
console.log(
  `${''.padEnd(34)} ${'median'.padStart(10)} ${'p90'.padStart(10)} ${'min'.padStart(10)}   ${'whole reply'.padStart(10)}`,
);
console.log(row('LlmClient (AnthropicClient.stream)', results.port));
console.log(row('raw SDK (client.messages.stream)', results.sdk));
console.log(
  `\nLlmClient minus raw SDK, paired:    median ${signed(pct(paired, 0.5))} ms, p90 ${signed(pct(paired, 0.9))} ms`,
);
console.log(`first call through LlmClient (loads the SDK): first token after ${cold.ttft.toFixed(1)} ms`);
