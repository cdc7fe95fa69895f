// A requirement turns green only by a test that names it and passed; red when one that names it
// failed; blue ("implemented, no passing test names it") otherwise — never on an exit code alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeRequirements, namesRequirement } from '../../../src/core/build/requirementEvidence';
import type { TestCase, TestTally } from '../../../src/core/build/testResults/testResults';

function tally(tests: TestCase[], named = true): TestTally {
  const count = (s: TestCase['status']) => tests.filter((t) => t.status === s).length;
  return {
    runner: 'node',
    ran: tests.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    tests,
    complete: true,
    named,
  };
}

describe('requirements by their tests', () => {
  test('an id is named as a whole: task-001 is not task-0010, nor xtask-001', () => {
    assert.equal(namesRequirement('task-001 adds', 'task-001'), true);
    assert.equal(namesRequirement('suite > [TASK-001] adds', 'task-001'), true);
    assert.equal(namesRequirement('task-0010 adds', 'task-001'), false);
    assert.equal(namesRequirement('xtask-001 adds', 'task-001'), false);
    assert.equal(namesRequirement('adds (task-001)', 'task-001'), true);
  });

  test('green by a passing test that names it, red by a failing one, blue with none; skipped tests are no evidence', () => {
    const results = judgeRequirements(
      ['task-001', 'task-002', 'task-003', 'task-004'],
      tally([
        { name: 'task-001 adds', status: 'passed' },
        { name: 'task-002 subtracts', status: 'passed' },
        { name: 'task-002 rounds', status: 'failed' },
        { name: 'task-003 later', status: 'skipped' },
      ]),
      [],
    );
    assert.deepEqual(
      results.map((r) => [r.id, r.result, r.tests]),
      [
        ['task-001', 'passed', ['task-001 adds (passed)']],
        ['task-002', 'failed', ['task-002 subtracts (passed)', 'task-002 rounds (failed)']],
        ['task-003', 'untested', []],
        ['task-004', 'untested', []],
      ],
    );
  });

  test("the test writer's COVERAGE: maps a test whose name does not carry the id", () => {
    const [r] = judgeRequirements(['task-001'], tally([{ name: 'sum > adds two numbers', status: 'passed' }]), [
      { requirement: 'task-001', test: 'adds two numbers', file: 'test/sum.test.js' },
    ]);
    assert.equal(r?.result, 'passed');
  });

  test('an output that names no test, or none at all, leaves every requirement blue', () => {
    assert.deepEqual(
      judgeRequirements(['task-001'], tally([{ name: 'task-001', status: 'passed' }], false), []).map((r) => r.result),
      ['untested'],
    );
    assert.deepEqual(
      judgeRequirements(['task-001'], undefined, []).map((r) => r.result),
      ['untested'],
    );
  });
});

describe('only the test writer’s tests make a requirement green', () => {
  test('a passing test a later phase added under the id counts for nothing; a failing one still counts', () => {
    const frozen = (name: string) => name === 'task-001 adds';
    const results = judgeRequirements(
      ['task-001', 'task-002', 'task-003'],
      tally([
        { name: 'task-001 adds', status: 'passed' },
        { name: 'task-002 vacuous', status: 'passed' },
        { name: 'task-003 added later', status: 'failed' },
      ]),
      [],
      frozen,
    );
    assert.deepEqual(
      results.map((r) => [r.id, r.result]),
      [
        ['task-001', 'passed'],
        ['task-002', 'untested'],
        ['task-003', 'failed'],
      ],
    );
  });
});
