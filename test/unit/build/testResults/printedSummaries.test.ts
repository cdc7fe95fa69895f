// The code under test prints to the output the runner's report is read from: it can print a
// runner's summary (and results) of its own while the tests run. The runner's own summary is the
// last thing it prints, so only a run's last summary counts: one printed earlier, at the start, in
// the middle or right before the real one, neither ends the run nor replaces its counts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readTestResults } from '../../../../src/core/build/testResults/testResults';
import { fixture, inject, numbers, type Places, type Where } from './fixtureTally';

interface Case {
  runner: string;
  fixture: string;
  places: Places;
  /** A summary of the runner's, as printed by the code under test. */
  summary: string[];
  /** A passing result and a summary. */
  fake: string[];
  /** Whether the runner's summary has counts (go's package line has none: a printed result counts). */
  counted: boolean;
}

const TAP_SUMMARY = ['# tests 1', '# suites 0', '# pass 1', '# fail 0', '# cancelled 0', '# skipped 0', '# todo 0'];
const SPEC_SUMMARY = ['ℹ tests 1', 'ℹ suites 0', 'ℹ pass 1', 'ℹ fail 0', 'ℹ cancelled 0', 'ℹ duration_ms 1.5'];
const JEST_SUMMARY = ['Tests:       5 passed, 5 total', 'Time:        0.1 s', 'Ran all test suites.'];
const CARGO_SUMMARY = 'test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s';

const CASES: Case[] = [
  {
    runner: 'node (TAP)',
    fixture: 'node/node20-tap-task.txt',
    places: { header: /^TAP version/, middle: /^ {4}not ok 1 - task-002/, summary: /^# tests / },
    // The reporter prints what the code under test prints as comments.
    summary: [...TAP_SUMMARY, '# duration_ms 1.5'],
    // Written to the runner's own stdout (its file descriptor), not through the reporter.
    fake: ['ok 1 - task-009 fake', '1..1', ...TAP_SUMMARY, '# duration_ms 1.5'],
    counted: true,
  },
  {
    runner: 'node (spec)',
    fixture: 'node/node20-spec-task.txt',
    places: { middle: /^ {2}✖ task-002/, summary: /^ℹ tests / },
    summary: SPEC_SUMMARY,
    fake: ['✔ task-009 fake (1.0ms)', ...SPEC_SUMMARY],
    counted: true,
  },
  {
    runner: 'jest',
    fixture: 'jest/mixed.txt',
    places: { middle: /^PASS __tests__\/math/, summary: /^Test Suites:/ },
    summary: JEST_SUMMARY,
    fake: ['PASS __tests__/fake.test.js', '  ✓ task-009 fake (1 ms)', ...JEST_SUMMARY],
    counted: true,
  },
  {
    runner: 'vitest',
    fixture: 'vitest/mixed.txt',
    places: { header: /^ RUN /, middle: /^ ✓ tests\/math/, summary: /^ Test Files / },
    summary: ['      Tests  5 passed (5)'],
    fake: [' ✓ tests/fake.test.js > task-009 fake 1ms', '      Tests  5 passed (5)'],
    counted: true,
  },
  {
    runner: 'mocha',
    fixture: 'mocha/task.txt',
    places: { middle: /^ {4}1\) task-002/, summary: /^ {2}2 passing/ },
    summary: ['', '  5 passing (1ms)', ''],
    fake: ['  ✔ task-009 fake', '', '  5 passing (1ms)', ''],
    counted: true,
  },
  {
    runner: 'pytest',
    fixture: 'pytest/task-v.txt',
    places: { header: /test session starts/, middle: /::test_task_002_subtracts FAILED/, summary: /^=+ 1 failed/ },
    summary: ['========== 5 passed in 0.01s =========='],
    fake: ['test_cart.py::test_task_009_fake PASSED', '========== 5 passed in 0.01s =========='],
    counted: true,
  },
  {
    runner: 'cargo',
    fixture: 'cargo/task.txt',
    places: { header: /^running 4 tests/, middle: /task_002_subtracts \.\.\. FAILED/, summary: /^test result:/ },
    summary: [CARGO_SUMMARY],
    fake: ['test tests::task_009_fake ... ok', CARGO_SUMMARY],
    counted: true,
  },
  {
    runner: 'go',
    fixture: 'go/task-v.txt',
    places: { middle: /^--- FAIL: TestTask002/, summary: /^FAIL\texample/ },
    summary: ['ok  \texample.com/shop\t0.001s'],
    fake: ['--- PASS: TestTask002Subtracts (0.00s)', 'ok  \texample.com/shop\t0.001s'],
    counted: false,
  },
];

