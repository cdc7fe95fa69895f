// The words of a phase check for a person: reasons, commands and paths cut to one visible line,
// a command's output without its escape sequences, long text cut head and tail. Apart from
// phaseChecks.ts, whose checks say what failed; this is how much of it is shown, and how.
import { visibleText } from '../visibleText';

/** A reason, in characters; a command or a path inside it, and a reply excerpt in one. */
export const REASON_MAX_CHARS = 1000;
const SHOWN_MAX_CHARS = 200;

export const cap = (text: string): string => cutText(text, REASON_MAX_CHARS);
export const shownLine = (text: string): string =>
  cutText(visibleText(cutText(text.trim(), SHOWN_MAX_CHARS)), SHOWN_MAX_CHARS);
export const shownCommand = (command: string): string => `\`${shownLine(command)}\``;
export const shownPath = (path: string): string => shownLine(path);

/** Output of a command: terminal escape sequences (colours, cursor moves) taken out, then as capText. */
export function outputText(raw: string, max: number): string {
  // Escape sequences are left out of what a person reads; a cut one is then made visible.
  const plain = cutText(raw, max * 4).replace(
    /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)|[@-Z\\-_])/g,
    '',
  );
  return capText(plain, max);
}

/** Multi-line text for a person: CRLF as LF, every unsafe character but newline and tab made visible, cut to `max` (head and tail). */
export function capText(raw: string, max: number): string {
  const lines = cutText(raw, max * 2)
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.split('\t').map(visibleText).join('\t'));
  return cutText(lines.join('\n').trim(), max);
}

/**
 * `text` in at most `max` characters (UTF-16 code units, no surrogate pair split): whole, or its
 * head and its tail around a line saying how much was left out.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (n: number) => `\n… (${n} characters left out) …\n`;
  const room = Math.max(0, max - marker(text.length).length);
  let head = Math.ceil(room / 2);
  let tail = text.length - (room - head);
  if (isHigh(text.charCodeAt(head - 1))) head--;
  if (isLow(text.charCodeAt(tail))) tail++;
  if (room === 0) return text.slice(0, max);
  return `${text.slice(0, head)}${marker(tail - head)}${text.slice(tail)}`;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
