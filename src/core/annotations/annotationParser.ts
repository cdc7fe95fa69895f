// The annotations of a spec document: regions (`<!--@ax:START-END:COLOR:TASK-->…<!--/@ax-->`) and
// discovery notes (`<!--@ax-discovery:TASK:disc-NNN-->…<!--/@ax-->`), read in one forward pass.
// A closing marker ends the innermost open annotation, so notes nest in regions and regions in
// regions; markers in fenced code or inline code are code, not markers (see codeRegions.ts).
//
// Nothing in a document makes the parse fail: each mistake is a problem with its range and a
// sentence that says what to fix. An annotation never closed is left out (the rest of the document
// is not highlighted while someone is typing a marker) and its opening marker is the problem. A
// marker that cannot be read still takes part in the nesting, so its closing marker is not
// reported a second time. A marker must end with `-->` on its own line. An ordinary HTML comment
// hides the markers in it, as it does in the preview.
//
// Linear in the size of the text: indexOf scans, each stretch searched once, and no regular
// expression. At most ANNOTATIONS_MAX annotations and PROBLEMS_MAX problems are given, in the
// order of the text; then one problem says how many more there are.
import { NextFinder, codeRegions } from './codeRegions';
import type { Span } from './codeRegions';
import { readMarker } from './markerSyntax';
import { LineMap } from './textPositions';
import type { Range } from './textPositions';

/** The most annotations one parse gives. */
export const ANNOTATIONS_MAX = 10_000;
/** The most problems one parse gives, before the one that says how many more there are. */
export const PROBLEMS_MAX = 1_000;

/** Where an annotation is, as string offsets into the text parsed. */
export interface AnnotationOffsets {
  /** The start of its opening marker. */
  readonly start: number;
  /** Just past its opening marker: where its content starts. */
  readonly contentStart: number;
  /** The start of its closing marker: where its content ends. */
  readonly contentEnd: number;
  /** Just past its closing marker. */
  readonly end: number;
}

interface AnnotationPlace {
  /** The task the annotation belongs to. */
  readonly task: string;
  /** From the start of the opening marker to the end of the closing one. */
  readonly range: Range;
  /** The text between the markers. */
  readonly contentRange: Range;
  readonly openRange: Range;
  readonly closeRange: Range;
  readonly offsets: AnnotationOffsets;
  /** 0 for an annotation in no other, 1 inside one, and so on. */
  readonly depth: number;
  /** The index in `annotations` of the innermost annotation this one is inside, or -1. */
  readonly parent: number;
}

/** A region of a spec, in a colour: green for implemented, and so on. */
export interface RegionAnnotation extends AnnotationPlace {
  readonly kind: 'region';
  readonly color: string;
  /** START and END as the marker writes them. */
  readonly from: number;
  readonly to: number;
}

/** A note about what was learned doing a task, showing a discovery case. */
export interface DiscoveryAnnotation extends AnnotationPlace {
  readonly kind: 'discovery';
  readonly caseId: string;
}

export type Annotation = RegionAnnotation | DiscoveryAnnotation;

/**
 * What is wrong: `unclosed` an opening marker with no closing one, `unopened` a closing marker
 * with no opening one, `malformed` a marker that cannot be read, `unterminated` a marker with no
 * `-->` on its line, `tooMany` the count of annotations or problems left out.
 */
export type AnnotationProblemKind = 'unclosed' | 'unopened' | 'malformed' | 'unterminated' | 'tooMany';

/** One mistake in the markers, where it is, and what to do about it. */
export interface AnnotationProblem {
  readonly kind: AnnotationProblemKind;
  readonly message: string;
  readonly range: Range;
  readonly offsets: Span;
}

/** The annotations of a document, in the order they open, and its problems, in the order of the text. */
export interface AnnotationParse {
  readonly annotations: readonly Annotation[];
  readonly problems: readonly AnnotationProblem[];
}

interface Open {
  readonly kind: 'region' | 'discovery';
  readonly task: string;
  readonly detail: { color: string; from: number; to: number } | { caseId: string };
  readonly start: number;
  readonly contentStart: number;
  /** The open annotation this one is inside, as an index of `opens`, or -1. */
  readonly parent: number;
  contentEnd: number;
  end: number;
}

