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
// A leading byte order mark (U+FEFF) is not part of the text: the first line's list marker and
// `[TASK]` are looked for after it, and a region's START-END are string offsets into the text
// without it, as VS Code counts a document's offsets (it strips the mark when it opens a file). It
// stays in the text given back, and an insertion's offset is into the text given, mark included.
//
// Spec text is untrusted: whatever it holds, an edit here either parses back exactly as intended
// (checked by parsing the result) or is not made. Line breaks are kept as the document has them.
import { ANNOTATIONS_MAX, parseAnnotations } from './annotationParser';
import type { Annotation, AnnotationParse } from './annotationParser';
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
const BOM = 0xfeff;
export const BOM_CHAR = '\ufeff';

export const hasBom = (text: string): boolean => text.charCodeAt(0) === BOM;

/** The offset after spaces and tabs from `at`. */
export function skipBlank(text: string, at: number, end: number): number {
  while (at < end && (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB)) at++;
  return at;
}

/** Where the text after the indentation and list marker of the line from `start` to `end` begins. */
export function afterListMarker(text: string, start: number, end: number): number {
  const at = skipBlank(text, start, end);
  const c = text.charCodeAt(at);
  const spaced = (after: number): number =>
    after < end && (text.charCodeAt(after) === SPACE || text.charCodeAt(after) === TAB)
      ? skipBlank(text, after, end)
      : at;
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
  const spans = [
    ...parse.annotations.map((a) => ({ start: a.offsets.start, end: a.offsets.end })),
    ...parse.problems.map((p) => p.offsets),
  ].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start <= last.end)
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else merged.push(span);
  }
  return merged;
}

/** A requirement line as found: also on which line, and whether its text follows a list marker. */
interface FoundLine extends RequirementLine {
  readonly line: number;
  readonly listed: boolean;
}

/** The requirement lines of `text` (no leading BOM), in order. */
function requirementLines(text: string, parse: AnnotationParse, lines: LineMap, code: readonly Span[]): FoundLine[] {
  const covered = coveredSpans(parse);
  const found: FoundLine[] = [];
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
    found.push({ task, start: at, end, line, listed: at !== skipBlank(text, lineStart, lineEnd) });
  }
  return found;
}

/**
 * The requirement lines of `text`, in order, as string offsets into `text`. `parse` is the parse
 * of `text`; when `text` begins with a BOM, the text after it is parsed again (and the offsets
 * given still count the BOM).
 */
export function requirementTasks(text: string, parse?: AnnotationParse): RequirementLine[] {
  const bom = hasBom(text);
  const body = bom ? text.slice(1) : text;
  const lines = new LineMap(body);
  const code = codeRegions(body, lines.starts, (line) => lines.lineEnd(line));
  const found = requirementLines(body, bom || parse === undefined ? parseAnnotations(body) : parse, lines, code);
  return found.map((r) => ({ task: r.task, start: r.start + (bom ? 1 : 0), end: r.end + (bom ? 1 : 0) }));
}

function isBlankLine(text: string, lines: LineMap, line: number): boolean {
  const end = lines.lineEnd(line);
  return skipBlank(text, lines.starts[line] ?? 0, end) === end;
}

/**
 * Whether a region may wrap the requirement line: its text does not end with an odd run of
 * backslashes (`C:\<!--/@ax-->` would read `\<` as an escaped `<`), and it follows a list marker or
 * is a paragraph of its own (indented at most three spaces, a blank line or the start of the
 * document before it, a blank line or the end after it). A line that opens with the marker starts
 * an HTML block in markdown, which would cut the paragraph it is in; a list item's text and a
 * paragraph of one line have nothing to cut.
 */
function wrappable(text: string, lines: LineMap, r: FoundLine): boolean {
  let slashes = 0;
  while (r.end - slashes > r.start && text.charCodeAt(r.end - slashes - 1) === 0x5c) slashes++;
  if (slashes % 2 === 1) return false;
  if (r.listed) return true;
  const lineStart = lines.starts[r.line] ?? 0;
  let columns = 0;
  for (let i = lineStart; i < r.start; i++) columns += text.charCodeAt(i) === TAB ? 4 - (columns % 4) : 1;
  if (columns > 3) return false;
  return (
    (r.line === 0 || isBlankLine(text, lines, r.line - 1)) &&
    (r.line + 1 >= lines.lineCount || isBlankLine(text, lines, r.line + 1))
  );
}

/**
 * Where the first ordinary HTML comment opening (`<!--`, not in code) that no `-->` follows is, or
 * the text's length. The parser reads such an opening as a comment up to the next `-->`, which
 * would be the end of the first marker written after it: no marker may go after it.
 */
