// `cargo test` (libtest's output):
//
//        Running unittests src/lib.rs (target/debug/deps/shop-5079…)    a test binary, and its file
//   running 5 tests
//   test tests::applies_a_coupon ... ignored, not ready                   skipped
//   test tests::totals::panics_on_negative - should panic ... ok
//   test tests::removes_an_item ... FAILED
//   test result: FAILED. 3 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.15s
//      Doc-tests shop
//   test src/lib.rs - add (line 3) ... ok                                 a doc test: its name whole
//
// Each binary is a run, from its `running N tests` to the next; one whose `test result:` never
// came was cut short. A test's module path is its suite (`tests > totals`).
//
// libtest prints a failing test's captured output before its own `test result:` line, raw: the
// code under test can print a `test result:` of its own there. Only a run's last one counts (the
// results after an earlier one belong to the run), and its counts must add up to the N of
// `running N tests`, else the run is not complete (see RunBuilder).
import { type Run, RunBuilder, type TestStatus } from './tally';

const RESULT = /^test (.{1,4096}) \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;
const SUMMARY =
  /^test result: (?:ok|FAILED)\. (\d{1,12}) passed; (\d{1,12}) failed; (\d{1,12}) ignored; (\d{1,12}) measured;/;
const BINARY = /^ {0,12}Running (?:unittests )?(\S{1,1000})(?: \(.*\))?$/;

function status(word: string): TestStatus {
  return word === 'ok' ? 'passed' : word === 'FAILED' ? 'failed' : 'skipped';
}

/** Whether `name` is a doc test's, `src/lib.rs - add (line 3)` (by string operations: a pattern for it backtracks). */
function isDocTest(name: string): boolean {
  const at = name.lastIndexOf(' (line ');
  if (at < 0 || !name.endsWith(')')) return false;
  const digits = name.slice(at + 7, -1);
  return digits.length >= 1 && digits.length <= 9 && /^\d+$/.test(digits) && name.slice(0, at).includes(' - ');
}

/** `tests::totals::sums_prices - should panic` as name and suite; a doc test's name stays whole. */
function nameAndSuite(text: string): { name: string; suite?: string } {
  const name = text.endsWith(' - should panic') ? text.slice(0, -15) : text;
  if (isDocTest(name)) return { name };
  const parts = name.split('::');
  const last = parts.pop() ?? name;
  return { name: last, suite: parts.length > 0 ? parts.join(' > ') : undefined };
}

/** The runs of libtest (one a test binary) in `lines`. */
export function readCargo(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  let run: RunBuilder | undefined;
  /** The N of the run's `running N tests`. */
  let planned = 0;
  let file: string | undefined;
  const close = (): void => {
    if (run !== undefined) runs.push(run.build());
    run = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const binary = line.includes('Running ') ? BINARY.exec(line) : null;
    if (binary !== null) {
      file = binary[1];
      continue;
    }
    if (line.includes('Doc-tests ') && /^ {0,12}Doc-tests /.test(line)) {
      file = undefined;
      continue;
    }
    const running = line.startsWith('running ') ? /^running (\d{1,12}) tests?$/.exec(line) : null;
    if (running !== null) {
      close();
      run = new RunBuilder('cargo', i);
      planned = Number(running[1]);
      continue;
    }
    if (run === undefined || !line.startsWith('test ')) continue;
    const summary = SUMMARY.exec(line);
    if (summary !== null) {
      const [passed = 0, failed = 0, skipped = 0, measured = 0] = summary.slice(1, 5).map(Number);
      run.summarise({ passed: passed + measured, failed, skipped });
      if (passed + measured + failed + skipped !== planned) run.disagree();
      continue;
    }
    const result = RESULT.exec(line);
    if (result === null) continue;
    const test = nameAndSuite(result[1] ?? '');
    run.add(test.name, status(result[2] ?? ''), test.suite, file);
  }
  close();
  return runs;
}