interface RawProblem {
  readonly kind: AnnotationProblemKind;
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** An entry of the nesting stack: an open annotation, or -1 for a marker that could not be read. */
interface Level {
  readonly open: number;
  /** The innermost readable open annotation at or below this level, or -1. */
  readonly nearest: number;
}

const UNCLOSED = 'This annotation is never closed: add <!--/@ax--> after the text it marks, or remove this marker.';
const UNOPENED =
  'This <!--/@ax--> closes no annotation: remove it, or add the opening marker before the text it should close.';
const UNTERMINATED = 'This annotation marker has no --> on its line: end it with --> right after its fields.';

/** The annotations and problems of a markdown document's text. */
export function parseAnnotations(text: string): AnnotationParse {
  const lines = new LineMap(text);
  const code = codeRegions(text, lines.starts, (line) => lines.lineEnd(line));
  const closes = new NextFinder(text, '-->');
  const opens: Open[] = [];
  const problems: RawProblem[] = [];
  const stack: Level[] = [];
  let pos = 0;
  let inCode = 0;
  for (let at = text.indexOf('<!--', pos); at >= 0; at = text.indexOf('<!--', pos)) {
    while (inCode < code.length && (code[inCode]?.end ?? 0) <= at) inCode++;
    const region = code[inCode];
    if (region !== undefined && region.start <= at) {
      pos = region.end;
      continue;
    }
    const close = closes.from(at + 4);
    if (!text.startsWith('@ax', at + 4) && !text.startsWith('/@ax', at + 4)) {
      pos = close < 0 ? at + 4 : close + 3; // an ordinary comment, and whatever it holds
      continue;
    }
    const lineEnd = lines.lineEnd(lines.lineOf(at));
    if (close < 0 || close + 3 > lineEnd) {
      problems.push({ kind: 'unterminated', start: at, end: lineEnd, message: UNTERMINATED });
      pos = at + 4;
      continue;
    }
    const end = close + 3;
    pos = end;
    const marker = readMarker(text.slice(at + 4, close));
    if (marker.kind === 'bad') problems.push({ kind: 'malformed', start: at, end, message: marker.message });
    if (marker.kind === 'close' || (marker.kind === 'bad' && marker.closing)) {
      const level = stack.pop();
      if (level === undefined) {
        if (marker.kind === 'close') problems.push({ kind: 'unopened', start: at, end, message: UNOPENED });
      } else if (level.open >= 0) {
        const open = opens[level.open];
        if (open !== undefined) {
          open.contentEnd = at;
          open.end = end;
        }
      }
      continue;
    }
    const nearest = stack[stack.length - 1]?.nearest ?? -1;
    if (marker.kind === 'bad') {
      stack.push({ open: -1, nearest });
      continue;
    }
    const detail =
      marker.kind === 'region' ? { color: marker.color, from: marker.from, to: marker.to } : { caseId: marker.caseId };
    opens.push({
      kind: marker.kind,
      task: marker.task,
      detail,
      start: at,
      contentStart: end,
      parent: nearest,
      contentEnd: -1,
      end: -1,
    });
    stack.push({ open: opens.length - 1, nearest: opens.length - 1 });
  }
  for (const level of stack) {
    const open = opens[level.open];
    if (open !== undefined)
      problems.push({ kind: 'unclosed', start: open.start, end: open.contentStart, message: UNCLOSED });
  }
  return { annotations: annotationsOf(opens, lines, problems), problems: problemsOf(problems, lines) };
}

/** The closed annotations, the first ANNOTATIONS_MAX of them, with their positions. */
function annotationsOf(opens: readonly Open[], lines: LineMap, problems: RawProblem[]): Annotation[] {
  const annotations: Annotation[] = [];
  const indexOf = new Array<number>(opens.length).fill(-1);
  let closed = 0;
  for (let i = 0; i < opens.length; i++) {
    const open = opens[i];
    if (open === undefined || open.end < 0) continue;
    closed++;
    if (annotations.length >= ANNOTATIONS_MAX) {
      if (closed === ANNOTATIONS_MAX + 1)
        problems.push({ kind: 'tooMany', start: open.start, end: open.contentStart, message: '' });
      continue;
    }
    // Around an annotation never closed there are only ones never closed: such a parent is left out, and so -1.
    const parent = open.parent >= 0 ? (indexOf[open.parent] ?? -1) : -1;
    const place: AnnotationPlace = {
      task: open.task,
      range: lines.range(open.start, open.end),
      contentRange: lines.range(open.contentStart, open.contentEnd),
      openRange: lines.range(open.start, open.contentStart),
      closeRange: lines.range(open.contentEnd, open.end),
      offsets: { start: open.start, contentStart: open.contentStart, contentEnd: open.contentEnd, end: open.end },
      depth: parent >= 0 ? (annotations[parent]?.depth ?? -1) + 1 : 0,
      parent,
    };
    indexOf[i] = annotations.length;
    annotations.push(
      'caseId' in open.detail
        ? { kind: 'discovery', ...place, caseId: open.detail.caseId }
        : { kind: 'region', ...place, ...open.detail },
    );
  }
  const left = closed - annotations.length;
  const tooMany = problems.findIndex((p) => p.kind === 'tooMany');
  const entry = problems[tooMany];
  if (entry !== undefined) {
    problems[tooMany] = {
      ...entry,
      message: `This document has ${closed.toLocaleString('en')} annotations; the ${left.toLocaleString('en')} from here on are not shown. Split the spec into smaller files.`,
    };
  }
  return annotations;
}

/** The problems in the order of the text, the first PROBLEMS_MAX of them, then how many more there are. */
function problemsOf(raw: RawProblem[], lines: LineMap): AnnotationProblem[] {
  raw.sort((a, b) => a.start - b.start);
  const shown = raw.slice(0, PROBLEMS_MAX).map((p) => ({
    kind: p.kind,
    message: p.message,
    range: lines.range(p.start, p.end),
    offsets: { start: p.start, end: p.end },
  }));
  const first = raw[PROBLEMS_MAX];
  if (first !== undefined) {
    const more = raw.length - PROBLEMS_MAX;
    shown.push({
      kind: 'tooMany',
      message: `${more.toLocaleString('en')} more ${more === 1 ? 'problem is' : 'problems are'} not shown; fix the ones above first.`,
      range: lines.range(first.start, first.end),
      offsets: { start: first.start, end: first.end },
    });
  }
  return shown;
}
