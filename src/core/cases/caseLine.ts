// Reading one line of `.groundwork/cases.jsonl`. A line as Groundwork writes it (caseToJson's keys in
// their fixed order, JSON.stringify's spelling, nothing unusual in its values) is matched whole by
// one regular expression that also checks most fields (parseCase's own patterns for times and
// commits; ids; labels with a letter or digit and no control character), and the rest is checked
// as parseCase checks it. That is two to three times faster than JSON.parse followed by parseCase,
// and is much of what lets 100,000 cases load in a few hundred milliseconds. Any other line — another
// key order, spaces, an older line without a category, an unknown field, an escape in a label or a
// time, a value a check refuses — goes to JSON.parse and parseCase, which also say why a line is
// refused. So a line reads as the same case either way, or as the same refusal.
import { NAME_MAX_CHARS } from '../inputChecks';
import type { Checked } from '../inputChecks';
import {
  ARCHIVE_REASONS,
  CASE_CATEGORIES,
  CASE_IMPACTS,
  CASE_SCOPES,
  CASE_STATUSES,
  OUTDATED_REASONS,
  RESURRECTED_BY,
} from './caseRecord';
import {
  APPLIED_TO_MAX,
  COMMIT_PATTERN,
  ISO_TIME_PATTERN,
  contentProblem,
  freezeCase,
  isIsoTime,
  parseCase,
} from './caseRecord';
import type { CaseMetadata, DiscoveryCase } from './caseRecord';

/** One line of cases.jsonl, without its newline: the case, or why it is not one. */
export function parseCaseLine(line: string): Checked<DiscoveryCase> {
  const read = line.length <= MATCH_MAX_CHARS ? readWritten(line) : undefined;
  if (read !== undefined) return { ok: true, value: read };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  return parseCase(value);
}

/** Longer lines (a long list of tasks it was applied to) are rare: JSON.parse reads them. */
const MATCH_MAX_CHARS = 64 * 1024;

/** A JSON string's body: no raw control character, a quote or backslash only in an escape (JSON.parse reads those). */
const TEXT = String.raw`[^"\\\u0000-\u001f]*(?:\\.[^"\\\u0000-\u001f]*)*`;
/** A task or agent id as labelProblem takes it (its length aside): a letter or digit, no control character, no escape. */
const LABEL = String.raw`[^"\\\u0000-\u001f\u007f0-9A-Za-z]*[0-9A-Za-z][^"\\\u0000-\u001f\u007f]*`;
/** A case id as isCaseId takes it. */
const ID = String.raw`disc-(?!000")(?:\d{3}|[1-9]\d{3,8})`;
const among = (values: readonly string[]) => `"(${values.join('|')})"`;
const optional = (key: string, value: string) => `(?:,"${key}":${value})?`;

/** The line as caseToJson and JSON.stringify write it; the groups are its fields, numbered below. */
const WRITTEN = new RegExp(
  [
    `^\\{"id":"(${ID})","type":"discovery","status":${among(CASE_STATUSES)},"content":"(${TEXT})","parentId":(?:null|"(${LABEL})"),`,
    `"metadata":\\{"scope":${among(CASE_SCOPES)},"sourceTaskId":(?:null|"(${LABEL})"),"sourceAgentId":(?:null|"(${LABEL})"),`,
    `"impact":${among(CASE_IMPACTS)},"category":${among(CASE_CATEGORIES)},"validated":(true|false),`,
    `"appliedTo":\\[((?:"${LABEL}"(?:,"${LABEL}")*)?)\\],"supersededBy":(?:null|"(${ID})")`,
    optional('outdatedAt', `"(${ISO_TIME_PATTERN})"`),
    optional('outdatedReason', among(OUTDATED_REASONS)),
    optional('outdatedCommit', `"(${COMMIT_PATTERN})"`),
    optional('archivedAt', `"(${ISO_TIME_PATTERN})"`),
    optional('archivedReason', among(ARCHIVE_REASONS)),
    optional('resurrectedAt', `"(${ISO_TIME_PATTERN})"`),
    optional('resurrectedBy', among(RESURRECTED_BY)),
    optional('deletedAt', `"(${ISO_TIME_PATTERN})"`),
    // createdAt with its quotes: it is copied out of the line (see below).
    `\\},"createdAt":("${ISO_TIME_PATTERN}"),"validatedAt":(?:null|"(${ISO_TIME_PATTERN})"),"updatedAt":"(${ISO_TIME_PATTERN})"\\}$`,
  ].join(''),
);
/** The groups of WRITTEN, in order. */
const G = {
  id: 1,
  status: 2,
  content: 3,
  parentId: 4,
  scope: 5,
  sourceTaskId: 6,
  sourceAgentId: 7,
  impact: 8,
  category: 9,
  validated: 10,
  appliedTo: 11,
  supersededBy: 12,
  outdatedAt: 13,
  outdatedReason: 14,
  outdatedCommit: 15,
  archivedAt: 16,
  archivedReason: 17,
  resurrectedAt: 18,
  resurrectedBy: 19,
  deletedAt: 20,
  createdAt: 21,
  validatedAt: 22,
  updatedAt: 23,
} as const;

