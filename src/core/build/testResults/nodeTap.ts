// Node's test runner, TAP reporter (Node 20 and 22), and TAP 13 as other producers write it:
//
//   TAP version 13
//   # Subtest: cart                         a group or test opens (4 spaces a level)
//       ok 1 - adds an item
//         ---                               a YAML block (2 more spaces) until `...`: never read as results
//         duration_ms: 0.4
//         ...
//       not ok 2 - removes an item
//       ok 3 - applies a coupon # TODO      `# SKIP`, `# SKIP reason`, `# TODO`: skipped
//   not ok 4 - cart                         results seen below it, or `type: 'suite'`: a group, not a test
//   1..4
//   # tests 8 / # suites 2 / # pass 3 / # fail 2 / # cancelled 0 / # skipped 2 / # todo 1 / # duration_ms 401.3
//
// As in the spec reporter, a file Node reports as a passing test because it defines none is no test.
//
// The reporter prints what the code under test prints as comments (`# text`), so `# tests 1` …
// `# duration_ms 1.5` can come from the code under test. A run is everything from its `TAP version`
// header to the next, and only its last summary block counts; the results after an earlier block
// belong to the run. Node prints the plan `1..N` (N top-level results) right before its summary: a
// run whose top-level results are not N, or with results after its last block, is not complete.
import { NodeSummaries, nodeSummaryLine } from './nodeSpec';
import { indentOf } from './outputLines';
import { looksLikeTestFile, type Run, RunBuilder, type TestStatus } from './tally';

interface TapResult {
  level: number;
  name: string;
  status: TestStatus;
  hasResults: boolean;
}

/** `ok 3 - name # SKIP` after the indentation, or undefined. */
function tapResult(rest: string): { name: string; status: TestStatus } | undefined {
  const failed = rest.startsWith('not ok ');
  if (!failed && !rest.startsWith('ok ')) return undefined;
  const m = /^\d{1,12}(?: - |$)/.exec(rest.slice(failed ? 7 : 3));
  if (m === null) return undefined;
  const text = rest.slice((failed ? 7 : 3) + m[0].length);
  const hash = text.indexOf(' # ');
  const directive = hash < 0 ? '' : text.slice(hash + 3).toUpperCase();
  const name = (hash < 0 ? text : text.slice(0, hash)).replace(/\\([\\#])/g, '$1');
  const skipped = directive.startsWith('SKIP') || directive.startsWith('TODO');
  return { name, status: skipped ? 'skipped' : failed ? 'failed' : 'passed' };
}

class TapRun {
  readonly builder: RunBuilder;
  private readonly groups: string[] = [];
  private readonly results: boolean[] = [];
  /** A result waiting for its YAML block, which may say it was a suite. */
  private pending: TapResult | undefined;
  readonly summaries = new NodeSummaries();
  /** Top-level results seen (Node's plan counts them). */
  private topResults = 0;
  /** A top-level plan `1..N` with no top-level result after it. */
  private plan: number | undefined;

  constructor(at: number) {
    this.builder = new RunBuilder('node', at);
  }

  subtest(level: number, name: string): void {
    this.flush();
    this.groups.length = level;
    this.groups[level] = name;
  }

  result(level: number, name: string, status: TestStatus): void {
    this.flush();
    this.summaries.result();
    if (level === 0) {
      this.topResults++;
      this.plan = undefined;
    }
    const hasResults = this.results[level + 1] === true;
    this.results.length = level + 1;
    this.results[level] = true;
    this.pending = { level, name, status, hasResults };
  }

  /** The pending result is a suite (its YAML said so). */
  suite(): void {
    if (this.pending !== undefined) this.pending.hasResults = true;
  }

  /** `1..N` at the top level. */
  topPlan(n: number): void {
    this.flush();
    this.plan = n;
  }

  summaryLine(key: string, value: number): void {
    this.flush();
    this.summaries.line(key, value, this.plan);
  }

  flush(): void {
    const r = this.pending;
    this.pending = undefined;
    if (r === undefined || r.hasResults) return;
    if (r.level === 0 && r.status === 'passed' && looksLikeTestFile(r.name)) {
      this.builder.fileWithoutTests(r.name);
      return;
    }
    const suite = this.groups.slice(0, r.level).join(' > ');
    this.builder.add(r.name, r.status, suite === '' ? undefined : suite);
  }

  build(): Run {
    this.flush();
    this.summaries.summarise(this.builder);
    const plan = this.summaries.last?.plan;
    if (plan !== undefined && plan !== this.topResults) this.builder.disagree();
    return this.builder.build();
  }
}

/** The runs of TAP output (each from its `TAP version` line to the next) in `lines`. */
export function readNodeTap(lines: readonly string[]): Run[] {
  const runs: Run[] = [];
  let run: TapRun | undefined;
  /** While in a YAML block: the indentation of its `...`. */
  let yaml: number | undefined;
  let yamlAllowed: { line: number; indent: number } | undefined;
  const close = (): void => {
    if (run !== undefined) runs.push(run.build());
    run = undefined;
    yaml = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    if (line.startsWith('TAP version ')) {
      close();
      run = new TapRun(i);
      continue;
    }
    if (run === undefined) continue;
    const indent = indentOf(line);
    const rest = line.slice(indent);
    if (yaml !== undefined) {
      if (indent === yaml && rest === '...') yaml = undefined;
      else if (indent === yaml && rest === "type: 'suite'") run.suite();
      continue;
    }
    if (rest === '---' && yamlAllowed?.line === i && yamlAllowed.indent === indent) {
      yaml = indent;
      continue;
    }
    const level = Math.floor(indent / 4);
    if (rest.startsWith('# Subtest: ')) {
      run.subtest(level, rest.slice(11));
      continue;
    }
    const result = tapResult(rest);
    if (result !== undefined) {
      run.result(level, result.name, result.status);
      yamlAllowed = { line: i + 1, indent: indent + 2 };
      continue;
    }
    if (indent !== 0) continue;
    const plan = /^1\.\.(\d{1,12})$/.exec(line);
    if (plan !== null) {
      run.topPlan(Number(plan[1]));
      continue;
    }
    const summary = nodeSummaryLine(line, '#');
    if (summary !== undefined) run.summaryLine(summary.key, summary.value);
  }
  close();
  return runs;
}
