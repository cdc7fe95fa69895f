// One line of `.groundwork/cases.jsonl`: a discovery case in its line format
// (docs/discovery-cases.md, "The case line"), with the times and the archive, resurrect and
// outdated details in its metadata. The file may come from a cloned repository, so every field is
// checked for its type, size and what it may hold; a line with anything off is refused whole with a
// reason naming the field, never half-trusted.
import { NAME_MAX_CHARS, countChars, describeValue, isPlainObject, lengthProblem } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { isBlankText } from '../prompt/untrustedText';
import type { RecordParser } from '../storage/recordLog';
import type { CaseDraft } from './caseDraft';
import { isCaseId } from './caseId';
import { classifyCategory } from './classify';

export const CASE_STATUSES = ['active', 'outdated', 'archived', 'deleted'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const CASE_SCOPES = ['local', 'global'] as const;
export type CaseScope = (typeof CASE_SCOPES)[number];
/** Least to most: the order an injection block ranks them in reverse. */
export const CASE_IMPACTS = ['low', 'medium', 'high', 'critical'] as const;
export type CaseImpact = (typeof CASE_IMPACTS)[number];
/** The order the views list their sections in. */
export const CASE_CATEGORIES = [
  'Architecture',
  'Conventions',
  'Testing',
  'Errors',
  'API',
  'Dependencies',
  'Database',
  'Frontend',
] as const;
export type CaseCategory = (typeof CASE_CATEGORIES)[number];
export const ARCHIVE_REASONS = ['parent_task_completed', 'outdated_unreviewed', 'user'] as const;
export type ArchiveReason = (typeof ARCHIVE_REASONS)[number];
export const OUTDATED_REASONS = ['affected files modified', 'superseded by newer discovery', 'marked by user'] as const;
export type OutdatedReason = (typeof OUTDATED_REASONS)[number];
export const RESURRECTED_BY = ['user', 'system'] as const;

/** Signals may carry 8,000 characters (core/run/signals.ts); a case keeps all of one. */
export const CASE_CONTENT_MAX_CHARS = 8000;
/** The tasks a case was applied to that one line keeps. */
export const APPLIED_TO_MAX = 1000;

/** An ISO-8601 UTC time's pattern (isIsoTime checks the calendar too), and a commit hash's. */
export const ISO_TIME_PATTERN =
  '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,3})?Z';
export const COMMIT_PATTERN = '[0-9a-f]{7,64}';
const ISO_TIME = new RegExp(`^${ISO_TIME_PATTERN}$`);
/** Text with a letter or digit is never blank: the full check (untrustedText.ts) is for the rest. */
const PLAINLY_VISIBLE = /[0-9A-Za-z]/;
const COMMIT = new RegExp(`^${COMMIT_PATTERN}$`);

/** A commit hash as outdatedCommit holds one. */
export const isCommitHash = (value: unknown): value is string => typeof value === 'string' && COMMIT.test(value);

export interface CaseMetadata {
  readonly scope: CaseScope;
  readonly sourceTaskId: string | null;
  readonly sourceAgentId: string | null;
  readonly impact: CaseImpact;
  readonly category: CaseCategory;
  readonly validated: boolean;
  readonly appliedTo: readonly string[];
  readonly supersededBy: string | null;
  readonly archivedAt?: string;
  readonly archivedReason?: ArchiveReason;
  readonly resurrectedAt?: string;
  readonly resurrectedBy?: (typeof RESURRECTED_BY)[number];
  readonly outdatedAt?: string;
  readonly outdatedReason?: OutdatedReason;
  /** The commit that changed a file the case speaks of, when that made it outdated. */
  readonly outdatedCommit?: string;
  readonly deletedAt?: string;
}

/** A discovery case. Frozen once read or made: transitions return a new one. */
export interface DiscoveryCase {
  readonly id: string;
  readonly type: 'discovery';
  readonly status: CaseStatus;
  readonly content: string;
  /** The task it was learned in (the case's lineage), or null for one a person added. */
  readonly parentId: string | null;
  readonly metadata: CaseMetadata;
  /** ISO-8601 UTC. */
  readonly createdAt: string;
  readonly validatedAt: string | null;
  readonly updatedAt: string;
}

type Bad = { ok: false; reason: string };
const bad = (reason: string): Bad => ({ ok: false, reason });
const wrong = (field: string, value: unknown, what: string): Bad =>
  bad(value === undefined ? `field ${field} is missing` : `field ${field} ${describeValue(value)} is not ${what}`);

function oneOf<T extends string>(value: unknown, values: readonly T[]): value is T {
  return (values as readonly unknown[]).includes(value);
}

/**
 * An ISO-8601 UTC time as Groundwork writes them (`2025-01-31T09:15:00.000Z`). By pattern, and by
 * the calendar only for days past the 28th: a store of 100,000 cases checks three per line.
 */
export function isIsoTime(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return false;
  const day = Number(value.slice(8, 10));
  if (day <= 28) return true;
  // Day 0 of the next month is the last of this one.
  return day <= new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)), 0)).getUTCDate();
}

