// readTestResults as a whole: what is no runner's output, several runs in one output, colour and
// terminal redraws, names that are hostile or long, the caps, and 5 MB of hostile output read in
// linear time (CPU time, not the clock: test/support/cpuTime.ts), lines crafted for a pattern that
// backtracks included (cargo's doc-test names, `test - - - … ... ok`, once took about 10 s for 6 MB).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LINE_MAX_CHARS } from '../../../../src/core/build/testResults/outputLines';
import { NAME_MAX_CHARS, readTestResults, TESTS_MAX } from '../../../../src/core/build/testResults/testResults';
import { cpuTimed } from '../../../support/cpuTime';
import { counts, fixture, names } from './fixtureTally';

describe('output that is no test run', () => {
  test('is undefined: nothing, a build log, a stack trace, JSON, a missing script', () => {
    const outputs = [
      '',
      '\n\n',
      'hello world\n',
      '> tsc -p .\nsrc/a.ts(1,7): error TS2322: Type string is not assignable to type number.\n',
      'npm ERR! Missing script: "test"\n',
      'Traceback (most recent call last):\n  File "x.py", line 1\nSyntaxError: invalid syntax\n',
      '{"passed": 3, "failed": 0}\n',
      '  - a list item\n  1) another\n',
      '✓ Compiled successfully\n',
    ];
    for (const output of outputs) assert.equal(readTestResults(output), undefined, JSON.stringify(output));
  });

  test('never throws, whatever it is given', () => {
    const odd: unknown[] = [undefined, null, 42, {}, ['a'], '\ud800', '\u0000'.repeat(10)];
    for (const value of odd) {
      assert.doesNotThrow(() => readTestResults(value as string, value as string));
      assert.equal(readTestResults(value as string), undefined);
    }
  });
});

describe('several runs in one output', () => {
  test('`npm test && pytest -v`: the counts add up, the names in order, the first runner named', () => {
    const t = readTestResults(fixture('node/node20-spec-mixed.txt') + fixture('pytest/mixed-v.txt'));
    assert.equal(counts(t), 'node: ran 19, 8 passed, 6 failed, 5 skipped; complete, named');
    assert.equal(t?.tests.length, 19);
    assert.equal(names(t)[0], 'passed passes at top level');
    assert.equal(names(t)[8], 'passed test_adds_item [test_cart.py]');
  });

  test('the same runner twice, and runs of four runners in a row', () => {
    // Jest prints no header: two of its runs in one output cannot be told from one run whose code
    // printed a `Tests:` line, so they read as one, not complete (failures kept, passes at most the
    // last summary's). Given apart, one output a command, they add up.
    const outputs = [fixture('jest/mixed-verbose.txt'), fixture('jest/pass-single.txt')];
    const joined = readTestResults(outputs.join(''));
    assert.equal(counts(joined), 'jest: ran 7, 3 passed, 2 failed, 2 skipped; incomplete, not named');
    const twice = readTestResults(outputs);
    assert.equal(counts(twice), 'jest: ran 13, 9 passed, 2 failed, 2 skipped; complete, named');
    const four = ['go/mixed-v.txt', 'cargo/mixed.txt', 'mocha/mixed.txt', 'vitest/mixed-verbose.txt'].map(fixture);
    const t = readTestResults(four.join(''));
    assert.equal(counts(t), 'go: ran 34, 20 passed, 7 failed, 7 skipped; complete, named');
    assert.deepEqual(
      t?.tests.map((c) => c.name).filter((n) => n === 'removes an item' || n === 'removes_an_item'),
      ['removes_an_item', 'removes an item', 'removes an item'],
    );
  });

  test('a second run cut short makes the whole incomplete', () => {
    const t = readTestResults(fixture('pytest/pass-v.txt') + fixture('node/node22-tap-killed.txt'));
    assert.equal(counts(t), 'pytest: ran 7, 7 passed, 0 failed, 0 skipped; incomplete, named');
  });

  test('a run of zero tests and one of three', () => {
    const t = readTestResults(fixture('go/none.txt') + fixture('mocha/pass.txt'));
    assert.equal(counts(t), 'go: ran 3, 3 passed, 0 failed, 0 skipped; complete, named');
  });
});

