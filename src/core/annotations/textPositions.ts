// Offsets in a document's text as line and character positions, the way VS Code counts them: a
// line break is `\n`, `\r\n` or a lone `\r`, and a `\r\n` is one break whose `\r` belongs to no
// line's characters. VS Code strips a byte order mark when it opens a file, so a leading U+FEFF
// in the text given here (a file read from disk) is not counted as a character of line 0; its
// offset is still counted in the string offsets.

/** A place in a document: 0-based line and character, as VS Code's Position. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A stretch of a document from start to end (end excluded), as VS Code's Range. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

const LF = 0x0a;
const CR = 0x0d;

/** Where each line of a text starts, found in one pass, to turn offsets into positions. */
export class LineMap {
  /** The offset of each line's first character; starts[0] is 0. */
  readonly starts: readonly number[];
  /** True when the text begins with U+FEFF, which is then not a character of line 0. */
  readonly bom: boolean;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
    this.bom = text.charCodeAt(0) === 0xfeff;
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
      this.starts = starts;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === LF) starts.push(i + 1);
      else if (c === CR) {
        if (text.charCodeAt(i + 1) === LF) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }

  /** How many lines the text has (an empty text has one). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** The line an offset is on, by binary search. */
  lineOf(offset: number): number {
    const starts = this.starts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The offset just past a line's last character, before its line break. */
  lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    const before = next - 1;
    return this.text.charCodeAt(before) === LF && this.text.charCodeAt(before - 1) === CR ? before - 1 : before;
  }

  /** The position of an offset (clamped to the text). */
  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(at);
    const start = this.starts[line] ?? 0;
    const skip = line === 0 && this.bom && at > 0 ? 1 : 0;
    return { line, character: Math.min(at, this.lineEnd(line)) - start - skip };
  }

  /** The range between two offsets. */
  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }
}