function isBlank(text: string): boolean {
  return !PLAINLY_VISIBLE.test(text) && isBlankText(text);
}

/** Why `content` cannot be a case's content, or undefined when it can. */
export function contentProblem(content: unknown): string | undefined {
  if (typeof content !== 'string') return `the content must be text (got ${describeValue(content)})`;
  if (isBlank(content)) return 'the content is empty; say what was learned';
  // Never more code points than UTF-16 units: only a long text is counted.
  const chars = content.length > CASE_CONTENT_MAX_CHARS ? countChars(content) : 0;
  if (chars > CASE_CONTENT_MAX_CHARS)
    return `the content is ${chars} characters; the limit is ${CASE_CONTENT_MAX_CHARS}. Shorten it, or put the detail in a file and name it`;
  return undefined;
}

/** Why `value` cannot be a task or agent id, or undefined when it can. */
export function labelProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field} must be text (got ${describeValue(value)})`;
  if (isBlank(value)) return `${field} is empty; leave it out instead`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return `${field} holds a control character (a line break, a tab, an escape)`;
  return value.length > NAME_MAX_CHARS ? lengthProblem(field, value, NAME_MAX_CHARS) : undefined;
}

function nullableLabel(field: string, value: unknown): Checked<string | null> {
  if (value === null) return { ok: true, value: null };
  const problem = labelProblem(field, value);
  return problem === undefined ? { ok: true, value: value as string } : bad(`field ${problem}`);
}

/** The case in a parsed JSON line, or the first reason it is not one. Unknown fields are ignored and not kept. */
export function parseCase(value: unknown): Checked<DiscoveryCase> {
  if (!isPlainObject(value)) return bad('it is not a JSON object');
  const { id, type, status, content, createdAt, updatedAt } = value;
  if (!isCaseId(id)) return wrong('id', id, 'a case id (disc-001, disc-1000…)');
  if (type !== 'discovery') return wrong('type', type, 'discovery');
  if (!oneOf(status, CASE_STATUSES)) return wrong('status', status, `one of ${CASE_STATUSES.join(', ')}`);
  const problem = contentProblem(content);
  if (problem !== undefined) return bad(`field content: ${problem}`);
  const parentId = nullableLabel('parentId', value['parentId'] ?? null);
  if (!parentId.ok) return parentId;
  if (!isIsoTime(createdAt)) return wrong('createdAt', createdAt, 'an ISO-8601 UTC time');
  if (!isIsoTime(updatedAt)) return wrong('updatedAt', updatedAt, 'an ISO-8601 UTC time');
  const validatedAt = value['validatedAt'] ?? null;
  if (validatedAt !== null && !isIsoTime(validatedAt))
    return wrong('validatedAt', validatedAt, 'an ISO-8601 UTC time or null');
  const metadata = parseMetadata(value['metadata'], id, content as string);
  if (!metadata.ok) return metadata;
  return {
    ok: true,
    value: freezeCase({
      id,
      type,
      status,
      content: content as string,
      parentId: parentId.value,
      metadata: metadata.value,
      createdAt,
      validatedAt,
      updatedAt,
    }),
  };
}

const TIME_FIELDS = ['archivedAt', 'resurrectedAt', 'outdatedAt', 'deletedAt'] as const;

function parseMetadata(value: unknown, id: string, content: string): Checked<CaseMetadata> {
  if (!isPlainObject(value)) return wrong('metadata', value, 'an object');
  const { scope, impact, validated, appliedTo } = value;
  if (!oneOf(scope, CASE_SCOPES)) return wrong('metadata.scope', scope, 'local or global');
  if (!oneOf(impact, CASE_IMPACTS)) return wrong('metadata.impact', impact, `one of ${CASE_IMPACTS.join(', ')}`);
  // A line from before categories were stored has none: the category heuristic gives it.
  const category = value['category'] ?? classifyCategory(content);
  if (!oneOf(category, CASE_CATEGORIES))
    return wrong('metadata.category', category, `one of ${CASE_CATEGORIES.join(', ')}`);
  if (typeof validated !== 'boolean') return wrong('metadata.validated', validated, 'true or false');
  const task = nullableLabel('metadata.sourceTaskId', value['sourceTaskId'] ?? null);
  if (!task.ok) return task;
  const agent = nullableLabel('metadata.sourceAgentId', value['sourceAgentId'] ?? null);
  if (!agent.ok) return agent;
  if (!Array.isArray(appliedTo)) return wrong('metadata.appliedTo', appliedTo, 'a list');
  if (appliedTo.length > APPLIED_TO_MAX)
    return bad(`field metadata.appliedTo has ${appliedTo.length} entries; the limit is ${APPLIED_TO_MAX}`);
  for (let i = 0; i < appliedTo.length; i++) {
    const problem = labelProblem(`metadata.appliedTo[${i}]`, appliedTo[i]);
    if (problem !== undefined) return bad(`field ${problem}`);
  }
  const supersededBy = value['supersededBy'] ?? null;
  if (supersededBy !== null && (!isCaseId(supersededBy) || supersededBy === id))
    return wrong('metadata.supersededBy', supersededBy, 'the id of another case, or null');
  const meta: { -readonly [K in keyof CaseMetadata]: CaseMetadata[K] } = {
    scope,
    sourceTaskId: task.value,
    sourceAgentId: agent.value,
    impact,
    category,
    validated,
    appliedTo: appliedTo as string[],
    supersededBy,
  };
  for (const field of TIME_FIELDS) {
    const at = value[field];
    if (at === undefined) continue;
    if (!isIsoTime(at)) return wrong(`metadata.${field}`, at, 'an ISO-8601 UTC time');
    meta[field] = at;
  }
  const { archivedReason, resurrectedBy, outdatedReason, outdatedCommit } = value;
  if (archivedReason !== undefined) {
    if (!oneOf(archivedReason, ARCHIVE_REASONS))
      return wrong('metadata.archivedReason', archivedReason, `one of ${ARCHIVE_REASONS.join(', ')}`);
    meta.archivedReason = archivedReason;
  }
  if (resurrectedBy !== undefined) {
    if (!oneOf(resurrectedBy, RESURRECTED_BY)) return wrong('metadata.resurrectedBy', resurrectedBy, 'user or system');
    meta.resurrectedBy = resurrectedBy;
  }
  if (outdatedReason !== undefined) {
    if (!oneOf(outdatedReason, OUTDATED_REASONS))
      return wrong('metadata.outdatedReason', outdatedReason, `one of ${OUTDATED_REASONS.join(', ')}`);
    meta.outdatedReason = outdatedReason;
  }
  if (outdatedCommit !== undefined) {
    if (!isCommitHash(outdatedCommit)) return wrong('metadata.outdatedCommit', outdatedCommit, 'a commit hash');
    meta.outdatedCommit = outdatedCommit;
  }
  return { ok: true, value: meta };
}

/** The store's line parser: parseCase as a RecordParser. */
export const parseCaseRecord: RecordParser<DiscoveryCase> = (value) => {
  const parsed = parseCase(value);
  return parsed.ok ? { ok: true, record: parsed.value } : parsed;
};

const META_ORDER: readonly (keyof CaseMetadata)[] = [
  'scope',
  'sourceTaskId',
  'sourceAgentId',
  'impact',
  'category',
  'validated',
  'appliedTo',
  'supersededBy',
  'outdatedAt',
  'outdatedReason',
  'outdatedCommit',
  'archivedAt',
  'archivedReason',
  'resurrectedAt',
  'resurrectedBy',
  'deletedAt',
];

/**
 * The case as its line's JSON value, keys in a fixed order, optional metadata only when set.
 * RangeError for a case parseCase would refuse (a caller's bug): nothing is written that could
 * not be read back.
 */
export function caseToJson(c: DiscoveryCase): Record<string, unknown> {
  const checked = parseCase(c);
  if (!checked.ok) throw new RangeError(`The case ${describeValue(c.id)} cannot be stored: ${checked.reason}.`);
  const metadata: Record<string, unknown> = {};
  for (const key of META_ORDER) if (c.metadata[key] !== undefined) metadata[key] = c.metadata[key];
  return {
    id: c.id,
    type: c.type,
    status: c.status,
    content: c.content,
    parentId: c.parentId,
    metadata,
    createdAt: c.createdAt,
    validatedAt: c.validatedAt,
    updatedAt: c.updatedAt,
  };
}

/** One line of cases.jsonl, ending in a newline. */
export function serializeCase(c: DiscoveryCase): string {
  return `${JSON.stringify(caseToJson(c))}\n`;
}

/** Freezes a case, its metadata and its list, so that a cached case cannot be changed in place. */
export function freezeCase(c: DiscoveryCase): DiscoveryCase {
  Object.freeze(c.metadata.appliedTo);
  Object.freeze(c.metadata);
  return Object.freeze(c);
}

/** How far ahead of this clock another's may run (a teammate's, in a cloned repository). */
const CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;

/**
 * A case's time (ms) where recency decides something (ranking, which of two is newer, archival):
 * a time a little ahead of `nowMs` counts as now; one more than a day ahead is no real time (a
 * hand-made line) and counts as the earliest, so that it never stays newest, or unarchived, forever.
 */
export function believableTime(time: string, nowMs: number): number {
  const ms = Date.parse(time);
  if (!(ms > nowMs)) return ms;
  return ms - nowMs <= CLOCK_AHEAD_MS ? nowMs : -Infinity;
}

/** A new active case. RangeError when the draft could not be stored (check it first: `draftProblem`, caseDraft.ts). */
export function newCase(id: string, draft: CaseDraft, nowIso: string): DiscoveryCase {
  const c: DiscoveryCase = {
    id,
    type: 'discovery',
    status: 'active',
    content: draft.content,
    parentId: draft.sourceTaskId ?? null,
    metadata: {
      scope: draft.scope,
      sourceTaskId: draft.sourceTaskId ?? null,
      sourceAgentId: draft.sourceAgentId ?? null,
      impact: draft.impact,
      category: draft.category,
      validated: false,
      appliedTo: [],
      supersededBy: null,
    },
    createdAt: nowIso,
    validatedAt: null,
    updatedAt: nowIso,
  };
  const checked = parseCase(c);
  if (!checked.ok) throw new RangeError(`The new case cannot be stored: ${checked.reason}.`);
  return checked.value;
}

export function isCaseImpact(value: unknown): value is CaseImpact {
  return oneOf(value, CASE_IMPACTS);
}

export function isCaseCategory(value: unknown): value is CaseCategory {
  return oneOf(value, CASE_CATEGORIES);
}

export function isCaseStatus(value: unknown): value is CaseStatus {
  return oneOf(value, CASE_STATUSES);
}

export function isCaseScope(value: unknown): value is CaseScope {
  return oneOf(value, CASE_SCOPES);
}
