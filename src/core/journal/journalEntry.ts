import { NAME_MAX_CHARS, countChars, describeValue, isPlainObject, lengthProblem } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { isBlankText } from '../prompt/untrustedText';
import type { RecordParser } from '../storage/recordLog';

/** Where the journal lives, relative to the workspace's `.groundwork/` folder. */

/** Caps keep a single entry readable in a tree item and a terminal, and keep one line small. */
export const TITLE_MAX_CHARS = 200;
export const DESCRIPTION_MAX_BYTES = 8 * 1024;

export const JOURNAL_SCOPES = ['local', 'global'] as const;
export type JournalScope = (typeof JOURNAL_SCOPES)[number];

/**
 * One line of `.groundwork/discoveries.jsonl`: a discovery as an agent or a person reported it.
 * The optional fields are absent (not `undefined`, not `null`) when not given.
 */
export interface JournalEntry {
  /** ISO-8601 UTC, e.g. `2025-01-31T09:15:00.000Z`. */
  timestamp: string;
  title: string;
  description: string;
  scope?: JournalScope;
  agent?: string;
  task?: string;
}

/** What a caller supplies; the journal adds the timestamp. */
export interface JournalInput {
  title: string;
  description: string;
  scope?: JournalScope;
  agent?: string;
  task?: string;
}

/**
 * Checks what a caller wants to append. The messages go straight to a person (CLI stderr, VS Code
 * notification) or back to an agent as a tool result, so each says what to change.
 */
export function checkJournalInput(input: unknown): Checked<JournalInput> {
  if (!isPlainObject(input)) return fail('a journal entry must be an object with a title and a description');
  const title = checkTitle(input['title']);
  if (!title.ok) return title;
  const description = checkDescription(input['description']);
  if (!description.ok) return description;
  const value: JournalInput = { title: title.value, description: description.value };
  const scope = input['scope'];
  if (scope !== undefined) {
    if (!isJournalScope(scope)) {
      return fail(
        `scope must be one of ${JOURNAL_SCOPES.join(', ')} (got ${describeValue(scope)}); leave it out if unsure`,
      );
    }
    value.scope = scope;
  }
  for (const field of ['agent', 'task'] as const) {
    const raw = input[field];
    if (raw === undefined) continue;
    const checked = checkLabel(field, raw);
    if (!checked.ok) return checked;
    value[field] = checked.value;
  }
  return { ok: true, value };
}

/**
 * Reads one parsed JSON line of the journal. Fields this version does not know are ignored: a
 * newer Groundwork may add some, and an older one must still show the entry. They are not kept
 * on the record (the type stays exact), but nothing is lost, because the file is append-only and
 * never rewritten from records. The same rules as for appending apply, so a line another tool
 * wrote with a 20 KB description is skipped and reported with its line number, not shown cut.
 */
export const parseJournalEntry: RecordParser<JournalEntry> = (value) => {
  if (!isPlainObject(value)) return { ok: false, reason: 'not a JSON object' };
  const timestamp = value['timestamp'];
  if (typeof timestamp !== 'string') return { ok: false, reason: 'missing field timestamp' };
  if (!ISO_UTC.test(timestamp) || !Number.isFinite(Date.parse(timestamp))) {
    return { ok: false, reason: `timestamp is not an ISO-8601 UTC time: ${describeValue(timestamp)}` };
  }
  const input = checkJournalInput(value);
  if (!input.ok) return { ok: false, reason: input.reason };
  return { ok: true, record: { timestamp, ...input.value } };
};

// Strict enough to keep the journal sortable as text, lenient on fractional digits.
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function checkTitle(raw: unknown): Checked<string> {
  if (raw === undefined) return fail('title is required');
  if (typeof raw !== 'string') return fail(`title must be text (got ${describeValue(raw)})`);
  if (isBlankText(raw)) return fail(`title is ${emptiness(raw)}; give a short summary of the discovery`);
  const chars = countChars(raw);
  if (chars > TITLE_MAX_CHARS) {
    return fail(
      `title is ${chars} characters; the limit is ${TITLE_MAX_CHARS}. ` +
        'Keep the title to one short summary and move the detail into the description',
    );
  }
  return { ok: true, value: raw };
}

function checkDescription(raw: unknown): Checked<string> {
  if (raw === undefined) return fail('description is required');
  if (typeof raw !== 'string') return fail(`description must be text (got ${describeValue(raw)})`);
  const bytes = utf8Length(raw);
  if (bytes > DESCRIPTION_MAX_BYTES) {
    return fail(
      `description is ${bytes} bytes; the limit is ${DESCRIPTION_MAX_BYTES} bytes (8 KB). ` +
        'Shorten it, or write the details to a file in the workspace and give its path in the description',
    );
  }
  return { ok: true, value: raw };
}

function checkLabel(field: 'agent' | 'task', raw: unknown): Checked<string> {
  if (typeof raw !== 'string') return fail(`${field} must be text (got ${describeValue(raw)})`);
  if (isBlankText(raw)) return fail(`${field} is ${emptiness(raw)}; leave it out instead`);
  const tooLong = lengthProblem(field, raw, NAME_MAX_CHARS);
  return tooLong === undefined ? { ok: true, value: raw } : fail(tooLong);
}

export function isJournalScope(value: unknown): value is JournalScope {
  return JOURNAL_SCOPES.some((s) => s === value);
}

/** 'empty', or what makes a text that is not empty count as empty. */
function emptiness(text: string): string {
  return text.trim() === '' ? 'empty' : 'only invisible characters (zero-width or direction marks)';
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** UTF-8 size without TextEncoder, which the core's lib settings do not promise. */
function utf8Length(s: string): number {
  let bytes = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    // A lone surrogate falls in the 3-byte range, as the U+FFFD an encoder puts in its place.
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}