describe('colour, redraws and names', () => {
  test('colour codes, OSC titles and CR redraws are what a terminal would show', () => {
    const output = [
      '\x1b]0;running tests\x07\x1b[32m✔\x1b[39m adds \x1b[1mtwo\x1b[22m numbers \x1b[90m(1.5ms)\x1b[39m',
      'progress 10%\rprogress 50%\r\x1b[2K\x1b[1A✖ fails (2.25ms)\r',
      '\x1b[34mℹ tests 2\x1b[39m',
      'ℹ pass 1',
      'ℹ fail 1',
      'ℹ duration_ms 12.5',
    ].join('\r\n');
    const t = readTestResults(output);
    assert.equal(counts(t), 'node: ran 2, 1 passed, 1 failed, 0 skipped; complete, named');
    assert.deepEqual(names(t), ['passed adds two numbers', 'failed fails']);
  });

  test('a name with controls, bidi marks or zero-width characters is shown with visible escapes', () => {
    const t = readTestResults('✔ evil\u202egnp.exe\u200b\u0007 (1.5ms)\nℹ tests 1\nℹ pass 1\nℹ duration_ms 1.0\n');
    assert.equal(t?.tests[0]?.name, 'evil\\u202egnp.exe\\u200b\\x07');
  });

  test(`a name longer than ${NAME_MAX_CHARS} characters is cut with an ellipsis`, () => {
    const long = 'x'.repeat(2000);
    const t = readTestResults(
      `running 1 test\ntest tests::${long} ... ok\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured;`,
    );
    const name = t?.tests[0]?.name ?? '';
    assert.equal(name.length, NAME_MAX_CHARS);
    assert.ok(name.endsWith('…'));
  });

  test('zero tests is ran 0 in every runner that says so', () => {
    const zero: [string, string][] = [
      ['node', 'ℹ tests 0\nℹ pass 0\nℹ fail 0\nℹ duration_ms 5.1\n'],
      ['jest', 'Tests:       0 total\n'],
      ['vitest', 'No test files found, exiting with code 1\n'],
      ['mocha', '\n\n  0 passing (1ms)\n\n'],
      ['pytest', '============================ no tests ran in 0.01s =============================\n'],
      ['go', 'ok  \texample.com/m\t0.002s [no tests to run]\n'],
      ['cargo', 'running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n'],
    ];
    for (const [runner, output] of zero) {
      assert.equal(counts(readTestResults(output)), `${runner}: ran 0, 0 passed, 0 failed, 0 skipped; complete, named`);
    }
  });
});

