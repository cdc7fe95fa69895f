// The parts of `build.yaml` (its source and input, each phase with its attempts, the verified
// commands, the delivery summary, the costs), each checked field by field with a reason naming it.
// Apart from buildRecord.ts, which puts them together, writes the file and reads it back.
import { describeValue, isPlainObject, lengthProblem } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { isUsage } from '../llm/usage';
import { isBlankText } from '../prompt/untrustedText';
import { ROLE_NAME_MAX_CHARS, ROLE_NAME_PATTERN } from '../roles/roleSchema';
import { isIsoDate as isIsoText, isRunId, relativePathProblem } from '../run/runRecord';
import { isSlug } from '../storage/safeNames';
import { PHASE_CHECKS, PHASE_STATUSES } from './buildTypes';
import type {
  BuildRecord,
  DeliverySummary,
  PhaseAttempt,
  PhaseState,
  SpecPointer,
  VerifiedCommand,
} from './buildTypes';
import { SPEC_FORMATS } from './externalSpec';
import { commandProblem, DELIVERY_FIELD_MAX_CHARS } from './markers';
import { PHASE_NAME_MAX_CHARS, PHASE_NAME_PATTERN } from './workflow';

export const PHASE_ATTEMPTS_MAX = 50;
/** A reason (the build's, an attempt's), an attempt's evidence, a verified command's output: the writer cuts them to this. */
export const RECORD_TEXT_MAX_CHARS = 8000;
export const ATTEMPT_STATUSES = ['running', 'passed', 'failed', 'stopped'] as const;
export const ATTEMPT_CAUSES = ['first', 'retry', 'qa-failed', 'review-changes', 'rerun', 'resume'] as const;

type Bad = { ok: false; reason: string };
export const bad = (reason: string): Bad => ({ ok: false, reason });
/** `field <field> is missing`, or `field <field> <the value> is not <what>`. */
export const wrong = (field: string, value: unknown, what: string): Bad =>
  bad(value === undefined ? `field ${field} is missing` : `field ${field} ${describeValue(value)} is not ${what}`);

/** ISO-8601 UTC as toISOString writes it, of a day that exists (no February 30th rolled into March). */
export function isIsoDate(value: unknown): value is string {
  return isIsoText(value) && new Date(value).toISOString().slice(0, 19) === value.slice(0, 19);
}

export function oneOf<T extends string>(value: unknown, values: readonly T[]): value is T {
  return (values as readonly unknown[]).includes(value);
}

export function list<T>(
  value: unknown,
  field: string,
  max: number,
  item: (v: unknown, at: string) => Checked<T>,
): Checked<T[]> {
  if (!Array.isArray(value)) return bad(`field ${field} is not a list`);
  if (value.length > max) return bad(`field ${field} has ${value.length} entries; the limit is ${max}`);
  const out: T[] = [];
  for (let i = 0; i < value.length; i++) {
    const parsed = item(value[i], `${field}[${i}]`);
    if (!parsed.ok) return parsed;
    out.push(parsed.value);
  }
  return { ok: true, value: out };
}

function requiredText(obj: Record<string, unknown>, field: string, at: string, max: number): Checked<string> {
  const v = obj[field];
  if (typeof v !== 'string') return bad(`field ${at}${field} is not text`);
  const long = lengthProblem(`field ${at}${field}`, v, max);
  if (long !== undefined) return bad(long);
  if (isBlankText(v)) return bad(`field ${at}${field} is empty`);
  return { ok: true, value: v };
}

export function optionalText(
  obj: Record<string, unknown>,
  field: string,
  at: string,
  max: number,
): Checked<string | undefined> {
  if (obj[field] === undefined) return { ok: true, value: undefined };
  if (typeof obj[field] !== 'string') return bad(`field ${at}${field} is not text`);
  const long = lengthProblem(`field ${at}${field}`, obj[field], max);
  return long === undefined ? { ok: true, value: obj[field] } : bad(long);
}

export function parseSource(value: unknown): Checked<BuildRecord['source']> {
  if (!isPlainObject(value)) return bad('field source is not a mapping of fields');
  if (value['kind'] === 'brief') {
    const path = value['path'];
    if (typeof path !== 'string') return bad('field source.path is not text');
    const problem = relativePathProblem(path);
    return problem === undefined ? { ok: true, value: { kind: 'brief', path } } : bad(`field source.path ${problem}`);
  }
  if (value['kind'] === 'brainstorm') {
    const slug = value['slug'];
    return typeof slug === 'string' && isSlug(slug)
      ? { ok: true, value: { kind: 'brainstorm', slug } }
      : wrong('source.slug', slug, 'a plan slug');
  }
  return wrong('source.kind', value['kind'], 'brief or brainstorm');
}

/** A spec's pointer (absent in build.yaml files older than specs as input). */
export function parseInput(value: unknown): Checked<SpecPointer> {
  if (!isPlainObject(value)) return bad('field input is not a mapping of fields');
  if (value['kind'] !== 'spec') return wrong('input.kind', value['kind'], 'spec');
  const { format, path } = value;
  if (!oneOf(format, SPEC_FORMATS)) return wrong('input.format', format, `one of ${SPEC_FORMATS.join(', ')}`);
  if (typeof path !== 'string') return bad('field input.path is not text');
  const problem = relativePathProblem(path, true);
  return problem === undefined
    ? { ok: true, value: { kind: 'spec', format, path } }
    : bad(`field input.path ${problem}`);
}

