// How many tests a TEST command ran, from what it printed: Groundwork re-runs the project's tests
// itself, and an exit code of 0 from a command that ran no test is no pass. Pure: the caller
// captures the output (and reads a JUnit XML file the command wrote, if any).
//
// One parser a format, each reading every line once and finding that format's runs:
// nodeSpec.ts, nodeTap.ts (Node's test runner), jest.ts, vitest.ts, mocha.ts, pytest.ts,
// goTest.ts, cargo.ts, junit.ts. Their line patterns do not overlap, so the runs of several
// commands in one output (`npm test && pytest`) add up, in the order they were printed.
// The code under test prints to the same output and may print any runner's lines: within a run,
// only the runner's last summary counts (RunBuilder in tally.ts says when it covers the run).
// Linear in the output; at most TESTS_MAX tests kept, names cut to NAME_MAX_CHARS and shown with
// visible escapes; never throws.
import { readCargo } from './cargo';
import { readGoTest } from './goTest';
import { readJest } from './jest';
import { readJunit } from './junit';
import { readMocha } from './mocha';
import { readNodeSpec } from './nodeSpec';
import { readNodeTap } from './nodeTap';
import { outputLines } from './outputLines';
import { readPytest } from './pytest';
import { FILES_WITHOUT_TESTS_MAX, type Run, type TestCase, type TestTally, TESTS_MAX } from './tally';
import { readVitest } from './vitest';

export type { Runner, TestCase, TestStatus, TestTally } from './tally';
export { FILES_WITHOUT_TESTS_MAX, NAME_MAX_CHARS, TESTS_MAX } from './tally';

const PARSERS: ((lines: readonly string[]) => Run[])[] = [
  readNodeSpec,
  readNodeTap,
  readJest,
  readVitest,
  readMocha,
  readPytest,
  readGoTest,
  readCargo,
];

/** The runs added up: the first run's runner, every test in order up to TESTS_MAX. */
function addUp(first: Run, runs: readonly Run[]): TestTally {
  const tests: TestCase[] = [];
  const tally: TestTally = {
    runner: first.runner,
    ran: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    tests,
    complete: true,
    named: true,
  };
  for (const run of runs) {
    tally.ran += run.ran;
    tally.passed += run.passed;
    tally.failed += run.failed;
    tally.skipped += run.skipped;
    tally.complete &&= run.complete;
    tally.named &&= run.named;
    for (const t of run.tests) {
      if (tests.length >= TESTS_MAX) break;
      tests.push(t);
    }
    for (const f of run.filesWithoutTests ?? []) {
      tally.filesWithoutTests ??= [];
      if (tally.filesWithoutTests.length < FILES_WITHOUT_TESTS_MAX) tally.filesWithoutTests.push(f);
    }
  }
  return tally;
}

function withoutAt(run: Run): TestTally {
  const { at: _at, ...tally } = run;
  return tally;
}

/** The runs of one output, their lines counted from `offset`. */
function runsOf(output: unknown, offset: number): { runs: Run[]; lines: number } {
  const lines = outputLines(typeof output === 'string' ? output : '');
  const runs = PARSERS.flatMap((read) => read(lines)).map((run) => ({ ...run, at: run.at + offset }));
  return { runs, lines: lines.length };
}

/**
 * The tally of `output` (stdout+stderr as captured, ANSI colour codes possibly present), or
 * undefined when no runner's format is recognised. Several runs in one output (e.g.
 * `npm test && pytest`) add up; the tally takes the first runner's name. The outputs of several
 * commands are best given apart (an array): a runner without a header line (Node's spec reporter,
 * Jest, mocha) reads as one run to the end of its output, so two of its runs in one output read as
 * one, not complete.
 *
 * `junitXml`, a JUnit XML report the command wrote, describes the same run as the output: when it
 * is whole it is the tally (runner 'junit'); when it was cut short the output's tally wins if
 * there is one.
 */
export function readTestResults(output: string | readonly string[], junitXml?: string): TestTally | undefined {
  try {
    const junit = typeof junitXml === 'string' ? readJunit(junitXml) : undefined;
    if (junit?.complete === true) return withoutAt(junit);
    const runs: Run[] = [];
    let offset = 0;
    for (const one of Array.isArray(output) ? (output as readonly unknown[]) : [output]) {
      const read = runsOf(one, offset);
      runs.push(...read.runs);
      offset += read.lines;
    }
    runs.sort((a, b) => a.at - b.at);
    if (runs[0] !== undefined) return addUp(runs[0], runs);
    return junit === undefined ? undefined : withoutAt(junit);
  } catch {
    return undefined;
  }
}
