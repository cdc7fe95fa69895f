// Node's test runner, spec and TAP reporters, Node 20 and 22: the captured fixtures (fixtures/README.md).
// Both reporters of both releases must read the same suite as the same tally.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { counts, names, tallyOf } from './fixtureTally';

const PASS = ['passed adds two numbers', 'passed strings > joins words', 'passed strings > case > upper-cases'];
const MIXED = [
  'passed passes at top level',
  'failed fails at top level',
  'skipped skipped at top level',
  'passed cart > adds an item',
  'failed cart > removes an item',
  'skipped cart > applies a coupon',
  'passed cart > totals > sums prices',
  'skipped cart > totals > rounds to cents',
];
const KILLED = ['passed first quick one', 'passed second quick one', 'passed slow group > finishes quickly'];
const NONE = 'node: ran 0, 0 passed, 0 failed, 0 skipped; complete, named';

for (const node of ['node20', 'node22']) {
  for (const reporter of ['spec', 'tap']) {
    const file = (name: string): string => `node/${node}-${reporter}-${name}.txt`;

    describe(`${node}, ${reporter} reporter`, () => {
      test('all passing: three tests in nested describes, the describes not counted', () => {
        const t = tallyOf(file('pass'));
        assert.equal(counts(t), 'node: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
        assert.deepEqual(names(t), PASS);
      });

      test('failed, skipped and todo tests (a todo is skipped; a failing describe is no test)', () => {
        const t = tallyOf(file('mixed'));
        assert.equal(counts(t), 'node: ran 8, 3 passed, 2 failed, 3 skipped; complete, named');
        assert.deepEqual(names(t), MIXED);
      });

      test('two files: every test once (not again from the failures listed after the summary)', () => {
        const t = tallyOf(file('multi'));
        assert.equal(counts(t), 'node: ran 11, 6 passed, 2 failed, 3 skipped; complete, named');
        assert.deepEqual(names(t), [...MIXED, ...PASS]);
      });

      test('no test file at all: zero tests, complete', () => {
        assert.equal(counts(tallyOf(file('none'))), NONE);
      });

      test('a file that defines no test is zero tests, though Node counts the file as one passing', () => {
        const t = tallyOf(file('emptyfile'));
        assert.equal(counts(t), NONE);
        assert.deepEqual(names(t), []);
      });

      test("a test with subtests: Node's count, the subtests named, the parent as their group", () => {
        const t = tallyOf(file('subtests'));
        assert.equal(counts(t), 'node: ran 3, 3 passed, 0 failed, 0 skipped; complete, not named');
        assert.deepEqual(names(t), [
          'passed parent with subtests > first child',
          'passed parent with subtests > second child',
        ]);
      });

      test('killed while a test ran: what finished, incomplete', () => {
        const t = tallyOf(file('killed'));
        assert.equal(counts(t), 'node: ran 3, 3 passed, 0 failed, 0 skipped; incomplete, named');
        assert.deepEqual(names(t), KILLED);
      });
    });
  }
}

describe('Node, output cut short in the middle of a line', () => {
  test('spec: the cut line has no duration yet and is not read', () => {
    for (const node of ['node20', 'node22']) {
      const t = tallyOf(`node/${node}-spec-cut.txt`);
      assert.equal(counts(t), 'node: ran 6, 2 passed, 2 failed, 2 skipped; incomplete, named', node);
      assert.deepEqual(names(t), MIXED.slice(0, 6), node);
    }
  });

  test('TAP: the cut result line counts with the name it has so far', () => {
    for (const node of ['node20', 'node22']) {
      const t = tallyOf(`node/${node}-tap-cut.txt`);
      assert.equal(counts(t), 'node: ran 7, 3 passed, 2 failed, 2 skipped; incomplete, named', node);
      assert.deepEqual(names(t), [...MIXED.slice(0, 6), 'passed cart > totals > su'], node);
    }
  });
});

test('Node on a terminal: colours and CRLF line ends read as the plain output', () => {
  for (const node of ['node20', 'node22']) {
    const t = tallyOf(`node/${node}-spec-mixed-ansi.txt`);
    assert.equal(counts(t), 'node: ran 8, 3 passed, 2 failed, 3 skipped; complete, named', node);
    assert.deepEqual(names(t), MIXED, node);
  }
});

test("a failing todo with a reason (this project's own runner): skipped, and not counted again from the failures list", () => {
  const t = tallyOf('node/node20-spec-todo-failing.txt');
  assert.equal(counts(t), 'node: ran 9, 8 passed, 0 failed, 1 skipped; complete, named');
  const file = 'test/unit/run/hostile/concurrency.test.ts';
  assert.equal(
    names(t)[6],
    `skipped ${file} > found by review > a run killed between a second write of a file and its record is still reverted`,
  );
  assert.equal(names(t)[8], `passed ${file} > fixtures: a planted transcript line is read back by the run store`);
});
