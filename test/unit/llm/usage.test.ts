import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LlmUsage } from '../../../src/core/llm/llmClient';
import {
  DEFAULT_PRICES,
  UsageLedger,
  addUsage,
  costOf,
  formatTokens,
  formatUsd,
  priceFor,
  totalTokens,
  ZERO_USAGE,
} from '../../../src/core/llm/usage';

const u = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheCreationTokens = 0): LlmUsage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheCreationTokens,
});
const close = (actual: number | undefined, expected: number) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${String(actual)} ≈ ${expected}`);

describe('usage', () => {
  test('usages add field by field; the total counts cached tokens too', () => {
    assert.deepEqual(addUsage(u(1, 2, 3, 4), u(10, 20, 30, 40)), u(11, 22, 33, 44));
    assert.deepEqual(addUsage(ZERO_USAGE, u(1, 2)), u(1, 2));
    assert.equal(totalTokens(u(1, 2, 3, 4)), 10);
  });

  test('cost prices input, output, cache writes and cache reads apart, per million tokens', () => {
    // claude-sonnet-4-5: 3 / 15 / 3.75 / 0.30 USD per million.
    close(costOf('claude-sonnet-4-5', u(1_000_000, 0)), 3);
    close(costOf('claude-sonnet-4-5', u(0, 1_000_000)), 15);
    close(costOf('claude-sonnet-4-5', u(0, 0, 0, 1_000_000)), 3.75);
    close(costOf('claude-sonnet-4-5', u(0, 0, 1_000_000, 0)), 0.3);
    close(
      costOf('claude-haiku-4-5', u(2000, 500, 10_000, 1000)),
      (2000 * 1 + 500 * 5 + 10_000 * 0.1 + 1000 * 1.25) / 1e6,
    );
    close(costOf('claude-opus-4-1', u(1000, 1000)), (15_000 + 75_000) / 1e6);
  });

  test('an unknown model has an unknown cost, not a zero one; a dated id is priced as its alias', () => {
    assert.equal(costOf('gpt-something', u(1000, 1000)), undefined);
    assert.equal(priceFor('claude-haiku-4-5-20251001'), DEFAULT_PRICES['claude-haiku-4-5']);
    assert.equal(priceFor('claude-haiku-4-5-preview'), undefined);
    assert.equal(priceFor('toString'), undefined, 'no prototype keys');
    const custom = { 'my-model': { input: 2, output: 4, cacheWrite: 2.5, cacheRead: 0.2 } };
    close(costOf('my-model', u(1_000_000, 1_000_000), custom), 6);
    assert.equal(costOf('claude-sonnet-4-5', u(1, 1), custom), undefined, 'the table passed in is the whole table');
  });

  test('the ledger keeps each call and totals by session and by model', () => {
    const ledger = new UsageLedger();
    assert.deepEqual(ledger.total(), ZERO_USAGE);
    assert.equal(ledger.cost(), 0);
    ledger.record('claude-sonnet-4-5-20250929', u(100, 50, 1000, 0));
    ledger.record('claude-haiku-4-5', u(10, 5));
    ledger.record('claude-sonnet-4-5-20250929', u(200, 60, 1000, 300));
    assert.equal(ledger.calls().length, 3);
    assert.deepEqual(ledger.total(), u(310, 115, 2000, 300));
    assert.deepEqual(
      [...ledger.byModel()],
      [
        ['claude-sonnet-4-5-20250929', u(300, 110, 2000, 300)],
        ['claude-haiku-4-5', u(10, 5)],
      ],
    );
    close(ledger.cost(), (300 * 3 + 110 * 15 + 2000 * 0.3 + 300 * 3.75 + 10 * 1 + 5 * 5) / 1e6);
    ledger.record('mystery', u(1, 1));
    assert.equal(ledger.cost(), undefined);
  });

  test('a recorded usage is a copy: later changes to the caller’s object do not rewrite history', () => {
    const ledger = new UsageLedger();
    const usage = u(1, 1);
    ledger.record('claude-haiku-4-5', usage);
    usage.inputTokens = 999;
    assert.equal(ledger.total().inputTokens, 1);
  });

  test('formats cost and token counts for the panel', () => {
    assert.equal(formatUsd(0.0123), '$0.0123');
    assert.equal(formatUsd(0.00004), '<$0.0001');
    assert.equal(formatUsd(0), '$0.0000');
    assert.equal(formatUsd(12.345), '$12.35');
    assert.equal(formatUsd(undefined), 'cost unknown');
    assert.equal(formatTokens(1), '1 token');
    assert.equal(formatTokens(950), '950 tokens');
    assert.equal(formatTokens(12_345), '12.3k tokens');
    assert.equal(formatTokens(999_960), '1.0M tokens');
    assert.equal(formatTokens(1_234_567), '1.2M tokens');
  });
});