const PLACES: Where[] = ['start', 'middle', 'before the summary'];

describe('a summary printed by the code under test', () => {
  for (const c of CASES) {
    test(`${c.runner}: one printed at the start, in the middle or right before the real one changes nothing`, () => {
      const honest = readTestResults(fixture(c.fixture));
      assert.ok(honest !== undefined && honest.failed > 0 && honest.complete, 'the real run failed a test');
      for (const where of PLACES) {
        const read = readTestResults(inject(fixture(c.fixture), c.summary, where, c.places));
        const message = `${c.runner}, ${where}`;
        if (c.counted) {
          assert.deepEqual(numbers(read), numbers(honest), message);
          assert.equal(read?.complete, true, message);
        } else {
          // go: a package line ends the package's results, every one of them counted.
          assert.ok((read?.failed ?? 0) >= honest.failed, message);
          assert.equal(read?.passed, honest.passed, message);
        }
      }
    });

    test(`${c.runner}: a printed passing result and summary hide no failure`, () => {
      const honest = readTestResults(fixture(c.fixture));
      assert.ok(honest !== undefined);
      for (const where of PLACES) {
        const read = readTestResults(inject(fixture(c.fixture), c.fake, where, c.places));
        const message = `${c.runner}, ${where}`;
        assert.ok(read !== undefined, message);
        assert.ok(read.failed >= honest.failed, message);
        // A runner's summary counts: a pass it does not count is not counted (go's has no count).
        if (c.counted) assert.ok(read.passed <= honest.passed, message);
      }
    });
  }
});

describe("Node's TAP reporter", () => {
  test('a run is not over at a summary printed by the code under test: a failure after it counts', () => {
    const output = inject(
      fixture('node/node20-tap-task.txt'),
      [...TAP_SUMMARY, '# duration_ms 1.5'],
      'middle',
      CASES[0]!.places,
    );
    const read = readTestResults(output);
    assert.equal(read?.failed, 1);
    assert.ok(read.tests.some((t) => t.name === 'task-002 subtracts' && t.status === 'failed'));
    // Cut short before the real summary: the printed one does not cover what came after it.
    const cut = output.slice(0, output.indexOf('\n1..4\n'));
    const partial = readTestResults(cut);
    assert.equal(partial?.complete, false);
    assert.equal(partial.failed, 1);
  });

  test('top-level results that are not the plan’s N make the run not complete', () => {
    const output = inject(fixture('node/node20-tap-task.txt'), ['ok 5 - task-009 fake'], 'before the summary', {
      middle: /^$/,
      summary: /^1\.\.4$/,
    });
    const read = readTestResults(output);
    assert.equal(read?.complete, false);
    assert.equal(read.failed, 1);
    assert.ok(read.passed <= 6);
  });

  test('a summary printed by a file that exits before its tests run counts nothing, and names the file', () => {
    // The review's case: the implementation prints a summary and calls process.exit(0).
    const output = inject(fixture('node/node20-tap-exit0.txt'), [...TAP_SUMMARY, '# duration_ms 1.5'], 'start', {
      header: /^TAP version/,
      middle: /^$/,
      summary: /^$/,
    });
    const read = readTestResults(output);
    assert.deepEqual(numbers(read), { ran: 1, passed: 1, failed: 0, skipped: 0 });
    assert.deepEqual(
      read?.tests.map((t) => t.name),
      ['task-002 extra'],
    );
    assert.deepEqual(read?.filesWithoutTests, ['/project/test/sum.test.js']);
  });
});

