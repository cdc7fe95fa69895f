/**
 * Text from the journal or the sleep log was written by agents and may hold anything. Printed
 * raw, an ANSI escape could recolour or clear the terminal, rewrite the title bar or fake earlier
 * output, and a bidi override could make text read differently than it is. So every control
 * character is shown as a visible escape instead: the reader sees that it is there.
 */

// C0 controls, DEL, C1 controls (0x9b is CSI on terminals that take 8-bit controls), the line
// and paragraph separators, and the bidi embedding/override/isolate characters.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text: every control character, newlines included, becomes a visible escape. */
export function inlineText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * Several lines, each prefixed with `indent`: line breaks (\n, \r\n) stay line breaks, tabs
 * become spaces, every other control character becomes a visible escape.
 */
export function blockText(text: string, indent: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => indent + inlineText(line.replace(/\t/g, '    ')))
    .join('\n');
}

/**
 * JSON for stdout. JSON.stringify already escapes C0 controls; the rest of the unsafe set is
 * escaped too (`\u009b` is the same string to any JSON reader), so `--json` on a terminal is safe.
 */
export function safeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Not C0: inside strings JSON.stringify has escaped it already, and outside them a raw "\n" is
// the indentation's line break.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
