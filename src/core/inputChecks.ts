// Checks shared by everything that reads untrusted JSON (a tool call's arguments, a log line) so
// that what one part accepts the other can store, and the same mistake reads the same everywhere.

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Agent names and the ids an agent names (a task, a phase to wait for): one line in a tree item
 * or a terminal column. The journal, the sleep tool and the sleep log all hold them to this.
 */
export const NAME_MAX_CHARS = 200;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Characters as a person counts them: code points, so an emoji is one, not two. */
export function countChars(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** What to tell the person when `text` is over `maxChars` characters, else undefined. */
export function lengthProblem(field: string, text: string, maxChars: number): string | undefined {
  const chars = countChars(text);
  return chars > maxChars ? `${field} is ${chars} characters; the limit is ${maxChars}` : undefined;
}

/** A short, safe rendering of a wrong value for an error message: 'number 42', '"abc…"', 'a list'. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') {
    // Cut by code points, so an emoji is never split into a lone surrogate.
    const chars = [...value];
    return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : value);
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
