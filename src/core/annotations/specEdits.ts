// What Groundwork itself writes into a spec document: the requirement lines of a spec become
// coloured regions (`<!--@ax:START-END:COLOR:TASK-->…<!--/@ax-->`), and a discovery note goes on a
// line of its own after the region of its task. Pure: each function takes the text and gives the
// text (or one insertion) back; the caller reads and writes the file (specWriter.ts).
//
// A requirement line is a line whose text, after optional indentation and an optional list marker
// (`- `, `* `, `+ `, `1. `, `1) `), starts with `[TASK]`, TASK a valid task id (markerSyntax.ts),
// e.g. `- [task-001] Users can log in with email and password.` It is not one when it is in fenced
// or inline code, when any annotation or marker problem touches its line, or when `]` is followed
// by `:` (a link reference definition).
//
// Spec text is untrusted: whatever it holds, an edit here either parses back exactly as intended
// (checked by parsing the result) or is not made. Line breaks are kept as the document has them.
import { parseAnnotations } from './annotationParser';
import type { Annotation, AnnotationParse } from './annotationParser';
import { discoveryNote, escapeNoteContent } from './annotationText';
import { codeRegions } from './codeRegions';
import type { Span } from './codeRegions';
import { colorProblem, TASK_MAX_CHARS, taskProblem } from './markerSyntax';
import { LineMap } from './textPositions';

/** A requirement line: its task and where its text (from `[TASK]` to the line's last visible character) is. */
export interface RequirementLine {
  readonly task: string;
  /** String offsets of the text a region wraps: from the `[` of `[TASK]` to the end of the line, trailing spaces left out. */
  readonly start: number;
  readonly end: number;
}

/** One insertion into a document: `insert` at string offset `offset` (for VS Code: `document.positionAt(offset)`). */
export interface SpecInsertion {
  readonly offset: number;
  readonly insert: string;
}

export interface MarkOptions {
  /** The colour of the regions (green: implemented, blue: planned…). */
  readonly color: string;
  /** Whose requirement lines and regions: every task, or these. */
  readonly tasks: 'all' | readonly string[];
  /** Whether existing regions of those tasks take the colour too (default true); false only wraps new lines. */
  readonly recolor?: boolean;
}

export interface MarkResult {
  readonly text: string;
  /** The tasks whose lines were wrapped or whose regions were re-coloured, in the order of the text, each once. */
  readonly changed: readonly string[];
}

const SPACE = 0x20;
const TAB = 0x09;

/** The offset after spaces and tabs from `at`. */
function skipBlank(text: string, at: number, end: number): number {
  while (at < end && (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB)) at++;
  return at;
}

/** Where the text after the indentation and list marker of the line from `start` to `end` begins. */
function afterListMarker(text: string, start: number, end: number): number {
  const at = skipBlank(text, start, end);
  const c = text.charCodeAt(at);
  const spaced = (after: number): number => (after < end && (text.charCodeAt(after) === SPACE || text.charCodeAt(after) === TAB) ? skipBlank(text, after, end) : at);
  if (c === 0x2d || c === 0x2a || c === 0x2b) return spaced(at + 1);
  let digit = at;
  while (digit < end && digit - at < 9 && text.charCodeAt(digit) >= 0x30 && text.charCodeAt(digit) <= 0x39) digit++;
  if (digit > at && (text.charCodeAt(digit) === 0x2e || text.charCodeAt(digit) === 0x29)) return spaced(digit + 1);
  return at;
}

/** The task of a requirement line's text starting at `at`, or undefined. */
function taskAt(text: string, at: number, end: number): string | undefined {
  if (text.charCodeAt(at) !== 0x5b) return undefined;
  const close = text.indexOf(']', at + 1);
  if (close < 0 || close >= end || close - at - 1 > TASK_MAX_CHARS) return undefined;
  if (text.charCodeAt(close + 1) === 0x3a) return undefined; // `[x]: url`, a link reference definition
  const task = text.slice(at + 1, close);
  return taskProblem(task) === undefined ? task : undefined;
}

/** The spans annotations and marker problems cover, merged and in order. */
function coveredSpans(parse: AnnotationParse): Span[] {
  const spans = [...parse.annotations.map((a) => ({ start: a.offsets.start, end: a.offsets.end })), ...parse.problems.map((p) => p.offsets)].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else merged.push(span);
  }
  return merged;
}

