// What `groundwork annotations FILE.md` prints: one line per annotation for a person, or one JSON
// object for a script. Positions: people and --json's `line`/`column` count from 1 (as editors and
// `file:line:col` links do); --json's `range` is VS Code's, 0-based. Columns are UTF-16 code units,
// as VS Code counts them. An end is the place just after the last character, counted the same way.
// Everything that comes from the file (task ids, colours) is printed through visibleText or
// visibleJson: a task id may hold a bidi control or an escape.
import type { CaseProblem } from '../../core/annotations/annotationCheck';
import type { Annotation, AnnotationParse, AnnotationProblem } from '../../core/annotations/annotationParser';
import type { Range } from '../../core/annotations/textPositions';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import { visibleJson, visibleText } from '../../core/visibleText';

/** What the workspace says of the cases: undefined when it has no cases file (statuses unknown, ids not checked). */
export type CaseLookup = ((caseId: string) => DiscoveryCase | undefined) | undefined;

export type Problem = AnnotationProblem | CaseProblem;

/** 1-based line and column of a range's start and end, as people read them. */
function places(range: Range): { line: number; column: number; endLine: number; endColumn: number } {
  return {
    line: range.start.line + 1,
    column: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/** `12:1–12:58`: where a range starts and ends, 1-based. */
export function rangeText(range: Range): string {
  const p = places(range);
  return `${p.line}:${p.column}\u2013${p.endLine}:${p.endColumn}`;
}

/** The status column: the case's status, `unknown` when the workspace's cases lack it, empty without a cases file. */
function statusOf(a: Annotation, lookup: CaseLookup): string | undefined {
  if (a.kind !== 'discovery' || lookup === undefined) return undefined;
  return lookup(a.caseId)?.status ?? 'unknown';
}

/** One row per annotation: range, kind, task, case id or colour, status; aligned in columns. */
export function annotationLines(parse: AnnotationParse, lookup: CaseLookup): string[] {
  const rows = parse.annotations.map((a) => {
    const status = statusOf(a, lookup);
    const cells = [
      rangeText(a.range),
      a.kind,
      visibleText(a.task),
      a.kind === 'discovery' ? a.caseId : visibleText(a.color),
    ];
    return status === undefined ? cells : [...cells, status];
  });
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)))
      .join('  ')
      .trimEnd(),
  );
}

/** `spec.md:14:3: unknownCase: message`, a line editors and terminals link. */
export function problemLines(file: string, problems: readonly Problem[]): string[] {
  const shownFile = visibleText(file);
  return problems.map(
    (p) =>
      `${shownFile}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.kind}: ${visibleText(p.message)}`,
  );
}

/** The --json object: the file as given, whether the workspace has cases, the annotations, the problems. */
export function annotationsJson(
  file: string,
  parse: AnnotationParse,
  lookup: CaseLookup,
  problems: readonly Problem[],
): string {
  const annotations = parse.annotations.map((a) => {
    // Only a status the workspace holds: a missing case is said in the problems.
    const status = a.kind === 'discovery' ? lookup?.(a.caseId)?.status : undefined;
    const what =
      a.kind === 'discovery'
        ? { caseId: a.caseId, ...(status !== undefined ? { status } : {}) }
        : { color: a.color, from: a.from, to: a.to };
    return {
      kind: a.kind,
      task: a.task,
      ...what,
      ...places(a.range),
      range: a.range,
      contentRange: a.contentRange,
      depth: a.depth,
      parent: a.parent,
    };
  });
  const shownProblems = problems.map((p) => ({
    kind: p.kind,
    ...('caseId' in p ? { caseId: p.caseId } : {}),
    message: p.message,
    ...places(p.range),
    range: p.range,
  }));
  return visibleJson({ file, casesFile: lookup !== undefined, annotations, problems: shownProblems }, 2);
}
