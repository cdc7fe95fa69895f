// Mocha's spec reporter (Mocha 10 to 12):
//
//     ✔ top-level pass                      a test (2 spaces a level, from 2); `(52ms)` when slow
//     cart                                  a describe name
//       1) removes an item                  a failure, numbered
//       - applies a coupon                  pending (skipped, or a test without a body)
//     6 passing (10ms)                      the summary, then `2 pending`, `2 failing`,
//     2 pending                             then each failure's details (numbered again: not
//     2 failing                             counted twice)
//
// Node's spec reporter uses the same ✔; its durations have a fraction (`(0.36ms)`), mocha's none.
//
// What the code under test prints is printed raw, so it can print a summary of its own while the
// tests run. Mocha has no header: once started, a run goes on to the output's end, and only its
// last summary block counts, the results after an earlier one belonging to the run (see
// RunBuilder). Two runs of mocha in one output read as one, not complete.
import { nodeSpecResult } from './nodeSpec';
import { indentOf, withoutSuffix } from './outputLines';
import { type Run, RunBuilder, type TestStatus, TESTS_MAX } from './tally';

const DURATION = / \(\d{1,12}(?:ms|s)\)$/;
const SUMMARY = /^ {2}(\d{1,12}) (passing|pending|failing)(?: \(\d{1,12}(?:ms|s|m|h)\))?$/;

/** A test line's status and name at `indent` (at least 2), or undefined; `node`: the line is Node's. */
function mochaResult(line: string, indent: number, node: boolean): { status: TestStatus; name: string } | undefined {
  if (indent < 2 || node) return undefined;
  const rest = line.slice(indent);
  if (rest.startsWith('✔ ')) return { status: 'passed', name: withoutSuffix(rest.slice(2), DURATION) };
  if (rest.startsWith('- ')) return { status: 'skipped', name: rest.slice(2) };
  const m = /^\d{1,9}\) /.exec(rest);
  return m === null ? undefined : { status: 'failed', name: rest.slice(m[0].length) };
}

class MochaRun {
  readonly builder: RunBuilder;
  /** The last summary block's counts (a new block starts at its `N passing (…)` line). */
  summary = { passed: 0, failed: 0, skipped: 0 };
  /** After the summary: the failures' details, until a new run's first test. */
  details = false;

  constructor(at: number) {
    this.builder = new RunBuilder('mocha', at);
  }
}

interface Candidate {
  status: TestStatus;
  name: string;
  suite: string | undefined;
}

/**
 * The run of mocha's spec reporter in `lines`. It starts at a passing test or a summary;
 * the failed and pending lines before it (`- text` and `1) text` are common in other output) are
 * kept aside until then, and dropped at any line that starts at the margin, which mocha's list has not.
 * A passing line right after a line of Node's spec reporter is Node's, cut short: it waits too.
 */
export function readMocha(lines: readonly string[]): Run[] {
  let run: MochaRun | undefined;
  let waiting: Candidate[] = [];
  /** The describe names by level, from the lines that are neither tests nor the summary. */
  const groups: string[] = [];
  const start = (at: number): MochaRun => {
    const started = new MochaRun(at);
    for (const c of waiting) started.builder.add(c.name, c.status, c.suite);
    waiting = [];
    return started;
  };
  /** Whether the last line that was not blank was Node's spec reporter's (its ✔ lines cut short look like mocha's). */
  let afterNode = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const indent = indentOf(line);
    const wasNode = afterNode;
    const blank = indent === line.length;
    const node = !blank && (line.startsWith('▶ ', indent) || nodeSpecResult(line, indent) !== undefined);
    if (!blank) afterNode = node;
    if (indent === 0) {
      if (waiting.length > 0) waiting = [];
      groups.length = 0;
    }
    const summary = indent === 2 ? SUMMARY.exec(line) : null;
    if (summary !== null) {
      const passing = summary[2] === 'passing';
      if (passing && summary[0].endsWith(')')) {
        run ??= start(i);
        run.details = true;
        run.summary = { passed: 0, failed: 0, skipped: 0 };
      }
      if (run?.details !== true) continue;
      const key = passing ? 'passed' : summary[2] === 'pending' ? 'skipped' : 'failed';
      run.summary[key] = Number(summary[1]);
      run.builder.summarise(run.summary);
      continue;
    }
    if (line.startsWith('Error: No test files found')) {
      run ??= start(i);
      run.summary = { passed: 0, failed: 0, skipped: 0 };
      run.builder.summarise(run.summary);
      continue;
    }
    const result = mochaResult(line, indent, node);
    const level = Math.floor((indent - 2) / 2);
    if (result === undefined) {
      if (indent >= 2 && !blank) {
        groups.length = level;
        groups[level] = line.slice(indent);
      }
      continue;
    }
    groups.length = level;
    const suite = groups.length > 0 ? groups.join(' > ') : undefined;
    // After a summary, the failures are listed again (not counted twice) until a passing test.
    if (run?.details === true) {
      if (result.status !== 'passed') continue;
      run.details = false;
    }
    if (run === undefined && (result.status !== 'passed' || wasNode)) {
      if (waiting.length < TESTS_MAX) waiting.push({ ...result, suite });
      continue;
    }
    run ??= start(i);
    run.builder.add(result.name, result.status, suite);
  }
  return run === undefined ? [] : [run.builder.build()];
}
