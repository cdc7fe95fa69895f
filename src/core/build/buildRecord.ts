// `build.yaml` written and read back. A build folder may come from a cloned repository or be
// damaged by a crash or a hand edit, and a Resume trusts its project folder and its phases, so
// every field is checked for its type, its size and what it may hold; anything off is refused
// with a reason naming the field (`phases[2].attempts[0].startedAt`), never half-trusted.
import { isMap, LineCounter, parseDocument, stringify, visit } from 'yaml';
import { describeValue, isPlainObject, lengthProblem } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { isUsage } from '../llm/usage';
import { utf8Length } from '../prompt/cap';
import { isBlankText } from '../prompt/untrustedText';
import { ROLE_NAME_MAX_CHARS, ROLE_NAME_PATTERN } from '../roles/roleSchema';
import { isIsoDate as isIsoText, isRunId, relativePathProblem } from '../run/runRecord';
import { isSlug } from '../storage/safeNames';
import { BUILD_STATUSES, PHASE_CHECKS, PHASE_STATUSES, WORKFLOW_PHASES_MAX } from './buildTypes';
import type { BuildRecord, DeliverySummary, PhaseAttempt, PhaseState, SpecPointer, VerifiedCommand } from './buildTypes';
import { SPEC_FORMATS } from './externalSpec';
import { commandProblem, DELIVERY_FIELD_MAX_CHARS } from './markers';
import { isProjectDirName } from './projectName';
import { PHASE_NAME_MAX_CHARS, PHASE_NAME_PATTERN } from './workflow';

/** A build folder's name: `YYYYMMDD-HHMMSS-<slug>-<4 hex>`, UTC. */
export const BUILD_ID_PATTERN = /^\d{8}-\d{6}-[a-z0-9][a-z0-9-]{0,63}-[0-9a-f]{4}$/;
export const PHASE_ATTEMPTS_MAX = 50;
export const VERIFIED_MAX = 200;
/** A reason (the build's, an attempt's), an attempt's evidence, a verified command's output: the writer cuts them to this. */
export const RECORD_TEXT_MAX_CHARS = 8000;
/**
 * The most `build.yaml` may hold, read or written. A real one is a few KB; this bounds what a
 * hostile file costs to read. A record whose YAML would be larger is refused when written.
 */
export const BUILD_YAML_MAX_BYTES = 32 * 1024 * 1024;
export const ATTEMPT_STATUSES = ['running', 'passed', 'failed', 'stopped'] as const;
export const ATTEMPT_CAUSES = ['first', 'retry', 'qa-failed', 'review-changes', 'rerun', 'resume'] as const;

const HEX4 = /^[0-9a-f]{4}$/;
const HEADER =
  '# Written by Groundwork: the state of one build (its phases, attempts, status, times, tokens and\n' +
  '# cost), rewritten whole on every change. Edits by hand are not kept, and a damaged file is\n' +
  '# shown as damaged rather than half-read.\n';

type Bad = { ok: false; reason: string };
const bad = (reason: string): Bad => ({ ok: false, reason });
/** `field <field> is missing`, or `field <field> <the value> is not <what>`. */
const wrong = (field: string, value: unknown, what: string): Bad =>
  bad(value === undefined ? `field ${field} is missing` : `field ${field} ${describeValue(value)} is not ${what}`);

export function isBuildId(text: string): boolean {
  return BUILD_ID_PATTERN.test(text);
}

