// Jest, Vitest and mocha: the captured fixtures (fixtures/README.md). The same suite in each:
// describe `cart` (a pass, a failure, a skip, a todo, nested `totals` with a pass and a failure),
// a top-level pass, and a second file `math` of three passing tests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { counts, names, tallyOf } from './fixtureTally';

const in_ = (file: string, list: string[]): string[] => list.map((t) => `${t} [${file}]`);
const CART = [
  'passed cart > adds an item',
  'failed cart > removes an item',
  'skipped cart > applies a coupon',
  'skipped cart > charges shipping',
  'passed cart > totals > sums prices',
  'failed cart > totals > rounds to cents',
];
const MIXED_COUNTS = (runner: string, state: string): string =>
  `${runner}: ran 10, 6 passed, 2 failed, 2 skipped; complete, ${state}`;

describe('jest', () => {
  const CART_FILE = '__tests__/cart.test.js';
  const MATH_FILE = '__tests__/math.test.js';
  const MATH = in_(MATH_FILE, [
    'passed top-level check',
    'passed math > adds two numbers',
    'passed math > division > divides evenly',
  ]);
  // Jest lists a file's top-level tests before its describes.
  const VERBOSE = [...in_(CART_FILE, ['passed top-level pass', ...CART]), ...MATH];

  test('one file, all passing: Jest lists its tests', () => {
    const t = tallyOf('jest/pass-single.txt');
    assert.equal(counts(t), 'jest: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
    assert.deepEqual(names(t), MATH);
  });

  test('--verbose, Jest 30 and 29, and on a terminal: every test with its describes and file', () => {
    for (const f of ['mixed-verbose.txt', 'v29-mixed-verbose.txt', 'mixed-verbose-ansi.txt']) {
      const t = tallyOf(`jest/${f}`);
      assert.equal(counts(t), MIXED_COUNTS('jest', 'named'), f);
      assert.deepEqual(names(t), VERBOSE, f);
    }
  });

  test('two files without --verbose: the counts, and the failures named from their details', () => {
    for (const f of ['mixed.txt', 'v29-mixed.txt']) {
      const t = tallyOf(`jest/${f}`);
      assert.equal(counts(t), MIXED_COUNTS('jest', 'not named'), f);
      assert.deepEqual(
        names(t),
        in_(CART_FILE, ['failed cart > removes an item', 'failed cart > totals > rounds to cents']),
      );
    }
  });

  test("projects: a file's line names its project before the file", () => {
    const t = tallyOf('jest/projects.txt');
    assert.equal(counts(t), 'jest: ran 3, 1 passed, 1 failed, 1 skipped; complete, not named');
    assert.deepEqual(names(t), ['failed breaks [e2e/b.test.js]']);
  });

  test('one file with failures, skips and a todo', () => {
    const t = tallyOf('jest/mixed-single.txt');
    assert.equal(counts(t), 'jest: ran 7, 3 passed, 2 failed, 2 skipped; complete, named');
    assert.deepEqual(names(t), in_(CART_FILE, ['passed top-level pass', ...CART]));
  });

  test('no tests found (exit 1, or 0 with --passWithNoTests): zero, complete', () => {
    for (const f of ['none.txt', 'none-pass.txt']) {
      assert.equal(counts(tallyOf(`jest/${f}`)), 'jest: ran 0, 0 passed, 0 failed, 0 skipped; complete, named', f);
    }
  });

  test('a name pattern matching nothing: every test skipped, none passed', () => {
    const t = tallyOf('jest/none-filtered.txt');
    assert.equal(counts(t), 'jest: ran 10, 0 passed, 0 failed, 10 skipped; complete, not named');
  });

  test('killed in its third file: the two files it finished, incomplete', () => {
    const t = tallyOf('jest/killed.txt');
    assert.equal(counts(t), 'jest: ran 3, 3 passed, 0 failed, 0 skipped; incomplete, named');
    assert.deepEqual(names(t), [
      'passed a first [./a.test.js]',
      'passed a second [./a.test.js]',
      'passed b group > b first [./b.test.js]',
    ]);
  });

  test('cut short in the middle of a line', () => {
    const t = tallyOf('jest/cut.txt');
    assert.equal(counts(t), 'jest: ran 6, 3 passed, 1 failed, 2 skipped; incomplete, named');
    assert.deepEqual(
      names(t),
      in_(CART_FILE, ['passed top-level pass', ...CART.slice(0, 4), 'passed cart > totals > sums']),
    );
  });
});

describe('vitest', () => {
  const CART_FILE = 'tests/cart.test.js';
  const VERBOSE = [
    ...in_(CART_FILE, [...CART, 'passed top-level pass']),
    ...in_('tests/math.test.js', [
      'passed math > adds two numbers',
      'passed math > division > divides evenly',
      'passed top-level check',
    ]),
  ];

  test('verbose, Vitest 4 and 3, coloured or not: every test with its path and file', () => {
    for (const f of ['mixed-verbose.txt', 'mixed-verbose-ansi.txt', 'v3-mixed-verbose.txt']) {
      const t = tallyOf(`vitest/${f}`);
      assert.equal(counts(t), MIXED_COUNTS('vitest', 'named'), f);
      assert.deepEqual(names(t), VERBOSE, f);
    }
    const pass = tallyOf('vitest/pass-verbose.txt');
    assert.equal(counts(pass), 'vitest: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
    assert.deepEqual(names(pass), VERBOSE.slice(7));
  });

  test('default reporter: a failing file lists its tests (Vitest 4 without their describes), a passing one only counts', () => {
    for (const f of ['mixed.txt', 'mixed-ansi.txt']) {
      const t = tallyOf(`vitest/${f}`);
      assert.equal(counts(t), MIXED_COUNTS('vitest', 'not named'), f);
      const bare = [...CART, 'passed top-level pass'].map((n) => n.replace(/cart > (totals > )?/, ''));
      assert.deepEqual(names(t), in_(CART_FILE, bare), f);
    }
    const v3 = tallyOf('vitest/v3-mixed.txt');
    assert.equal(counts(v3), MIXED_COUNTS('vitest', 'not named'));
    assert.deepEqual(names(v3), in_(CART_FILE, [...CART, 'passed top-level pass']));
    assert.equal(
      counts(tallyOf('vitest/pass.txt')),
      'vitest: ran 3, 3 passed, 0 failed, 0 skipped; complete, not named',
    );
  });

  test('no test files: zero, complete; a name pattern matching nothing: all skipped', () => {
    assert.equal(counts(tallyOf('vitest/none.txt')), 'vitest: ran 0, 0 passed, 0 failed, 0 skipped; complete, named');
    assert.equal(
      counts(tallyOf('vitest/none-filtered.txt')),
      'vitest: ran 10, 0 passed, 0 failed, 10 skipped; complete, not named',
    );
  });

  test("killed in its third file: the finished files' counts, incomplete", () => {
    const t = tallyOf('vitest/killed.txt');
    assert.equal(counts(t), 'vitest: ran 3, 3 passed, 0 failed, 0 skipped; incomplete, not named');
  });

  test("cut short: a file line's counts (default reporter), the lines seen (verbose)", () => {
    const t = tallyOf('vitest/cut.txt');
    assert.equal(counts(t), 'vitest: ran 7, 3 passed, 2 failed, 2 skipped; incomplete, not named');
    const bare = CART.map((n) => n.replace(/cart > (totals > )?/, ''));
    assert.deepEqual(names(t), in_(CART_FILE, [...bare.slice(0, 5), 'failed rounds']));
    const verbose = tallyOf('vitest/cut-verbose.txt');
    assert.equal(counts(verbose), 'vitest: ran 5, 2 passed, 1 failed, 2 skipped; incomplete, named');
    assert.deepEqual(names(verbose), [...VERBOSE.slice(0, 4), `passed cart > totals > sums [${CART_FILE}]`]);
  });
});

describe('mocha', () => {
  const MIXED = [
    'passed top-level pass',
    'passed top-level check',
    ...CART,
    'passed math > adds two numbers',
    'passed math > division > divides evenly',
  ];

  test('all passing', () => {
    const t = tallyOf('mocha/pass.txt');
    assert.equal(counts(t), 'mocha: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
    assert.deepEqual(names(t), [
      'passed top-level check',
      'passed math > adds two numbers',
      'passed math > division > divides evenly',
    ]);
  });

  test('failing and pending tests, coloured or not; the failures listed again after the summary are not counted', () => {
    for (const f of ['mixed.txt', 'mixed-ansi.txt']) {
      const t = tallyOf(`mocha/${f}`);
      assert.equal(counts(t), MIXED_COUNTS('mocha', 'named'), f);
      assert.deepEqual(names(t), MIXED, f);
    }
  });

  test('no test files, a grep matching nothing, a file without tests: zero, complete', () => {
    for (const f of ['none.txt', 'none-filtered.txt', 'emptyfile.txt']) {
      assert.equal(counts(tallyOf(`mocha/${f}`)), 'mocha: ran 0, 0 passed, 0 failed, 0 skipped; complete, named', f);
    }
  });

  test('killed, and cut short', () => {
    const killed = tallyOf('mocha/killed.txt');
    assert.equal(counts(killed), 'mocha: ran 3, 3 passed, 0 failed, 0 skipped; incomplete, named');
    assert.deepEqual(names(killed), [
      'passed first quick one',
      'passed second quick one',
      'passed slow group > finishes quickly',
    ]);
    const cut = tallyOf('mocha/cut.txt');
    assert.equal(counts(cut), 'mocha: ran 7, 4 passed, 1 failed, 2 skipped; incomplete, named');
    assert.deepEqual(names(cut), [...MIXED.slice(0, 6), 'passed cart > totals > sums']);
  });
});
