// A test command's output as the lines a person would have seen on a terminal: colour and cursor
// codes gone, each line what was left after its last carriage return (a runner that redraws a
// status line writes `\r` and the line again), the CRs at its end (a CRLF's) dropped. Linear in the output.

/** A line longer than this is cut to it before any parser reads it (no runner's status line is near it). */
export const LINE_MAX_CHARS = 4096;

// CSI (ESC [ params intermediates final), OSC (ESC ] … BEL or ESC \), and the two-character escapes.
// Each class stops at the next ESC (an OSC at the line's end too), so unterminated sequences are read once.
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[@-_])|\x9b[0-?]*[ -/]*[@-~]?/g;

/** `text` without its ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') || text.includes('\x9b') ? text.replace(ANSI, '') : text;
}

/** The lines of `output` as shown on a terminal (see the top of this file), each at most LINE_MAX_CHARS. */
export function outputLines(output: string): string[] {
  const lines = stripAnsi(output).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    let end = line.length;
    while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
    const start = end > 0 ? line.lastIndexOf('\r', end - 1) + 1 : 0;
    lines[i] = line.slice(start, Math.min(end, start + LINE_MAX_CHARS));
  }
  return lines;
}

/** How many spaces `line` starts with. */
export function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/** A whole decimal number, or undefined (no sign, no spaces, at most 12 digits). */
export function wholeNumber(text: string): number | undefined {
  return /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

/**
 * The `N word` parts of a runner's summary (`2 failed, 6 passed`, `2 failed | 6 passed`), by word,
 * or undefined when a part is something else. Words are lower-cased; a word seen twice adds up.
 */
export function countParts(text: string, separator: string): Map<string, number> | undefined {
  const counts = new Map<string, number>();
  for (const raw of text.split(separator)) {
    const part = raw.trim();
    const space = part.indexOf(' ');
    const n = space > 0 ? wholeNumber(part.slice(0, space)) : undefined;
    const word = part.slice(space + 1).toLowerCase();
    if (n === undefined || !/^[a-z][a-z ]{0,30}$/.test(word)) return undefined;
    counts.set(word, (counts.get(word) ?? 0) + n);
  }
  return counts;
}

/** The count of the first of `words` present in `counts`, summed over all of them. */
export function countOf(counts: Map<string, number>, ...words: string[]): number {
  return words.reduce((sum, w) => sum + (counts.get(w) ?? 0), 0);
}

/**
 * `name` without a trailing duration `suffix` match: the runners print `name (12 ms)`, `name 3ms`.
 * The pattern is tried at the line's end only (it must end in `$` and start with a space).
 */
export function withoutSuffix(name: string, suffix: RegExp): string {
  const m = suffix.exec(name);
  return m === null ? name : name.slice(0, m.index);
}
