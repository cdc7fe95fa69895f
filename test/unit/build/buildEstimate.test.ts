// What the confirmation gate says a build may cost: a range, from the roles' turn limits and the
// brief's size, said to be an estimate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ceilingProblem, estimateBuild, estimateText } from '../../../src/core/build/buildEstimate';
import type { Role } from '../../../src/core/roles/roleSchema';
import { bundledPhases, bundledRole } from './buildHarness';

const phases = () => bundledPhases().map((p) => ({ name: p.name, role: bundledRole(p.role) }));
const one = (role: Partial<Role>) => [{ name: 'developer', role: { ...bundledRole('build-developer'), ...role } }];

describe('estimateBuild', () => {
  it('the bundled workflow: a range of tokens and dollars, the low end below the high end, for every phase and in all', () => {
    const estimate = estimateBuild(phases(), 2_000);
    assert.deepEqual(
      estimate.phases.map((p) => p.phase),
      ['analyst', 'architect', 'test-writer', 'developer', 'qa', 'reviewer', 'delivery'],
    );
    for (const p of estimate.phases) {
      assert.ok(p.tokens.low > 0 && p.tokens.low < p.tokens.high, `${p.phase}: ${p.tokens.low} < ${p.tokens.high}`);
      assert.ok(p.costUsd !== undefined && p.costUsd.low < p.costUsd.high, p.phase);
    }
    assert.ok(estimate.tokens.low < estimate.tokens.high);
    assert.ok(
      estimate.costUsd !== undefined && estimate.costUsd.low > 0 && estimate.costUsd.low < estimate.costUsd.high,
    );
    assert.equal(
      estimate.tokens.high,
      estimate.phases.reduce((n, p) => n + p.tokens.high, 0),
    );
    assert.deepEqual(
      estimate.phases.map((p) => p.model),
      [
        'claude-sonnet-4-6',
        'claude-sonnet-4-6',
        'claude-haiku-4-5',
        'claude-haiku-4-5',
        'claude-haiku-4-5',
        'claude-haiku-4-5',
        'claude-haiku-4-5',
      ],
    );
  });

  it('grows with the turn limit and with the size of the brief', () => {
    const few = estimateBuild(one({ maxTurns: 10 }), 1_000);
    const many = estimateBuild(one({ maxTurns: 40 }), 1_000);
    assert.ok(many.tokens.high > few.tokens.high);
    assert.ok((many.costUsd?.high ?? 0) > (few.costUsd?.high ?? 0));
    const small = estimateBuild(one({}), 1_000);
    const large = estimateBuild(one({}), 150_000);
    assert.ok(large.tokens.low > small.tokens.low);
    assert.ok(large.tokens.high > small.tokens.high);
  });

  it('a role of one turn still has its low end below its high end', () => {
    const estimate = estimateBuild(one({ maxTurns: 1 }), 500);
    assert.ok(estimate.tokens.low < estimate.tokens.high);
  });

  it('a model without a price: no cost range, for the phase or the build', () => {
    const estimate = estimateBuild(
      [...phases(), { name: 'extra', role: { ...bundledRole('build-qa'), model: { id: 'local-llama' } } }],
      2_000,
    );
    assert.equal(estimate.phases.find((p) => p.phase === 'extra')?.costUsd, undefined);
    assert.equal(estimate.costUsd, undefined);
    assert.ok(estimate.tokens.low < estimate.tokens.high, 'tokens are still estimated');
  });

  it("follows the person's model settings and prices", () => {
    const estimate = estimateBuild(
      one({ model: { tier: 'fast' } }),
      1_000,
      { fast: 'my-model' },
      { 'my-model': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } },
    );
    assert.equal(estimate.phases[0]?.model, 'my-model');
    assert.ok(estimate.costUsd !== undefined);
  });
});

describe('estimateText', () => {
  it('says it is an estimate, with the token and dollar ranges', () => {
    const text = estimateText({
      phases: [],
      tokens: { low: 120_000, high: 4_100_000 },
      costUsd: { low: 0.4, high: 31 },
    });
    assert.equal(text, '120k–4.1M tokens, $0.40–$31.00 (an estimate)');
  });

  it('says the cost is unknown when a model has no price', () => {
    const text = estimateText(estimateBuild(one({ model: { id: 'local-llama' } }), 100));
    assert.match(text, /^\d+k?–\d+(\.\d)?[kM]? tokens, cost unknown \(a model without a price\) \(an estimate\)$/);
  });
});

describe('ceilingProblem', () => {
  it('a ceiling over a phase whose model has no price cannot hold: the start is refused, naming the model', () => {
    const unpriced = estimateBuild(phases(), 2_000, { fast: 'claude-mystery-9' });
    assert.equal(ceilingProblem(unpriced, undefined, 'Give a price.'), undefined, 'no ceiling, nothing to hold');
    assert.equal(
      ceilingProblem(unpriced, 5, 'Give a price.'),
      'The build has a cost ceiling of $5.00, but Groundwork knows no price for claude-mystery-9, so what the build spends could not be counted and the ceiling could not hold. Give a price.',
    );
    assert.equal(ceilingProblem(estimateBuild(phases(), 2_000), 5, 'Give a price.'), undefined, 'every model priced');
  });
});
