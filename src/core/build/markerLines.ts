// Finding the marker lines of a reply (the rules at the top of markers.ts) in one linear scan, and
// the text of a field that goes on below its marker. Apart from markers.ts so that the parser of
// each phase's reply there reads as what it takes from the reply.

/** Blank lines skipped before a field's text or between list items; more end it. */
export const BLANKS_MAX = 3;

/** A marker line: `KEY: value` (colon) or `KEY` alone (no colon). */
export type Marker = { key: string; value: string; colon: boolean };

/** A marker found in a text: its line (1-based), and where the line ends (its '\n', or the text's end). */
export type Found = { marker: Marker; line: number; end: number };

/** The line of `text` from `start` to `end`, without the CR of a CRLF. */
function lineAt(text: string, start: number, end: number): string {
  return text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
}

/**
 * The markers among `keys` in `text` from offset `from`, in order. One native scan finds the
 * lines that may start with one (a multiline pattern whose prefix class has no letters, so it
 * cannot backtrack into the key); markerOf judges each such line whole. Linear in the text.
 */
export function* markersIn(text: string, keys: readonly string[], from = 0): Generator<Found> {
  const candidates = new RegExp(`^[ \\t>#*+_\`-]*(?:${keys.join('|')})`, 'gm');
  candidates.lastIndex = from;
  let [line, counted] = [1, 0];
  for (let m = candidates.exec(text); m !== null; m = candidates.exec(text)) {
    const start = m.index === 0 ? 0 : text.lastIndexOf('\n', m.index - 1) + 1;
    const newline = text.indexOf('\n', m.index);
    const end = newline < 0 ? text.length : newline;
    for (let at = text.indexOf('\n', counted); at >= 0 && at < start; at = text.indexOf('\n', at + 1)) line++;
    counted = start;
    const marker = markerOf(lineAt(text, start, end));
    if (marker !== undefined && keys.includes(marker.key)) yield { marker, line, end };
    candidates.lastIndex = end + 1;
  }
}

/** The lines of `text` after offset `end` (where a line ends), one at a time: a caller stops when it has enough. */
export function* linesAfter(text: string, end: number): Generator<string> {
  for (let start = end + 1; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const stop = newline < 0 ? text.length : newline;
    yield lineAt(text, start, stop);
    start = stop + 1;
  }
}

const isSpace = (c: number): boolean => c === 32 || c === 9;
const isOpener = (c: number): boolean => c === 42 || c === 95 || c === 96; // * _ `
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isKeyChar = (c: number): boolean => isUpper(c) || (c >= 48 && c <= 57) || c === 95;

function skipSpace(line: string, i: number): number {
  while (isSpace(line.charCodeAt(i))) i++;
  return i;
}

/** The marker `line` starts with, after the decoration described at the top; undefined if none. */
export function markerOf(line: string): Marker | undefined {
  let i = skipSpace(line, 0);
  while (line.charCodeAt(i) === 62) i = skipSpace(line, i + 1); // >
  if (line.charCodeAt(i) === 35) {
    let h = i;
    while (line.charCodeAt(h) === 35 && h - i < 6) h++;
    if (!isSpace(line.charCodeAt(h))) return undefined;
    i = skipSpace(line, h);
  }
  const c = line.charCodeAt(i);
  if ((c === 45 || c === 42 || c === 43) && isSpace(line.charCodeAt(i + 1))) i = skipSpace(line, i + 2); // - * +
  let open = '';
  while (open.length < 3 && isOpener(line.charCodeAt(i))) open += line[i++];
  const start = i;
  if (!isUpper(line.charCodeAt(i))) return undefined;
  while (isKeyChar(line.charCodeAt(i))) i++;
  let end = i;
  while (end > start + 1 && line.charCodeAt(end - 1) === 95) end--; // __KEY__: trailing '_' closes emphasis
  const key = line.slice(start, end);
  if (key.length < 2) return undefined;
  let j = end;
  let closed = '';
  while (closed.length < 3 && isOpener(line.charCodeAt(j))) closed += line[j++];
  if (line.charCodeAt(j) !== 58) {
    return skipSpace(line, j) === line.length ? { key, value: '', colon: false } : undefined;
  }
  j++;
  while (closed.length < 6 && isOpener(line.charCodeAt(j))) closed += line[j++];
  let value = line.slice(j).trim();
  if (open !== '' && closed === '') {
    const close = [...open].reverse().join('');
    if (value.endsWith(close)) value = value.slice(0, -close.length).trimEnd();
  }
  return { key, value, colon: true };
}

export const isFence = (line: string): boolean => /^\s*(?:```|~~~)/.test(line);

/**
 * A field's text: the rest of its line, then the following lines up to a blank line (once some
 * text is collected), a code fence or a line with another of `keys`; at most about `max` chars.
 */
export function continued(text: string, found: Found, keys: readonly string[], max: number): string {
  const first = found.marker.value;
  const parts = first === '' ? [] : [first];
  let [size, blanks] = [first.length, 0];
  for (const line of linesAfter(text, found.end)) {
    if (size > max || isFence(line)) break;
    if (line.trim() === '') {
      if (parts.length > 0 || ++blanks > BLANKS_MAX) break;
      continue;
    }
    const m = markerOf(line);
    if (m !== undefined && m.colon && keys.includes(m.key)) break;
    parts.push(line.trim());
    size += line.length + 1;
  }
  return parts.join('\n');
}