/** The requirement lines of `text`, in order. */
export function requirementTasks(text: string, parse: AnnotationParse = parseAnnotations(text)): RequirementLine[] {
  const lines = new LineMap(text);
  const code = codeRegions(text, lines.starts, (line) => lines.lineEnd(line));
  const covered = coveredSpans(parse);
  const found: RequirementLine[] = [];
  let inCode = 0;
  let inCovered = 0;
  for (let line = 0; line < lines.lineCount; line++) {
    const lineStart = lines.starts[line] ?? 0;
    const lineEnd = lines.lineEnd(line);
    const at = afterListMarker(text, lineStart, lineEnd);
    const task = taskAt(text, at, lineEnd);
    if (task === undefined) continue;
    while (inCode < code.length && (code[inCode]?.end ?? 0) <= at) inCode++;
    if ((code[inCode]?.start ?? Infinity) <= at) continue;
    while (inCovered < covered.length && (covered[inCovered]?.end ?? 0) < lineStart) inCovered++;
    if ((covered[inCovered]?.start ?? Infinity) <= lineEnd) continue;
    let end = lineEnd;
    while (end > at && (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB)) end--;
    found.push({ task, start: at, end });
  }
  return found;
}

interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  let out = '';
  let pos = 0;
  for (const edit of sorted) {
    out += text.slice(pos, edit.at) + edit.insert;
    pos = edit.at + edit.remove;
  }
  return out + text.slice(pos);
}

/** The edit that gives a region's opening marker another colour (only its COLOR field changes). */
function recolorEdit(text: string, region: Annotation, color: string): Edit | undefined {
  const fields = region.offsets.start + '<!--@ax:'.length;
  const first = text.indexOf(':', fields);
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  if (second < 0 || second >= region.offsets.contentStart) return undefined;
  return { at: first + 1, remove: second - first - 1, insert: color };
}

const regionKey = (from: number, to: number, task: string): string => `${from}-${to}:${task}`;

