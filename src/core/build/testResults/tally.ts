// What every parser of a runner's output gives back: one Run per run of the runner it recognised
// (a `go test` package, a cargo test binary, one jest or pytest invocation), built with RunBuilder,
// which keeps the caps (tests kept, name length) and makes every name safe to show.
import { visibleText } from '../../visibleText';

export type TestStatus = 'passed' | 'failed' | 'skipped';

export interface TestCase {
  name: string;
  status: TestStatus;
  /** suite/describe path joined with ' > ', when the output gives one */
  suite?: string;
  file?: string;
}

export type Runner = 'node' | 'jest' | 'vitest' | 'mocha' | 'pytest' | 'go' | 'cargo' | 'junit';

export interface TestTally {
  runner: Runner;
  ran: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Every test the output names, in order (may be fewer than ran when the output does not name them). */
  tests: TestCase[];
  /** Whether the runner's own final summary was seen (false: output cut short or the process killed; counts are what was seen). */
  complete: boolean;
  /** Whether per-test names could be read. */
  named: boolean;
}

/** One run a parser found: a tally, and the line it started on (runs of several runners are put in order by it). */
export interface Run extends TestTally {
  at: number;
}

/** At most this many tests are kept in a tally's `tests` (the counts go on). */
export const TESTS_MAX = 10_000;
/** A name, suite or file longer than this is cut, with an ellipsis. */
export const NAME_MAX_CHARS = 300;

export interface Counts {
  ran: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** Text from the output as it may be shown: cut to NAME_MAX_CHARS, every unsafe character a visible escape. */
export function shownText(raw: string): string {
  const cut = raw.length > NAME_MAX_CHARS ? raw.slice(0, NAME_MAX_CHARS) : raw;
  const visible = visibleText(cut.trim());
  return visible.length > NAME_MAX_CHARS || cut !== raw ? `${visible.slice(0, NAME_MAX_CHARS - 1)}…` : visible;
}

/** A test case with only the fields given (none set to undefined), each shown safely. */
export function testCase(name: string, status: TestStatus, suite?: string, file?: string): TestCase {
  const test: TestCase = { name: shownText(name), status };
  if (suite !== undefined && suite.trim() !== '') test.suite = shownText(suite);
  if (file !== undefined && file.trim() !== '') test.file = shownText(file);
  return test;
}

/**
 * One run being read. Tests named one by one are `add`ed; tests the output only counts are
 * `count`ed; the runner's own summary, when seen, is `summarise`d and wins over what was counted.
 */
export class RunBuilder {
  private readonly tests: TestCase[] = [];
  private readonly seen: Counts = { ran: 0, passed: 0, failed: 0, skipped: 0 };
  private namedCount = 0;
  private summary: Counts | undefined;
  private interrupted = false;

  constructor(
    readonly runner: Runner,
    readonly at: number,
  ) {}

  add(name: string, status: TestStatus, suite?: string, file?: string): void {
    this.namedCount++;
    this.count(status);
    if (this.tests.length < TESTS_MAX) this.tests.push(testCase(name, status, suite, file));
  }

  /** `n` tests the output counts (`named`: it named them too, but they were not kept). */
  count(status: TestStatus, n = 1, named = false): void {
    this.seen[status] += n;
    this.seen.ran += n;
    if (named) this.namedCount += n;
  }

  /** The runner's own final counts; `ran` defaults to their sum. */
  summarise(counts: Omit<Counts, 'ran'> & { ran?: number }): void {
    const sum = counts.passed + counts.failed + counts.skipped;
    this.summary = { ...counts, ran: counts.ran ?? sum };
  }

  /** The runner said it was interrupted (a summary may still follow, of what ran before). */
  interrupt(): void {
    this.interrupted = true;
  }

  get summarised(): boolean {
    return this.summary !== undefined;
  }

  /** What has been counted so far, from the lines or the summary. */
  get counts(): Counts {
    return { ...(this.summary ?? this.seen) };
  }

  get size(): number {
    return this.seen.ran;
  }

  build(): Run {
    const counts = this.summary ?? this.seen;
    return {
      runner: this.runner,
      at: this.at,
      ...counts,
      tests: this.tests,
      complete: this.summary !== undefined && !this.interrupted,
      named: this.namedCount === counts.ran,
    };
  }
}

/** Node paths as test names: `a/b.test.mjs`, the name Node's runner gives a file that ran no test. */
export function looksLikeTestFile(name: string): boolean {
  return !/\s/.test(name) && /\.[cm]?[jt]sx?$/.test(name);
}