/** The id of a build named `slug` started at `nowMs` (see newRunId). RangeError for a slug or random part the pattern would refuse. */
export function newBuildId(slug: string, nowMs: number, randomHex4: string): string {
  if (!isSlug(slug)) throw new RangeError(`${describeValue(slug)} is not a slug (a-z, 0-9 and '-', at most 64 characters).`);
  if (!HEX4.test(randomHex4)) throw new RangeError(`${describeValue(randomHex4)} is not 4 lower-case hex digits.`);
  const date = new Date(nowMs);
  if (!Number.isFinite(date.getTime())) throw new RangeError(`No build id can be made for the time ${nowMs}.`);
  const iso = date.toISOString();
  const id = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}-${slug}-${randomHex4}`;
  if (!isBuildId(id)) throw new RangeError(`No build id can be made for the time ${nowMs}.`);
  return id;
}

/** The record in `value`, or the first reason it is not one. Unknown fields are ignored and not kept (as in run.json). */
export function parseBuildRecord(value: unknown): Checked<BuildRecord> {
  if (!isPlainObject(value)) return bad('it is not a mapping of fields');
  if (value['version'] !== 1) return wrong('version', value['version'], '1');
  const { id, status, mode, origin } = value;
  if (typeof id !== 'string' || !isBuildId(id)) return wrong('id', id, 'a build id');
  if (!oneOf(status, BUILD_STATUSES)) return wrong('status', status, `one of ${BUILD_STATUSES.join(', ')}`);
  if (mode !== 'new' && mode !== 'feature') return wrong('mode', mode, 'new or feature');
  if (origin !== 'vscode' && origin !== 'cli') return wrong('origin', origin, 'vscode or cli');
  const source = parseSource(value['source']);
  if (!source.ok) return source;
  for (const field of ['startedAt', 'updatedAt'] as const) {
    if (!isIsoDate(value[field])) return bad(`field ${field} is not an ISO-8601 UTC time`);
  }
  const phases = list(value['phases'], 'phases', WORKFLOW_PHASES_MAX, parsePhase);
  if (!phases.ok) return phases;
  const names = phases.value.map((p) => p.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) return bad(`field phases names the phase ${twice} twice`);
  const verified = list(value['verified'], 'verified', VERIFIED_MAX, parseVerified);
  if (!verified.ok) return verified;
  const stray = verified.value.find((v) => !names.includes(v.phase));
  if (stray !== undefined) return bad(`field verified names the phase ${stray.phase}, which is not in phases`);

  const record: BuildRecord = {
    version: 1,
    id,
    status,
    source: source.value,
    mode,
    phases: phases.value,
    verified: verified.value,
    startedAt: value['startedAt'] as string,
    updatedAt: value['updatedAt'] as string,
    origin,
  };
  const { projectDir, projectName, summary, endedAt, input } = value;
  if (input !== undefined) {
    const parsed = parseInput(input);
    if (!parsed.ok) return parsed;
    record.input = parsed.value;
  }
  if (projectDir !== undefined) {
    if (typeof projectDir !== 'string') return bad('field projectDir is not text');
    const problem = relativePathProblem(projectDir, true);
    if (problem !== undefined) return bad(`field projectDir ${problem}`);
    record.projectDir = projectDir;
  }
  if (projectName !== undefined) {
    if (typeof projectName !== 'string' || !isProjectDirName(projectName)) return wrong('projectName', projectName, 'a project name');
    record.projectName = projectName;
  }
  if (summary !== undefined) {
    const parsed = parseSummary(summary);
    if (!parsed.ok) return parsed;
    record.summary = parsed.value;
  }
  const money = costs(value, '', ['usage', 'costUsd', 'maxCostUsd']);
  if (!money.ok) return money;
  Object.assign(record, money.value);
  if (endedAt !== undefined) {
    if (!isIsoDate(endedAt)) return bad('field endedAt is not an ISO-8601 UTC time');
    record.endedAt = endedAt;
  }
  const reason = optionalText(value, 'reason', '', RECORD_TEXT_MAX_CHARS);
  if (!reason.ok) return reason;
  if (reason.value !== undefined) record.reason = reason.value;
  return { ok: true, value: record };
}

/**
 * The record as `build.yaml`: a header comment, then the fields in a fixed order, only those set.
 * RangeError for a record parseBuildRecord would refuse (a writer's bug: a text not cut to its
 * cap, a phase named twice), so that no build.yaml is written that could not be read back.
 */
export function serializeBuildRecord(record: BuildRecord): string {
  const checked = parseBuildRecord(record);
  if (!checked.ok) throw new RangeError(`The build record cannot be written: ${checked.reason}.`);
  const r = checked.value;
  const ordered = compact({
    version: r.version,
    id: r.id,
    status: r.status,
    origin: r.origin,
    mode: r.mode,
    source: r.source.kind === 'brief' ? { kind: 'brief', path: r.source.path } : { kind: 'brainstorm', slug: r.source.slug },
    input: r.input === undefined ? undefined : { kind: r.input.kind, format: r.input.format, path: r.input.path },
    projectName: r.projectName,
    projectDir: r.projectDir,
    startedAt: r.startedAt,
    updatedAt: r.updatedAt,
    endedAt: r.endedAt,
    reason: r.reason,
    maxCostUsd: r.maxCostUsd,
    costUsd: r.costUsd,
    usage: r.usage,
    summary: r.summary,
    phases: r.phases.map((p) => ({
      name: p.name,
      role: p.role,
      check: p.check,
      status: p.status,
      attempts: p.attempts.map((a) =>
        compact({
          cause: a.cause,
          runId: a.runId,
          status: a.status,
          startedAt: a.startedAt,
          endedAt: a.endedAt,
          transient: a.transient,
          reason: a.reason,
          evidence: a.evidence,
          costUsd: a.costUsd,
          usage: a.usage,
        }),
      ),
    })),
    verified: r.verified.map((v) => compact({ phase: v.phase, command: v.command, exitCode: v.exitCode, output: v.output })),
  });
  const text = HEADER + stringify(ordered, { lineWidth: 0, aliasDuplicateObjects: false });
  const bytes = utf8Length(text);
  if (bytes > BUILD_YAML_MAX_BYTES) throw new RangeError(`The build record cannot be written: it is ${bytes} bytes, over the cap of ${BUILD_YAML_MAX_BYTES}.`);
  return text;
}

/** `build.yaml`'s text read back: any YAML error, alias, second document or wrong field refuses the whole file, with the line or field. */
export function parseBuildYaml(text: string): Checked<BuildRecord> {
  const bytes = utf8Length(text);
  if (bytes > BUILD_YAML_MAX_BYTES) return bad(`the file is ${bytes} bytes, over the cap of ${BUILD_YAML_MAX_BYTES}`);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, strict: true, uniqueKeys: true });
  const problem = [...doc.errors, ...doc.warnings][0];
  if (problem !== undefined) return bad(`line ${lineCounter.linePos(problem.pos[0]).line}: YAML: ${problem.message.split('\n', 1)[0] ?? ''}`);
  let alias: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      alias = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  if (alias !== undefined) return bad(`line ${lineCounter.linePos(alias).line}: YAML aliases are not part of build.yaml`);
  if (!isMap(doc.contents)) return bad('it is not a mapping of fields');
  return parseBuildRecord(doc.toJS({ maxAliasCount: 0 }));
}

/** ISO-8601 UTC as toISOString writes it, of a day that exists (no February 30th rolled into March). */
function isIsoDate(value: unknown): value is string {
  return isIsoText(value) && new Date(value).toISOString().slice(0, 19) === value.slice(0, 19);
}

function oneOf<T extends string>(value: unknown, values: readonly T[]): value is T {
  return (values as readonly unknown[]).includes(value);
}

/** `obj` without its undefined fields, so that the YAML holds only what is set. */
function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function list<T>(value: unknown, field: string, max: number, item: (v: unknown, at: string) => Checked<T>): Checked<T[]> {
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

function optionalText(obj: Record<string, unknown>, field: string, at: string, max: number): Checked<string | undefined> {
  if (obj[field] === undefined) return { ok: true, value: undefined };
  if (typeof obj[field] !== 'string') return bad(`field ${at}${field} is not text`);
  const long = lengthProblem(`field ${at}${field}`, obj[field], max);
  return long === undefined ? { ok: true, value: obj[field] } : bad(long);
}

function parseSource(value: unknown): Checked<BuildRecord['source']> {
  if (!isPlainObject(value)) return bad('field source is not a mapping of fields');
  if (value['kind'] === 'brief') {
    const path = value['path'];
    if (typeof path !== 'string') return bad('field source.path is not text');
    const problem = relativePathProblem(path);
    return problem === undefined ? { ok: true, value: { kind: 'brief', path } } : bad(`field source.path ${problem}`);
  }
  if (value['kind'] === 'brainstorm') {
    const slug = value['slug'];
    return typeof slug === 'string' && isSlug(slug) ? { ok: true, value: { kind: 'brainstorm', slug } } : wrong('source.slug', slug, 'a plan slug');
  }
  return wrong('source.kind', value['kind'], 'brief or brainstorm');
}

/** A spec's pointer (absent in build.yaml files older than specs as input). */
function parseInput(value: unknown): Checked<SpecPointer> {
  if (!isPlainObject(value)) return bad('field input is not a mapping of fields');
  if (value['kind'] !== 'spec') return wrong('input.kind', value['kind'], 'spec');
  const { format, path } = value;
  if (!oneOf(format, SPEC_FORMATS)) return wrong('input.format', format, `one of ${SPEC_FORMATS.join(', ')}`);
  if (typeof path !== 'string') return bad('field input.path is not text');
  const problem = relativePathProblem(path, true);
  return problem === undefined ? { ok: true, value: { kind: 'spec', format, path } } : bad(`field input.path ${problem}`);
}

/** usage, costUsd and maxCostUsd of `obj`, those that are set. */
function costs(obj: Record<string, unknown>, at: string, fields: readonly ('usage' | 'costUsd' | 'maxCostUsd')[]): Checked<Pick<BuildRecord, 'usage' | 'costUsd' | 'maxCostUsd'>> {
  const out: Pick<BuildRecord, 'usage' | 'costUsd' | 'maxCostUsd'> = {};
  for (const field of fields) {
    const v = obj[field];
    if (v === undefined) continue;
    if (field === 'usage') {
      if (!isUsage(v)) return bad(`field ${at}usage is not four whole token counts ≥ 0`);
      out.usage = { inputTokens: v.inputTokens, outputTokens: v.outputTokens, cacheReadTokens: v.cacheReadTokens, cacheCreationTokens: v.cacheCreationTokens };
    } else {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return bad(`field ${at}${field} is not a number ≥ 0`);
      out[field] = v;
    }
  }
  return { ok: true, value: out };
}

function parsePhase(value: unknown, at: string): Checked<PhaseState> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const { name, role, check, status } = value;
  if (typeof name !== 'string' || name.length > PHASE_NAME_MAX_CHARS || !PHASE_NAME_PATTERN.test(name)) return wrong(`${at}.name`, name, 'a phase name');
  if (typeof role !== 'string' || role.length > ROLE_NAME_MAX_CHARS || !ROLE_NAME_PATTERN.test(role)) return wrong(`${at}.role`, role, 'a role name');
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

function parseVerified(value: unknown, at: string): Checked<VerifiedCommand> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const { phase, command, exitCode } = value;
  if (typeof phase !== 'string' || !PHASE_NAME_PATTERN.test(phase) || phase.length > PHASE_NAME_MAX_CHARS) return wrong(`${at}.phase`, phase, 'a phase name');
  if (typeof command !== 'string') return bad(`field ${at}.command is not text`);
  const problem = commandProblem(command);
  if (problem !== undefined) return bad(`field ${at}.command ${problem}`);
  if (exitCode !== null && !Number.isSafeInteger(exitCode)) return wrong(`${at}.exitCode`, exitCode, 'a whole number or null');
  const output = optionalText(value, 'output', `${at}.`, RECORD_TEXT_MAX_CHARS);
  if (!output.ok) return output;
  const verified: VerifiedCommand = { phase, command, exitCode: exitCode as number | null };
  if (output.value !== undefined) verified.output = output.value;
  return { ok: true, value: verified };
}

function parseSummary(value: unknown): Checked<DeliverySummary> {
  if (!isPlainObject(value)) return bad('field summary is not a mapping of fields');
  const out: Partial<DeliverySummary> = {};
  for (const [field, max] of Object.entries(DELIVERY_FIELD_MAX_CHARS) as [keyof DeliverySummary, number][]) {
    const text = requiredText(value, field, 'summary.', max);
    if (!text.ok) return text;
    out[field] = text.value;
  }
  return { ok: true, value: out as DeliverySummary };
}
