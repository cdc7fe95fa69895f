// pytest, go test and cargo test: the captured fixtures (fixtures/README.md).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { counts, names, tallyOf } from './fixtureTally';

describe('pytest', () => {
  const MIXED = [
    'passed test_adds_item [test_cart.py]',
    'failed test_removes_item [test_cart.py]',
    'skipped test_applies_coupon [test_cart.py]',
    'skipped test_known_bug [test_cart.py]',
    'passed TestTotals > test_sums_prices [test_cart.py]',
    'failed TestTotals > test_rounds_to_cents [test_cart.py]',
    'passed TestTotals > test_price_positive[1] [test_cart.py]',
    'failed TestTotals > test_price_positive[2] [test_cart.py]',
    'passed TestTotals > test_price_positive[3] [test_cart.py]',
    'failed test_uses_broken [test_errors.py]',
    'passed test_plain_pass [test_errors.py]',
  ];
  const FAILURES = MIXED.filter((t) => t.startsWith('failed'));
  // 3 failed, 5 passed, 1 skipped, 1 xfailed, 1 error: the error fails, the xfail is skipped.
  const MIXED_COUNTS = (state: string): string => `pytest: ran 11, 5 passed, 4 failed, 2 skipped; complete, ${state}`;

  test('-v: every test by its node id, class as suite, file', () => {
    const t = tallyOf('pytest/mixed-v.txt');
    assert.equal(counts(t), MIXED_COUNTS('named'));
    assert.deepEqual(names(t), MIXED);
    const pass = tallyOf('pytest/pass-v.txt');
    assert.equal(counts(pass), 'pytest: ran 4, 4 passed, 0 failed, 0 skipped; complete, named');
    assert.deepEqual(names(pass), [
      'passed test_adds [test_math.py]',
      'passed TestDivision > test_divides_evenly [test_math.py]',
      'passed TestDivision > test_positive[1] [test_math.py]',
      'passed TestDivision > test_positive[2] [test_math.py]',
    ]);
  });

  test('default, coloured or not: the counts, and the failures named from the short summary', () => {
    for (const f of ['mixed.txt', 'mixed-ansi.txt']) {
      const t = tallyOf(`pytest/${f}`);
      assert.equal(counts(t), MIXED_COUNTS('not named'), f);
      assert.deepEqual(names(t), FAILURES, f);
    }
    assert.equal(
      counts(tallyOf('pytest/pass.txt')),
      'pytest: ran 4, 4 passed, 0 failed, 0 skipped; complete, not named',
    );
    assert.equal(
      counts(tallyOf('pytest/pass-long.txt')),
      'pytest: ran 3, 3 passed, 0 failed, 0 skipped; complete, not named',
    );
  });

  test('-q: the bare summary line; -rA: the tests the short summary names (a skip has no node id there)', () => {
    const q = tallyOf('pytest/mixed-q.txt');
    assert.equal(counts(q), MIXED_COUNTS('not named'));
    assert.deepEqual(names(q), []);
    const rA = tallyOf('pytest/mixed-rA.txt');
    assert.equal(counts(rA), MIXED_COUNTS('not named'));
    // In the short summary's order: passes, xfail, error, failures.
    const [item, removes, , bug, sums, rounds, one, two, three, broken, plain] = MIXED;
    assert.deepEqual(names(rA), [item, sums, one, three, plain, bug, broken, removes, rounds, two]);
  });

  test('no tests ran (exit code 5): zero, complete', () => {
    for (const f of ['none.txt', 'none-v.txt']) {
      assert.equal(counts(tallyOf(`pytest/${f}`)), 'pytest: ran 0, 0 passed, 0 failed, 0 skipped; complete, named', f);
    }
  });

  test('interrupted (KeyboardInterrupt, then a summary of what ran), killed, cut short: incomplete', () => {
    assert.equal(
      counts(tallyOf('pytest/interrupted.txt')),
      'pytest: ran 2, 2 passed, 0 failed, 0 skipped; incomplete, not named',
    );
    const killed = tallyOf('pytest/killed-v.txt');
    assert.equal(counts(killed), 'pytest: ran 2, 2 passed, 0 failed, 0 skipped; incomplete, named');
    assert.deepEqual(names(killed), ['passed test_first [test_slow.py]', 'passed test_second [test_slow.py]']);
    // `test_cart.py .Fsx`: counted from the progress characters.
    assert.equal(
      counts(tallyOf('pytest/cut.txt')),
      'pytest: ran 4, 1 passed, 1 failed, 2 skipped; incomplete, not named',
    );
    const cutV = tallyOf('pytest/cut-v.txt');
    assert.equal(counts(cutV), 'pytest: ran 5, 2 passed, 1 failed, 2 skipped; incomplete, named');
    assert.deepEqual(names(cutV), MIXED.slice(0, 5));
  });
});

