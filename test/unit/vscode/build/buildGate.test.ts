// What the build's confirmation gate says before anything starts: the brief's first lines (no
// markdown marks, each cut, "…" when there is more), each phase with its concrete model and turn
// limit (its role only when a workspace changed it), where the project goes, the estimate as a
// range said to be one, and the cost ceiling. Text from files and role names is visible text only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BuildEstimate } from '../../../../src/core/build/buildEstimate';
import { briefLines, compact, gateDetail, type GateWords } from '../../../../src/vscode/build/buildGate';

const WORDS: GateWords = {
  phases: 'Phases',
  model: (m, t) => `${m}, up to ${t} turns`,
  modelAndRole: (m, t, r) => `${m}, up to ${t} turns, role ${r}`,
  where: (w) => `Project folder: ${w}`,
  estimate: (tokens, cost) => `Estimate: ${tokens} tokens, ${cost} (an estimate)`,
  estimateUnpriced: (tokens) => `Estimate: ${tokens} tokens (no price)`,
  ceiling: (usd) => `Cost ceiling: ${usd}`,
  noCeiling: 'No cost ceiling',
  weaker: "Warning: this workspace makes Groundwork's checks weaker:",
};

const ESTIMATE: BuildEstimate = {
  phases: [
    {
      phase: 'analyst',
      role: 'build-analyst',
      model: 'claude-sonnet-4-6',
      maxTurns: 25,
      tokens: { low: 1000, high: 90_000 },
    },
    {
      phase: 'qa',
      role: 'strict-qa\u001b[31m',
      model: 'claude-haiku-4-5',
      maxTurns: 80,
      tokens: { low: 2000, high: 2_400_000 },
    },
  ],
  tokens: { low: 3000, high: 2_490_000 },
  costUsd: { low: 0.014, high: 36.5 },
};

describe('gateDetail', () => {
  test('the brief, the phases with their models, where, the estimate and the ceiling, in paragraphs', () => {
    const text = gateDetail(
      { brief: '# Idea Brief: adder\n\n- sum(a, b)\n', estimate: ESTIMATE, where: 'a new folder', maxCostUsd: 5 },
      WORDS,
    );
    assert.equal(
      text,
      [
        'Idea Brief: adder\nsum(a, b)',
        'Phases:\n  analyst — claude-sonnet-4-6, up to 25 turns\n  qa — claude-haiku-4-5, up to 80 turns, role strict-qa\\x1b[31m',
        'Project folder: a new folder\nEstimate: 3k–2.5M tokens, $0.01–$36.50 (an estimate)\nCost ceiling: $5.00',
      ].join('\n\n'),
    );
  });

  test('weaker checks come first, as a warning, one line each, made visible; none: nothing is said', () => {
    const text = gateDetail(
      {
        brief: 'Idea',
        estimate: ESTIMATE,
        where: 'w',
        weaker: [
          ".groundwork/workflows/build.yaml: qa's check is none instead of verification",
          '.groundwork/roles/build-delivery.md lets delivery also write src/** \u001b[2J',
        ],
      },
      WORDS,
    );
    assert.equal(
      text.split('\n\n')[0],
      [
        "Warning: this workspace makes Groundwork's checks weaker:",
        "  • .groundwork/workflows/build.yaml: qa's check is none instead of verification",
        '  • .groundwork/roles/build-delivery.md lets delivery also write src/** \\x1b[2J',
      ].join('\n'),
    );
    assert.equal(text.split('\n\n')[1], 'Idea');
    assert.doesNotMatch(gateDetail({ brief: 'Idea', estimate: ESTIMATE, where: 'w', weaker: [] }, WORDS), /Warning/);
  });

  test('a model without a price: the tokens alone; no ceiling said so', () => {
    const { costUsd: _c, ...unpriced } = ESTIMATE;
    const text = gateDetail({ brief: 'x', estimate: unpriced, where: 'w' }, WORDS);
    assert.match(text, /Estimate: 3k–2\.5M tokens \(no price\)\nNo cost ceiling$/);
  });
});

describe('briefLines and compact', () => {
  test('the first five lines, headings and list marks off, long ones cut, "…" when there is more', () => {
    const lines = briefLines(`## One\n* two\n3\n\n4\n${'x'.repeat(300)}\n6\n`);
    assert.deepEqual(lines.slice(0, 4), ['One', 'two', '3', '4']);
    assert.equal([...lines[4]!].length, 140);
    assert.ok(lines[4]!.endsWith('…'));
    assert.equal(lines[5], '…');
    assert.doesNotMatch(briefLines('a\u0007b\u202ec').join(''), /[\u0007\u202e]/);
  });

  test('tokens as people read them', () => {
    assert.deepEqual([compact(950), compact(12_345), compact(4_100_000)], ['950', '12k', '4.1M']);
  });
});
