// Reading a test command's output takes time linear in it, whatever the code under test printed:
// lines crafted for a pattern that backtracks (cargo's doc-test names, `test - - - … ... ok`, took
// about 10 s for 6 MB) are read in CPU time well under a second.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LINE_MAX_CHARS } from '../../../../src/core/build/testResults/outputLines';
import { readTestResults } from '../../../../src/core/build/testResults/testResults';
import { cpuTimed } from '../../../support/cpuTime';

const MB = 1_000_000;

/** `line` repeated to about `size` characters of output, after `head`. */
function output(head: string, line: string, size = 6 * MB): string {
  return head + `${line}\n`.repeat(Math.ceil(size / (line.length + 1)));
}

/** The least CPU time of two reads of `text`. */
function readMs(text: string): number {
  return Math.min(...[0, 1].map(() => cpuTimed(() => readTestResults(text)).ms));
}

const CRAFTED: [string, string][] = [
  ['cargo: a name of ` -` repeated', output('running 1 test\n', `test ${' -'.repeat(995)} ... ok`)],
  ['cargo: ` - ` and `(line ` repeated', output('running 1 test\n', `test ${' - (line 1'.repeat(200)} ... ok`)],
  ['cargo: a long name, no result', output('running 1 test\n', `test ${'a'.repeat(LINE_MAX_CHARS)} ... `)],
  ['cargo: Running with parentheses', output('', `  Running ${'a'.repeat(999)} ${'('.repeat(3000)}`)],
  ['node spec: durations repeated', output('', `✔ t${' (1.0ms)x'.repeat(450)}`)],
  ['node TAP: ` # ` repeated', output('TAP version 13\n', `ok 1 - ${' # '.repeat(1300)}`)],
  ['jest: durations repeated', output('PASS a.test.js\n', `  ✓ t${' (1 ms)x'.repeat(500)}`)],
  ['vitest: parentheses', output(' RUN  v3.2.4 /p\n', ` Tests ${'('.repeat(4000)} (1)x`)],
  ['vitest: file counts', output(' RUN  v3.2.4 /p\n', ` ✓ a (1 tests${' | 1 failed'.repeat(350)} 1ms`)],
  ['mocha: durations repeated', output('', `  ✔ t${' (1ms)x'.repeat(500)}`)],
  [
    'pytest: progress',
    output('=== test session starts ===\n', `${'a'.repeat(999)}.py ${'.'.repeat(1000)}${' '.repeat(200)}x`),
  ],
  ['pytest: `=` runs', output('=== test session starts ===\n', ' ='.repeat(2000))],
  ['pytest: statuses', output('=== test session starts ===\n', `a::b${' PASSEDx'.repeat(500)}`)],
  ['go: a long result', output('', `--- PASS: ${'a'.repeat(1990)} (0.0s)${' '.repeat(2000)}`)],
  ['go: a package line', output('', `ok  \t${'a'.repeat(999)}${' '.repeat(3000)}`)],
  ['escape codes: an OSC never ended', output('', `\u001b]${'a'.repeat(LINE_MAX_CHARS)}`)],
];

describe('reading an output takes linear time', () => {
  for (const [name, text] of CRAFTED) {
    test(`${name} (${(text.length / MB).toFixed(1)} MB)`, () => {
      const ms = readMs(text);
      assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
    });
  }
});
