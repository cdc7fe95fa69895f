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
  /**
   * File-level entries the runner reported as passing tests though no test ran in them (Node's
   * runner names a test file whose code exited before its tests, or that defines none, that way),
   * as the runner named them: not counted, but a reason to doubt the run. Absent when there were none.
   */
  filesWithoutTests?: string[];
}

/** One run a parser found: a tally, and the line it started on (runs of several runners are put in order by it). */
export interface Run extends TestTally {
  at: number;
}

/** At most this many tests are kept in a tally's `tests` (the counts go on). */
export const TESTS_MAX = 10_000;
/** A name, suite or file longer than this is cut, with an ellipsis. */
export const NAME_MAX_CHARS = 300;
/** At most this many names are kept in a tally's `filesWithoutTests`. */
export const FILES_WITHOUT_TESTS_MAX = 100;

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
 * `count`ed; the runner's own summary, when seen, is `summarise`d, and a later summary supersedes
 * an earlier one: the code under test can print a summary of its own while the tests run, but the
 * runner's is the last thing it prints.
 *
 * The summary is the run's count only when it covers what was seen: no result came after it, the
 * parser found nothing it disagrees with (`disagree`: a TAP plan, cargo's `running N tests`), and
 * no status was seen more often than it says. Otherwise the run is not complete, and the counts
 * are the results seen, never fewer failures or skips than the summary says, never more passes
 * than it says (a result seen and not in the summary may be one the code under test printed).
 */
export class RunBuilder {
  private readonly tests: TestCase[] = [];
  private readonly seen: Counts = { ran: 0, passed: 0, failed: 0, skipped: 0 };
  private namedCount = 0;
  private summary: Counts | undefined;
  /** A result was seen after the last summary (which then does not cover the run). */
  private afterSummary = false;
  private disagreed = false;
  private interrupted = false;
  private readonly noTestFiles: string[] = [];
  private noTestFileCount = 0;

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
    this.continued();
  }

  /** A file-level entry that ran no test (not counted; named in `filesWithoutTests`). */
  fileWithoutTests(name: string): void {
    this.noTestFileCount++;
    if (this.noTestFiles.length < FILES_WITHOUT_TESTS_MAX) this.noTestFiles.push(shownText(name));
  }

  /** How many file-level entries ran no test (the runner's summary counts them as passing tests). */
  get filesWithoutTests(): number {
    return this.noTestFileCount;
  }

  /** The runner's own counts (the last summary wins); `ran` defaults to their sum. */
  summarise(counts: Omit<Counts, 'ran'> & { ran?: number }): void {
    const sum = counts.passed + counts.failed + counts.skipped;
    this.summary = { ...counts, ran: counts.ran ?? sum };
    this.afterSummary = false;
    this.disagreed = false;
  }

  /** The run went on after its summary (results it may not cover), though none was counted here. */
  continued(): void {
    if (this.summary !== undefined) this.afterSummary = true;
  }

  /** The last summary contradicts what the run showed (e.g. the TAP plan's count of results). */
  disagree(): void {
    this.disagreed = true;
  }

  /** The runner said it was interrupted (a summary may still follow, of what ran before). */
  interrupt(): void {
    this.interrupted = true;
  }

  get summarised(): boolean {
    return this.summary !== undefined;
  }

  /** Whether the summary covers every result seen (see the class's comment). */
  private get covered(): boolean {
    const s = this.summary;
    if (s === undefined || this.afterSummary || this.disagreed) return false;
    return this.seen.passed <= s.passed && this.seen.failed <= s.failed && this.seen.skipped <= s.skipped;
  }

  /** What has been counted so far: the summary when it covers the run (see the class's comment). */
  get counts(): Counts {
    const s = this.summary;
    if (s === undefined) return { ...this.seen };
    if (this.covered) return { ...s };
    const passed = Math.min(this.seen.passed, s.passed);
    const failed = Math.max(this.seen.failed, s.failed);
    const skipped = Math.max(this.seen.skipped, s.skipped);
    return { ran: passed + failed + skipped, passed, failed, skipped };
  }

  get size(): number {
    return this.seen.ran;
  }

  build(): Run {
    const counts = this.counts;
    const run: Run = {
      runner: this.runner,
      at: this.at,
      ...counts,
      tests: this.tests,
      complete: this.covered && !this.interrupted,
      named: this.namedCount === counts.ran,
    };
    if (this.noTestFiles.length > 0) run.filesWithoutTests = [...this.noTestFiles];
    return run;
  }
}

/** Node paths as test names: `a/b.test.mjs`, the name Node's runner gives a file that ran no test. */
export function looksLikeTestFile(name: string): boolean {
  return !/\s/.test(name) && /\.[cm]?[jt]sx?$/.test(name);
}
