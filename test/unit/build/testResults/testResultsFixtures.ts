// The outputs under fixtures/: real runs (Node 20's runner, cargo 1.9x, pytest 9, mocha 11, go 1.2x,
// paths made /project), Jest's and Vitest's written after their documented output. The `*-printed-*`
// and `*-captured-*` ones are real runs whose code under test printed a runner's lines of its own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestTally } from '../../../../src/core/build/testResults/testResults';

export function fixture(name: string): string {
  return readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
}

export type Where = 'start' | 'middle' | 'before the summary';

/** Where lines are put into an output: after its header, at a line of its middle, right before its summary. */
export interface Places {
  /** The header line the runner prints before any code under test runs (absent: the output's first line). */
  header?: RegExp;
  middle: RegExp;
  summary: RegExp;
}

/** `output` with `injected` put in at `where` (the first line matching the place's pattern). */
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

/** The counts of a tally. */
export function counts(t: TestTally | undefined): { ran: number; passed: number; failed: number; skipped: number } {
  assert.ok(t !== undefined, 'the output is read');
  return { ran: t.ran, passed: t.passed, failed: t.failed, skipped: t.skipped };
}