describe('hostile and huge output', () => {
  const MB = 1024 * 1024;
  const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length));
  /** The CPU milliseconds `work` takes, the best of two tries when the first is over `limit`. */
  const cpuMs = (work: () => unknown, limit: number): number => {
    const first = cpuTimed(work).ms;
    return first < limit ? first : Math.min(first, cpuTimed(work).ms);
  };
  // Each one aimed at a parser's pattern: many near-matches on a line, unterminated escapes,
  // YAML and summaries that never end, runs that restart on every line.
  const UNITS = [
    '✔ (1.1ms) (1.1ms) # ',
    ' (1.1ms)'.repeat(500) + '\n',
    '\x1b[' + '1;'.repeat(1000),
    '\x1b]0;' + 'a'.repeat(100),
    'ok 1 - # \\# ',
    '    # Subtest: a\n      ---\n',
    'Tests:' + ' 1 passed,'.repeat(300) + '\n',
    ' RUN  v4\n ✓ a (1 tests | 1 failed' + ' | 1 failed'.repeat(300) + '\n',
    '  ✔ a\n  1) b\n  - c\n',
    '=' + ' 1 passed,'.repeat(50) + ' in 1.0s x\n',
    'a.py ' + '.'.repeat(2000) + ' [ 1%] \n',
    'x::y' + ' PASSED'.repeat(500) + '\n',
    '--- PASS: ' + 'a/'.repeat(1000) + ' (0.0s\n',
    'test ' + ' ... '.repeat(800) + '\n',
    '\r'.repeat(1000) + 'x\n',
    'ℹ tests 1\n'.repeat(10) + '✔ x (1.0ms)\n',
    'a\n',
  ];

  test('512 KB of each pattern that could make a parser backtrack is read in linear time', () => {
    for (const unit of UNITS) {
      const output = fill(unit, MB / 2);
      const ms = cpuMs(() => readTestResults(output), 1000);
      assert.ok(ms < 1000, `${JSON.stringify(unit.slice(0, 40))}: ${ms.toFixed(0)} ms`);
    }
  });

  test('5 MB of them all, and 5 MB of empty lines, in linear time (quadratic would take minutes)', () => {
    const mixed = UNITS.map((unit) => fill(unit, (5 * MB) / UNITS.length)).join('\n');
    for (const output of [mixed, '\n'.repeat(5 * MB)]) {
      let tally: unknown;
      const ms = cpuMs(() => (tally = readTestResults(output)), 5000);
      assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
      assert.ok(JSON.stringify(tally ?? null).length < 4 * MB, 'the tally keeps to its caps');
    }
  });

  // One line crafted against one parser's pattern, after a head: 6 MB of it each (made one at a time).
  const CRAFTED: [name: string, head: string, line: string][] = [
    ['cargo: a name of ` -` repeated', 'running 1 test\n', `test ${' -'.repeat(995)} ... ok`],
    ['cargo: ` - ` and `(line ` repeated', 'running 1 test\n', `test ${' - (line 1'.repeat(200)} ... ok`],
    ['cargo: a long name, no result', 'running 1 test\n', `test ${'a'.repeat(LINE_MAX_CHARS)} ... `],
    ['cargo: Running with parentheses', '', `  Running ${'a'.repeat(999)} ${'('.repeat(3000)}`],
    ['node spec: durations repeated', '', `✔ t${' (1.0ms)x'.repeat(450)}`],
    ['node TAP: ` # ` repeated', 'TAP version 13\n', `ok 1 - ${' # '.repeat(1300)}`],
    ['jest: durations repeated', 'PASS a.test.js\n', `  ✓ t${' (1 ms)x'.repeat(500)}`],
    ['vitest: parentheses', ' RUN  v3.2.4 /p\n', ` Tests ${'('.repeat(4000)} (1)x`],
    ['vitest: file counts', ' RUN  v3.2.4 /p\n', ` ✓ a (1 tests${' | 1 failed'.repeat(350)} 1ms`],
    ['mocha: durations repeated', '', `  ✔ t${' (1ms)x'.repeat(500)}`],
    [
      'pytest: progress',
      '=== test session starts ===\n',
      `${'a'.repeat(999)}.py ${'.'.repeat(1000)}${' '.repeat(200)}x`,
    ],
    ['pytest: `=` runs', '=== test session starts ===\n', ' ='.repeat(2000)],
    ['pytest: statuses', '=== test session starts ===\n', `a::b${' PASSEDx'.repeat(500)}`],
    ['go: a long result', '', `--- PASS: ${'a'.repeat(1990)} (0.0s)${' '.repeat(2000)}`],
    ['go: a package line', '', `ok  \t${'a'.repeat(999)}${' '.repeat(3000)}`],
    ['escape codes: an OSC never ended', '', `\u001b]${'a'.repeat(LINE_MAX_CHARS)}`],
  ];

  test('6 MB of lines crafted against each parser are read in well under 2 s each', () => {
    for (const [name, head, unit] of CRAFTED) {
      const output = head + fill(`${unit}\n`, 6_000_000);
      const ms = cpuMs(() => readTestResults(output), 2000);
      assert.ok(ms < 2000, `${name}: ${ms.toFixed(0)} ms`);
    }
  });

  test('5 MB of hostile JUnit XML is read in linear time', () => {
    const units = ['<testcase name="a"/>', '<testsuite name="', '<!--', '<testcase a="1" b=\'2\'', '&#x1F600;<'];
    for (const unit of units) {
      const xml = '<testsuites>' + fill(unit, 5 * MB);
      const ms = cpuMs(() => readTestResults('', xml), 3000);
      assert.ok(ms < 3000, `${JSON.stringify(unit)}: ${ms.toFixed(0)} ms`);
    }
  });

  test(`at most ${TESTS_MAX} tests are kept; every one is counted`, () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `--- PASS: Test${i} (0.00s)`);
    const t = readTestResults(`${lines.join('\n')}\nok  \texample.com/m\t1.2s\n`);
    assert.equal(counts(t), 'go: ran 30000, 30000 passed, 0 failed, 0 skipped; complete, named');
    assert.equal(t?.tests.length, TESTS_MAX);
    const xml = `<testsuites>${'<testcase name="t"/>'.repeat(20_000)}</testsuites>`;
    const junit = readTestResults('', xml);
    assert.equal(junit?.ran, 20_000);
    assert.equal(junit?.tests.length, TESTS_MAX);
  });
});
