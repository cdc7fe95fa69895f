// pytest (7 to 9), default, -q and -v:
//
//   ============================= test session starts ==============================
//   test_cart.py .Fsx.F.F.                                                   [ 81%]   default: a character a test
//   test_cart.py::TestTotals::test_sums_prices PASSED                        [ 45%]   -v: a line a test
//   test_cart.py::test_applies_coupon SKIPPED (not ready)                    [ 27%]
//   =========================== short test summary info ============================
//   FAILED test_cart.py::test_removes_item - assert 2 == 1                          the names of the failures
//   ========== 3 failed, 5 passed, 1 skipped, 1 xfailed, 1 error in 0.94s ==========
//
// Counted: an error as a failure, an xfail as skipped, an xpass as passed; deselected tests did not
// run. A KeyboardInterrupt's banner makes the run incomplete, whatever summary follows it.
//
// What the code under test prints (raw with -s, else in a failure's `Captured stdout` section,
// before the summary) can be a summary line of its own: a run is everything from its `test
// session starts` to the next, and only its last summary line counts, the results after an
// earlier one belonging to the run (see RunBuilder). A test id reported again with another
// status counts again (pytest's own summary counts a passed test whose teardown failed twice).
import { countOf, countParts } from './outputLines';
import { type Run, RunBuilder, type TestStatus, TESTS_MAX } from './tally';

const STATUS: Record<string, TestStatus> = {
  PASSED: 'passed',
  XPASS: 'passed',
  FAILED: 'failed',
  ERROR: 'failed',
  SKIPPED: 'skipped',
  XFAIL: 'skipped',
};
const PROGRESS: Record<string, TestStatus> = {
  '.': 'passed',
  X: 'passed',
  F: 'failed',
  E: 'failed',
  s: 'skipped',
  x: 'skipped',
};
const VERBOSE = / (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?= |$)/;
const XDIST = /^\[gw\d{1,4}\] \[ {0,2}\d{1,3}%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S.*)$/;
const KNOWN = [
  'passed',
  'failed',
  'error',
  'errors',
  'skipped',
  'xfailed',
  'xpassed',
  'deselected',
  'warning',
  'warnings',
];

/** The counts of a summary line (`=== 3 failed, 5 passed in 0.94s ===`, `no tests ran in 0.01s`), or undefined. */
function summaryCounts(line: string): { passed: number; failed: number; skipped: number } | undefined {
  const text = line.replace(/^=+ /, '').replace(/ =+$/, '');
  const m = /^(.{1,300}) in \d{1,9}(?:\.\d{1,6})?s(?: \(\d{1,4}:\d\d:\d\d\))?$/.exec(text);
  if (m === null) return undefined;
  if (m[1] === 'no tests ran') return { passed: 0, failed: 0, skipped: 0 };
  const counts = countParts(m[1] ?? '', ', ');
  if (counts === undefined || ![...counts.keys()].some((k) => KNOWN.includes(k))) return undefined;
  return {
    passed: countOf(counts, 'passed', 'xpassed'),
    failed: countOf(counts, 'failed', 'error', 'errors'),
    skipped: countOf(counts, 'skipped', 'xfailed'),
  };
}

/** A node id `file.py::Class::test[param]` as name, suite and file. */
function fromId(id: string): { name: string; suite?: string; file?: string } {
  const parts = id.split('::');
  if (parts.length < 2) return { name: id };
  const file = parts.shift();
  const name = parts.pop() ?? id;
  return { name, suite: parts.length > 0 ? parts.join(' > ') : undefined, file };
}

class PytestRun {
  readonly builder: RunBuilder;
  /** Tests listed by -v (then the short summary's names repeat them). */
  private verbose = false;
  /**
   * The ids with their status already counted (`id status`): a status seen again is the same
   * result. At most TESTS_MAX are kept (memory bounded whatever the output; past it, repeats count).
   */
  private readonly ids = new Set<string>();
  /** Counts from the progress characters (default mode), used when the summary never comes. */
  readonly progress = { passed: 0, failed: 0, skipped: 0 };
  shortSummary = false;

