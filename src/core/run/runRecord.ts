// `run.json` read back with care. A run folder may come from a cloned repository, so every field is
// checked for its type, its size and the characters it may hold before a list shows it, a Resume
// trusts its root or a Revert writes under it; anything off is a reason naming the field.
import { describeValue, isPlainObject, lengthProblem } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { isUsage } from '../llm/usage';
import { isBlankText } from '../prompt/untrustedText';
import { ROLE_NAME_MAX_CHARS, ROLE_NAME_PATTERN } from '../roles/roleSchema';
import {
  MANIFEST_WRITE_MAX_CHARS,
  REASON_MAX_CHARS,
  RUN_STATUSES,
  SUMMARY_MAX_CHARS,
  TASK_MAX_CHARS,
} from './runTypes';
import type { RunRecord, RunStatus } from './runTypes';

/** A run folder's name: `YYYYMMDD-HHMMSS-<role>-<4 hex>`, UTC. Anything else under `runs/` is not a run. */
export const RUN_ID_PATTERN = /^\d{8}-\d{6}-[a-z][a-z0-9-]{0,63}-[0-9a-f]{4}$/;

/** A model id as the providers name them ('claude-sonnet-4-5-20250929', 'copilot/gpt-4o'): printable ascii, one word. */
const MODEL_PATTERN = /^[\x21-\x7e]{1,200}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const HEX4 = /^[0-9a-f]{4}$/;

export function isRunId(text: string): boolean {
  return RUN_ID_PATTERN.test(text);
}

/**
 * The id of a run of `role` started at `nowMs`: sortable by time, readable in a folder listing, and
 * `randomHex4` keeps two runs of one role started in the same second apart (the store retries on a
 * clash). RangeError for a role or a random part the pattern would refuse.
 */
export function newRunId(role: string, nowMs: number, randomHex4: string): string {
  if (!ROLE_NAME_PATTERN.test(role) || role.length > ROLE_NAME_MAX_CHARS)
    throw new RangeError(`${describeValue(role)} is not a role name.`);
  if (!HEX4.test(randomHex4)) throw new RangeError(`${describeValue(randomHex4)} is not 4 lower-case hex digits.`);
  const iso = new Date(nowMs).toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  const id = `${stamp}-${role}-${randomHex4}`;
  // A year past 9999 or before 0 has no 4-digit form; such a clock is refused rather than stored.
  if (!isRunId(id)) throw new RangeError(`No run id can be made for the time ${nowMs}.`);
  return id;
}

/** ISO-8601 UTC as Groundwork writes it (`toISOString`), and a date that exists. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE.test(value) && Number.isFinite(Date.parse(value));
}

/**
 * Why `path` is not a '/'-separated path of plain names relative to some folder, or undefined when
 * it is. `allowDot`: '.' alone means the folder itself (a run's root). Checked without the disk:
 * what the disk holds is the writer's check (revert.ts).
 */
export function relativePathProblem(path: string, allowDot = false): string | undefined {
  if (path === '') return 'is empty';
  if (allowDot && path === '.') return undefined;
  if (path.length > 4096) return 'is longer than 4096 characters';
  if (CONTROL.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is an absolute path';
  for (const segment of path.split('/')) {
    if (segment === '') return "has an empty folder name (a '//' or a '/' at either end)";
    if (segment === '..') return "has a '..' segment";
    if (segment === '.') return "has a '.' segment";
  }
  return undefined;
}

type Bad = { ok: false; reason: string };
const bad = (reason: string): Bad => ({ ok: false, reason });

/** The record in `value`, or the first reason it is not one. Unknown fields are ignored and not kept. */
export function parseRunRecord(value: unknown): Checked<RunRecord> {
  if (!isPlainObject(value)) return bad('it is not a JSON object');
  if (value['version'] !== 1) return bad(`version ${describeValue(value['version'])} is not 1`);
  const { id, role, root, status, turns, origin } = value;
  if (typeof id !== 'string' || !isRunId(id)) return bad(`field id ${describeValue(id)} is not a run id`);
  if (typeof role !== 'string' || !ROLE_NAME_PATTERN.test(role) || role.length > ROLE_NAME_MAX_CHARS)
    return bad(`field role ${describeValue(role)} is not a role name`);
  const task = text(value, 'task', TASK_MAX_CHARS);
  if (!task.ok) return task;
  if (typeof root !== 'string') return bad('field root is not text');
  const rootProblem = relativePathProblem(root, true);
  if (rootProblem !== undefined) return bad(`field root ${rootProblem}`);
  if (!(RUN_STATUSES as readonly unknown[]).includes(status))
    return bad(`field status ${describeValue(status)} is not one of ${RUN_STATUSES.join(', ')}`);
  if (!Number.isSafeInteger(turns) || (turns as number) < 0) return bad('field turns is not a whole number ≥ 0');
  if (origin !== 'vscode' && origin !== 'cli') return bad(`field origin ${describeValue(origin)} is not vscode or cli`);
  for (const field of ['startedAt', 'updatedAt'] as const) {
    if (!isIsoDate(value[field])) return bad(`field ${field} is not an ISO-8601 UTC time`);
  }
  const run: RunRecord = {
    version: 1,
    id,
    role,
    task: task.value,
    root,
    status: status as RunStatus,
    turns: turns as number,
    startedAt: value['startedAt'] as string,
    updatedAt: value['updatedAt'] as string,
    origin,
  };

  const { usage, model, costUsd } = value;
  if (usage !== undefined) {
    if (!isUsage(usage)) return bad('field usage is not four whole token counts ≥ 0');
    run.usage = {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheCreationTokens: usage.cacheCreationTokens,
    };
  }
  if (model !== undefined) {
    if (typeof model !== 'string' || !MODEL_PATTERN.test(model))
      return bad(`field model ${describeValue(model)} is not a model id`);
    run.model = model;
  }
  if (costUsd !== undefined) {
    if (typeof costUsd !== 'number' || !Number.isFinite(costUsd) || costUsd < 0)
      return bad('field costUsd is not a number ≥ 0');
    run.costUsd = costUsd;
  }
  for (const field of ['endedAt', 'revertedAt'] as const) {
    const at = value[field];
    if (at === undefined) continue;
    if (!isIsoDate(at)) return bad(`field ${field} is not an ISO-8601 UTC time`);
    run[field] = at;
  }
  for (const [field, max] of [
    ['reason', REASON_MAX_CHARS],
    ['summary', SUMMARY_MAX_CHARS],
    ['manifestWrite', MANIFEST_WRITE_MAX_CHARS],
  ] as const) {
    if (value[field] === undefined) continue;
    const checked = text(value, field, max, { blank: true });
    if (!checked.ok) return checked;
    run[field] = checked.value;
  }
  const { ranCommand } = value;
  if (ranCommand !== undefined) {
    if (typeof ranCommand !== 'boolean') return bad('field ranCommand is not true or false');
    run.ranCommand = ranCommand;
  }
  return { ok: true, value: run };
}

function text(
  obj: Record<string, unknown>,
  field: string,
  maxChars: number,
  options: { blank?: boolean } = {},
): Checked<string> {
  const v = obj[field];
  if (typeof v !== 'string') return bad(`field ${field} is not text`);
  const tooLong = lengthProblem(`field ${field}`, v, maxChars);
  if (tooLong !== undefined) return bad(tooLong);
  if (!options.blank && isBlankText(v)) return bad(`field ${field} is empty`);
  return { ok: true, value: v };
}
