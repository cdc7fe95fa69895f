// The retry policy as tables: which failures are retried, what wait a reply asks for, the backoff,
// and when the budget stops the retries. Time and chance are inputs here, so nothing waits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_CALL_LIMITS,
  LIMIT_SETTINGS,
  backoffMs,
  decideRetry,
  duration,
  isRetryableStatus,
  requestedDelayMs,
  resolveLimits,
  userLimits,
  type CallLimits,
} from '../../../src/core/llm/retryPolicy';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const headers = (h: Record<string, string>) => (name: string) => h[name];
const limits = (l: Partial<CallLimits> = {}) => resolveLimits(l);

describe('retry policy', () => {
  test('retryable statuses are the SDK’s, and x-should-retry overrides them', () => {
    const table: [number, string | undefined, boolean][] = [
      [408, undefined, true],
      [409, undefined, true],
      [429, undefined, true],
      [500, undefined, true],
      [503, undefined, true],
      [529, undefined, true],
      [400, undefined, false],
      [401, undefined, false],
      [404, undefined, false],
      [529, 'false', false],
      [400, 'true', true],
      [529, 'maybe', true],
    ];
    for (const [status, header, expected] of table)
      assert.equal(isRetryableStatus(status, header), expected, `${status} x-should-retry=${header}`);
  });

  test('the wait a reply asks for: retry-after-ms first, then retry-after in seconds or as a date; nonsense asks for nothing', () => {
    const table: [Record<string, string>, number | undefined][] = [
      [{ 'retry-after-ms': '250' }, 250],
      [{ 'retry-after-ms': '0.5' }, 0.5],
      [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
      [{ 'retry-after-ms': 'soon', 'retry-after': '9' }, 9000],
      [{ 'retry-after': '2' }, 2000],
      [{ 'retry-after': ' 1.5 ' }, 1500],
      [{ 'retry-after': '1e9' }, 1e12],
      [{ 'retry-after': new Date(NOW + 30_000).toUTCString() }, 30_000],
      [{ 'retry-after': new Date(NOW - 30_000).toUTCString() }, undefined],
      [{ 'retry-after': '0' }, undefined],
      [{ 'retry-after': '-5' }, undefined],
      [{ 'retry-after': '-1e3' }, undefined],
      [{ 'retry-after': 'soon' }, undefined],
      [{ 'retry-after': 'Infinity' }, undefined],
      [{ 'retry-after': 'NaN' }, undefined],
      [{ 'retry-after': '' }, undefined],
      [{ 'retry-after-ms': '-1' }, undefined],
      [{}, undefined],
    ];
    for (const [h, expected] of table) assert.equal(requestedDelayMs(headers(h), NOW), expected, JSON.stringify(h));
  });

  test('the backoff doubles from the initial delay up to the cap, less at most a quarter', () => {
    const l = limits();
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, l, () => 0)),
      [500, 1000, 2000, 4000, 8000, 8000],
    );
    assert.deepEqual(
      [1, 2, 5].map((n) => backoffMs(n, l, () => 0.999_999)),
      [375, 750, 6000],
    );
  });

  test('a retry is made while retries are left and its wait leaves the budget room for a first byte', () => {
    const l = limits({ maxRetries: 3, firstByteTimeoutMs: 60_000, retryBudgetMs: 180_000 });
    const fixed = () => 0;
    // A black hole at the defaults: 0–60 s, 60.5–120.5 s, then 121.5 s with 58.5 s left: a third attempt, cut to fit.
    assert.deepEqual(decideRetry({ retriesDone: 0, elapsedMs: 60_000, limits: l }, fixed), {
      retry: true,
      delayMs: 500,
      firstByteMs: 60_000,
    });
    assert.deepEqual(decideRetry({ retriesDone: 1, elapsedMs: 120_500, limits: l }, fixed), {
      retry: true,
      delayMs: 1000,
      firstByteMs: 58_500,
    });
    assert.deepEqual(decideRetry({ retriesDone: 2, elapsedMs: 180_000, limits: l }, fixed), {
      retry: false,
      why: 'budget',
    });
    // Less than 10 s would be left: not worth an attempt.
    assert.deepEqual(decideRetry({ retriesDone: 1, elapsedMs: 169_500, limits: l }, fixed), {
      retry: false,
      why: 'budget',
    });
    // Quick failures get every retry.
    assert.deepEqual(decideRetry({ retriesDone: 3, elapsedMs: 4_000, limits: l }, fixed), {
      retry: false,
      why: 'retries',
    });
    assert.deepEqual(decideRetry({ retriesDone: 0, elapsedMs: 0, limits: limits({ maxRetries: 0 }) }, fixed), {
      retry: false,
      why: 'retries',
    });
  });

  test('a requested wait is kept when it fits, and stops the retries when it does not', () => {
    const l = limits({ firstByteTimeoutMs: 5_000, retryBudgetMs: 60_000 });
    assert.deepEqual(decideRetry({ retriesDone: 0, elapsedMs: 1_000, requestedDelayMs: 30_000, limits: l }), {
      retry: true,
      delayMs: 30_000,
      firstByteMs: 5_000,
    });
    assert.deepEqual(decideRetry({ retriesDone: 0, elapsedMs: 1_000, requestedDelayMs: 56_000, limits: l }), {
      retry: false,
      why: 'retry-after',
      delayMs: 56_000,
    });
    assert.deepEqual(decideRetry({ retriesDone: 0, elapsedMs: 0, requestedDelayMs: 1e12, limits: l }), {
      retry: false,
      why: 'retry-after',
      delayMs: 1e12,
    });
  });

  test('waits and first-byte limits are whole milliseconds, whatever the header said', () => {
    const l = limits({ firstByteTimeoutMs: 60_000, retryBudgetMs: 180_000 });
    const d = decideRetry({ retriesDone: 0, elapsedMs: 150_000, requestedDelayMs: 0.5, limits: l });
    assert.deepEqual(d, { retry: true, delayMs: 1, firstByteMs: 29_999 });
  });

  test('limits: missing or nonsensical values take the defaults; the idle limit follows a longer first-byte limit', () => {
    assert.deepEqual(resolveLimits(), { ...DEFAULT_CALL_LIMITS });
    const odd = resolveLimits({
      maxRetries: -1,
      firstByteTimeoutMs: Number.NaN,
      retryBudgetMs: Infinity,
      initialRetryDelayMs: 2.4,
    });
    assert.equal(odd.maxRetries, DEFAULT_CALL_LIMITS.maxRetries);
    assert.equal(odd.firstByteTimeoutMs, DEFAULT_CALL_LIMITS.firstByteTimeoutMs);
    assert.equal(odd.retryBudgetMs, DEFAULT_CALL_LIMITS.retryBudgetMs);
    assert.equal(odd.initialRetryDelayMs, 2);
    assert.equal(resolveLimits({ firstByteTimeoutMs: 600_000 }).idleTimeoutMs, 600_000);
    assert.equal(resolveLimits({ firstByteTimeoutMs: 5_000 }).idleTimeoutMs, DEFAULT_CALL_LIMITS.idleTimeoutMs);
    assert.equal(resolveLimits({ firstByteTimeoutMs: 1e15 }).firstByteTimeoutMs, 2 ** 31 - 1, 'a timer can hold it');
  });

  test('user settings in seconds: brought into range, and ignored when not a number', () => {
    assert.deepEqual(userLimits(60, 180), { firstByteTimeoutMs: 60_000, retryBudgetMs: 180_000 });
    assert.deepEqual(userLimits(1, 99_999), {
      firstByteTimeoutMs: LIMIT_SETTINGS.firstByte.min * 1000,
      retryBudgetMs: LIMIT_SETTINGS.budget.max * 1000,
    });
    assert.deepEqual(userLimits('60', undefined), {});
    assert.deepEqual(userLimits(Number.NaN, null), {});
    assert.deepEqual(userLimits(7.5, 10), { firstByteTimeoutMs: 7_500, retryBudgetMs: 10_000 });
  });

  test('durations read short', () => {
    assert.deepEqual([40, 999, 1_000, 2_540, 60_000, 180_000, 3_600_000, 1e12].map(duration), [
      '40 ms',
      '999 ms',
      '1 s',
      '2.5 s',
      '60 s',
      '180 s',
      '60 min',
      '11574.1 days',
    ]);
  });
});

describe('the settings in the manifest', () => {
  test("their defaults and ranges are the policy's", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: {
        configuration: { properties: Record<string, { default: number; minimum: number; maximum: number }> };
      };
    };
    const props = pkg.contributes.configuration.properties;
    const firstByte = props[LIMIT_SETTINGS.firstByte.setting];
    const budget = props[LIMIT_SETTINGS.budget.setting];
    assert.deepEqual(
      [firstByte?.default, firstByte?.minimum, firstByte?.maximum],
      [DEFAULT_CALL_LIMITS.firstByteTimeoutMs / 1000, LIMIT_SETTINGS.firstByte.min, LIMIT_SETTINGS.firstByte.max],
    );
    assert.deepEqual(
      [budget?.default, budget?.minimum, budget?.maximum],
      [DEFAULT_CALL_LIMITS.retryBudgetMs / 1000, LIMIT_SETTINGS.budget.min, LIMIT_SETTINGS.budget.max],
    );
  });
});
