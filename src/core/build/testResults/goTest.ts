// `go test`, plain and -v (Go 1.19 to 1.24):
//
//   === RUN   TestTotals                     -v: a test starts
//   --- FAIL: TestTotals (0.00s)              a result (plain output prints only the failures')
//       --- PASS: TestTotals/sums_prices (0.00s)     a subtest's, 4 spaces a level, after its parent's:
//       --- SKIP: TestTotals/skips_tax (0.00s)       the parent is then a group, not a test
//   FAIL
//   FAIL	example.com/shop/cart	0.007s        a package's end: `ok  	pkg	0.002s`, `FAIL	pkg [build failed]`
//   ?   	example.com/shop/empty	[no test files]
//   ok  	example.com/shop/notests	0.002s [no tests to run]
//
// Each package is a run (its tests' suite is the package). Go prints no count: without -v, a
// package that passed with tests in it counts as one passed test, unnamed (and one that failed
// without a failed test named, as one failed test): "at least one", so that a passing `go test`
// does not read as zero tests. Tests after the last package line were cut short (a run killed
// between two packages, with nothing printed of the next, cannot be told from a whole one).
//
// What the code under test prints is printed raw: it can print result and package lines of its
// own. A package line ends the package's results but carries no count to replace them with; in
// -v output (`=== RUN` lines) a package counts only its results (a package line printed by the
// code under test adds no passed test); and a test reported twice keeps its failure.
import { type Run, RunBuilder, type TestStatus, TESTS_MAX } from './tally';

const STATUS: Record<string, TestStatus> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };
const RESULT = /^ *--- (PASS|FAIL|SKIP): (\S{1,4096}) \(\d{1,9}\.\d{1,4}s\)$/;
const PACKAGE = /^(ok|FAIL|\?) {0,3}\t(\S{1,1000})(?:[\t ](.*))?$/;

interface GoResult {
  name: string;
  status: TestStatus;
  parent: boolean;
}

class GoPackage {
  /** The results since the last package line, by name (a parent is marked when its subtest comes). */
  readonly results = new Map<string, GoResult>();
  /** Results past TESTS_MAX in one package, only counted. */
  private readonly more: Record<TestStatus, number> = { passed: 0, failed: 0, skipped: 0 };
  at: number | undefined;

  /** `verbose`: the output is -v's (it has `=== RUN` lines): every test has its result line. */
  constructor(private readonly verbose: boolean) {}

  result(at: number, name: string, status: TestStatus): void {
    this.at ??= at;
    const slash = name.lastIndexOf('/');
    const parent = slash > 0 ? this.results.get(name.slice(0, slash)) : undefined;
    if (parent !== undefined) parent.parent = true;
    const seen = this.results.get(name);
    if (seen !== undefined) {
      if (status === 'failed') seen.status = 'failed';
      return;
    }
    if (this.results.size < TESTS_MAX) this.results.set(name, { name, status, parent: false });
    else this.more[status]++;
  }

  /** A run of the results (less their parents), emptied for the next package. */
  private take(at: number, pkg?: string): RunBuilder {
    const builder = new RunBuilder('go', at);
    for (const t of this.results.values()) if (!t.parent) builder.add(t.name, t.status, pkg);
    for (const status of ['passed', 'failed', 'skipped'] as const) {
      builder.count(status, this.more[status], true);
      this.more[status] = 0;
    }
    this.results.clear();
    this.at = undefined;
    return builder;
  }

  /** The run of the package line `status pkg detail`. */
  end(at: number, status: string, pkg: string, detail: string): Run {
    const builder = this.take(this.at ?? at, pkg);
    const noTests = status === '?' || detail.includes('[no tests to run]');
    if (builder.size === 0 && !noTests && !(this.verbose && status === 'ok'))
      builder.count(status === 'ok' ? 'passed' : 'failed');
    builder.summarise(builder.counts);
    return builder.build();
  }

  /** What was seen after the last package line, cut short; undefined when nothing was. */
  rest(): Run | undefined {
    return this.at === undefined ? undefined : this.take(this.at).build();
  }
}

/** The runs of `go test` (one a package) in `lines`. */
export function readGoTest(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  const pkg = new GoPackage(lines.some((line) => line.startsWith('=== RUN   ')));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    if (line.startsWith('=== RUN   ')) {
      pkg.at ??= i;
      continue;
    }
    const result = line.includes('--- ') ? RESULT.exec(line) : null;
    if (result !== null) {
      pkg.result(i, result[2] ?? '', STATUS[result[1] ?? ''] ?? 'failed');
      continue;
    }
    const end = /^(?:ok|FAIL|\?)/.test(line) ? PACKAGE.exec(line) : null;
    if (end !== null) runs.push(pkg.end(i, end[1] ?? '', end[2] ?? '', end[3] ?? ''));
  }
  const rest = pkg.rest();
  if (rest !== undefined) runs.push(rest);
  return runs;
}
