// `build.yaml` written and read back. A build folder may come from a cloned repository or be
// damaged by a crash or a hand edit, and a Resume trusts its project folder and its phases, so
// every field is checked for its type, its size and what it may hold; anything off is refused
// with a reason naming the field (`phases[2].attempts[0].startedAt`), never half-trusted.
import { isMap, LineCounter, parseDocument, stringify, visit } from 'yaml';
import { describeValue, isPlainObject } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { utf8Length } from '../prompt/cap';
import { relativePathProblem } from '../run/runRecord';
import { isSlug } from '../storage/safeNames';
import {
  bad,
  costs,
  isIsoDate,
  list,
  oneOf,
  optionalText,
  parseInput,
  parsePhase,
  parseSource,
  parseSummary,
  parseVerified,
  RECORD_TEXT_MAX_CHARS,
  wrong,
} from './buildRecordParts';
import { parseCommands, parseContract, parseFinal, parseWeaker } from './buildRecordContract';
import { BUILD_STATUSES, WORKFLOW_PHASES_MAX } from './buildTypes';
import type { BuildRecord } from './buildTypes';
import { isProjectDirName } from './projectName';

/** A build folder's name: `YYYYMMDD-HHMMSS-<slug>-<4 hex>`, UTC. */
export const BUILD_ID_PATTERN = /^\d{8}-\d{6}-[a-z0-9][a-z0-9-]{0,63}-[0-9a-f]{4}$/;
export const VERIFIED_MAX = 200;
/**
 * The most `build.yaml` may hold, read or written. A real one is a few KB; this bounds what a
 * hostile file costs to read. A record whose YAML would be larger is refused when written.
 */
export const BUILD_YAML_MAX_BYTES = 32 * 1024 * 1024;

const HEX4 = /^[0-9a-f]{4}$/;
const HEADER =
  '# Written by Groundwork: the state of one build (its phases, attempts, status, times, tokens and\n' +
  '# cost), rewritten whole on every change. Edits by hand are not kept, and a damaged file is\n' +
  '# shown as damaged rather than half-read.\n';

export function isBuildId(text: string): boolean {
  return BUILD_ID_PATTERN.test(text);
}

/** The id of a build named `slug` started at `nowMs` (see newRunId). RangeError for a slug or random part the pattern would refuse. */
export function newBuildId(slug: string, nowMs: number, randomHex4: string): string {
  if (!isSlug(slug))
    throw new RangeError(`${describeValue(slug)} is not a slug (a-z, 0-9 and '-', at most 64 characters).`);
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
  // 'final': the final verification's commands (contractKeeper.ts), after every phase.
  const stray = verified.value.find((v) => !names.includes(v.phase) && v.phase !== 'final');
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
  const { projectDir, projectName, summary, endedAt, input, commands, contract, final, weaker } = value;
  if (weaker !== undefined) {
    const parsed = parseWeaker(weaker);
    if (!parsed.ok) return parsed;
    record.weaker = parsed.value;
  }
  if (commands !== undefined) {
    const parsed = parseCommands(commands);
    if (!parsed.ok) return parsed;
    record.commands = parsed.value;
  }
  if (contract !== undefined) {
    const parsed = parseContract(contract);
    if (!parsed.ok) return parsed;
    if (!names.includes(parsed.value.phase))
      return bad(`field contract.phase names the phase ${parsed.value.phase}, which is not in phases`);
    record.contract = parsed.value;
  }
  if (final !== undefined) {
    const parsed = parseFinal(final);
    if (!parsed.ok) return parsed;
    record.final = parsed.value;
  }
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
    if (typeof projectName !== 'string' || !isProjectDirName(projectName))
      return wrong('projectName', projectName, 'a project name');
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
    source:
      r.source.kind === 'brief' ? { kind: 'brief', path: r.source.path } : { kind: 'brainstorm', slug: r.source.slug },
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
    weaker: r.weaker,
    commands: r.commands,
    contract: r.contract,
    final: r.final,
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
    verified: r.verified.map((v) =>
      compact({ phase: v.phase, command: v.command, exitCode: v.exitCode, output: v.output }),
    ),
  });
  const text = HEADER + stringify(ordered, { lineWidth: 0, aliasDuplicateObjects: false });
  const bytes = utf8Length(text);
  if (bytes > BUILD_YAML_MAX_BYTES)
    throw new RangeError(
      `The build record cannot be written: it is ${bytes} bytes, over the cap of ${BUILD_YAML_MAX_BYTES}.`,
    );
  return text;
}

/** `build.yaml`'s text read back: any YAML error, alias, second document or wrong field refuses the whole file, with the line or field. */
export function parseBuildYaml(text: string): Checked<BuildRecord> {
  const bytes = utf8Length(text);
  if (bytes > BUILD_YAML_MAX_BYTES) return bad(`the file is ${bytes} bytes, over the cap of ${BUILD_YAML_MAX_BYTES}`);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, strict: true, uniqueKeys: true });
  const problem = [...doc.errors, ...doc.warnings][0];
  if (problem !== undefined)
    return bad(`line ${lineCounter.linePos(problem.pos[0]).line}: YAML: ${problem.message.split('\n', 1)[0] ?? ''}`);
  let alias: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      alias = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  if (alias !== undefined)
    return bad(`line ${lineCounter.linePos(alias).line}: YAML aliases are not part of build.yaml`);
  if (!isMap(doc.contents)) return bad('it is not a mapping of fields');
  return parseBuildRecord(doc.toJS({ maxAliasCount: 0 }));
}

/** `obj` without its undefined fields, so that the YAML holds only what is set. */
function compact<T extends Record<string, unknown>>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
