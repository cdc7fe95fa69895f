// AnthropicClient's failures against the scripted server: the client retries what is transient
// (honouring retry-after), then one LlmError says what happened and what to do; the API key
// shows up nowhere, whatever the path. anthropicRetries.test.ts covers the retries and time limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { reply, startScriptedModelServer, type ScriptedModelServer } from '../../support/scriptedModelServer';
import { LlmError, type LlmEvent } from '../../../src/core/llm/llmClient';
import {
  CANARY_KEY,
  clientFor,
  collect,
  events,
  rejection,
  request,
  texts,
  type TestClientOptions,
} from './llmHarness';

interface Outcome {
  got: LlmEvent[];
  error: LlmError;
  logs: string[];
}

/** Runs one call that must fail, keeping the events before the failure and the SDK's log lines. */
async function failing(
  server: Pick<ScriptedModelServer, 'baseURL'>,
  options: TestClientOptions = {},
): Promise<Outcome> {
  const got: LlmEvent[] = [];
  const logs: string[] = [];
  const client = clientFor(server.baseURL, { log: (line) => logs.push(line), ...options });
  const error = await rejection(collect(client.stream(request(), new AbortController().signal), (e) => got.push(e)));
  assert.ok(error instanceof LlmError, `an LlmError, not ${String(error)}`);
  return { got, error, logs };
}

function assertNoKey(o: Outcome): void {
  const places = [
    o.error.message,
    String(o.error.stack),
    String(o.error),
    JSON.stringify(o.error),
    JSON.stringify(o.got),
    ...o.logs,
  ];
  for (const text of places) assert.ok(!text.includes(CANARY_KEY), `the key leaked into: ${text}`);
}

