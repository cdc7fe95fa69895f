// `.groundwork/plans/<slug>/.workers/<agent>.ndjson`: every model's whole reply and every answer
// the person typed, one record per line, so that what the prompts and documents cap is kept whole
// (up to the caps below). It is a file of the workspace like any other, so a line read back is
// checked field by field.
import { isPlainObject } from '../inputChecks';
import type { LlmUsage } from '../llm/llmClient';
import { isUsage } from '../llm/usage';
import { utf8Length } from '../prompt/cap';
import type { RecordParser } from '../storage/recordLog';
import { ANSWER_KEPT_MAX_BYTES, INQUISITOR_STATUSES, MAX_QUESTIONS, ROUNDS_LIMIT } from './brainstormTypes';

/** What a worker did: round 1's questions, the coordinator's two tasks, the person's answers. */
export const WORKER_TASKS = ['questions', 'follow-up', 'summarize', 'answers'] as const;
/** A reply is at most a few thousand tokens; this leaves room and bounds a hand-made line. */
export const WORKER_TEXT_MAX_BYTES = 1024 * 1024;
const MODEL_MAX_CHARS = 200;

export interface WorkerRecord {
  /** ISO-8601 UTC. */
  timestamp: string;
  /** Absent for answers typed when the session could not be read (its step was under way elsewhere). */
  round?: number;
  task: (typeof WORKER_TASKS)[number];
  /** How the reply was read: an inquisitor status. */
  status?: (typeof INQUISITOR_STATUSES)[number];
  /** The model's whole reply. */
  text?: string;
  /** The person's answers, one per question; null for a skipped one. */
  answers?: (string | null)[];
  model?: string;
  usage?: LlmUsage;
}

export const parseWorkerRecord: RecordParser<WorkerRecord> = (value) => {
  const bad = (reason: string) => ({ ok: false as const, reason });
  if (!isPlainObject(value)) return bad('not a JSON object');
  const { timestamp, round, task, status, text, answers, model, usage } = value;
  if (
    typeof timestamp !== 'string' ||
    !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(timestamp) ||
    Number.isNaN(Date.parse(timestamp))
  )
    return bad('timestamp is not an ISO-8601 UTC time');
  if (!(WORKER_TASKS as readonly unknown[]).includes(task)) return bad(`task is not one of ${WORKER_TASKS.join(', ')}`);
  const record: WorkerRecord = { timestamp, task: task as WorkerRecord['task'] };
  if (round !== undefined) {
    if (!Number.isSafeInteger(round) || (round as number) < 0 || (round as number) > ROUNDS_LIMIT)
      return bad(`round is not 0 to ${ROUNDS_LIMIT}`);
    record.round = round as number;
  }
  if (status !== undefined) {
    if (!(INQUISITOR_STATUSES as readonly unknown[]).includes(status))
      return bad(`status is not one of ${INQUISITOR_STATUSES.join(', ')}`);
    record.status = status as WorkerRecord['status'];
  }
  if (text !== undefined) {
    if (typeof text !== 'string' || utf8Length(text) > WORKER_TEXT_MAX_BYTES)
      return bad('text is not a reply of at most 1 MB');
    record.text = text;
  }
  if (answers !== undefined) {
    const ok =
      Array.isArray(answers) &&
      answers.length <= MAX_QUESTIONS &&
      answers.every((a) => a === null || (typeof a === 'string' && utf8Length(a) <= ANSWER_KEPT_MAX_BYTES));
    if (!ok) return bad(`answers is not a list of at most ${MAX_QUESTIONS} answers (text of at most 256 KB, or null)`);
    record.answers = answers as (string | null)[];
  }
  if (model !== undefined) {
    if (typeof model !== 'string' || model.length > MODEL_MAX_CHARS) return bad('model is not a model id');
    record.model = model;
  }
  if (usage !== undefined) {
    if (!isUsage(usage)) return bad('usage does not hold four token counts');
    record.usage = usage;
  }
  return { ok: true, record };
};