type Metadata = { -readonly [K in keyof CaseMetadata]: CaseMetadata[K] };
const TIME_FIELDS = ['archivedAt', 'resurrectedAt', 'outdatedAt', 'deletedAt'] as const;
/** The empty list most cases have, shared: frozen, as every case's list is. */
const NONE: readonly string[] = Object.freeze([]);

/** The case in a line exactly as Groundwork writes it, every field checked; undefined for any other line. */
function readWritten(line: string): DiscoveryCase | undefined {
  const m = WRITTEN.exec(line);
  if (m === null) return undefined;
  const id = m[G.id]!;
  const content = textOf(m[G.content]!);
  const parentId = m[G.parentId] ?? null;
  // One string for two equal fields (a task's case names it twice; an unchanged one has one time): less to keep.
  const sourceTaskId = m[G.sourceTaskId] === parentId ? parentId : (m[G.sourceTaskId] ?? null);
  const sourceAgentId = m[G.sourceAgentId] ?? null;
  const supersededBy = m[G.supersededBy] ?? null;
  const list = m[G.appliedTo]!;
  // Without an escape no entry holds a quote, so the list splits at each '","'.
  const appliedTo = list === '' ? NONE : list.slice(1, -1).split('","');
  // A string of its own, not a slice of the file's text: views and the injection block sort by it,
  // and V8 compares slices some three times slower. JSON.parse copies it.
  const createdAt = JSON.parse(m[G.createdAt]!) as string;
  const validatedAt = m[G.validatedAt] ?? null;
  const updatedAt = m[G.updatedAt] === createdAt ? createdAt : m[G.updatedAt]!;
  if (
    content === undefined ||
    contentProblem(content) !== undefined ||
    supersededBy === id ||
    appliedTo.length > APPLIED_TO_MAX
  )
    return undefined;
  if (!short(parentId) || !short(sourceTaskId) || !short(sourceAgentId) || !appliedTo.every(short)) return undefined;
  if (!inCalendar(createdAt) || !inCalendar(updatedAt) || (validatedAt !== null && !inCalendar(validatedAt)))
    return undefined;
  const metadata: Metadata = {
    scope: constant(CASE_SCOPES, m[G.scope]!),
    sourceTaskId,
    sourceAgentId,
    impact: constant(CASE_IMPACTS, m[G.impact]!),
    category: constant(CASE_CATEGORIES, m[G.category]!),
    validated: m[G.validated] === 'true',
    appliedTo,
    supersededBy,
  };
  if (!withOptional(m, metadata)) return undefined;
  return freezeCase({
    id,
    type: 'discovery',
    status: constant(CASE_STATUSES, m[G.status]!),
    content,
    parentId,
    metadata,
    createdAt,
    validatedAt,
    updatedAt,
  });
}

/** archivedAt, outdatedReason…: added in the order parseCase gives them. False when a time is not in the calendar. */
function withOptional(m: RegExpExecArray, meta: Metadata): boolean {
  for (const field of TIME_FIELDS) {
    const at = m[G[field]];
    if (at === undefined) continue;
    if (!inCalendar(at)) return false;
    meta[field] = at;
  }
  const [archivedReason, resurrectedBy, outdatedReason, outdatedCommit] = [
    m[G.archivedReason],
    m[G.resurrectedBy],
    m[G.outdatedReason],
    m[G.outdatedCommit],
  ];
  if (archivedReason !== undefined) meta.archivedReason = constant(ARCHIVE_REASONS, archivedReason);
  if (resurrectedBy !== undefined) meta.resurrectedBy = constant(RESURRECTED_BY, resurrectedBy);
  if (outdatedReason !== undefined) meta.outdatedReason = constant(OUTDATED_REASONS, outdatedReason);
  if (outdatedCommit !== undefined) meta.outdatedCommit = outdatedCommit;
  return true;
}

/** The value of a JSON string's body; undefined for an escape JSON.parse refuses. */
function textOf(body: string): string | undefined {
  if (body.indexOf('\\') < 0) return body;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

/** Within labelProblem's length: fewer UTF-16 units than the limit are fewer characters too. */
function short(label: string | null): boolean {
  return label === null || label.length <= NAME_MAX_CHARS;
}

/** The pattern matched already; isIsoTime's calendar check matters only past the 28th. */
function inCalendar(time: string): boolean {
  const tens = time.charCodeAt(8);
  return tens < 0x32 || (tens === 0x32 && time.charCodeAt(9) <= 0x38) || isIsoTime(time);
}

/** The constant itself rather than the matched copy: 100,000 cases share one 'active'. */
function constant<T extends string>(values: readonly T[], matched: string): T {
  return values[values.indexOf(matched as T)]!;
}