async function withServer(
  rules: Parameters<typeof startScriptedModelServer>[0],
  body: (server: ScriptedModelServer) => Promise<void>,
): Promise<void> {
  const server = await startScriptedModelServer(rules);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

describe('AnthropicClient failures', () => {
  test('a 529 with retry-after is retried after the wait it asks for, then the reply streams', () =>
    withServer(
      [{ reply: reply.error(529, { retryAfter: 0.1 }) }, { reply: reply.text(['back ', 'again']) }],
      async (server) => {
        const got = await collect(clientFor(server.baseURL).stream(request(), new AbortController().signal));
        assert.equal(texts(got).join(''), 'back again');
        assert.deepEqual(
          server.requests.map((r) => r.status),
          [529, 200],
        );
        const [first, second] = server.requests;
        const waited = second!.receivedAt - first!.finishedAt!;
        assert.ok(waited >= 90, `the client waited ${waited.toFixed(0)} ms of the 100 ms retry-after`);
      },
    ));

  test('a 429 that outlasts the retries ends in one rate-limit error saying to wait', () =>
    withServer(
      [
        {
          times: Infinity,
          reply: reply.error(429, {
            retryAfterMs: 5,
            message: 'Number of request tokens has exceeded your per-minute rate limit',
          }),
        },
      ],
      async (server) => {
        const o = await failing(server);
        assert.equal(o.error.kind, 'rate-limit');
        assert.equal(o.error.status, 429);
        assert.match(
          o.error.message,
          /rate limit was reached \(429: Number of request tokens has exceeded your per-minute rate limit, still after 3 attempts\)/,
        );
        assert.match(o.error.message, /Wait a minute/);
        assert.match(o.error.message, /\[request req_scripted_3\]/);
        assert.equal(server.requests.length, 3, 'the first attempt and two retries');
        const retry = (attempt: number) => ({
          type: 'retry',
          attempt,
          of: 2,
          reason: 'status 429 (rate_limit_error)',
          delayMs: 5,
        });
        assert.deepEqual(o.got, [retry(1), retry(2)], 'each retry announced, nothing else');
        assertNoKey(o);
      },
    ));

  for (const [status, kind, advice] of [
    [529, 'overloaded', /overloaded .*Try again in a few minutes/],
    [500, 'server', /failed \(500: .*status\.anthropic\.com/],
  ] as const) {
    test(`a ${status} that outlasts the retries ends in one '${kind}' error`, () =>
      withServer([{ times: Infinity, reply: reply.error(status, { retryAfterMs: 1 }) }], async (server) => {
        const o = await failing(server, { limits: { maxRetries: 1 } });
        assert.equal(o.error.kind, kind);
        assert.match(o.error.message, advice);
        assert.equal(server.requests.length, 2);
      }));
  }

  test('a refused key is not retried and says how to set a new one', () =>
    withServer([{ times: Infinity, reply: reply.error(401, { message: 'invalid x-api-key' }) }], async (server) => {
      const o = await failing(server);
      assert.equal(o.error.kind, 'auth');
      assert.equal(
        o.error.message,
        "The API key was refused by the Anthropic API (401: invalid x-api-key). [request req_scripted_1] Set a new one with 'Groundwork: Set Anthropic API Key'.",
      );
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]?.apiKey.length, CANARY_KEY.length, 'the key was sent, in its header');
      assertNoKey(o);
    }));

  test('no key: an auth error saying how to set one, and no request', () =>
    withServer([], async (server) => {
      const o = await failing(server, { apiKey: async () => undefined });
      assert.equal(o.error.kind, 'auth');
      assert.match(
        o.error.message,
        /^No Anthropic API key is set\. Set one with 'Groundwork: Set Anthropic API Key'\.$/,
      );
      assert.equal(server.requests.length, 0);
    }));

  test("a bad request carries the API's message; an unscripted request fails the same loud way", () =>
    withServer(
      [{ reply: reply.error(400, { message: 'messages: text content blocks must be non-empty' }) }],
      async (server) => {
        const bad = await failing(server);
        assert.equal(bad.error.kind, 'bad-request');
        assert.match(
          bad.error.message,
          /rejected the request \(400: messages: text content blocks must be non-empty\)/,
        );
        const unscripted = await failing(server);
        assert.equal(unscripted.error.kind, 'bad-request');
        assert.match(
          unscripted.error.message,
          /no rule matches request #2 \(POST \/v1\/messages, model claude-haiku-4-5, last user text "hello"\)/,
        );
      },
    ));

  test('an error event mid-stream: the text so far, then one overloaded error, no stop', () =>
    withServer(
      [{ reply: reply.text(['a', 'b', 'c', 'd'], { fail: { afterDeltas: 2, mode: 'error-event' } }) }],
      async (server) => {
        const o = await failing(server);
        assert.deepEqual(texts(o.got.map((event) => ({ event, at: 0 }))), ['a', 'b']);
        assert.equal(
          o.got.some((e) => e.type === 'stop'),
          false,
        );
        assert.equal(o.error.kind, 'overloaded');
        assert.match(o.error.message, /stopped mid-reply \(overloaded_error: Overloaded\)/);
        assert.equal(server.requests.length, 1, 'a stream that began is not retried');
      },
    ));

  test('a connection dropped mid-stream is a network error', () =>
    withServer([{ reply: reply.text(['a', 'b', 'c'], { fail: { afterDeltas: 1, mode: 'drop' } }) }], async (server) => {
      const o = await failing(server);
      assert.deepEqual(events(o.got.map((event) => ({ event, at: 0 }))), [{ type: 'text', text: 'a' }]);
      assert.equal(o.error.kind, 'network');
      assert.match(o.error.message, /broke off mid-reply .*Check your network connection/);
      assert.equal(server.requests[0]?.dropped, true);
    }));

  test('an unreachable base URL is a network error naming the URL and what to check', async () => {
    const server = await startScriptedModelServer();
    await server.close();
    const o = await failing(server, { limits: { maxRetries: 0 } });
    assert.equal(o.error.kind, 'network');
    assert.equal(
      o.error.message,
      `Could not reach the Anthropic API at ${server.baseURL} (ECONNREFUSED; 1 attempt). Check your network connection and the Anthropic base URL.`,
    );
  });

  test('a reply that does not start within the timeout is a network error', () =>
    withServer([{ times: Infinity, reply: reply.text('late', { headerDelayMs: 1_000 }) }], async (server) => {
      const o = await failing(server, { limits: { firstByteTimeoutMs: 200, maxRetries: 0 } });
      assert.equal(o.error.kind, 'network');
      assert.match(o.error.message, /did not answer within 200 ms \(1 attempt\)/);
      assert.equal(server.requests.length, 1);
    }));

  test('a password in the base URL stays out of the message', async () => {
    const o = await failing({ baseURL: 'http://proxy-user:proxy-s3cret@127.0.0.1:1' }, { limits: { maxRetries: 0 } });
    assert.equal(o.error.kind, 'network');
    assert.match(o.error.message, /Could not reach the Anthropic API at http:\/\/127\.0\.0\.1:1 /);
    assert.ok(!o.error.message.includes('proxy-s3cret'), o.error.message);
  });

  test('the key is redacted even when the service echoes it back', () =>
    withServer(
      [
        { reply: reply.error(400, { message: `x-api-key ${CANARY_KEY} is malformed` }) },
        {
          reply: reply.text(['partial'], {
            fail: {
              afterDeltas: 1,
              mode: 'error-event',
              error: { type: 'api_error', message: `bad key ${CANARY_KEY}` },
            },
          }),
        },
      ],
      async (server) => {
        const echoed = await failing(server, { limits: { maxRetries: 0 } });
        assert.match(echoed.error.message, /x-api-key \[redacted\] is malformed/);
        assertNoKey(echoed);
        const midStream = await failing(server, { limits: { maxRetries: 0 } });
        assert.match(midStream.error.message, /bad key \[redacted\]/);
        assertNoKey(midStream);
      },
    ));
});
