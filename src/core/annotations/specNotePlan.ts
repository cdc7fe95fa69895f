// Where a discovery note goes in a spec, and the insertion that puts it there: on a line of its own
// after the region of its task (the outermost, the last in the document), after the notes of that
// task already there; after the table when the region is in a table row; with the blockquote's `>`
// when it is in one. The result is parsed and must hold every annotation it held before, in place,
// and the new note whole, or no insertion is given (specEdits.ts has the rest of what Groundwork
// writes into specs).
import { parseAnnotations } from './annotationParser';
import type { Annotation, AnnotationParse } from './annotationParser';
import { discoveryNote, escapeNoteContent } from './annotationText';
import { afterListMarker, hasBom, skipBlank } from './specEdits';
import type { SpecInsertion } from './specEdits';
import { LineMap } from './textPositions';

const SPACE = 0x20;
const TAB = 0x09;

/** The document's line break: the first one it has, or `\n`. */
function lineBreakOf(text: string): string {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (cr < 0) return '\n';
  if (lf < 0 || cr + 1 < lf) return '\r';
  return cr + 1 === lf ? '\r\n' : '\n';
}

/** What noteInsertion found: an insertion, or why there is none ('unsafe': it would not parse back as intended). */
export type NotePlan =
  | { readonly kind: 'insert'; readonly insertion: SpecInsertion }
  | { readonly kind: 'no-region' }
  | { readonly kind: 'noted' }
  | { readonly kind: 'unsafe' };

const QUOTE = 0x3e;
const PIPE = 0x7c;

/** The offset after the block quote markers at the start of a line (each `>` with one space after it), or `start`. */
function afterQuote(text: string, start: number, end: number): number {
  let after = start;
  for (;;) {
    const at = skipBlank(text, after, end);
    if (at >= end || text.charCodeAt(at) !== QUOTE) return after;
    after = at + 1;
    if (after < end && (text.charCodeAt(after) === SPACE || text.charCodeAt(after) === TAB)) after++;
  }
}

/**
 * Whether a line (inside its block quotes) is a row of a table: it begins with `|`, or it holds a
 * `|` and begins no other block (a heading, a quote, a fence, a list item or HTML).
 */
function isTableRow(text: string, lines: LineMap, line: number): boolean {
  const start = lines.starts[line] ?? 0;
  const end = lines.lineEnd(line);
  const at = skipBlank(text, afterQuote(text, start, end), end);
  if (at >= end) return false;
  if (text.charCodeAt(at) === PIPE) return true;
  const pipe = text.indexOf('|', at);
  return pipe >= 0 && pipe < end && !'#>`~<'.includes(text.charAt(at)) && afterListMarker(text, at, end) === at;
}

/** Whether `after`, the parse of `text` with `insertion` made, has exactly the annotations and problems of `before` and one more annotation, the one at `added`. */
function sameBut(before: AnnotationParse, after: AnnotationParse, insertion: SpecInsertion, added: number): boolean {
  const shift = (offset: number): number => (offset > insertion.offset ? offset + insertion.insert.length : offset);
  const index = (i: number): number => (i < 0 ? -1 : i === added ? -2 : i > added ? i - 1 : i);
  if (after.annotations.length !== before.annotations.length + 1 || after.problems.length !== before.problems.length)
    return false;
  for (let i = 0; i < before.annotations.length; i++) {
    const was = before.annotations[i];
    const now = after.annotations[i < added ? i : i + 1];
    if (
      was === undefined ||
      now === undefined ||
      was.kind !== now.kind ||
      was.task !== now.task ||
      was.depth !== now.depth ||
      was.parent !== index(now.parent)
    )
      return false;
    if (
      was.kind === 'region'
        ? now.kind !== 'region' || was.color !== now.color || was.from !== now.from || was.to !== now.to
        : now.kind !== 'discovery' || was.caseId !== now.caseId
    )
      return false;
    const [o, n] = [was.offsets, now.offsets];
    if (
      shift(o.start) !== n.start ||
      shift(o.contentStart) !== n.contentStart ||
      shift(o.contentEnd) !== n.contentEnd ||
      shift(o.end) !== n.end
    )
      return false;
  }
  return before.problems.every((was, i) => {
    const now = after.problems[i];
    return (
      now !== undefined &&
      was.kind === now.kind &&
      shift(was.offsets.start) === now.offsets.start &&
      shift(was.offsets.end) === now.offsets.end
    );
  });
}

