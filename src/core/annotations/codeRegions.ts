// The parts of a markdown text where annotation markers are code, not markers: fenced code blocks
// and inline code spans, as CommonMark reads them, in one forward pass.
//
// Fences: a line of three or more backticks or tildes, indented at most three spaces (a backtick
// fence's info string holds no backtick), up to a line of the same character at least as long with
// nothing but spaces or tabs after it, or to the end of the document when no such line comes. Only
// top-level fences are seen: one inside a block quote (`> ```) or a list item indented four spaces
// or more is not. Indented code blocks are not treated as code: spec text in lists is often indented.
//
// Inline code: within a paragraph (lines up to a blank line, a fence, an HTML block, a list item's
// first line or an ATX heading, which is a paragraph of its own), a run of N
// backticks opens a span closed by the next run of exactly N; without one the backticks are text.
// An HTML comment (`<!--` … `-->` within the paragraph) that begins before a backtick hides it, as
// CommonMark has it. A line that begins with `<!--` starts an HTML block up to the line holding
// `-->`, where CommonMark reads no inline code, so none is looked for there. Backslash escapes
// before a backtick are not taken into account.

/** A stretch of the text, from start to end (end excluded), as string offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The next place a fixed string occurs at or after an offset, for offsets asked in increasing order. */
export class NextFinder {
  private found = -2;
  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  /** The first occurrence at or after `from`, or -1. Each stretch of the text is searched once. */
  from(from: number): number {
    if (this.found === -1) return -1;
    if (this.found < from) this.found = this.text.indexOf(this.needle, from);
    return this.found;
  }
}

const BACKTICK = 0x60;
const TILDE = 0x7e;
const SPACE = 0x20;
const TAB = 0x09;

interface Fence {
  readonly char: number;
  readonly length: number;
}

/** A fence on the line from `start` to `end` (excluded), or undefined. */
function fenceAt(text: string, start: number, end: number): Fence | undefined {
  let at = start;
  while (at < end && at - start < 4 && text.charCodeAt(at) === SPACE) at++;
  if (at - start > 3) return undefined;
  const char = text.charCodeAt(at);
  if (char !== BACKTICK && char !== TILDE) return undefined;
  let run = at;
  while (run < end && text.charCodeAt(run) === char) run++;
  if (run - at < 3) return undefined;
  if (char === BACKTICK) for (let i = run; i < end; i++) if (text.charCodeAt(i) === BACKTICK) return undefined;
  return { char, length: run - at };
}

