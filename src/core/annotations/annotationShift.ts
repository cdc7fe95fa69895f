// A keystroke's parse without parsing: when one edit stays inside a line that no marker, comment,
// code fence or code span can begin or end on, the annotations are the same as before; only the
// string offsets after the edit move. This is what makes re-decorating after typing in spec prose
// cost a fraction of a millisecond instead of a full parse.
//
// Why it is safe. Every offset the parser gives lies on a line holding `<` (a marker's line), or
// at the end of one. The parse depends on the text only through: `<!--` and `-->`; backtick runs
// (code spans) and lines that begin with backticks or tildes (fences); whether a line is blank or
// begins a list item or a heading (paragraphs, where code spans end); and line breaks. So an edit whose removed and inserted text
// hold no `<`, `>`, backtick, tilde or line break, on a line that holds no `<` or `>`, is not blank
// before or after, does not begin with a backtick or tilde before or after, begins a list item or a
// heading after the edit exactly when it did before, and does not split or
// join a run of backticks, changes no part of the parse except the offsets after it. Line and
// character positions do not move either: none lies on the edited line.
// test/unit/annotations/annotationShift.test.ts checks this against full parses of random edits.
import type { Annotation, AnnotationParse, AnnotationProblem } from './annotationParser';
import { lineStart } from './codeRegions';

/** One edit of a document, as VS Code reports it: `rangeLength` characters at `rangeOffset` replaced by `text`. */
export interface TextChange {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

const LF = 0x0a;
const CR = 0x0d;

const BACKTICK = 0x60;
const TILDE = 0x7e;

/** A character an edit may not insert or remove: a marker's, a comment's, code's, a line break or a BOM. */
function significant(code: number): boolean {
  return (
    code === 0x3c ||
    code === 0x3e ||
    code === BACKTICK ||
    code === TILDE ||
    code === LF ||
    code === CR ||
    code === 0xfeff
  );
}

function plain(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (significant(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether a line may be edited in place: no `<` or `>` (no marker, comment opening or end), not
 * blank (a paragraph's end), and not beginning with a backtick or tilde (a fence, maybe).
 */
function editable(text: string, start: number, end: number): boolean {
  let first = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c || c === 0x3e || c === 0xfeff) return false;
    if (first < 0 && c !== 0x20 && c !== 0x09) first = c;
  }
  return first >= 0 && first !== BACKTICK && first !== TILDE;
}

/**
 * The parse of `after` (the text once `change` is applied to the text `before` was parsed from),
 * made from `before` when the change cannot alter any annotation or problem; otherwise undefined,
 * and the caller parses again.
 */
export function shiftedParse(
  before: AnnotationParse,
  oldText: string,
  after: string,
  change: TextChange,
): AnnotationParse | undefined {
  const { rangeOffset: at, rangeLength: removed, text: inserted } = change;
  const delta = inserted.length - removed;
  if (at < 0 || removed < 0 || at + removed > oldText.length || after.length !== oldText.length + delta)
    return undefined;
  if (!plain(inserted, 0, inserted.length) || !plain(oldText, at, at + removed)) return undefined;
  // Between two backticks, an edit splits a run or joins two.
  if (oldText.charCodeAt(at - 1) === BACKTICK && oldText.charCodeAt(at + removed) === BACKTICK) return undefined;
  let from = at;
  while (from > 0 && oldText.charCodeAt(from - 1) !== LF && oldText.charCodeAt(from - 1) !== CR) from--;
  let to = at + removed;
  while (to < oldText.length && oldText.charCodeAt(to) !== LF && oldText.charCodeAt(to) !== CR) to++;
  if (!editable(oldText, from, to) || !editable(after, from, to + delta)) return undefined;
  // A line that becomes or stops being a list item or a heading moves where code spans may end.
  if (lineStart(oldText, from, to) !== lineStart(after, from, to + delta)) return undefined;
  if (delta === 0) return before;
  const end = at + removed;
  const move = (offset: number): number => (offset >= end ? offset + delta : offset);
  return {
    annotations: before.annotations.map((a): Annotation => {
      const o = a.offsets;
      if (o.end < end) return a;
      return {
        ...a,
        offsets: {
          start: move(o.start),
          contentStart: move(o.contentStart),
          contentEnd: move(o.contentEnd),
          end: move(o.end),
        },
      };
    }),
    problems: before.problems.map((p): AnnotationProblem =>
      p.offsets.end < end ? p : { ...p, offsets: { start: move(p.offsets.start), end: move(p.offsets.end) } },
    ),
  };
}