describe("Node's spec reporter", () => {
  test('a whole run printed before the real one is not a run of its own: its tests are not counted', () => {
    // Real output: the file printed `✔ task-001 … ℹ duration_ms 1.5` and exited before its test ran.
    const read = readTestResults(fixture('node/node20-spec-exit0.txt'));
    assert.deepEqual(numbers(read), { ran: 1, passed: 1, failed: 0, skipped: 0 });
    assert.equal(read?.complete, false, 'more passing results than the summary counts');
    assert.equal(read.named, false, 'the names do not tell which test ran');
    assert.deepEqual(read.filesWithoutTests, ['/project/test/sum.test.js']);
  });

  test('the failures listed again after the summary are not counted twice; listed before it, they count', () => {
    const honest = readTestResults(fixture('node/node20-spec-task.txt'));
    assert.equal(honest?.failed, 1);
    assert.equal(honest.tests.filter((t) => t.status === 'failed').length, 1);
    const early = inject(fixture('node/node20-spec-task.txt'), ['✖ failing tests:'], 'start', CASES[1]!.places);
    assert.equal(readTestResults(early)?.tests.filter((t) => t.status === 'failed').length, 1);
  });

  test('results after the last summary make the run not complete, their failures counted', () => {
    // (A failure right after the summary is one listed again: a passing result ends that list.)
    const output = `${fixture('node/node20-spec-task.txt')}\n✔ task-010 later (1.2ms)\n✖ task-011 later (1.2ms)\n`;
    const read = readTestResults(output);
    assert.equal(read?.complete, false);
    assert.equal(read.failed, 2);
  });

  test('two runs in one output read as one, not complete, with the failures of both', () => {
    const read = readTestResults(`${fixture('node/node20-spec-task.txt')}\n${fixture('node/node20-spec-task.txt')}`);
    assert.equal(read?.complete, false);
    assert.equal(read.failed, 2);
    assert.ok(read.passed <= 6);
    // The outputs of two commands given apart are two runs, which add up.
    const apart = readTestResults([fixture('node/node20-spec-task.txt'), fixture('node/node20-spec-task.txt')]);
    assert.deepEqual(numbers(apart), { ran: 18, passed: 12, failed: 2, skipped: 4 });
    assert.equal(apart?.complete, true);
  });
});

describe('real runs whose code under test printed a summary', () => {
  test('cargo: a `test result:` in a failing test’s captured output does not hide the failure', () => {
    const read = readTestResults(fixture('cargo/task-printed-summary.txt'));
    assert.deepEqual(numbers(read), { ran: 4, passed: 2, failed: 1, skipped: 1 });
    assert.equal(read?.complete, true);
  });

  test('cargo: a summary whose counts do not add up to `running N tests` makes the run not complete', () => {
    const output = fixture('cargo/task.txt').replace('running 4 tests', 'running 5 tests');
    assert.equal(readTestResults(output)?.complete, false);
  });

  test('pytest: a summary line in the captured output is not the run’s summary', () => {
    for (const name of ['pytest/task-v-printed-summary.txt', 'pytest/task-printed-summary.txt']) {
      const read = readTestResults(fixture(name));
      assert.deepEqual(numbers(read), { ran: 4, passed: 2, failed: 1, skipped: 1 }, name);
      assert.equal(read?.complete, true, name);
    }
  });

  test('pytest: a test reported passed and then failed (-s, a printed line) keeps its failure', () => {
    const output = inject(fixture('pytest/task-v.txt'), ['test_cart.py::test_task_002_subtracts PASSED'], 'middle', {
      middle: /::test_task_002_subtracts FAILED/,
      summary: /^$/,
    });
    const read = readTestResults(output);
    assert.equal(read?.failed, 1);
    assert.ok(read.passed <= 2);
  });

  test('mocha: a summary printed in the middle of the run neither ends it nor hides its failure', () => {
    const read = readTestResults(fixture('mocha/task-printed-summary.txt'));
    assert.deepEqual(numbers(read), { ran: 4, passed: 2, failed: 1, skipped: 1 });
    assert.equal(read?.complete, false, 'a passing result more than the summary counts');
  });

  test('go: printed result and package lines hide no failure; a test reported twice keeps its failure', () => {
    assert.equal(readTestResults(fixture('go/task-v-printed-lines.txt'))?.failed, 1);
    const twice = inject(
      fixture('go/task-v.txt'),
      ['--- PASS: TestTask002Subtracts (0.00s)'],
      'middle',
      CASES[7]!.places,
    );
    const read = readTestResults(twice);
    assert.deepEqual(numbers(read), { ran: 4, passed: 2, failed: 1, skipped: 1 });
    assert.equal(read?.tests.find((t) => t.name === 'TestTask002Subtracts')?.status, 'failed');
  });
});
