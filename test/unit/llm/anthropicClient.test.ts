// AnthropicClient driving the real SDK against the scripted server: streaming, tool use, prompt
// caching on the stable prefix, usage and cancellation.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { match, reply, startScriptedModelServer, type MessagesBody } from '../../support/scriptedModelServer';
import type { LlmEvent, LlmMessage, LlmTool, LlmUsage } from '../../../src/core/llm/llmClient';
import { modelForTier } from '../../../src/core/llm/models';
import { UsageLedger } from '../../../src/core/llm/usage';
import { until } from '../../support/until';
import { clientFor, collect, events, request, texts } from './llmHarness';

const tools: LlmTool[] = [
  {
    name: 'read_file',
    description: 'Read a workspace file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'list_dir',
    description: 'List a folder',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

describe('AnthropicClient', () => {
  test('streams text in order, as the chunks arrive, then usage and stop', async () => {
    const chunks = ['The ', 'plan ', 'has ', 'three ', 'parts.'];
    const server = await startScriptedModelServer([
      { reply: reply.text(chunks, { firstChunkDelayMs: 5, chunkDelayMs: 15 }) },
    ]);
    try {
      const got = await collect(clientFor(server.baseURL).stream(request(), new AbortController().signal));
      assert.deepEqual(texts(got), chunks);
      assert.deepEqual(
        events(got).map((e) => e.type),
        ['text', 'text', 'text', 'text', 'text', 'usage', 'stop'],
      );
      assert.deepEqual(events(got).at(-1), { type: 'stop', reason: 'end_turn' });
      // Streamed, not buffered: the chunks came apart by about the server's delay.
      const textTimes = got.filter((t) => t.event.type === 'text').map((t) => t.at);
      assert.ok(
        textTimes.at(-1)! - textTimes[0]! >= 4 * 15 * 0.8,
        `text spread over ${textTimes.at(-1)! - textTimes[0]!} ms`,
      );
      const body = server.requests[0]?.body as MessagesBody;
      assert.equal(body.stream, true);
      assert.equal(body.model, 'claude-haiku-4-5');
      assert.equal(body.max_tokens, 256);
    } finally {
      await server.close();
    }
  });

  test('a tool-use round trip: the call arrives whole, the tool_result goes back, the model answers', async () => {
    const server = await startScriptedModelServer([
      {
        name: 'ask',
        match: match.lastUserText('summarise'),
        reply: reply.toolUse(
          'read_file',
          { path: 'docs/plan.md', range: { from: 1, to: 40 } },
          { text: ['Let me read it.'], id: 'toolu_42' },
        ),
      },
      { name: 'answer', match: match.toolResult('toolu_42'), reply: reply.text(['It has ', 'two goals.']) },
    ]);
    try {
      const client = clientFor(server.baseURL);
      const messages: LlmMessage[] = [{ role: 'user', content: 'summarise docs/plan.md' }];
      const first = events(await collect(client.stream(request({ messages, tools }), new AbortController().signal)));
      const call = first.find((e) => e.type === 'tool_use');
      assert.deepEqual(call, {
        type: 'tool_use',
        id: 'toolu_42',
        name: 'read_file',
        input: { path: 'docs/plan.md', range: { from: 1, to: 40 } },
      });
      assert.deepEqual(
        first.map((e) => e.type),
        ['text', 'tool_use', 'usage', 'stop'],
      );
      assert.deepEqual(first.at(-1), { type: 'stop', reason: 'tool_use' });

      messages.push(
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me read it.' },
            { type: 'tool_use', id: 'toolu_42', name: 'read_file', input: { path: 'docs/plan.md' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'toolu_42', content: '# Plan\n1. goal\n2. goal' }],
        },
      );
      const second = await collect(client.stream(request({ messages, tools }), new AbortController().signal));
      assert.equal(texts(second).join(''), 'It has two goals.');

      const sent = server.requests[1]?.body as MessagesBody;
      assert.deepEqual(sent.messages.at(-1), {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_42', content: '# Plan\n1. goal\n2. goal' }],
      });
      assert.deepEqual(
        sent.tools?.map((t) => t['name']),
        ['read_file', 'list_dir'],
      );
      assert.deepEqual(sent.tools?.[0]?.['input_schema'], tools[0]?.inputSchema);
      assert.deepEqual(server.pending(), []);
    } finally {
      await server.close();
    }
  });

  test('the stable prefix carries cache_control, so the second call of a session reads from cache', async () => {
    const server = await startScriptedModelServer([{ times: Infinity, reply: reply.text('noted') }]);
    try {
      const seen: { model: string; usage: LlmUsage }[] = [];
      const ledger = new UsageLedger();
      const client = clientFor(server.baseURL, {
        // A settings override of the tier, which also keeps the SDK's deprecation warning for the default out of the output.
        models: (tier) => modelForTier(tier, { complex: 'claude-opus-4-5' }),
        onUsage: (model, usage) => (seen.push({ model, usage }), ledger.record(model, usage)),
      });
      const system = `You are the analyst. ${'Follow the protocol closely. '.repeat(150)}`;
      const transcript: LlmMessage[] = [
        { role: 'user', content: `Here is the brief: ${'details '.repeat(200)}` },
        { role: 'assistant', content: 'Understood.' },
        { role: 'user', content: 'First question?' },
      ];
      const call = (messages: LlmMessage[]) =>
        collect(
          client.stream(
            request({ system, tools, messages, stablePrefix: 2, model: { tier: 'complex' } }),
            new AbortController().signal,
          ),
        );

      const first = events(await call(transcript)).find((e) => e.type === 'usage');
      transcript.push({ role: 'assistant', content: 'noted' }, { role: 'user', content: 'Second question?' });
      const second = events(await call(transcript)).find((e) => e.type === 'usage');

      const body = server.requests[0]?.body as MessagesBody;
      assert.deepEqual(body.system, [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]);
      assert.deepEqual(
        body.tools?.map((t) => t['cache_control']),
        [undefined, { type: 'ephemeral' }],
      );
      assert.deepEqual(body.messages[1], {
        role: 'assistant',
        content: [{ type: 'text', text: 'Understood.', cache_control: { type: 'ephemeral' } }],
      });
      assert.equal(body.messages[0]?.content, transcript[0]?.content, 'messages outside the breakpoint go as they are');
      const breakpoints = JSON.stringify(body).split('"cache_control"').length - 1;
      assert.equal(breakpoints, 3, 'the API allows four breakpoints at most');

      assert.ok(first?.type === 'usage' && second?.type === 'usage');
      assert.equal(first.model, 'claude-opus-4-5');
      assert.equal(first.usage.cacheReadTokens, 0);
      assert.ok(first.usage.cacheCreationTokens > 1000, `first call writes the prefix: ${JSON.stringify(first.usage)}`);
      assert.equal(
        second.usage.cacheReadTokens,
        first.usage.cacheCreationTokens,
        'the second call reads the whole prefix',
      );
      assert.equal(second.usage.cacheCreationTokens, 0);
      assert.ok(second.usage.inputTokens > 0 && second.usage.outputTokens > 0);
      assert.deepEqual(seen, [
        { model: first.model, usage: first.usage },
        { model: second.model, usage: second.usage },
      ]);
      assert.equal(ledger.total().cacheReadTokens, second.usage.cacheReadTokens);
    } finally {
      await server.close();
    }
  });

  test('usage reports the numbers the API sent, cache reads and writes included', async () => {
    const usage = {
      input_tokens: 12,
      output_tokens: 345,
      cache_read_input_tokens: 6789,
      cache_creation_input_tokens: 101,
    };
    const server = await startScriptedModelServer([
      { reply: reply.text('x', { usage, model: 'claude-haiku-4-5-20251001' }) },
    ]);
    try {
      const got = events(await collect(clientFor(server.baseURL).stream(request(), new AbortController().signal)));
      assert.deepEqual(
        got.find((e) => e.type === 'usage'),
        {
          type: 'usage',
          model: 'claude-haiku-4-5-20251001',
          usage: { inputTokens: 12, outputTokens: 345, cacheReadTokens: 6789, cacheCreationTokens: 101 },
        },
      );
    } finally {
      await server.close();
    }
  });

  test('cancelling after the first text ends as cancelled: no error, no more text, the request aborted', async () => {
    const server = await startScriptedModelServer([
      { reply: reply.text(['one ', 'two ', 'three ', 'four'], { chunkDelayMs: 30 }) },
    ]);
    try {
      const controller = new AbortController();
      const got = events(
        await collect(
          clientFor(server.baseURL).stream(request(), controller.signal),
          (e) => e.type === 'text' && controller.abort(),
        ),
      );
      assert.deepEqual(texts(got.map((event) => ({ event, at: 0 }))), ['one ']);
      assert.deepEqual(got.at(-1), { type: 'stop', reason: 'cancelled' });
      assert.equal(got.filter((e) => e.type === 'stop').length, 1);
      // The server hears of the abort a moment later.
      await until(
        'the HTTP request aborted, not read to the end',
        () => (server.requests[0]?.clientClosed ? true : undefined),
        2_000,
      );
    } finally {
      await server.close();
    }
  });

  test('cancelling while a tool call streams emits no partial tool_use', async () => {
    const server = await startScriptedModelServer([
      {
        reply: reply.toolUse(
          'read_file',
          { path: 'a/very/long/path.md' },
          { text: ['Let me look.'], jsonChunks: 6, chunkDelayMs: 25 },
        ),
      },
    ]);
    try {
      const controller = new AbortController();
      // The text comes first, so aborting on it lands while the tool's input is still streaming.
      const got = events(
        await collect(
          clientFor(server.baseURL).stream(request({ tools }), controller.signal),
          (e) => e.type === 'text' && controller.abort(),
        ),
      );
      assert.equal(
        got.some((e) => e.type === 'tool_use'),
        false,
      );
      // The reply had begun (its input was billed, so usage is reported) when the cancel came.
      assert.deepEqual(
        got.map((e) => e.type),
        ['text', 'usage', 'stop'],
      );
      assert.deepEqual(got.at(-1), { type: 'stop', reason: 'cancelled' });
    } finally {
      await server.close();
    }
  });

  test('cancelling before the reply starts, or before the call, also ends as cancelled', async () => {
    const controller = new AbortController();
    // The cancel comes once the server holds the request, which it never answers: only the cancel
    // can end the call before the first-byte limit would (with an error, failing the test).
    const server = await startScriptedModelServer([
      { reply: () => (setImmediate(() => controller.abort()), reply.blackHole()) },
    ]);
    try {
      const got = events(await collect(clientFor(server.baseURL).stream(request(), controller.signal)));
      assert.deepEqual(got, [{ type: 'stop', reason: 'cancelled' }]);

      const already = AbortSignal.abort();
      assert.deepEqual(events(await collect(clientFor(server.baseURL).stream(request(), already))), [
        { type: 'stop', reason: 'cancelled' },
      ]);
      assert.equal(server.requests.length, 1, 'an already-cancelled call sends nothing');
    } finally {
      await server.close();
    }
  });

  test('a model id is sent as is; an empty system prompt is left out', async () => {
    const server = await startScriptedModelServer([{ match: match.model('claude-opus-4-1'), reply: reply.text('ok') }]);
    try {
      const got: LlmEvent[] = events(
        await collect(
          clientFor(server.baseURL).stream(
            request({ model: { id: 'claude-opus-4-1' }, system: '' }),
            new AbortController().signal,
          ),
        ),
      );
      assert.deepEqual(got.at(-1), { type: 'stop', reason: 'end_turn' });
      assert.equal((server.requests[0]?.body as MessagesBody).system, undefined);
    } finally {
      await server.close();
    }
  });
});