function unclosedComment(text: string, code: readonly Span[]): number {
  const lastClose = text.lastIndexOf('-->');
  let inCode = 0;
  for (let at = text.indexOf('<!--', Math.max(0, lastClose - 3)); at >= 0; at = text.indexOf('<!--', at + 1)) {
    if (at + 4 <= lastClose) continue;
    while (inCode < code.length && (code[inCode]?.end ?? 0) <= at) inCode++;
    if ((code[inCode]?.start ?? Infinity) <= at) continue;
    if (text.startsWith('@ax', at + 4) || text.startsWith('/@ax', at + 4)) continue; // an unterminated marker: hides nothing
    return at;
  }
  return text.length;
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
    if (a.kind !== 'region' || text.slice(a.offsets.contentStart, a.offsets.contentEnd) !== source.slice(a.from, a.to))
      continue;
    const key = regionKey(a.from, a.to, a.task);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Wraps the requirement lines of `options.tasks` in regions of `options.color` and (unless
 * `recolor` is false) gives their existing regions that colour. A new region's START-END are the
 * string offsets of the text it wraps in the text given, without a leading BOM. Running it again
 * changes nothing. Left as they are: a line that is not a list item's nor a paragraph of its own,
 * or whose text ends with a backslash (see wrappable); the lines after an HTML comment opening
 * that is never closed (see unclosedComment); and a line whose wrapping would not parse back as
 * exactly that region (its text holds a backtick, a comment or a marker that would take the
 * closing marker along). Linear in the size of the text: a few parses at most.
 */
export function markRegions(text: string, options: MarkOptions): MarkResult {
  const problem = colorProblem(options.color);
  if (problem !== undefined) throw new RangeError(`The regions cannot be marked: ${problem}.`);
  if (!hasBom(text)) return markBody(text, options);
  const marked = markBody(text.slice(1), options);
  return { text: BOM_CHAR + marked.text, changed: marked.changed };
}

function markBody(text: string, options: MarkOptions): MarkResult {
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
  const lines = new LineMap(text);
  const code = codeRegions(text, lines.starts, (line) => lines.lineEnd(line));
  const cutoff = unclosedComment(text, code);
  // No more than a parse gives (ANNOTATIONS_MAX): the regions after those would not come back.
  let wraps: RequirementLine[] = requirementLines(text, parse, lines, code)
    .filter((r) => takes(r.task) && r.end <= cutoff && wrappable(text, lines, r))
    .slice(0, Math.max(0, ANNOTATIONS_MAX - parse.annotations.length));
  const before = faithfulRegions(parse, text, text);
  const attempt = (tried: readonly RequirementLine[]): { text: string; ok: boolean; failed: Set<RequirementLine> } => {
    const edits = recolors.map((r) => r.edit);
    for (const r of tried)
      edits.push(
        { at: r.start, remove: 0, insert: `<!--@ax:${r.start}-${r.end}:${color}:${r.task}-->` },
        { at: r.end, remove: 0, insert: '<!--/@ax-->' },
      );
    const out = applyEdits(text, edits);
    const after = parseAnnotations(out);
    const counts = faithfulRegions(after, out, text);
    const failed = new Set(
      tried.filter(
        (r) =>
          (counts.get(regionKey(r.start, r.end, r.task)) ?? 0) <
          (before.get(regionKey(r.start, r.end, r.task)) ?? 0) + 1,
      ),
    );
    const whole =
      after.problems.length === parse.problems.length &&
      after.annotations.length === parse.annotations.length + tried.length;
    return { text: out, ok: failed.size === 0 && whole, failed };
  };
  // Lines that do not come back as their region are left out; when something else broke, the
  // lines holding what can open or hide a marker, then all of them.
  let done: string | undefined;
  let narrowed = false;
  for (let round = 0; round < 5 && done === undefined; round++) {
    const tried = attempt(wraps);
    if (tried.ok) done = tried.text;
    else if (tried.failed.size > 0) wraps = wraps.filter((r) => !tried.failed.has(r));
    else if (!narrowed) {
      narrowed = true;
      wraps = wraps.filter((r) => !/[`<>]/.test(text.slice(r.start, r.end)));
    } else wraps = [];
  }
  if (done === undefined) {
    wraps = [];
    done = applyEdits(
      text,
      recolors.map((r) => r.edit),
    );
  }
  const changed = [
    ...recolors.map((r) => ({ at: r.edit.at, task: r.task })),
    ...wraps.map((r) => ({ at: r.start, task: r.task })),
  ]
    .sort((a, b) => a.at - b.at)
    .map((c) => c.task);
  return { text: done, changed: [...new Set(changed)] };
}
