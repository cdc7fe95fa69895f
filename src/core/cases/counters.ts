// `.groundwork/metrics/counters.json`: `{"discovery": N, ...}`, the last number each id was drawn
// with. It may be rolled back (a git checkout), hand-edited or hostile, so it is only ever a lower
// bound: the next id is max(counter, highest id in the store) + 1, and a counter that cannot be
// read counts as 0 rather than stopping anyone from adding a case.
import { isPlainObject } from '../inputChecks';
import { CASE_NUMBER_MAX } from './caseId';

/** The counter case ids come from. */
export const DISCOVERY_COUNTER = 'discovery';
/** How many reports the curator found to be duplicates (the metric "duplicates prevented"). */
export const DUPLICATES_COUNTER = 'discoveryDuplicates';
/** The most counters one file keeps; more is not a counters file Groundwork wrote. */
const COUNTERS_MAX = 100;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** A real file is a few dozen bytes. */
export const COUNTERS_MAX_BYTES = 64 * 1024;

export type Counters = Readonly<Record<string, number>>;

export interface CountersRead {
  counters: Counters;
  /** Why (part of) the file was not taken, for the person; undefined when it was read whole. */
  problem?: string;
}

/** The counters in the file's text (undefined: no file). Names and numbers that are off are left out and said. */
export function parseCounters(text: string | undefined): CountersRead {
  if (text === undefined) return { counters: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { counters: {}, problem: 'it is not valid JSON, so it counts as empty' };
  }
  if (!isPlainObject(value)) return { counters: {}, problem: 'it is not a JSON object, so it counts as empty' };
  const counters: Record<string, number> = {};
  const skipped: string[] = [];
  for (const [name, n] of Object.entries(value)) {
    if (
      Object.keys(counters).length < COUNTERS_MAX &&
      NAME.test(name) &&
      Number.isSafeInteger(n) &&
      (n as number) >= 0 &&
      (n as number) <= CASE_NUMBER_MAX
    ) {
      counters[name] = n as number;
    } else skipped.push(name);
  }
  if (skipped.length === 0) return { counters };
  const shown = skipped.slice(0, 5).map((n) => JSON.stringify(n.slice(0, 40)));
  return {
    counters,
    problem: `the counter${skipped.length === 1 ? '' : 's'} ${shown.join(', ')}${skipped.length > 5 ? '…' : ''} ${skipped.length === 1 ? 'is' : 'are'} not a whole number from 0 to ${CASE_NUMBER_MAX}, so left out`,
  };
}

/** The file's text: sorted names, one per line. */
export function serializeCounters(counters: Counters): string {
  const sorted = Object.fromEntries(Object.entries(counters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}
