// The scripted model in-process (test/support/scriptedModel.ts) serves the same rules as the HTTP
// server does (scriptedModelServer.ts): the events a core test sees from it are those the real
// Anthropic client yields from the server for the same rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LlmError, type LlmEvent } from '../../../src/core/llm/llmClient';
import { match, reply, type ScriptRule } from '../../support/modelScript';
import { ScriptedModel, scriptedTurns } from '../../support/scriptedModel';
import { startScriptedModelServer } from '../../support/scriptedModelServer';
import { clientFor, collect, events, rejection, request } from './llmHarness';

/** The events of one call to the model in-process, and to the real client over the server. */
async function bothWays(rules: () => ScriptRule[], signal = () => new AbortController().signal) {
  const here = events(await collect(new ScriptedModel(rules()).stream(request(), signal())));
  const server = await startScriptedModelServer(rules());
  try {
    const client = clientFor(server.baseURL, { limits: { maxRetries: 0 } });
    return { here, there: events(await collect(client.stream(request(), signal()))) };
  } finally {
    await server.close();
  }
}

/** The events without what only the transport decides (tool ids, token counts). */
const comparable = (list: LlmEvent[]) =>
  list.map((e) =>
    e.type === 'tool_use' ? { ...e, id: 'id' } : e.type === 'usage' ? { type: 'usage', model: e.model } : e,
  );

async function failureBothWays(rule: ScriptRule): Promise<{ here: unknown; there: unknown }> {
  const here = await rejection(collect(new ScriptedModel([rule]).stream(request(), new AbortController().signal)));
  const server = await startScriptedModelServer([rule]);
  try {
    const client = clientFor(server.baseURL, { limits: { maxRetries: 0 } });
    return { here, there: await rejection(collect(client.stream(request(), new AbortController().signal))) };
  } finally {
    await server.close();
  }
}

describe('the scripted model in-process and over HTTP', () => {
  test('text in chunks, then a tool call: the same events, in the same order', async () => {
    const { here, there } = await bothWays(() => [
      { reply: reply.toolUse('read_file', { path: 'README.md' }, { text: ['Let me ', 'look.'] }) },
    ]);
    assert.deepEqual(comparable(here), comparable(there));
    assert.deepEqual(
      here.map((e) => e.type),
      ['text', 'text', 'tool_use', 'usage', 'stop'],
    );
    assert.deepEqual(here.at(-1), { type: 'stop', reason: 'tool_use' });
  });

  test('the usage is the prompt cache stand-in’s, the same both ways', async () => {
    const { here, there } = await bothWays(() => [{ reply: reply.text('hi', { usage: { input_tokens: 7 } }) }]);
    assert.deepEqual(
      here.find((e) => e.type === 'usage'),
      there.find((e) => e.type === 'usage'),
    );
  });

  for (const [status, kind] of [
    [529, 'overloaded'],
    [429, 'rate-limit'],
    [401, 'auth'],
    [400, 'bad-request'],
    [500, 'server'],
  ] as const) {
    test(`an API error ${status} is an LlmError of kind ${kind} both ways`, async () => {
      const { here, there } = await failureBothWays({ times: Infinity, reply: reply.error(status) });
      assert.ok(here instanceof LlmError && there instanceof LlmError, `${String(here)} / ${String(there)}`);
      assert.equal(here.kind, kind);
      assert.equal(there.kind, kind);
      assert.equal(here.status, status);
    });
  }

  test('a hang-up is a network error both ways', async () => {
    const { here, there } = await failureBothWays({ times: Infinity, reply: reply.hangUp() });
    assert.ok(here instanceof LlmError && there instanceof LlmError);
    assert.equal(here.kind, 'network');
    assert.equal(there.kind, 'network');
  });

  test('a reply that hangs after its text, then the call is stopped: the text, then cancelled', async () => {
    const stop = new AbortController();
    const model = new ScriptedModel([{ reply: { ...reply.text('thinking'), openEnded: true } }]);
    const got: LlmEvent[] = [];
    for await (const e of model.stream(request(), stop.signal)) {
      got.push(e);
      if (e.type === 'text') stop.abort();
    }
    assert.deepEqual(got, [
      { type: 'text', text: 'thinking' },
      { type: 'stop', reason: 'cancelled' },
    ]);
  });

  test('a black hole waits until the call is stopped, then ends cancelled', async () => {
    const stop = new AbortController();
    const model = new ScriptedModel([{ reply: reply.blackHole() }]);
    const call = collect(model.stream(request(), stop.signal));
    await new Promise((r) => setImmediate(r));
    assert.equal(model.inFlight, 1, 'still waiting');
    stop.abort();
    assert.deepEqual(events(await call), [{ type: 'stop', reason: 'cancelled' }]);
  });

  test('a call no rule matches fails, naming it and the rules left', async () => {
    const model = new ScriptedModel(
      [{ name: 'only for the coordinator', match: match.system('coordinator') }].map((r) => ({
        ...r,
        reply: reply.text('x'),
      })),
    );
    const err = await rejection(collect(model.stream(request(), new AbortController().signal)));
    assert.match(
      String(err),
      /scripted model: no rule matches call #1 \(model .*\); rules with answers left: only for the coordinator/,
    );
    assert.equal(model.unmatched.length, 1);
    assert.deepEqual(model.pending(), ['only for the coordinator']);
  });

  test('a reply function is given the call as the core made it, and its signal', async () => {
    const stop = new AbortController();
    let seen: { system?: string; aborted?: boolean } = {};
    const model = new ScriptedModel([
      {
        reply: (_body, call) => (
          (seen = { system: call.request?.system, aborted: call.signal.aborted }),
          reply.text('ok')
        ),
      },
    ]);
    await collect(model.stream(request({ system: 'ROLE x' }), stop.signal));
    assert.deepEqual(seen, { system: 'ROLE x', aborted: false });
    assert.equal(model.requests[0]?.system, 'ROLE x');
    assert.deepEqual(model.bodies[0]?.system, [{ type: 'text', text: 'ROLE x', cache_control: { type: 'ephemeral' } }]);
  });

  test('turns: text in chunks, tool calls with ids counted per model, a refusal, an error', async () => {
    const model = scriptedTurns(
      [
        { text: 'abcdef', chunks: 3, tools: [{ name: 'search', input: { q: 1 } }] },
        { text: '', refuse: true },
        { error: 'busy' },
      ],
      { model: 'claude-test', usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheCreationTokens: 4 } },
    );
    const signal = new AbortController().signal;
    assert.deepEqual(events(await collect(model.stream(request(), signal))), [
      { type: 'text', text: 'ab' },
      { type: 'text', text: 'cd' },
      { type: 'text', text: 'ef' },
      { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 1 } },
      {
        type: 'usage',
        model: 'claude-test',
        usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheCreationTokens: 4 },
      },
      { type: 'stop', reason: 'tool_use' },
    ]);
    assert.deepEqual(events(await collect(model.stream(request(), signal))).at(-1), {
      type: 'stop',
      reason: 'refusal',
    });
    const err = await rejection(collect(model.stream(request(), signal)));
    assert.ok(err instanceof LlmError && err.kind === 'overloaded' && err.message === 'busy' && err.status === 529);
  });
});
