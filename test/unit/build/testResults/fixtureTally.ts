// The captured runner outputs in fixtures/ (see its README), and a tally written as short lines
// that a test compares whole: the counts, then each test the output named.
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
