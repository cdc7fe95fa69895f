// The scripted server itself, over plain fetch: its wire format is the API's, unmatched requests
// fail loudly, rules run out as scripted, and its prompt-cache stand-in counts as the API does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  failThenSucceed,
  match,
  reply,
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import { CANARY_KEY } from './llmHarness';

const body = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-haiku-4-5',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

async function post(server: ScriptedModelServer, json: unknown, path = '/v1/messages', signal?: AbortSignal) {
  return fetch(server.baseURL + path, {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: { 'content-type': 'application/json', 'x-api-key': CANARY_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(json),
  });
}

function parseSse(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim())
    .map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      assert.equal(rest.length, 0, `one event and one data line per frame: ${frame}`);
      assert.match(eventLine ?? '', /^event: \w+$/);
      assert.match(dataLine ?? '', /^data: \{/);
      return {
        event: (eventLine ?? '').slice(7),
        data: JSON.parse((dataLine ?? '').slice(6)) as Record<string, unknown>,
      };
    });
}

describe('scripted model server', () => {
  test('streams the Messages API event sequence, each frame named after its data type', async () => {
    const server = await startScriptedModelServer([
      { reply: reply.toolUse('read_file', { path: 'a.md', lines: [1, 2] }, { text: ['Let me ', 'look.'] }) },
    ]);
    try {
      const res = await post(server, body({ stream: true }));
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(res.headers.get('request-id'), 'req_scripted_1');
      const frames = parseSse(await res.text());
      for (const f of frames) assert.equal(f.data['type'], f.event);
      assert.deepEqual(
        frames.map((f) => f.event),
        [
          'message_start',
          'content_block_start',
          'ping',
          'content_block_delta',
          'content_block_delta',
          'content_block_stop',
          'content_block_start',
          'content_block_delta',
          'content_block_delta',
          'content_block_delta',
          'content_block_delta',
          'content_block_stop',
          'message_delta',
          'message_stop',
        ],
      );
      const start = frames[0]?.data['message'] as Record<string, unknown>;
      assert.equal(start['model'], 'claude-haiku-4-5');
      assert.deepEqual(Object.keys(start['usage'] as object).sort(), [
        'cache_creation_input_tokens',
        'cache_read_input_tokens',
        'input_tokens',
        'output_tokens',
      ]);
      const partials = frames.filter(
        (f) => (f.data['delta'] as { type?: string } | undefined)?.type === 'input_json_delta',
      );
      const json = partials.map((f) => (f.data['delta'] as { partial_json: string }).partial_json).join('');
      assert.deepEqual(JSON.parse(json), { path: 'a.md', lines: [1, 2] });
      assert.ok(partials.length >= 3, 'the tool input arrives in several pieces');
      const delta = frames.at(-2)?.data as { delta: { stop_reason: string }; usage: { output_tokens: number } };
      assert.equal(delta.delta.stop_reason, 'tool_use');
      assert.ok(delta.usage.output_tokens > 0);
    } finally {
      await server.close();
    }
  });

  test('answers a request without stream: true with the whole message as JSON', async () => {
    const server = await startScriptedModelServer([{ reply: reply.text(['Hel', 'lo']) }]);
    try {
      const res = await post(server, body());
      const message = (await res.json()) as Record<string, unknown>;
      assert.equal(message['type'], 'message');
      assert.deepEqual(message['content'], [{ type: 'text', text: 'Hello' }]);
      assert.equal(message['stop_reason'], 'end_turn');
    } finally {
      await server.close();
    }
  });

  test('an unmatched request gets a 400 naming it, and is kept in `unmatched`', async () => {
    const server = await startScriptedModelServer([
      { name: 'greeting', match: match.lastUserText('good morning'), reply: reply.text('hi') },
    ]);
    try {
      const res = await post(server, body({ messages: [{ role: 'user', content: 'what time is it' }] }));
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('x-should-retry'), 'false');
      const error = ((await res.json()) as { error: { type: string; message: string } }).error;
      assert.equal(error.type, 'invalid_request_error');
      assert.match(
        error.message,
        /no rule matches request #1 \(POST \/v1\/messages, model claude-haiku-4-5, last user text "what time is it"\); rules with answers left: greeting/,
      );
      assert.equal(server.unmatched.length, 1);
      assert.deepEqual(server.pending(), ['greeting']);

      const missing = await post(server, body(), '/v1/complete');
      assert.equal(missing.status, 404);
      assert.match(
        ((await missing.json()) as { error: { message: string } }).error.message,
        /no route for POST \/v1\/complete/,
      );
    } finally {
      await server.close();
    }
  });

  test('once-only rules are used up in order; repeatable ones keep answering', async () => {
    const server = await startScriptedModelServer([
      { name: 'first', reply: reply.text('one') },
      { name: 'always', times: Infinity, reply: (b) => reply.text(`echo ${String(b.messages.length)}`) },
    ]);
    try {
      const answers: unknown[] = [];
      for (let i = 0; i < 3; i++)
        answers.push(((await (await post(server, body())).json()) as { content: unknown[] }).content);
      assert.deepEqual(answers, [
        [{ type: 'text', text: 'one' }],
        [{ type: 'text', text: 'echo 1' }],
        [{ type: 'text', text: 'echo 1' }],
      ]);
      assert.deepEqual(
        server.requests.map((r) => r.rule),
        ['first', 'always', 'always'],
      );
      assert.deepEqual(server.pending(), []);
    } finally {
      await server.close();
    }
  });

  test('an error reply has the API error body and the retry headers', async () => {
    const server = await startScriptedModelServer([{ reply: reply.error(529, { retryAfter: 2, retryAfterMs: 30 }) }]);
    try {
      const res = await post(server, body({ stream: true }));
      assert.equal(res.status, 529);
      assert.equal(res.headers.get('retry-after'), '2');
      assert.equal(res.headers.get('retry-after-ms'), '30');
      assert.deepEqual(await res.json(), {
        type: 'error',
        error: { type: 'overloaded_error', message: 'scripted 529 overloaded_error' },
        request_id: 'req_scripted_1',
      });
    } finally {
      await server.close();
    }
  });

  test('failing modes: a black hole before or after the headers, a hang-up, any header, and fail-then-succeed', async () => {
    const server = await startScriptedModelServer([
      { reply: reply.blackHole() },
      { reply: reply.blackHole('after-headers') },
      { reply: reply.hangUp() },
      ...failThenSucceed(
        1,
        reply.error(503, { headers: { 'retry-after': 'soon', 'x-should-retry': 'true' } }),
        reply.text('ok'),
      ),
    ]);
    try {
      const silent = new AbortController();
      const pending = post(server, body({ stream: true }), '/v1/messages', silent.signal);
      await until('the black hole holds the request', () => (server.requests.length === 1 ? true : undefined));
      silent.abort();
      await assert.rejects(pending);

      const headersOnly = new AbortController();
      const res = await post(server, body({ stream: true }), '/v1/messages', headersOnly.signal);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      const reader = res.body!.getReader();
      const read = reader.read();
      headersOnly.abort();
      await assert.rejects(read, 'no event ever came; only the abort ended the read');

      await assert.rejects(post(server, body({ stream: true })), 'the hang-up closes the connection without a reply');

      const flaky = await post(server, body({ stream: true }));
      assert.equal(flaky.status, 503);
      assert.equal(flaky.headers.get('retry-after'), 'soon');
      assert.equal(flaky.headers.get('x-should-retry'), 'true');
      await flaky.text();
      assert.equal((await post(server, body({ stream: true }))).status, 200);

      await until(
        'the server sees the aborted requests closed',
        () => (server.requests[0]?.clientClosed && server.requests[1]?.clientClosed ? true : undefined),
        2_000,
      );
      assert.deepEqual(
        server.requests.map((r) => [r.rule, r.status, r.dropped]),
        [
          ['rule 1', undefined, false],
          ['rule 2', 200, false],
          ['rule 3', undefined, true],
          ['flaky failure', 503, false],
          ['flaky', 200, false],
        ],
      );
      assert.deepEqual(server.pending(), []);
    } finally {
      await server.close();
    }
  });

  test('logs each request with its body and times, and only a fingerprint of the key', async () => {
    const server = await startScriptedModelServer([{ reply: reply.text('ok', { headerDelayMs: 15 }) }]);
    try {
      await (await post(server, body())).text();
      const [r] = server.requests;
      assert.ok(r);
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/v1/messages');
      assert.deepEqual(r.body, body());
      assert.equal(r.headers['anthropic-version'], '2023-06-01');
      assert.equal(r.headers['x-api-key'], undefined);
      assert.equal(r.apiKey.present, true);
      assert.equal(r.apiKey.length, CANARY_KEY.length);
      assert.equal(r.apiKey.header, 'x-api-key');
      assert.ok((r.finishedAt ?? 0) - r.receivedAt >= 14, 'the header delay is between arrival and finish');
      assert.ok(!JSON.stringify(server.requests).includes(CANARY_KEY));
    } finally {
      await server.close();
    }
  });

  test('the prompt-cache stand-in writes a prefix once and reads it when a request repeats it', async () => {
    const server = await startScriptedModelServer();
    const marked = (text: string) => [{ type: 'text', text, cache_control: { type: 'ephemeral' } }];
    const system = marked('S'.repeat(4000));
    const first = server.cache.usageFor(body({ system, messages: [{ role: 'user', content: 'q1' }] }));
    assert.equal(first.cache_read_input_tokens, 0);
    assert.ok(first.cache_creation_input_tokens >= 1000);
    const second = server.cache.usageFor(body({ system, messages: [{ role: 'user', content: 'q2' }] }));
    assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens);
    assert.equal(second.cache_creation_input_tokens, 0);
    // A longer prefix reads the cached part and writes only the rest.
    const third = server.cache.usageFor(
      body({ system, messages: [{ role: 'user', content: marked('Q'.repeat(400)) }] }),
    );
    assert.equal(third.cache_read_input_tokens, first.cache_creation_input_tokens);
    assert.ok(third.cache_creation_input_tokens >= 100 && third.cache_creation_input_tokens < 150);
    // Caches are per model, and unmarked requests neither read nor write.
    assert.equal(server.cache.usageFor(body({ model: 'claude-sonnet-4-5', system })).cache_read_input_tokens, 0);
    assert.deepEqual(server.cache.usageFor(body({ system: 'S'.repeat(4000) })).cache_read_input_tokens, 0);
    await server.close();
  });
});
