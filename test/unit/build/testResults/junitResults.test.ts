// JUnit XML reports written by real runs (fixtures/README.md): counted from their testcase elements.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTestResults } from '../../../../src/core/build/testResults/testResults';
import { counts, fixture, names, tallyOf } from './fixtureTally';

const NODE_MIXED = [
  'passed passes at top level',
  'failed fails at top level',
  'skipped skipped at top level',
  'passed cart > adds an item',
  'failed cart > removes an item',
  'skipped cart > applies a coupon',
  'passed cart > totals > sums prices',
  'skipped cart > totals > rounds to cents',
];

test("Node's junit reporter, 20 and 22: nested testsuites as the suite, a todo skipped", () => {
  for (const f of ['node20-mixed.xml', 'node22-mixed.xml']) {
    const t = tallyOf(`junit/${f}`);
    assert.equal(counts(t), 'junit: ran 8, 3 passed, 2 failed, 3 skipped; complete, named', f);
    assert.deepEqual(names(t), NODE_MIXED, f);
  }
  assert.equal(
    counts(tallyOf('junit/node20-none.xml')),
    'junit: ran 0, 0 passed, 0 failed, 0 skipped; complete, named',
  );
});

test("pytest's --junitxml: an error fails, an xfail is skipped; the classname as suite", () => {
  const t = tallyOf('junit/pytest-mixed.xml');
  assert.equal(counts(t), 'junit: ran 11, 5 passed, 4 failed, 2 skipped; complete, named');
  assert.deepEqual(names(t), [
    'passed pytest > test_cart > test_adds_item',
    'failed pytest > test_cart > test_removes_item',
    'skipped pytest > test_cart > test_applies_coupon',
    'skipped pytest > test_cart > test_known_bug',
    'passed pytest > test_cart.TestTotals > test_sums_prices',
    'failed pytest > test_cart.TestTotals > test_rounds_to_cents',
    'passed pytest > test_cart.TestTotals > test_price_positive[1]',
    'failed pytest > test_cart.TestTotals > test_price_positive[2]',
    'passed pytest > test_cart.TestTotals > test_price_positive[3]',
    'failed pytest > test_errors > test_uses_broken',
    'passed pytest > test_errors > test_plain_pass',
  ]);
  assert.equal(
    counts(tallyOf('junit/pytest-pass.xml')),
    'junit: ran 4, 4 passed, 0 failed, 0 skipped; complete, named',
  );
  assert.equal(
    counts(tallyOf('junit/pytest-none.xml')),
    'junit: ran 0, 0 passed, 0 failed, 0 skipped; complete, named',
  );
});

test("Vitest's junit reporter: the file as suite, the describe path in the name (entities decoded)", () => {
  const t = tallyOf('junit/vitest-mixed.xml');
  assert.equal(counts(t), 'junit: ran 10, 6 passed, 2 failed, 2 skipped; complete, named');
  assert.deepEqual(names(t), [
    'passed tests/cart.test.js > cart > adds an item',
    'failed tests/cart.test.js > cart > removes an item',
    'skipped tests/cart.test.js > cart > applies a coupon',
    'skipped tests/cart.test.js > cart > charges shipping',
    'passed tests/cart.test.js > cart > totals > sums prices',
    'failed tests/cart.test.js > cart > totals > rounds to cents',
    'passed tests/cart.test.js > top-level pass',
    'passed tests/math.test.js > math > adds two numbers',
    'passed tests/math.test.js > math > division > divides evenly',
    'passed tests/math.test.js > top-level check',
  ]);
});

test('jest-junit: what it writes (a todo as a plain, passing testcase)', () => {
  const t = tallyOf('junit/jest-mixed.xml');
  assert.equal(counts(t), 'junit: ran 10, 7 passed, 2 failed, 1 skipped; complete, named');
  assert.deepEqual(names(t), [
    'passed cart > cart adds an item',
    'failed cart > cart removes an item',
    'skipped cart > cart applies a coupon',
    'passed cart > cart charges shipping',
    'passed cart > cart totals sums prices',
    'failed cart > cart totals rounds to cents',
    'passed cart > top-level pass',
    'passed math > math adds two numbers',
    'passed math > math division divides evenly',
    'passed math > top-level check',
  ]);
});

test('a report cut short: the testcases before the cut, incomplete', () => {
  const t = tallyOf('junit/pytest-cut.xml');
  assert.equal(counts(t), 'junit: ran 4, 1 passed, 1 failed, 2 skipped; incomplete, named');
  assert.deepEqual(names(t), [
    'passed pytest > test_cart > test_adds_item',
    'failed pytest > test_cart > test_removes_item',
    'skipped pytest > test_cart > test_applies_coupon',
    'skipped pytest > test_cart > test_known_bug',
  ]);
});

test('the report is the tally when it is whole; cut short, the output wins if it has one', () => {
  const output = fixture('pytest/mixed.txt');
  const whole = readTestResults(output, fixture('junit/pytest-mixed.xml'));
  assert.equal(counts(whole), 'junit: ran 11, 5 passed, 4 failed, 2 skipped; complete, named');
  const cut = readTestResults(output, fixture('junit/pytest-cut.xml'));
  assert.equal(counts(cut), 'pytest: ran 11, 5 passed, 4 failed, 2 skipped; complete, not named');
  const alone = readTestResults('no runner here', fixture('junit/pytest-cut.xml'));
  assert.equal(counts(alone), 'junit: ran 4, 1 passed, 1 failed, 2 skipped; incomplete, named');
  assert.equal(
    counts(readTestResults(output, 'not xml')),
    'pytest: ran 11, 5 passed, 4 failed, 2 skipped; complete, not named',
  );
});

test('comments, CDATA and quoted `>` are skipped whole; a testcase inside them is not counted', () => {
  const xml = [
    '<?xml version="1.0"?><!-- <testcase name="in a comment"/> -->',
    '<testsuites><testsuite name="s">',
    '<testcase name="a &gt; b" message="x > y"/>',
    '<testcase name="fails"><failure><![CDATA[ <testcase name="in cdata"/> ]]></failure></testcase>',
    '<testcase name="skips"><skipped/></testcase>',
    '</testsuite></testsuites>',
  ].join('\n');
  const t = readTestResults('', xml);
  assert.equal(counts(t), 'junit: ran 3, 1 passed, 1 failed, 1 skipped; complete, named');
  assert.deepEqual(names(t), ['passed s > a > b', 'failed s > fails', 'skipped s > skips']);
});
