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
// does not read as zero tests. Tests after the last package line were cut short.
//
// What the code under test prints is printed raw: it can print result and package lines of its
// own. A package line ends the package's results but carries no count to replace them with; in
// -v output (`=== RUN` lines) a package counts only its results (a package line printed by the
// code under test adds no passed test); and a test reported twice keeps its failure.
import { type Run, RunBuilder, type TestStatus } from './tally';

const STATUS: Record<string, TestStatus> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };
const RESULT = /^ *--- (PASS|FAIL|SKIP): (\S{1,2000}) \(\d{1,9}\.\d{1,4}s\)$/;
const PACKAGE = /^(ok|FAIL|\?) {0,3}\t(\S{1,1000})(?:[\t ](.*))?$/;

interface GoResult {
  name: string;
  status: TestStatus;
  parent: boolean;
}

class GoPackage {
  /** The results since the last package line, by name (a parent is marked when its subtest comes). */
  readonly results = new Map<string, GoResult>();
  at: number | undefined;

  /** `verbose`: the output is -v's (it has `=== RUN` lines): every test has its result line. */
  constructor(private readonly verbose: boolean) {}

  result(at: number, name: string, status: TestStatus): void {
    this.at ??= at;
    const slash = name.lastIndexOf('/');
    const parent = slash > 0 ? this.results.get(name.slice(0, slash)) : undefined;
    if (parent !== undefined) parent.parent = true;
    const seen = this.results.get(name);
    if (seen === undefined) this.results.set(name, { name, status, parent: false });
    else if (status === 'failed') seen.status = 'failed';
  }

  /** The run of the package line `status pkg detail`. */
  end(at: number, status: string, pkg: string, detail: string): Run {
    const builder = new RunBuilder('go', this.at ?? at);
    const tests = [...this.results.values()].filter((r) => !r.parent);
    for (const t of tests) builder.add(t.name, t.status, pkg);
    const noTests = status === '?' || detail.includes('[no tests to run]');
    if (tests.length === 0 && !noTests && !(this.verbose && status === 'ok'))
      builder.count(status === 'ok' ? 'passed' : 'failed');
    builder.summarise(builder.counts);
    this.results.clear();
    this.at = undefined;
    return builder.build();
  }

  /** What was seen after the last package line, cut short; undefined when nothing was. */
  rest(): Run | undefined {
    if (this.at === undefined) return undefined;
    const builder = new RunBuilder('go', this.at);
    for (const t of this.results.values()) if (!t.parent) builder.add(t.name, t.status);
    return builder.build();
  }
}

/** The runs of `go test` (one a package) in `lines`. */
export function readGoTest(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  const pkg = new GoPackage(lines.some((line) => line.startsWith('=== RUN   ')));
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('=== RUN   ')) {
      pkg.at ??= i;
      continue;
    }
    const result = line.includes('--- ') ? RESULT.exec(line) : null;
    if (result !== null) {
      pkg.result(i, result[2] ?? '', STATUS[result[1] ?? ''] ?? 'failed');
      continue;
    }
    const end = PACKAGE.exec(line);
    if (end !== null) runs.push(pkg.end(i, end[1] ?? '', end[2] ?? '', end[3] ?? ''));
  }
  const rest = pkg.rest();
  if (rest !== undefined) runs.push(rest);
  return runs;
}
