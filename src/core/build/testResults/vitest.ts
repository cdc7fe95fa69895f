// Vitest's default and verbose reporters (Vitest 3 and 4):
//
//    RUN  v4.1.12 /project                               a run starts
//    ✓ tests/math.test.js (3 tests) 7ms                  default: a file and its counts, no names…
//    ❯ tests/cart.test.js (7 tests | 2 failed | 1 skipped | 1 todo) 37ms
//        ✓ adds an item 7ms                              …but a file with a failure lists its tests,
//        × removes an item 21ms                          indented by depth, without describe names
//        ↓ applies a coupon                              skipped; `□ charges shipping` a todo (Vitest 3:
//                                                         `   ✓ cart > adds an item 2ms`, with the path)
//    ✓ tests/cart.test.js > cart > adds an item 3ms      verbose: each test with its file and path
//    FAIL  tests/cart.test.js > cart > removes an item   a failure's details: not counted again
//         Tests  2 failed | 6 passed | 1 skipped | 1 todo (10)
//
// Without the summary (a run cut short), a file's line gives its counts; a test line counts only
// when no file line gave its file's.
//
// What the code under test prints is printed raw (under a `stdout | file > test` line), so it can
// print a `Tests` line of its own: a run is everything from its `RUN` line to the next, and only
// its last `Tests` line counts, the results after an earlier one belonging to the run (see RunBuilder).
import { countOf, countParts, indentOf, withoutSuffix } from './outputLines';
import { type Run, RunBuilder, type TestStatus } from './tally';

const GLYPHS: Record<string, TestStatus> = { '✓': 'passed', '×': 'failed', '↓': 'skipped', '□': 'skipped' };
const FILE_GLYPHS = new Set(['✓', '❯', '×', '↓', '·']);
const DURATION = / \d{1,12}(?:\.\d{1,6})?m?s$/;

type Counts = { ran: number; passed: number; failed: number; skipped: number };

/** `(7 tests | 2 failed | 1 skipped | 1 todo)` after a file's name, as counts. */
function fileCounts(text: string): Counts | undefined {
  const m = /^\((\d{1,12}) tests?((?: \| \d{1,12} [a-z]{1,12})*)\)$/.exec(withoutSuffix(text, DURATION));
  if (m === null) return undefined;
  const ran = Number(m[1]);
  const more = m[2] ?? '';
  const counts = more === '' ? new Map<string, number>() : countParts(more.slice(3), ' | ');
  if (counts === undefined) return undefined;
  const failed = countOf(counts, 'failed');
  const skipped = countOf(counts, 'skipped', 'todo');
  return { ran, failed, skipped, passed: Math.max(0, ran - failed - skipped) };
}

/** The counts of the `Tests  2 failed | 6 passed (10)` line, or undefined. */
function summaryCounts(line: string): Counts | undefined {
  const rest = line.trimStart();
  if (!rest.startsWith('Tests ')) return undefined;
  const m = /^(.*) \((\d{1,12})\)$/.exec(rest.slice(6).trim());
  const counts = m === null ? undefined : countParts(m[1] ?? '', ' | ');
  if (m === null || counts === undefined) return undefined;
  const passed = countOf(counts, 'passed');
  const failed = countOf(counts, 'failed');
  const skipped = countOf(counts, 'skipped', 'todo');
  return { ran: Math.max(Number(m[2]), passed + failed + skipped), passed, failed, skipped };
}

class VitestRun {
  readonly builder: RunBuilder;
  /** The file whose `(N tests)` line came last (its tests follow it, indented). */
  file: string | undefined;
  /** Counts from file lines, and from verbose test lines (whose files have none). */
  private readonly counted: Counts = { ran: 0, passed: 0, failed: 0, skipped: 0 };
  private files = 0;

  constructor(at: number) {
    this.builder = new RunBuilder('vitest', at);
  }

  /** A line at indentation 1: a file with its counts, or a verbose test. */
  top(glyph: string, rest: string): void {
    const paren = rest.lastIndexOf(' (');
    const counts = paren > 0 ? fileCounts(rest.slice(paren + 1)) : undefined;
    if (counts !== undefined && FILE_GLYPHS.has(glyph)) {
      this.file = rest.slice(0, paren);
      this.files++;
      this.tally(counts);
      this.builder.continued();
      return;
    }
    const status = GLYPHS[glyph];
    const parts = withoutSuffix(rest, DURATION).split(' > ');
    if (status === undefined || parts.length < 2) return;
    this.file = undefined;
    const name = parts.pop() ?? '';
    const file = parts.shift();
    this.builder.add(name, status, parts.length > 0 ? parts.join(' > ') : undefined, file);
    this.tally({ ran: 1, passed: 0, failed: 0, skipped: 0, [status]: 1 });
  }

  private tally(counts: Counts): void {
    for (const k of ['ran', 'passed', 'failed', 'skipped'] as const) this.counted[k] += counts[k];
  }

  /** A test under its file's line (default reporter): its name (Vitest 4) or its path (Vitest 3). */
  nested(status: TestStatus, rest: string): void {
    if (this.file === undefined) return;
    const parts = withoutSuffix(rest, DURATION).split(' > ');
    const name = parts.pop() ?? '';
    this.builder.add(name, status, parts.length > 0 ? parts.join(' > ') : undefined, this.file);
  }

  build(): Run {
    // Cut short after file lines: their counts (the tests listed under them are among them).
    if (!this.builder.summarised && this.files > 0) {
      this.builder.summarise(this.counted);
      this.builder.interrupt();
    }
    return this.builder.build();
  }
}

/** The runs of Vitest (each from its `RUN` line to the next) in `lines`. */
export function readVitest(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  let run: VitestRun | undefined;
  const close = (): void => {
    if (run !== undefined) runs.push(run.build());
    run = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    if (line.startsWith(' RUN ') && /^ RUN {1,2}v\d/.test(line)) {
      close();
      run = new VitestRun(i);
      continue;
    }
    const summary = line.includes('Tests ') ? summaryCounts(line) : undefined;
    if (summary !== undefined) {
      run ??= new VitestRun(i);
      run.builder.summarise(summary);
      continue;
    }
    if (line.startsWith('No test files found, exiting with code ')) {
      run ??= new VitestRun(i);
      run.builder.summarise({ passed: 0, failed: 0, skipped: 0 });
      continue;
    }
    if (run === undefined) continue;
    const indent = indentOf(line);
    const glyph = line.charAt(indent);
    const status = GLYPHS[glyph];
    if (line.charAt(indent + 1) !== ' ') continue;
    if (indent === 1) run.top(glyph, line.slice(3));
    else if (indent >= 3 && status !== undefined) run.nested(status, line.slice(indent + 2));
  }
  close();
  return runs;
}