/** Whether the line closes `fence`: its character, at least as long, then only spaces or tabs. */
function closesFence(text: string, start: number, end: number, fence: Fence): boolean {
  let at = start;
  while (at < end && at - start < 4 && text.charCodeAt(at) === SPACE) at++;
  if (at - start > 3) return false;
  let run = at;
  while (run < end && text.charCodeAt(run) === fence.char) run++;
  if (run - at < fence.length) return false;
  for (let i = run; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** What a line starts, for code spans: a list item or an ATX heading ends the paragraph before it. */
export type LineStart = 'text' | 'item' | 'heading';

/**
 * Whether the line from `start` to `end` begins (after at most three spaces) a list item (`-`, `*`,
 * `+`, or 1 to 9 digits and `.` or `)`, then a space, a tab or the end of the line) or an ATX heading
 * (1 to 6 `#`, then a space, a tab or the end).
 */
export function lineStart(text: string, start: number, end: number): LineStart {
  let at = start;
  while (at < end && at - start < 4 && text.charCodeAt(at) === SPACE) at++;
  if (at - start > 3) return 'text';
  const c = text.charCodeAt(at);
  if (c === 0x2d || c === 0x2a || c === 0x2b) return spaceOrEnd(text, at + 1, end) ? 'item' : 'text';
  if (c === 0x23) {
    let run = at;
    while (run < end && text.charCodeAt(run) === 0x23) run++;
    return run - at <= 6 && spaceOrEnd(text, run, end) ? 'heading' : 'text';
  }
  if (c < 0x30 || c > 0x39) return 'text';
  let digits = at;
  while (digits < end && digits - at < 10 && text.charCodeAt(digits) >= 0x30 && text.charCodeAt(digits) <= 0x39)
    digits++;
  const mark = text.charCodeAt(digits);
  return digits - at <= 9 && (mark === 0x2e || mark === 0x29) && spaceOrEnd(text, digits + 1, end) ? 'item' : 'text';
}

function spaceOrEnd(text: string, at: number, end: number): boolean {
  return at >= end || text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB;
}

/** Whether the line begins (after at most three spaces) with `<!--`: an HTML block of CommonMark's kind 2. */
function opensComment(text: string, start: number, end: number): number {
  let at = start;
  while (at < end && at - start < 4 && text.charCodeAt(at) === SPACE) at++;
  return at - start <= 3 && text.startsWith('<!--', at) ? at : -1;
}

/**
 * The fenced code blocks and inline code spans of `text`, in order and not overlapping.
 * `starts` is where each line begins and `lineEnd(i)` where line i's characters end.
 */
export function codeRegions(text: string, starts: readonly number[], lineEnd: (line: number) => number): Span[] {
  const regions: Span[] = [];
  const comments = new NextFinder(text, '-->');
  const spans = new InlineCode(text, regions);
  let fence: Fence | undefined;
  let fenceStart = 0;
  let htmlUntil = -1; // the offset of the `-->` that ends the HTML block being read
  let paragraph = -1; // the start of the paragraph being read
  for (let line = 0; line < starts.length; line++) {
    // A byte order mark is no character of the first line (VS Code strips it): a fence may follow it.
    const start = line === 0 && text.charCodeAt(0) === 0xfeff ? 1 : (starts[line] ?? 0);
    const end = lineEnd(line);
    if (fence !== undefined) {
      if (closesFence(text, start, end, fence)) {
        regions.push({ start: fenceStart, end });
        fence = undefined;
      }
      continue;
    }
    if (htmlUntil >= start) continue;
    const opened = fenceAt(text, start, end);
    const comment = opened === undefined ? opensComment(text, start, end) : -1;
    const begins = opened === undefined && comment < 0 ? lineStart(text, start, end) : 'text';
    if (opened !== undefined || comment >= 0 || begins !== 'text' || isBlank(text, start, end)) {
      if (paragraph >= 0) spans.read(paragraph, lineEnd(line - 1));
      paragraph = -1;
    }
    if (begins === 'heading') spans.read(start, end);
    else if (opened !== undefined) {
      fence = opened;
      fenceStart = start;
    } else if (comment >= 0) {
      const close = comments.from(comment + 4);
      htmlUntil = close < 0 ? text.length : close;
    } else if (paragraph < 0 && !isBlank(text, start, end)) paragraph = start;
  }
  if (fence !== undefined) regions.push({ start: fenceStart, end: text.length });
  else if (paragraph >= 0) spans.read(paragraph, text.length);
  return regions;
}

/** Finds the inline code spans of one paragraph at a time, paragraphs in increasing order. */
class InlineCode {
  private readonly comments: NextFinder;
  private readonly backticks: NextFinder;
  private readonly opens: NextFinder;
  constructor(
    private readonly text: string,
    private readonly regions: Span[],
  ) {
    this.comments = new NextFinder(text, '-->');
    this.backticks = new NextFinder(text, '`');
    this.opens = new NextFinder(text, '<!--');
  }

  /** Adds the code spans between `start` and `end` (excluded) to the regions. */
  read(start: number, end: number): void {
    const text = this.text;
    // The runs of backticks, and for each the next run of the same length (linear, right to left).
    const runStarts: number[] = [];
    const runLengths: number[] = [];
    const opens: number[] = []; // comment openings, in order
    for (let i = this.backticks.from(start); i >= 0 && i < end; i = this.backticks.from(i)) {
      let run = i;
      while (run < end && text.charCodeAt(run) === BACKTICK) run++;
      runStarts.push(i);
      runLengths.push(run - i);
      i = run;
    }
    if (runStarts.length < 2) return;
    for (let i = this.opens.from(start); i >= 0 && i < end; i = this.opens.from(i + 4)) opens.push(i);
    const nextSame = new Array<number>(runStarts.length).fill(-1);
    const lastOfLength = new Map<number, number>();
    for (let r = runStarts.length - 1; r >= 0; r--) {
      const length = runLengths[r] ?? 0;
      nextSame[r] = lastOfLength.get(length) ?? -1;
      lastOfLength.set(length, r);
    }
    let pos = start;
    let r = 0;
    let o = 0;
    while (r < runStarts.length) {
      const run = runStarts[r] ?? 0;
      if (run < pos) {
        r++;
        continue;
      }
      while (o < opens.length && (opens[o] ?? 0) < pos) o++;
      const open = opens[o] ?? end;
      if (open < run) {
        const close = this.comments.from(open + 4);
        pos = close >= 0 && close + 3 <= end ? close + 3 : open + 4;
        o++;
        continue;
      }
      const closer = nextSame[r] ?? -1;
      if (closer < 0) {
        pos = run + (runLengths[r] ?? 0);
        r++;
        continue;
      }
      const spanEnd = (runStarts[closer] ?? 0) + (runLengths[closer] ?? 0);
      this.regions.push({ start: run, end: spanEnd });
      pos = spanEnd;
      r = closer + 1;
    }
  }
}
