/**
 * Text shown to people (terminal output, error messages that name a path) may come from agents,
 * hand-edited files or a cloned repository, and may hold anything. Printed raw, an ANSI escape
 * could recolour or clear a terminal or fake earlier output, a bidi control could make text read
 * differently than it is, and an invisible character could make two different names look alike.
 * So each such character is shown as a visible escape: the reader sees that it is there.
 */

// C0 controls, DEL and C1 controls (0x9b is CSI on terminals that take 8-bit controls); the soft
// hyphen, the Mongolian vowel separator and the zero-width characters, which are invisible; the
// line and paragraph separators; the bidi marks, embeddings, overrides and isolates. A zero-width
// joiner is kept between two pictographs, where it builds one emoji (a family, a profession)
// rather than hiding anything.
const C0 = '\\u0000-\\u001f';
const OTHER =
  '\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b\\u200c\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';
const LONE_JOINER =
  '(?<!\\p{Extended_Pictographic}[\\ufe0f\\u{1f3fb}-\\u{1f3ff}]?)\\u200d|\\u200d(?!\\p{Extended_Pictographic})';
const UNSAFE = new RegExp(`[${C0}${OTHER}]|${LONE_JOINER}`, 'gu');
// Without C0: inside strings JSON.stringify has escaped it already, and outside them a raw "\n"
// is the indentation's line break.
const UNSAFE_IN_JSON = new RegExp(`[${OTHER}]|${LONE_JOINER}`, 'gu');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text: every unsafe character, newlines included, becomes a visible escape. */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * JSON of `value` in which no unsafe character is raw: the rest of the set is escaped as \uXXXX
 * too, which is the same string to any JSON reader, so `--json` output on a terminal is harmless.
 */
export function visibleJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    UNSAFE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