describe('go test', () => {
  const CALC = ['passed TestAdd', 'passed TestDivision/evenly', 'passed TestDivision/by_one'];
  const CART = [
    'passed TestAddsItem',
    'failed TestRemovesItem',
    'skipped TestAppliesCoupon',
    'passed TestTotals/sums_prices',
    'failed TestTotals/rounds_to_cents',
    'skipped TestTotals/skips_tax',
  ];
  const inPackage = (pkg: string, list: string[]): string[] =>
    list.map((t) => t.replace(' ', ` example.com/shop/${pkg} > `));

  test('-v: each test and subtest (a parent with subtests is their group), the package as suite', () => {
    const t = tallyOf('go/mixed-v.txt');
    assert.equal(counts(t), 'go: ran 9, 5 passed, 2 failed, 2 skipped; complete, named');
    assert.deepEqual(names(t), [...inPackage('calc', CALC), ...inPackage('cart', CART)]);
    const pass = tallyOf('go/pass-v.txt');
    assert.equal(counts(pass), 'go: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
    assert.deepEqual(names(pass), inPackage('calc', CALC));
  });

  test('plain: the failures named; a passing package with tests is at least one passed test', () => {
    const t = tallyOf('go/mixed.txt');
    assert.equal(counts(t), 'go: ran 3, 1 passed, 2 failed, 0 skipped; complete, not named');
    assert.deepEqual(names(t), inPackage('cart', ['failed TestRemovesItem', 'failed TestTotals/rounds_to_cents']));
    assert.equal(counts(tallyOf('go/pass.txt')), 'go: ran 1, 1 passed, 0 failed, 0 skipped; complete, not named');
    // The test binary panicked (`test timed out`): its package is one failed test.
    assert.equal(counts(tallyOf('go/timeout.txt')), 'go: ran 2, 1 passed, 1 failed, 0 skipped; complete, not named');
  });

  test('[no test files] and [no tests to run]: zero, complete', () => {
    for (const f of ['none.txt', 'none-v.txt']) {
      assert.equal(counts(tallyOf(`go/${f}`)), 'go: ran 0, 0 passed, 0 failed, 0 skipped; complete, named', f);
    }
  });

  test('killed, cut short: the results after the last package line, incomplete', () => {
    const killed = tallyOf('go/killed-v.txt');
    assert.equal(counts(killed), 'go: ran 2, 2 passed, 0 failed, 0 skipped; incomplete, named');
    assert.deepEqual(names(killed), ['passed TestFirst', 'passed TestSecond']);
    const cut = tallyOf('go/cut-v.txt');
    assert.equal(counts(cut), 'go: ran 7, 4 passed, 2 failed, 1 skipped; incomplete, named');
    // Cut before TestTotals' subtests: the parent is all that was seen of it.
    assert.deepEqual(names(cut), [...inPackage('calc', CALC), ...CART.slice(0, 3), 'failed TestTotals']);
  });
});

describe('cargo test', () => {
  const LIB = [
    'skipped tests > applies_a_coupon [src/lib.rs]',
    'passed tests > adds_two_numbers [src/lib.rs]',
    'passed tests > totals > panics_on_negative [src/lib.rs]',
    'failed tests > removes_an_item [src/lib.rs]',
    'passed tests > totals > sums_prices [src/lib.rs]',
  ];
  const CHECKOUT = ['skipped checkout_slow [tests/checkout.rs]', 'passed checkout_works [tests/checkout.rs]'];

  test('each binary (unit tests, an integration file, doc tests) adds up; module path as suite', () => {
    const t = tallyOf('cargo/mixed-nofailfast.txt');
    assert.equal(counts(t), 'cargo: ran 8, 5 passed, 1 failed, 2 skipped; complete, named');
    assert.deepEqual(names(t), [...LIB, ...CHECKOUT, 'passed src/lib.rs - add (line 3)']);
  });

  test('stopped after the failing binary: what ran', () => {
    const t = tallyOf('cargo/mixed.txt');
    assert.equal(counts(t), 'cargo: ran 5, 3 passed, 1 failed, 1 skipped; complete, named');
    assert.deepEqual(names(t), LIB);
  });

  test('all passing (some ignored), and a test running over 60 seconds', () => {
    const t = tallyOf('cargo/pass.txt');
    assert.equal(counts(t), 'cargo: ran 7, 5 passed, 0 failed, 2 skipped; complete, named');
    assert.deepEqual(names(t), [LIB[0], LIB[1], LIB[4], LIB[2], ...CHECKOUT, 'passed src/lib.rs - add (line 3)']);
    assert.equal(counts(tallyOf('cargo/slow.txt')), 'cargo: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
  });

  test('running 0 tests: zero, complete', () => {
    assert.equal(
      counts(tallyOf('cargo/none-filtered.txt')),
      'cargo: ran 0, 0 passed, 0 failed, 0 skipped; complete, named',
    );
  });

  test('killed, cut short: a binary without its `test result:` is incomplete', () => {
    const killed = tallyOf('cargo/killed.txt');
    assert.equal(counts(killed), 'cargo: ran 2, 2 passed, 0 failed, 0 skipped; incomplete, named');
    assert.deepEqual(names(killed), [
      'passed first_quick_one [tests/slow.rs]',
      'passed second_quick_one [tests/slow.rs]',
    ]);
    const cut = tallyOf('cargo/cut.txt');
    assert.equal(counts(cut), 'cargo: ran 6, 3 passed, 1 failed, 2 skipped; incomplete, named');
    assert.deepEqual(names(cut), [...LIB, CHECKOUT[0]]);
  });
});
