// Node's test runner, spec reporter (Node 20 and 22):
//
//   ✔ adds two numbers (1.55ms)
//   ▶ cart                                  a describe() (or a test with subtests) opens
//     ✖ removes an item (3.49ms)            2 spaces a level
//     ✔ applies a coupon (0.25ms) # TODO    todo; `﹣ name (…) # SKIP` or `# <reason>` skipped
//   ✖ cart (6.17ms)                         the group closes: not a test
//   ℹ tests 8 / ℹ suites 2 / ℹ pass 3 / ℹ fail 2 / ℹ cancelled 0 / ℹ skipped 2 / ℹ todo 1 / ℹ duration_ms 245.6
//   ✖ failing tests:                        the failures again, after the summary: not counted twice
//
// A file that defines no test is reported by Node as a passing test named by its path; it is no
// test here (it is the zero-test run this module exists to catch).
import { indentOf } from './outputLines';
import { looksLikeTestFile, type Run, RunBuilder, type TestStatus } from './tally';

const GLYPHS: Record<string, TestStatus> = { '✔': 'passed', '✖': 'failed', '﹣': 'skipped' };
const OPEN = '▶ ';
const INFO = 'ℹ';
const SUMMARY_KEYS = new Set(['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms']);

export interface NodeResult {
  status: TestStatus;
  name: string;
  /** The text after ` # `: SKIP, TODO or a skip's reason. */
  directive?: string;
}

// Node prints the duration with its fraction; mocha's `(52ms)` has none, which keeps the two apart.
const DURATION = / \(\d{1,12}\.\d{1,12}ms\)/g;

/** The name and directive of `rest` (a result line after its glyph): `name (1.2ms)` or `name (1.2ms) # SKIP`. */
export function nodeTimedName(rest: string): { name: string; directive?: string } | undefined {
  DURATION.lastIndex = 0;
  for (let m = DURATION.exec(rest); m !== null; m = DURATION.exec(rest)) {
    const end = m.index + m[0].length;
    if (end === rest.length) return { name: rest.slice(0, m.index) };
    if (rest.startsWith(' # ', end)) return { name: rest.slice(0, m.index), directive: rest.slice(end + 3) };
  }
  return undefined;
}

/** A spec reporter's result line at `indent`, or undefined. */
export function nodeSpecResult(line: string, indent: number): NodeResult | undefined {
  const status = GLYPHS[line.charAt(indent)];
  if (status === undefined || line.charAt(indent + 1) !== ' ') return undefined;
  const timed = nodeTimedName(line.slice(indent + 2));
  if (timed === undefined) return undefined;
  const skipped = timed.directive !== undefined;
  return { ...timed, status: skipped ? 'skipped' : status };
}

/** Reading Node's summary block (`ℹ key value` lines). */
export class NodeSummary {
  private readonly values = new Map<string, number>();

  add(key: string, value: number): void {
    this.values.set(key, value);
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** The summary's counts, less the `files` Node counted as passing tests that were files without tests. */
  counts(files: number): { ran: number; passed: number; failed: number; skipped: number } {
    const v = (k: string): number => this.values.get(k) ?? 0;
    const passed = Math.max(0, v('pass') - files);
    const failed = v('fail') + v('cancelled');
    const skipped = v('skipped') + v('todo');
    return { ran: Math.max(passed + failed + skipped, v('tests') - files), passed, failed, skipped };
  }
}

/** One summary line of either reporter: `ℹ tests 8` (spec) or `# tests 8` (TAP), as key and value (`mark` one character). */
export function nodeSummaryLine(line: string, mark: string): { key: string; value: number } | undefined {
  if (line.charAt(0) !== mark || line.charAt(1) !== ' ') return undefined;
  const m = /^(\w{1,20}) (\d{1,12}(?:\.\d{1,12})?)$/.exec(line.slice(2));
  const key = m?.[1] ?? '';
  return m !== null && SUMMARY_KEYS.has(key) ? { key, value: Number(m[2]) } : undefined;
}

/** The state of one spec-reporter run while its lines are read. */
class SpecRun {
  readonly builder: RunBuilder;
  /** The open group's name at each level (2 spaces a level). */
  private readonly groups: (string | undefined)[] = [];
  /** Whether a result was seen at each level since the group above it opened. */
  private readonly results: boolean[] = [];
  files = 0;
  summary: NodeSummary | undefined;

  constructor(at: number) {
    this.builder = new RunBuilder('node', at);
  }

  open(level: number, name: string): void {
    this.groups.length = level;
    this.groups[level] = name;
    this.results.length = level + 1;
  }

  result(level: number, r: NodeResult): void {
    const isGroup = this.results[level + 1] === true || this.groups[level] === r.name;
    this.results.length = level + 1;
    this.results[level] = true;
    this.groups.length = level;
    if (isGroup) return;
    if (level === 0 && r.status === 'passed' && looksLikeTestFile(r.name)) {
      this.files++;
      return;
    }
    const suite = this.groups.filter((g) => g !== undefined).join(' > ');
    this.builder.add(r.name, r.status, suite === '' ? undefined : suite);
  }
}

/** The runs of Node's spec reporter in `lines`. */
export function readNodeSpec(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  let run: SpecRun | undefined;
  let failingList = false;
  const close = (): void => {
    if (run === undefined) return;
    if (run.summary?.has('duration_ms') === true) run.builder.summarise(run.summary.counts(run.files));
    runs.push(run.builder.build());
    run = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const summary = nodeSummaryLine(line, INFO);
    if (summary !== undefined) {
      if (summary.key === 'tests') {
        run ??= new SpecRun(i);
        run.summary ??= new NodeSummary();
      }
      if (run?.summary === undefined) continue;
      run.summary.add(summary.key, summary.value);
      if (summary.key === 'duration_ms') close();
      continue;
    }
    if (line.startsWith('✖ failing tests:')) {
      failingList = true;
      continue;
    }
    const indent = indentOf(line);
    const result = nodeSpecResult(line, indent);
    const opens = result === undefined && line.startsWith(OPEN, indent);
    if (result === undefined && !opens) continue;
    // The list repeats each failure (a failing todo's with its `# reason` too): none is counted again.
    if (failingList && line.startsWith('✖ ', indent)) continue;
    failingList = false;
    if (run?.summary !== undefined) close();
    run ??= new SpecRun(i);
    const level = Math.floor(indent / 2);
    if (result !== undefined) {
      run.result(level, result);
      continue;
    }
    // `▶ name (1.2ms)`: a group's close in some Node 20 releases.
    const rest = line.slice(indent + 2);
    const timed = nodeTimedName(rest);
    if (timed !== undefined) run.result(level, { name: timed.name, status: 'passed' });
    else run.open(level, rest);
  }
  close();
  return runs;
}
