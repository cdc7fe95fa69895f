// The CLI's names for the call limits: GROUNDWORK_FIRST_BYTE_TIMEOUT_SECONDS and
// GROUNDWORK_RETRY_BUDGET_SECONDS are read with the key, a bad value is a usage error naming the
// variable (exit 2 before any session changes), and the errors of the CLI's client name the
// variables where the extension's name its settings (CLI_ADVICE, core/llm/errorAdvice.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/cliTypes';
import {
  BASE_URL_VAR,
  CLI_ADVICE,
  FIRST_BYTE_VAR,
  KEY_VAR,
  MODEL_VARS,
  RETRY_BUDGET_VAR,
  limitsFromEnv,
  modelFromEnv,
} from '../../../src/cli/modelDeps';
import { LIMIT_SETTINGS } from '../../../src/core/llm/retryPolicy';
import { LlmError } from '../../../src/core/llm/llmClient';
import { reply, startScriptedModelServer } from '../../support/scriptedModelServer';
import { CANARY_KEY, clientFor, collect, rejection, request } from './llmHarness';

describe('call limits from the environment', () => {
  test('unset, the defaults apply; set, they are seconds', () => {
    assert.deepEqual(limitsFromEnv({}), {});
    assert.deepEqual(limitsFromEnv({ [FIRST_BYTE_VAR]: ' ', [RETRY_BUDGET_VAR]: '' }), {});
    assert.deepEqual(limitsFromEnv({ [FIRST_BYTE_VAR]: '30', [RETRY_BUDGET_VAR]: '600' }), {
      firstByteTimeoutMs: 30_000,
      retryBudgetMs: 600_000,
    });
    assert.deepEqual(limitsFromEnv({ [FIRST_BYTE_VAR]: '7.5' }), { firstByteTimeoutMs: 7_500 });
  });

  for (const [name, value] of [
    [FIRST_BYTE_VAR, 'soon'],
    [FIRST_BYTE_VAR, '4'],
    [FIRST_BYTE_VAR, '601'],
    [FIRST_BYTE_VAR, '-60'],
    [RETRY_BUDGET_VAR, '9'],
    [RETRY_BUDGET_VAR, '1e9'],
    [RETRY_BUDGET_VAR, 'Infinity'],
  ] as const) {
    test(`${name}=${value} is a usage error naming the variable and its range`, () => {
      const range = name === FIRST_BYTE_VAR ? LIMIT_SETTINGS.firstByte : LIMIT_SETTINGS.budget;
      assert.throws(
        () => modelFromEnv({ [KEY_VAR]: CANARY_KEY, [name]: value }, undefined, 'discover'),
        (err: unknown) =>
          err instanceof UsageError &&
          err.helpTopic === 'discover' &&
          err.message ===
            `${name} must be a number of seconds from ${range.min} to ${range.max}, not '${value}'; fix it or unset it`,
      );
    });
  }

  test('the client made from the environment uses them', async () => {
    const server = await startScriptedModelServer([{ times: Infinity, reply: reply.error(429, { retryAfter: 8 }) }]);
    try {
      const model = modelFromEnv({
        [KEY_VAR]: CANARY_KEY,
        ANTHROPIC_BASE_URL: server.baseURL,
        [FIRST_BYTE_VAR]: '5',
        [RETRY_BUDGET_VAR]: '10',
      });
      const error = await rejection(collect((await model.llm()).stream(request(), new AbortController().signal)));
      assert.ok(error instanceof LlmError);
      // An 8 s wait leaves less than the 5 s first-byte limit of the 10 s budget (the default 180 s would retry).
      assert.match(
        error.message,
        /still after 1 attempt; the API asked to wait 8 s, longer than the retry budget of 10 s allows\)/,
      );
      assert.match(error.message, new RegExp(`A larger ${RETRY_BUDGET_VAR} lets Groundwork wait that long\\.$`));
      assert.ok(!error.message.includes('groundwork.model.'), error.message);
      assert.equal(server.requests.length, 1);
      // The SDK tells the API the attempt's time limit, in whole seconds.
      assert.equal(server.requests[0]?.headers['x-stainless-timeout'], '5');
    } finally {
      await server.close();
    }
  });

  test("the CLI's errors name the variables, not the VS Code settings and command", async () => {
    const server = await startScriptedModelServer([
      { reply: reply.blackHole() },
      { reply: reply.error(401, { message: 'invalid x-api-key' }) },
      { reply: reply.error(403, { message: 'forbidden' }) },
      { reply: reply.error(404, { message: 'model: claude-nope' }) },
    ]);
    try {
      const client = clientFor(server.baseURL, {
        advice: CLI_ADVICE,
        limits: { firstByteTimeoutMs: 200, maxRetries: 5, retryBudgetMs: 300 },
      });
      const failure = async () => {
        const error = await rejection(collect(client.stream(request(), new AbortController().signal)));
        assert.ok(error instanceof LlmError);
        assert.ok(!/groundwork\.model\.|Groundwork: Set|base URL|model settings/.test(error.message), error.message);
        return error.message;
      };
      assert.match(
        await failure(),
        new RegExp(
          `Check your network connection and ${BASE_URL_VAR}; if the endpoint is only slow to start, raise ${FIRST_BYTE_VAR}, or ${RETRY_BUDGET_VAR} for more attempts\\.$`,
        ),
      );
      assert.match(await failure(), new RegExp(`\\[request req_scripted_\\d+\\] Set a valid key in ${KEY_VAR}\\.$`));
      assert.match(
        await failure(),
        new RegExp(`Check its permissions in the Anthropic Console, or set a valid key in ${KEY_VAR}\\.$`),
      );
      assert.match(
        await failure(),
        new RegExp(`Check the model ids \\(${MODEL_VARS.complex}, ${MODEL_VARS.fast}\\)\\.$`),
      );
      const noKey = await rejection(
        collect(
          clientFor(server.baseURL, { advice: CLI_ADVICE, apiKey: async () => undefined }).stream(
            request(),
            new AbortController().signal,
          ),
        ),
      );
      assert.ok(noKey instanceof LlmError);
      assert.equal(noKey.message, `No Anthropic API key is set. Set a valid key in ${KEY_VAR}.`);
    } finally {
      await server.close();
    }
  });
});
