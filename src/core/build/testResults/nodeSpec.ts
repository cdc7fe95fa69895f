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
// A file that defines no test (or whose code exited before its tests ran) is reported by Node as a
// passing test named by its path; it is no test here (it is the zero-test run this module exists
// to catch), and is named in the tally's `filesWithoutTests`.
//
// What the code under test prints goes to the same output, raw: it can print result lines and a
// whole summary block of its own. So all of the reporter's lines in an output are one run, and
// only its last summary block counts (the reporter's summary is the last thing it prints; the
// results after an earlier block belong to the run). Results after the last block, or more of a
// status than it counts, make the run not complete (see RunBuilder). Two runs of the reporter in
// one output read as one, not complete: their results, the last run's passes at most.
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
  /** The TAP plan (`1..N`) printed right before the block, when there was one. */
  plan: number | undefined;

  add(key: string, value: number): void {
    this.values.set(key, value);
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

/** The summary blocks of a run as its lines come: a block opens at `tests`, is whole at `duration_ms`. */
export class NodeSummaries {
  private open: NodeSummary | undefined;
  /** The last whole block. */
  last: NodeSummary | undefined;
  /** A result was seen after the last whole block. */
  resultsAfter = false;

  line(key: string, value: number, plan?: number): void {
    if (key === 'tests') {
      this.open = new NodeSummary();
      this.open.plan = plan;
    }
    if (this.open === undefined) return;
    this.open.add(key, value);
    if (key !== 'duration_ms') return;
    this.last = this.open;
    this.open = undefined;
    this.resultsAfter = false;
  }

  result(): void {
    if (this.last !== undefined) this.resultsAfter = true;
  }

  /** The last block into `builder` (the files without tests taken off its passes). */
  summarise(builder: RunBuilder): void {
    if (this.last === undefined) return;
    builder.summarise(this.last.counts(builder.filesWithoutTests));
    if (this.resultsAfter) builder.continued();
  }
}

/** One summary line of either reporter: `ℹ tests 8` (spec) or `# tests 8` (TAP), as key and value (`mark` one character). */
export function nodeSummaryLine(line: string, mark: string): { key: string; value: number } | undefined {
  if (line.charAt(0) !== mark || line.charAt(1) !== ' ') return undefined;
  const m = /^(\w{1,20}) (\d{1,12}(?:\.\d{1,12})?)$/.exec(line.slice(2));
  const key = m?.[1] ?? '';
  return m !== null && SUMMARY_KEYS.has(key) ? { key, value: Number(m[2]) } : undefined;
}

/** The state of the spec reporter's run while its lines are read. */
class SpecRun {
  readonly builder: RunBuilder;
  /** The open group's name at each level (2 spaces a level). */
  private readonly groups: (string | undefined)[] = [];
  /** Whether a result was seen at each level since the group above it opened. */
  private readonly results: boolean[] = [];
  readonly summaries = new NodeSummaries();

  constructor(at: number) {
    this.builder = new RunBuilder('node', at);
  }

  open(level: number, name: string): void {
    this.groups.length = level;
    this.groups[level] = name;
    this.results.length = level + 1;
  }

  result(level: number, r: NodeResult): void {
    this.summaries.result();
    const isGroup = this.results[level + 1] === true || this.groups[level] === r.name;
    this.results.length = level + 1;
    this.results[level] = true;
    this.groups.length = level;
    if (isGroup) return;
    if (level === 0 && r.status === 'passed' && looksLikeTestFile(r.name)) {
      this.builder.fileWithoutTests(r.name);
      return;
    }
    const suite = this.groups.filter((g) => g !== undefined).join(' > ');
    this.builder.add(r.name, r.status, suite === '' ? undefined : suite);
  }

  build(): Run {
    this.summaries.summarise(this.builder);
    return this.builder.build();
  }
}

/** The run of Node's spec reporter in `lines` (all of its lines are one run: see the top of this file). */
export function readNodeSpec(lines: readonly string[]): Run[] {
  let run: SpecRun | undefined;
  /** In the failures listed again after a summary block (a failure there is not counted again). */
  let failingList = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const summary = nodeSummaryLine(line, INFO);
    if (summary !== undefined) {
      if (summary.key === 'tests') run ??= new SpecRun(i);
      run?.summaries.line(summary.key, summary.value);
      continue;
    }
    if (line.startsWith('✖ failing tests:') && run?.summaries.last !== undefined && !run.summaries.resultsAfter) {
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
  return run === undefined ? [] : [run.build()];
}