  constructor(at: number) {
    this.builder = new RunBuilder('pytest', at);
  }

  verboseLine(id: string, word: string): void {
    this.verbose = true;
    const status = STATUS[word] ?? 'passed';
    if (!this.once(id, status)) return;
    const t = fromId(id);
    this.builder.add(t.name, status, t.suite, t.file);
  }

  /** `FAILED id - message` in the short test summary, when -v did not list the tests. */
  summaryLine(line: string): void {
    if (this.verbose) return;
    const space = line.indexOf(' ');
    const status = STATUS[line.slice(0, space)];
    if (space < 0 || status === undefined || line[space + 1] === '[') return;
    const rest = line.slice(space + 1);
    const dash = rest.indexOf(' - ');
    const id = dash < 0 ? rest : rest.slice(0, dash);
    if (!id.includes('::') || !this.once(id, status)) return;
    const t = fromId(id);
    this.builder.add(t.name, status, t.suite, t.file);
  }

  /** Whether `id` with `status` is seen for the first time. */
  private once(id: string, status: TestStatus): boolean {
    const key = `${id} ${status}`;
    if (this.ids.has(key)) return false;
    if (this.ids.size < TESTS_MAX) this.ids.add(key);
    return true;
  }

  /** `test_cart.py .Fsx.F.F.   [ 81%]`, or a continuation `....  [100%]`. */
  progressChars(chars: string): void {
    this.builder.continued();
    for (const c of chars) {
      const status = PROGRESS[c];
      if (status !== undefined) this.progress[status]++;
    }
  }

  build(): Run {
    const fromProgress = this.progress.passed + this.progress.failed + this.progress.skipped;
    if (!this.builder.summarised && fromProgress > this.builder.size) {
      this.builder.summarise(this.progress);
      this.builder.interrupt();
    }
    return this.builder.build();
  }
}

/** A file's progress line, `test_cart.py .Fsx.F.F.   [ 81%]`, and one that goes on from it, `....   [ 90%]`. */
const PROGRESS_FILE = /^\S{1,1000}\.py ([.FEsxX]{1,1000})(?: {1,200}\[ {0,2}\d{1,3}%\])?$/;
const PROGRESS_MORE = /^([.FEsxX]{1,1000}) {1,200}\[ {0,2}\d{1,3}%\]$/;

/** The runs of pytest (each from `test session starts`, or its first summary line, to the next) in `lines`. */
export function readPytest(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  let run: PytestRun | undefined;
  const close = (): void => {
    if (run !== undefined) runs.push(run.build());
    run = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    if (line.startsWith('=') && /^=+ test session starts =+$/.test(line)) {
      close();
      run = new PytestRun(i);
      continue;
    }
    const summary = line.length <= 400 && line.includes(' in ') ? summaryCounts(line) : undefined;
    if (summary !== undefined) {
      run ??= new PytestRun(i);
      run.builder.summarise(summary);
      continue;
    }
    if (run === undefined) continue;
    if (line.startsWith('!') && /^!+ KeyboardInterrupt !+$/.test(line)) run.builder.interrupt();
    else if (/^=+ short test summary info =+$/.test(line)) run.shortSummary = true;
    else if (line.startsWith('=')) run.shortSummary = false;
    else if (run.shortSummary) run.summaryLine(line);
    else {
      const xdist = XDIST.exec(line);
      const verbose = xdist === null && line.includes('::') ? VERBOSE.exec(line) : null;
      if (xdist !== null) run.verboseLine(xdist[2] ?? '', xdist[1] ?? '');
      else if (verbose !== null) run.verboseLine(line.slice(0, verbose.index), verbose[1] ?? '');
      else {
        const progress = PROGRESS_FILE.exec(line) ?? PROGRESS_MORE.exec(line);
        if (progress !== null) run.progressChars(progress[1] ?? '');
      }
    }
  }
  close();
  return runs;
}
