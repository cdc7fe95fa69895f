// The captured runner outputs in fixtures/ (see its README); a tally written as short lines that
// a test compares whole (the counts, then each test the output named) or as its bare counts; and
// lines put into an output where the code under test could have printed them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTestResults, type TestTally } from '../../../../src/core/build/testResults/testResults';

const FIXTURES = join(__dirname, 'fixtures');

/** A fixture's text, as captured. */
export function fixture(path: string): string {
  return readFileSync(join(FIXTURES, path), 'utf8');
}

/** `node: ran 8, 3 passed, 2 failed, 3 skipped; complete, named` */
export function counts(t: TestTally | undefined): string {
  if (t === undefined) return 'undefined';
  const state = `${t.complete ? 'complete' : 'incomplete'}, ${t.named ? 'named' : 'not named'}`;
  return `${t.runner}: ran ${t.ran}, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped; ${state}`;
}

/** The bare counts of a tally (asserted to be one). */
export function numbers(t: TestTally | undefined): { ran: number; passed: number; failed: number; skipped: number } {
  assert.ok(t !== undefined, 'the output is read');
  return { ran: t.ran, passed: t.passed, failed: t.failed, skipped: t.skipped };
}

/** Each named test as `status suite > name [file]`. */
export function names(t: TestTally | undefined): string[] {
  return (t?.tests ?? []).map(
    (c) =>
      `${c.status} ${c.suite === undefined ? '' : `${c.suite} > `}${c.name}${c.file === undefined ? '' : ` [${c.file}]`}`,
  );
}

/** The tally of a fixture's output (an .xml one as the JUnit report, with no output). */
export function tallyOf(path: string): TestTally | undefined {
  return path.endsWith('.xml') ? readTestResults('', fixture(path)) : readTestResults(fixture(path));
}

export type Where = 'start' | 'middle' | 'before the summary';

/** Where lines are put into an output: after its header, at a line of its middle, right before its summary. */
export interface Places {
  /** The header line the runner prints before any code under test runs (absent: the output's first line). */
  header?: RegExp;
  middle: RegExp;
  summary: RegExp;
}

/** `output` with `injected` put in at `where` (before the first line matching the place's pattern). */
export function inject(output: string, injected: readonly string[], where: Where, places: Places): string {
  const lines = output.split('\n');
  const find = (re: RegExp): number => {
    const at = lines.findIndex((l) => re.test(l));
    if (at < 0) throw new Error(`no line matches ${String(re)}`);
    return at;
  };
  const at =
    where === 'start'
      ? places.header === undefined
        ? 0
        : find(places.header) + 1
      : find(where === 'middle' ? places.middle : places.summary);
  lines.splice(at, 0, ...injected);
  return lines.join('\n');
}