/**
 * Where the discovery note of `caseId` about `task` goes, and what: on a new line after the line
 * where the task's last region (in the order of the text; its outermost region of the same task
 * when regions of one task nest) ends, after the notes of that task already there (one per line),
 * indented like the text of the region's line, with the document's line breaks. When that line is
 * a table's row the note goes after the table's last row (a line in a table would end it); when
 * the region's line is in a block quote the note line takes its `>` markers, and stays in it.
 * 'no-region' when the task has no region; 'noted' when a note of that case is in the text
 * already; 'unsafe' when the text with the note would not parse as exactly the annotations and
 * problems it had (same kinds, tasks, colours, case ids, places and nesting) and one note more,
 * holding the content.
 */
export function planNote(text: string, task: string, caseId: string, content: string): NotePlan {
  if (!hasBom(text)) return planBody(text, task, caseId, content);
  const plan = planBody(text.slice(1), task, caseId, content);
  return plan.kind === 'insert'
    ? { kind: 'insert', insertion: { offset: plan.insertion.offset + 1, insert: plan.insertion.insert } }
    : plan;
}

function planBody(text: string, task: string, caseId: string, content: string): NotePlan {
  const parse = parseAnnotations(text);
  if (parse.annotations.some((a) => a.kind === 'discovery' && a.caseId === caseId)) return { kind: 'noted' };
  let region: Annotation | undefined;
  for (const a of parse.annotations) if (a.kind === 'region' && a.task === task) region = a;
  if (region === undefined) return { kind: 'no-region' };
  for (
    let up = parse.annotations[region.parent];
    up?.kind === 'region' && up.task === task;
    up = parse.annotations[up.parent]
  )
    region = up;
  const note = discoveryNote(task, caseId, content);
  const lines = new LineMap(text);
  const notesAt = new Map<number, Annotation>();
  for (const a of parse.annotations) if (a.kind === 'discovery' && a.task === task) notesAt.set(a.offsets.start, a);
  let line = lines.lineOf(region.offsets.end);
  if (isTableRow(text, lines, line)) while (line + 1 < lines.lineCount && isTableRow(text, lines, line + 1)) line++;
  for (;;) {
    const next = line + 1;
    if (next >= lines.lineCount) break;
    const start = lines.starts[next] ?? 0;
    const end = lines.lineEnd(next);
    const found = notesAt.get(skipBlank(text, afterQuote(text, start, end), end));
    if (found === undefined || skipBlank(text, found.offsets.end, end) !== end) break;
    line = next;
  }
  const regionLine = lines.lineOf(region.offsets.start);
  const lineStart = lines.starts[regionLine] ?? 0;
  const lineEnd = lines.lineEnd(regionLine);
  const quoted = afterQuote(text, lineStart, lineEnd);
  const blank = skipBlank(text, quoted, lineEnd);
  const indent = text.slice(lineStart, blank) + ' '.repeat(Math.max(0, afterListMarker(text, quoted, lineEnd) - blank));
  const insertion = { offset: lines.lineEnd(line), insert: `${lineBreakOf(text)}${indent}${note}` };
  const out = applyInsertion(text, insertion);
  const after = parseAnnotations(out);
  const added = after.annotations.findIndex((a) => a.kind === 'discovery' && a.caseId === caseId);
  const made = after.annotations[added];
  const whole =
    made !== undefined &&
    made.task === task &&
    made.offsets.start === insertion.offset + insertion.insert.length - note.length;
  const shown = made === undefined ? undefined : out.slice(made.offsets.contentStart, made.offsets.contentEnd);
  return whole && shown === escapeNoteContent(content) && sameBut(parse, after, insertion, added)
    ? { kind: 'insert', insertion }
    : { kind: 'unsafe' };
}

/**
 * The insertion of the discovery note of `caseId` about `task` (see planNote), or undefined when
 * the task has no region in the text, the case has a note there already, or the note would not
 * parse back whole. Throws a RangeError when the task or case id cannot go in a marker.
 */
export function noteInsertion(text: string, task: string, caseId: string, content: string): SpecInsertion | undefined {
  const plan = planNote(text, task, caseId, content);
  return plan.kind === 'insert' ? plan.insertion : undefined;
}

/** `text` with the insertion made. */
export function applyInsertion(text: string, insertion: SpecInsertion): string {
  return text.slice(0, insertion.offset) + insertion.insert + text.slice(insertion.offset);
}
