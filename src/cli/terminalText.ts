import { visibleText } from '../core/visibleText';

/**
 * Several lines of text from the journal (written by agents, so it may hold anything), each
 * prefixed with `indent`: line breaks (\n, \r\n) stay line breaks, tabs become spaces, and every
 * other control or invisible character becomes a visible escape (see `visibleText`).
 */
export function blockText(text: string, indent: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => indent + visibleText(line.replace(/\t/g, '    ')))
    .join('\n');
}

/** `text` as one shell word to paste back into a command (a session id or a path the person gave). */
export function shellWord(text: string): string {
  if (/^[\w.@%+=:,/-]+$/.test(text)) return text;
  return text.includes("'") ? `"${visibleText(text).replace(/["$`\\]/g, '\\$&')}"` : `'${visibleText(text)}'`;
}
