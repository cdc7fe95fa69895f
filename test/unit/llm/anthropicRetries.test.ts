// AnthropicClient's own retries against the scripted server: an attempt whose reply does not begin
// within the first-byte limit is abandoned and retried, each retry is announced as a `retry` event,
// retry-after is honoured within the call's budget, and a reply that has begun is never cut by the
// first-byte limit nor repeated. Limits are a few hundred milliseconds; the assertions are on what
// the server saw and on the messages, not on how long anything took.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  failThenSucceed,
  reply,
  startScriptedModelServer,
  type ScriptRule,
  type ScriptedModelServer,
} from '../../support/scriptedModelServer';
import { LlmError, type LlmEvent } from '../../../src/core/llm/llmClient';
import { AnthropicClient } from '../../../src/core/node/anthropicClient';
import { attemptsMade } from '../../../src/core/node/anthropicErrors';
import { until } from '../../support/until';
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

type Retry = Extract<LlmEvent, { type: 'retry' }>;

async function withServer(rules: ScriptRule[], body: (server: ScriptedModelServer) => Promise<void>): Promise<void> {
  const server = await startScriptedModelServer(rules);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** Fast backoff, so a test's retries cost milliseconds. */
const quick = (limits: TestClientOptions['limits'] = {}): TestClientOptions => ({
  limits: { initialRetryDelayMs: 5, maxRetryDelayMs: 20, ...limits },
});

async function failing(baseURL: string, options: TestClientOptions): Promise<{ got: LlmEvent[]; error: LlmError }> {
  const got: LlmEvent[] = [];
  const error = await rejection(
    collect(clientFor(baseURL, options).stream(request(), new AbortController().signal), (e) => got.push(e)),
  );
  assert.ok(error instanceof LlmError, `an LlmError, not ${String(error)}`);
  return { got, error };
}

const retries = (got: LlmEvent[]) => got.filter((e): e is Retry => e.type === 'retry');

function assertNoSecret(secret: string, ...places: unknown[]): void {
  for (const place of places) {
    const text = place instanceof Error ? `${place.message}\n${String(place.stack)}` : JSON.stringify(place);
    assert.ok(!text.includes(secret), `the secret leaked into: ${text}`);
  }
}

describe('AnthropicClient retries and time limits', () => {
  // The process's first call loads the SDK and warms undici; a first attempt that took longer than
  // the tests' short limits to reach the server would go uncounted.
  before(() =>
    withServer(
      [{ reply: reply.text('warm') }],
      async (server) => void (await collect(clientFor(server.baseURL).stream(request(), new AbortController().signal))),
    ),
  );

  test('a black hole: each attempt is cut at the first-byte limit, every retry announced, then one network error', () =>
    withServer([{ times: Infinity, reply: reply.blackHole() }], async (server) => {
      const { got, error } = await failing(
        server.baseURL,
        quick({ firstByteTimeoutMs: 300, maxRetries: 2, retryBudgetMs: 60_000 }),
      );
      assert.equal(server.requests.length, 3, 'the first attempt and two retries');
      await until(
        'the server sees every abandoned request closed',
        () => (server.requests.every((r) => r.clientClosed) ? true : undefined),
        2_000,
      );
      assert.deepEqual(
        got.map((e) => (e.type === 'retry' ? [e.attempt, e.of, e.reason] : e.type)),
        [
          [1, 2, 'no answer within 300 ms'],
          [2, 2, 'no answer within 300 ms'],
        ],
      );
      assert.equal(error.kind, 'network');
      assert.match(
        error.message,
        /^The Anthropic API at http:\/\/127\.0\.0\.1:\d+ did not answer within 300 ms \(3 attempts( over [\d.]+ s)?\)\. /,
      );
      assert.match(
        error.message,
        /Check your network connection and the Anthropic base URL; if the endpoint is only slow to start, raise groundwork\.model\.firstByteTimeoutSeconds\.$/,
      );
    }));

  test('the retry budget stops the retries before they are used up, and the message says so', () =>
    withServer([{ times: Infinity, reply: reply.blackHole() }], async (server) => {
      // The second attempt starts about 405 ms in and fits (it must start by 795 ms); a third could not start before
      // about 810 ms, when less than the 400 ms it needs is left of the 1.2 s budget (a slower machine only makes that later).
      const { got, error } = await failing(
        server.baseURL,
        quick({ firstByteTimeoutMs: 400, maxRetries: 5, retryBudgetMs: 1_200 }),
      );
      assert.equal(server.requests.length, 2);
      assert.deepEqual(
        retries(got).map((e) => [e.attempt, e.of]),
        [[1, 5]],
      );
      assert.match(
        error.message,
        /did not answer within 400 ms \(2 attempts( over [\d.]+ s)?; the retry budget of 1\.2 s is spent\)/,
      );
      assert.match(
        error.message,
        /raise groundwork\.model\.firstByteTimeoutSeconds, or groundwork\.model\.retryBudgetSeconds for more attempts\.$/,
      );
    }));

  test('headers without a first event count as no answer: the first byte is the first stream event', () =>
    withServer([{ times: Infinity, reply: reply.blackHole('after-headers') }], async (server) => {
      const { got, error } = await failing(server.baseURL, quick({ firstByteTimeoutMs: 300, maxRetries: 1 }));
      assert.deepEqual(
        server.requests.map((r) => r.status),
        [200, 200],
      );
      assert.equal(retries(got).length, 1);
      assert.match(error.message, /did not answer within 300 ms \(2 attempts[ )]/);
    }));

  test('fails twice, then answers: two retry events, in order, before the reply', () =>
    withServer(failThenSucceed(2, reply.error(529), reply.text(['at ', 'last'])), async (server) => {
      const got = events(
        await collect(
          clientFor(server.baseURL, quick({ maxRetries: 3 })).stream(request(), new AbortController().signal),
        ),
      );
      assert.deepEqual(
        got.map((e) => e.type),
        ['retry', 'retry', 'text', 'text', 'usage', 'stop'],
      );
      assert.deepEqual(
        retries(got).map((e) => [e.attempt, e.of, e.reason]),
        [
          [1, 3, 'status 529 (overloaded_error)'],
          [2, 3, 'status 529 (overloaded_error)'],
        ],
      );
      for (const e of retries(got))
        assert.ok(e.delayMs > 0 && e.delayMs <= 20, `a backoff within the limits: ${e.delayMs}`);
      assert.equal(texts(got.map((event) => ({ event, at: 0 }))).join(''), 'at last');
      assert.deepEqual(server.pending(), []);
      // The header the SDK sends on its own retries, so the API sees these as retries too.
      assert.deepEqual(
        server.requests.map((r) => r.headers['x-stainless-retry-count']),
        ['0', '1', '2'],
      );
    }));

  test('a black hole, then a hang-up, then an answer: both are retried and the call succeeds', () =>
    withServer(
      [{ reply: reply.blackHole() }, { reply: reply.hangUp() }, { reply: reply.text('fine') }],
      async (server) => {
        const got = events(
          await collect(
            clientFor(server.baseURL, quick({ firstByteTimeoutMs: 500, maxRetries: 3 })).stream(
              request(),
              new AbortController().signal,
            ),
          ),
        );
        assert.deepEqual(
          got.map((e) => e.type),
          ['retry', 'retry', 'text', 'usage', 'stop'],
        );
        const [timeout, hangUp] = retries(got);
        assert.equal(timeout?.reason, 'no answer within 500 ms');
        assert.match(hangUp?.reason ?? '', /^could not connect \(.+\)$/);
        assert.equal(server.requests.length, 3);
      },
    ));

  test('retry-after is honoured: the retry waits what the server asked for', () =>
    withServer(failThenSucceed(1, reply.error(429, { retryAfterMs: 150 }), reply.text('ok')), async (server) => {
      const got = events(
        await collect(clientFor(server.baseURL, quick()).stream(request(), new AbortController().signal)),
      );
      assert.deepEqual(
        retries(got).map((e) => e.delayMs),
        [150],
      );
      const [first, second] = server.requests;
      const waited = second!.receivedAt - first!.finishedAt!;
      assert.ok(waited >= 140, `the client waited ${waited.toFixed(0)} ms of the 150 ms retry-after`);
    }));

  for (const [header, value, shown] of [
    ['retry-after', '5', '5 s'],
    ['retry-after', '1e9', '11574.1 days'],
    ['retry-after-ms', '2000', '2 s'],
  ] as const) {
    test(`a ${header} of ${value} beyond the budget is not waited for: one attempt, and the message says why`, () =>
      withServer([{ times: Infinity, reply: reply.error(429, { headers: { [header]: value } }) }], async (server) => {
        const { got, error } = await failing(server.baseURL, quick({ retryBudgetMs: 1_000, firstByteTimeoutMs: 200 }));
        assert.equal(server.requests.length, 1);
        assert.deepEqual(got, []);
        assert.equal(error.kind, 'rate-limit');
        assert.match(
          error.message,
          new RegExp(
            `still after 1 attempt; the API asked to wait ${shown.replace('.', '\\.')}, longer than the retry budget of 1 s allows\\)`,
          ),
        );
        assert.match(
          error.message,
          /Wait a minute before trying again, or check your plan's rate limits\. A larger groundwork\.model\.retryBudgetSeconds lets Groundwork wait that long\.$/,
        );
      }));
  }

  for (const value of ['-5', 'soon', '0', 'Infinity', 'Wed, 21 Oct 2015 07:28:00 GMT']) {
    test(`a retry-after of '${value}' asks for nothing: the backoff applies`, () =>
      withServer(
        failThenSucceed(1, reply.error(503, { headers: { 'retry-after': value } }), reply.text('ok')),
        async (server) => {
          const got = events(
            await collect(clientFor(server.baseURL, quick()).stream(request(), new AbortController().signal)),
          );
          const [retry] = retries(got);
          assert.ok(
            retry && retry.delayMs > 0 && retry.delayMs <= 5,
            `the first backoff, not the header: ${JSON.stringify(retry)}`,
          );
          assert.equal(got.at(-1)?.type, 'stop');
        },
      ));
  }

  test('x-should-retry decides over the status, as with the SDK', () =>
    withServer(
      [
        { reply: reply.error(529, { headers: { 'x-should-retry': 'false' } }) },
        { reply: reply.error(400, { headers: { 'x-should-retry': 'true' } }) },
        { reply: reply.text('ok') },
      ],
      async (server) => {
        const { got, error } = await failing(server.baseURL, quick());
        assert.deepEqual(got, []);
        assert.equal(error.kind, 'overloaded');
        assert.doesNotMatch(error.message, /still after/, 'one attempt, and the message does not pretend otherwise');
        const second = events(
          await collect(clientFor(server.baseURL, quick()).stream(request(), new AbortController().signal)),
        );
        assert.deepEqual(
          second.map((e) => e.type),
          ['retry', 'text', 'usage', 'stop'],
        );
      },
    ));

  test('a reply that has begun is not cut by the first-byte limit, however slowly it streams', () =>
    withServer(
      [{ reply: reply.text(['slow ', 'but ', 'steady'], { firstChunkDelayMs: 400, chunkDelayMs: 400 }) }],
      async (server) => {
        const got = events(
          await collect(
            clientFor(server.baseURL, quick({ firstByteTimeoutMs: 250 })).stream(
              request(),
              new AbortController().signal,
            ),
          ),
        );
        assert.equal(texts(got.map((event) => ({ event, at: 0 }))).join(''), 'slow but steady');
        assert.equal(retries(got).length, 0);
        assert.equal(server.requests.length, 1);
      },
    ));

  test('a reply that stalls after it began is cut by the idle limit, and not repeated', () =>
    withServer(
      [{ times: Infinity, reply: reply.text(['never', 'sent'], { firstChunkDelayMs: 600_000 }) }],
      async (server) => {
        const { got, error } = await failing(server.baseURL, quick({ firstByteTimeoutMs: 2_000, idleTimeoutMs: 300 }));
        assert.deepEqual(got, [], 'message_start came, no text');
        assert.equal(error.kind, 'network');
        assert.equal(
          error.message,
          'The Anthropic API stopped sending mid-reply: nothing came for 300 ms. Check your network connection and try again.',
        );
        assert.equal(server.requests.length, 1, 'a reply that began is never sent again');
      },
    ));

  test('a reply that trickles in under the idle limit is still cut when it has streamed for too long', () =>
    withServer(
      [
        {
          reply: reply.text(
            Array.from({ length: 40 }, (_, i) => `drop ${i} `),
            { chunkDelayMs: 100 },
          ),
        },
      ],
      async (server) => {
        const { got, error } = await failing(server.baseURL, quick({ idleTimeoutMs: 1_000, replyTimeoutMs: 500 }));
        assert.ok(got.length > 0 && got.length < 40, `some text came first (${got.length} events)`);
        assert.equal(error.kind, 'network');
        assert.match(error.message, /^The Anthropic API's reply was still streaming after 500 ms, so it was cut off\./);
        assert.equal(server.requests.length, 1, 'a reply that began is never sent again');
      },
    ));

  test('a slow consumer is not a silent server: time spent on an event does not count as idle', () =>
    withServer([{ reply: reply.text(['a', 'b', 'c']) }], async (server) => {
      const client = clientFor(server.baseURL, quick({ idleTimeoutMs: 100 }));
      const seen: string[] = [];
      for await (const e of client.stream(request(), new AbortController().signal)) {
        seen.push(e.type);
        if (e.type === 'text') await new Promise((r) => setTimeout(r, 250));
      }
      assert.deepEqual(seen, ['text', 'text', 'text', 'usage', 'stop']);
    }));

  test('cancelling on the retry event itself ends the call as cancelled, with no second request', () =>
    withServer([{ times: Infinity, reply: reply.error(529) }], async (server) => {
      const controller = new AbortController();
      const got = events(
        await collect(
          clientFor(server.baseURL, quick()).stream(request(), controller.signal),
          (e) => e.type === 'retry' && controller.abort(),
        ),
      );
      assert.deepEqual(
        got.map((e) => e.type),
        ['retry', 'stop'],
      );
      assert.deepEqual(got.at(-1), { type: 'stop', reason: 'cancelled' });
      assert.equal(server.requests.length, 1);
    }));

  test('a consumer that stops reading at a retry event leaves no request behind', () =>
    withServer([{ times: Infinity, reply: reply.error(529) }], async (server) => {
      for await (const e of clientFor(server.baseURL, quick()).stream(request(), new AbortController().signal))
        if (e.type === 'retry') break;
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.requests.length, 1);
    }));

  // The wait is an hour: were the cancel not to cut it short, the test would hang, not pass.
  test('cancelling during a retry wait ends it at once as cancelled', { timeout: 20_000 }, () =>
    withServer([{ times: Infinity, reply: reply.error(429, { retryAfterMs: 3_600_000 }) }], async (server) => {
      const controller = new AbortController();
      const stream = clientFor(server.baseURL, quick({ retryBudgetMs: 7_200_000 })).stream(
        request(),
        controller.signal,
      );
      const got = events(await collect(stream, (e) => e.type === 'retry' && setTimeout(() => controller.abort(), 30)));
      assert.deepEqual(
        got.map((e) => e.type),
        ['retry', 'stop'],
      );
      assert.equal(got[0]?.type === 'retry' && got[0].delayMs, 3_600_000);
      assert.deepEqual(got.at(-1), { type: 'stop', reason: 'cancelled' });
      assert.equal(server.requests.length, 1);
    }),
  );

  test('limits given as a function are read at every call, so a changed setting applies to the next call', () =>
    withServer([{ times: Infinity, reply: reply.text('late', { headerDelayMs: 300 }) }], async (server) => {
      let firstByteTimeoutMs = 5_000;
      const live = new AnthropicClient({
        apiKey: async () => CANARY_KEY,
        baseURL: server.baseURL,
        models: () => 'claude-haiku-4-5',
        limits: () => ({ firstByteTimeoutMs, maxRetries: 0 }),
      });
      const first = events(await collect(live.stream(request(), new AbortController().signal)));
      assert.equal(first.at(-1)?.type, 'stop');
      firstByteTimeoutMs = 100;
      const error = await rejection(collect(live.stream(request(), new AbortController().signal)));
      assert.ok(error instanceof LlmError);
      assert.match(error.message, /did not answer within 100 ms \(1 attempt\)/);
    }));

  test('neither the key nor a proxy password reaches a retry event or the error', async () => {
    // fetch refuses a URL with credentials, so every attempt fails to connect and is retried.
    const { got, error } = await failing(
      `http://proxy-user:${encodeURIComponent(CANARY_KEY)}@127.0.0.1:9`,
      quick({ maxRetries: 2 }),
    );
    assert.equal(retries(got).length, 2);
    assertNoSecret(CANARY_KEY, got, error);
    await withServer(
      [{ times: Infinity, reply: reply.error(529, { message: `key ${CANARY_KEY} is overloaded`, retryAfterMs: 1 }) }],
      async (server) => {
        const echoed = await failing(server.baseURL, quick());
        assert.equal(retries(echoed.got).length, 2);
        assert.match(echoed.error.message, /key \[redacted\] is overloaded/);
        assertNoSecret(CANARY_KEY, echoed.got, echoed.error);
      },
    );
  });

  test('the attempts made read short: the time only when it is worth saying', () => {
    assert.deepEqual(
      [
        attemptsMade(1, 60_000),
        attemptsMade(4, 18),
        attemptsMade(3, 999),
        attemptsMade(3, 1_000),
        attemptsMade(3, 180_400),
      ],
      ['1 attempt', '4 attempts', '3 attempts', '3 attempts over 1 s', '3 attempts over 180 s'],
    );
  });
});
