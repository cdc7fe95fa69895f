// Jest's default reporter (Jest 29 and 30):
//
//   PASS __tests__/math.test.js             a file; ` FAIL ` on a terminal (inverse video)
//     ✓ top-level check (1 ms)              verbose (--verbose, or a run of one file): each test,
//     cart                                  under its describe names (2 spaces a level)
//       ✕ removes an item (4 ms)
//       ○ skipped applies a coupon          skipped; `✎ todo charges shipping` a todo
//     ● cart › removes an item              a failure's details: the only names a run of several
//                                           files gives (and only the failures')
//   Tests:       2 failed, 1 skipped, 1 todo, 6 passed, 10 total
//
// `Summary of all failing tests` repeats the failures after the last file: not read again.
//
// What the code under test writes to stdout is printed raw, so it can print a `Tests:` line (or
// `No tests found`) of its own while the tests run. Jest has no header: all of its lines in an
// output are one run, and only its last `Tests:` line counts, the results after an earlier one
// belonging to the run (see RunBuilder). Two runs of Jest in one output read as one, not complete.
import { countOf, countParts, indentOf, withoutSuffix } from './outputLines';
import { type Run, RunBuilder, type TestStatus } from './tally';

const GLYPHS: Record<string, TestStatus> = { '✓': 'passed', '✕': 'failed', '○': 'skipped', '✎': 'skipped' };
const DURATION = / \(\d{1,12}(?:\.\d{1,6})? ?m?s\)$/;
/** `● …` lines that are not a test's failure. */
const NOT_TESTS = new Set(['Test suite failed to run', 'Console']);

/**
 * The file of a `PASS file` / `FAIL file` line (`PASS  unit  file` with a project's displayName),
 * or undefined. Vitest's `FAIL  file > describe > test` is not one.
 */
function fileHeader(line: string): string | undefined {
  const rest = line.trimStart();
  if (!rest.startsWith('PASS ') && !rest.startsWith('FAIL ')) return undefined;
  const words = withoutSuffix(rest.slice(5).trim(), DURATION);
  if (words.includes(' > ')) return undefined;
  const file = words.slice(words.lastIndexOf(' ') + 1);
  return /[./]/.test(file) ? file : undefined;
}

/** The counts of a `Tests:` line (`2 failed, 1 skipped, 1 todo, 6 passed, 10 total`, `3 of 4 total`). */
function summaryCounts(line: string): { ran: number; passed: number; failed: number; skipped: number } | undefined {
  if (!line.startsWith('Tests:')) return undefined;
  const counts = countParts(line.slice(6).replace(/ of \d{1,12} total$/, ' total'), ',');
  if (counts === undefined || !counts.has('total')) return undefined;
  const passed = countOf(counts, 'passed');
  const failed = countOf(counts, 'failed');
  const skipped = countOf(counts, 'skipped', 'todo', 'pending');
  return { ran: Math.max(countOf(counts, 'total'), passed + failed + skipped), passed, failed, skipped };
}

class JestRun {
  readonly builder: RunBuilder;
  file: string | undefined;
  /** Whether the current file listed its tests one by one (then its `●` lines repeat them). */
  verbose = false;
  private readonly groups: string[] = [];
  /** After `Summary of all failing tests`: the failures again. */
  recap = false;

  constructor(at: number) {
    this.builder = new RunBuilder('jest', at);
  }

  enterFile(file: string): void {
    this.file = file;
    this.verbose = false;
    this.groups.length = 0;
  }

  /** A verbose line: a test, or (with no glyph) a describe name. */
  line(line: string): void {
    const indent = indentOf(line);
    if (indent < 2 || this.file === undefined) return;
    const level = Math.floor((indent - 2) / 2);
    const status = GLYPHS[line.charAt(indent)];
    if (status === undefined || line.charAt(indent + 1) !== ' ') {
      if (line.charAt(indent) === '●') return;
      this.groups.length = level;
      this.groups[level] = line.slice(indent);
      return;
    }
    let name = withoutSuffix(line.slice(indent + 2), DURATION);
    if (line.charAt(indent) === '○' && name.startsWith('skipped ')) name = name.slice(8);
    if (line.charAt(indent) === '✎' && name.startsWith('todo ')) name = name.slice(5);
    this.verbose = true;
    const suite = this.groups.slice(0, level).join(' > ');
    this.builder.add(name, status, suite === '' ? undefined : suite, this.file);
  }

  /** `● a › b › name`: a failed test, when the file did not list its tests. */
  failure(line: string): void {
    const rest = line.trimStart();
    if (!rest.startsWith('● ') || this.verbose || this.recap || this.file === undefined) return;
    const path = rest.slice(2);
    if (NOT_TESTS.has(path)) return;
    const parts = path.split(' › ');
    const name = parts.pop() ?? path;
    this.builder.add(name, 'failed', parts.length > 0 ? parts.join(' > ') : undefined, this.file);
  }
}

/** The run of Jest in `lines` (all of its lines are one run: see the top of this file). */
export function readJest(lines: readonly string[]): Run[] {
  let run: JestRun | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const file = line.includes('PASS ') || line.includes('FAIL ') ? fileHeader(line) : undefined;
    if (file !== undefined) {
      run ??= new JestRun(i);
      if (!run.recap) run.enterFile(file);
      continue;
    }
    const summary = line.startsWith('Tests:') ? summaryCounts(line) : undefined;
    if (summary !== undefined) {
      run ??= new JestRun(i);
      run.builder.summarise(summary);
      run.recap = false;
      continue;
    }
    if (line.startsWith('No tests found, exiting with code ')) {
      run ??= new JestRun(i);
      run.builder.summarise({ passed: 0, failed: 0, skipped: 0 });
      continue;
    }
    if (run === undefined) continue;
    if (line.startsWith('Summary of all failing tests')) {
      run.recap = true;
      continue;
    }
    if (!run.recap) {
      run.line(line);
      run.failure(line);
    }
  }
  return run === undefined ? [] : [run.builder.build()];
}