/** usage, costUsd and maxCostUsd of `obj`, those that are set. */
export function costs(
  obj: Record<string, unknown>,
  at: string,
  fields: readonly ('usage' | 'costUsd' | 'maxCostUsd')[],
): Checked<Pick<BuildRecord, 'usage' | 'costUsd' | 'maxCostUsd'>> {
  const out: Pick<BuildRecord, 'usage' | 'costUsd' | 'maxCostUsd'> = {};
  for (const field of fields) {
    const v = obj[field];
    if (v === undefined) continue;
    if (field === 'usage') {
      if (!isUsage(v)) return bad(`field ${at}usage is not four whole token counts ≥ 0`);
      out.usage = {
        inputTokens: v.inputTokens,
        outputTokens: v.outputTokens,
        cacheReadTokens: v.cacheReadTokens,
        cacheCreationTokens: v.cacheCreationTokens,
      };
    } else {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return bad(`field ${at}${field} is not a number ≥ 0`);
      out[field] = v;
    }
  }
  return { ok: true, value: out };
}

export function parsePhase(value: unknown, at: string): Checked<PhaseState> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const { name, role, check, status } = value;
  if (typeof name !== 'string' || name.length > PHASE_NAME_MAX_CHARS || !PHASE_NAME_PATTERN.test(name))
    return wrong(`${at}.name`, name, 'a phase name');
  if (typeof role !== 'string' || role.length > ROLE_NAME_MAX_CHARS || !ROLE_NAME_PATTERN.test(role))
    return wrong(`${at}.role`, role, 'a role name');
  if (!oneOf(check, PHASE_CHECKS)) return wrong(`${at}.check`, check, `one of ${PHASE_CHECKS.join(', ')}`);
  if (!oneOf(status, PHASE_STATUSES)) return wrong(`${at}.status`, status, `one of ${PHASE_STATUSES.join(', ')}`);
  const attempts = list(value['attempts'], `${at}.attempts`, PHASE_ATTEMPTS_MAX, parseAttempt);
  if (!attempts.ok) return attempts;
  return { ok: true, value: { name, role, check, status, attempts: attempts.value } };
}

function parseAttempt(value: unknown, at: string): Checked<PhaseAttempt> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const { status, startedAt, runId, endedAt, transient, cause } = value;
  if (!oneOf(status, ATTEMPT_STATUSES)) return wrong(`${at}.status`, status, `one of ${ATTEMPT_STATUSES.join(', ')}`);
  if (!isIsoDate(startedAt)) return bad(`field ${at}.startedAt is not an ISO-8601 UTC time`);
  const attempt: PhaseAttempt = { status, startedAt };
  if (runId !== undefined) {
    if (typeof runId !== 'string' || !isRunId(runId)) return wrong(`${at}.runId`, runId, 'a run id');
    attempt.runId = runId;
  }
  if (endedAt !== undefined) {
    if (!isIsoDate(endedAt)) return bad(`field ${at}.endedAt is not an ISO-8601 UTC time`);
    attempt.endedAt = endedAt;
  }
  if (transient !== undefined) {
    if (typeof transient !== 'boolean') return bad(`field ${at}.transient is not true or false`);
    attempt.transient = transient;
  }
  if (cause !== undefined) {
    if (!oneOf(cause, ATTEMPT_CAUSES)) return wrong(`${at}.cause`, cause, `one of ${ATTEMPT_CAUSES.join(', ')}`);
    attempt.cause = cause;
  }
  for (const [field, max] of [
    ['reason', RECORD_TEXT_MAX_CHARS],
    ['evidence', RECORD_TEXT_MAX_CHARS],
  ] as const) {
    const text = optionalText(value, field, `${at}.`, max);
    if (!text.ok) return text;
    if (text.value !== undefined) attempt[field] = text.value;
  }
  const money = costs(value, `${at}.`, ['usage', 'costUsd']);
  if (!money.ok) return money;
  return { ok: true, value: { ...attempt, ...money.value } };
}

export function parseVerified(value: unknown, at: string): Checked<VerifiedCommand> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const { phase, command, exitCode } = value;
  if (typeof phase !== 'string' || !PHASE_NAME_PATTERN.test(phase) || phase.length > PHASE_NAME_MAX_CHARS)
    return wrong(`${at}.phase`, phase, 'a phase name');
  if (typeof command !== 'string') return bad(`field ${at}.command is not text`);
  const problem = commandProblem(command);
  if (problem !== undefined) return bad(`field ${at}.command ${problem}`);
  if (exitCode !== null && !Number.isSafeInteger(exitCode))
    return wrong(`${at}.exitCode`, exitCode, 'a whole number or null');
  const output = optionalText(value, 'output', `${at}.`, RECORD_TEXT_MAX_CHARS);
  if (!output.ok) return output;
  const verified: VerifiedCommand = { phase, command, exitCode: exitCode as number | null };
  if (output.value !== undefined) verified.output = output.value;
  return { ok: true, value: verified };
}

export function parseSummary(value: unknown): Checked<DeliverySummary> {
  if (!isPlainObject(value)) return bad('field summary is not a mapping of fields');
  const out: Partial<DeliverySummary> = {};
  for (const [field, max] of Object.entries(DELIVERY_FIELD_MAX_CHARS) as [keyof DeliverySummary, number][]) {
    const text = requiredText(value, field, 'summary.', max);
    if (!text.ok) return text;
    out[field] = text.value;
  }
  return { ok: true, value: out as DeliverySummary };
}