/** How many regions of each key hold exactly the text `source` has between their START and END. */
function faithfulRegions(parse: AnnotationParse, text: string, source: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of parse.annotations) {
    if (a.kind !== 'region' || text.slice(a.offsets.contentStart, a.offsets.contentEnd) !== source.slice(a.from, a.to)) continue;
    const key = regionKey(a.from, a.to, a.task);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Wraps the requirement lines of `options.tasks` in regions of `options.color` and (unless
 * `recolor` is false) gives their existing regions that colour. A new region's START-END are the
 * string offsets, in the text given, of the text it wraps. Running it again changes nothing. A
 * line whose wrapping would not parse back as exactly that region (its text holds a backtick, a
 * comment or a marker that would take the closing marker along) is left as it is.
 */
export function markRegions(text: string, options: MarkOptions): MarkResult {
  const problem = colorProblem(options.color);
  if (problem !== undefined) throw new RangeError(`The regions cannot be marked: ${problem}.`);
  const { color } = options;
  const wanted = options.tasks === 'all' ? undefined : new Set(options.tasks);
  const takes = (task: string): boolean => wanted === undefined || wanted.has(task);
  const parse = parseAnnotations(text);
  const recolors: { task: string; edit: Edit }[] = [];
  if (options.recolor !== false) {
    for (const a of parse.annotations) {
      if (a.kind !== 'region' || a.color === color || !takes(a.task)) continue;
      const edit = recolorEdit(text, a, color);
      if (edit !== undefined) recolors.push({ task: a.task, edit });
    }
  }
  let wraps = requirementTasks(text, parse).filter((r) => takes(r.task));
  const before = faithfulRegions(parse, text, text);
  const attempt = (lines: readonly RequirementLine[]): { text: string; ok: boolean; failed: RequirementLine[] } => {
    const edits = recolors.map((r) => r.edit);
    for (const r of lines) edits.push({ at: r.start, remove: 0, insert: `<!--@ax:${r.start}-${r.end}:${color}:${r.task}-->` }, { at: r.end, remove: 0, insert: '<!--/@ax-->' });
    const out = applyEdits(text, edits);
    const after = parseAnnotations(out);
    const counts = faithfulRegions(after, out, text);
    const failed = lines.filter((r) => (counts.get(regionKey(r.start, r.end, r.task)) ?? 0) < (before.get(regionKey(r.start, r.end, r.task)) ?? 0) + 1);
    const whole = after.problems.length === parse.problems.length && after.annotations.length === parse.annotations.length + lines.length;
    return { text: out, ok: failed.length === 0 && whole, failed };
  };
  // Lines that do not come back as their region are left out; when something else broke, the
  // lines holding what can open or hide a marker, then all of them.
  let done: string | undefined;
  for (let round = 0; round < 3 && done === undefined; round++) {
    const tried = attempt(wraps);
    if (tried.ok) done = tried.text;
    else if (tried.failed.length > 0) wraps = wraps.filter((r) => !tried.failed.includes(r));
    else wraps = round === 0 ? wraps.filter((r) => !/[`<>]/.test(text.slice(r.start, r.end))) : [];
  }
  if (done === undefined) {
    wraps = [];
    done = applyEdits(
      text,
      recolors.map((r) => r.edit),
    );
  }
  const changed = [...recolors.map((r) => ({ at: r.edit.at, task: r.task })), ...wraps.map((r) => ({ at: r.start, task: r.task }))].sort((a, b) => a.at - b.at).map((c) => c.task);
  return { text: done, changed: [...new Set(changed)] };
}

/** The document's line break: the first one it has, or `\n`. */
function lineBreakOf(text: string): string {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (cr < 0) return '\n';
  if (lf < 0 || cr + 1 < lf) return '\r';
  return cr + 1 === lf ? '\r\n' : '\n';
}

/** What noteInsertion found: an insertion, or why there is none. */
export type NotePlan = { readonly kind: 'insert'; readonly insertion: SpecInsertion } | { readonly kind: 'no-region' } | { readonly kind: 'noted' } | { readonly kind: 'unsafe' };

/**
 * Where the discovery note of `caseId` about `task` goes, and what: on a new line after the line
 * where the task's last region (in the order of the text; its outermost region of the same task
 * when regions of one task nest) ends, after the notes of that task already there (one per line),
 * indented like the text of the region's line, with the document's line breaks. 'no-region' when
 * the task has no region; 'noted' when a note of that case is in the text already; 'unsafe' when
 * the note would not parse back as one note holding the content.
 */
export function planNote(text: string, task: string, caseId: string, content: string): NotePlan {
  const parse = parseAnnotations(text);
  if (parse.annotations.some((a) => a.kind === 'discovery' && a.caseId === caseId)) return { kind: 'noted' };
  let region: Annotation | undefined;
  for (const a of parse.annotations) if (a.kind === 'region' && a.task === task) region = a;
  if (region === undefined) return { kind: 'no-region' };
  for (let up = parse.annotations[region.parent]; up?.kind === 'region' && up.task === task; up = parse.annotations[up.parent]) region = up;
  const note = discoveryNote(task, caseId, content);
  const lines = new LineMap(text);
  const notesAt = new Map<number, Annotation>();
  for (const a of parse.annotations) if (a.kind === 'discovery' && a.task === task) notesAt.set(a.offsets.start, a);
  let line = lines.lineOf(region.offsets.end);
  for (;;) {
    const next = line + 1;
    if (next >= lines.lineCount) break;
    const start = lines.starts[next] ?? 0;
    const end = lines.lineEnd(next);
    const found = notesAt.get(skipBlank(text, start, end));
    if (found === undefined || skipBlank(text, found.offsets.end, end) !== end) break;
    line = next;
  }
  const regionLine = lines.lineOf(region.offsets.start);
  const lineStart = lines.starts[regionLine] ?? 0;
  const textStart = afterListMarker(text, lineStart, lines.lineEnd(regionLine));
  const indent = text.slice(lineStart, skipBlank(text, lineStart, textStart)) + ' '.repeat(Math.max(0, textStart - skipBlank(text, lineStart, textStart)));
  const insertion = { offset: lines.lineEnd(line), insert: `${lineBreakOf(text)}${indent}${note}` };
  const after = parseAnnotations(applyInsertion(text, insertion));
  const notes = after.annotations.filter((a) => a.kind === 'discovery' && a.caseId === caseId);
  const shown = notes[0] === undefined ? undefined : applyInsertion(text, insertion).slice(notes[0].offsets.contentStart, notes[0].offsets.contentEnd);
  const whole = after.problems.length === parse.problems.length && after.annotations.length === parse.annotations.length + 1;
  return notes.length === 1 && whole && shown === escapeNoteContent(content) ? { kind: 'insert', insertion } : { kind: 'unsafe' };
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
