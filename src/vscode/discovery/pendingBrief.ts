// `.groundwork/panel/brief.json`: the Idea Brief on the panel's card until it is saved or
// discarded. It is only a file in the workspace, so a cloned repository can plant one: it is read
// like every other state file, each field checked for its type, size and characters, anything else
// refused with a reason the panel shows. Above all `savedAt`, which "Open Plan" opens and
// "Brainstorm Deeper" takes its plan from: only `.groundwork/plans/<slug>/idea-brief.md`.
// No vscode import: unit-tested, fuzzed (test/unit/vscode/discovery/pendingBrief.test.ts).
import { BRIEF_FIELDS, MAX_ROUNDS, type BriefFields } from '../../core/discovery/discoveryTypes';
import type { BriefCard, RoundTranscript } from '../../core/discovery/discoveryView';
import { DISCOVERY_TEXT_MAX_BYTES, QUESTIONS_MAX_BYTES } from '../../core/discovery/roundFile';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { GROUNDWORK_DIR, PENDING_BRIEF_FILE, PLAN_FILES, planFile, planPathParts } from '../../core/plan/layout';

/** The brief card as it is kept between windows (the core's BriefCard). */
export type PendingBrief = BriefCard;

/** Relative to `.groundwork/`. */
/** Far above what the panel writes (a request, a brief and three rounds); the read cap of the file. */
export const PENDING_BRIEF_MAX_BYTES = 2 * 1024 * 1024;

// Each limit is at least what the panel itself can write there, so its own file always reads back:
// the request and answers as discovery keeps them, the model's texts as its reply cap allows.
const LIMITS = {
  request: DISCOVERY_TEXT_MAX_BYTES,
  answer: DISCOVERY_TEXT_MAX_BYTES,
  field: QUESTIONS_MAX_BYTES,
  raw: QUESTIONS_MAX_BYTES,
  message: QUESTIONS_MAX_BYTES,
  question: QUESTIONS_MAX_BYTES,
  questions: 500,
  rounds: MAX_ROUNDS * 3,
} as const;

const TOP_KEYS = ['request', 'brief', 'raw', 'transcript', 'message', 'savedAt'] as const;
const ROUND_KEYS = ['round', 'questions', 'answer'] as const;

export type PendingBriefParse = { ok: true; value: PendingBrief } | { ok: false; reason: string };

/** The brief file as read: nothing, a brief, or a file that is not one (and why). */
export type PendingRead = { kind: 'none' } | { kind: 'ok'; brief: PendingBrief } | { kind: 'damaged'; reason: string };

/**
 * Reads the file through the store, which refuses a link out of `.groundwork/`, a FIFO or anything
 * else that is not a regular file, and a file over the cap; each refusal is a damaged file, with why.
 */
export async function readPendingBrief(store: WorkspaceStore): Promise<PendingRead> {
  let text: string | undefined;
  try {
    text = await store.readText(PENDING_BRIEF_FILE, PENDING_BRIEF_MAX_BYTES);
  } catch (err) {
    return { kind: 'damaged', reason: err instanceof Error ? err.message : String(err) };
  }
  if (text === undefined) return { kind: 'none' };
  const parsed = parsePendingBrief(text);
  return parsed.ok ? { kind: 'ok', brief: parsed.value } : { kind: 'damaged', reason: parsed.reason };
}

class Refused extends Error {}

/** Reads the file's text; never throws, whatever it is given. */
export function parsePendingBrief(text: string): PendingBriefParse {
  try {
    if (typeof text !== 'string') throw new Refused('it is not text');
    if (text.length > PENDING_BRIEF_MAX_BYTES)
      throw new Refused(
        `it is ${text.length} characters; a brief kept for the panel is at most ${PENDING_BRIEF_MAX_BYTES}`,
      );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Refused('it is not valid JSON');
    }
    return { ok: true, value: pendingBrief(json) };
  } catch (err) {
    // Anything but a refusal (a stack overflow on absurd nesting, say) is refused all the same.
    return { ok: false, reason: err instanceof Refused ? err.message : 'it could not be read as a brief' };
  }
}

/**
 * `plans/<slug>/idea-brief.md` (relative to `.groundwork/`) for a `savedAt` of exactly
 * `.groundwork/plans/<slug>/idea-brief.md`; undefined for anything else.
 */
export function planFileOf(savedAt: string): { slug: string; rel: string } | undefined {
  const parts = savedAt.startsWith(`${GROUNDWORK_DIR}/`) ? planPathParts(savedAt) : undefined;
  return parts?.file === PLAN_FILES.ideaBrief
    ? { slug: parts.slug, rel: planFile(parts.slug, PLAN_FILES.ideaBrief) }
    : undefined;
}

function pendingBrief(value: unknown): PendingBrief {
  const obj = record(value, 'the file', 'a JSON object', TOP_KEYS);
  const out: PendingBrief = {
    request: str(obj, 'request', LIMITS.request),
    brief: briefFields(obj['brief']),
    transcript: transcript(obj['transcript']),
    message: str(obj, 'message', LIMITS.message),
  };
  if (obj['raw'] !== undefined) out.raw = str(obj, 'raw', LIMITS.raw);
  if (obj['savedAt'] !== undefined) {
    const savedAt = str(obj, 'savedAt', 200);
    if (planFileOf(savedAt) === undefined)
      throw new Refused('field "savedAt" must be a path of the form .groundwork/plans/<plan>/idea-brief.md');
    out.savedAt = savedAt;
  }
  return out;
}

function briefFields(value: unknown): BriefFields {
  const obj = record(value, 'field "brief"', `an object with the fields ${BRIEF_FIELDS.join(', ')}`, BRIEF_FIELDS);
  const out = {} as BriefFields;
  for (const field of BRIEF_FIELDS) out[field] = str(obj, field, LIMITS.field, 'brief.');
  return out;
}

function transcript(value: unknown): RoundTranscript[] {
  if (!Array.isArray(value) || value.length > LIMITS.rounds)
    throw new Refused(`field "transcript" must be a list of at most ${LIMITS.rounds} rounds`);
  return value.map((item: unknown, i) => {
    const where = `transcript[${i}]`;
    const obj = record(item, where, 'an object with round, questions and (optionally) answer', ROUND_KEYS);
    const round = obj['round'];
    if (typeof round !== 'number' || !Number.isInteger(round) || round < 1 || round > LIMITS.rounds) {
      throw new Refused(`${where}.round must be a whole number from 1 to ${LIMITS.rounds}`);
    }
    const questions = obj['questions'];
    if (
      !Array.isArray(questions) ||
      questions.length > LIMITS.questions ||
      questions.some((q) => typeof q !== 'string')
    ) {
      throw new Refused(`${where}.questions must be a list of at most ${LIMITS.questions} texts`);
    }
    const out: RoundTranscript = {
      round,
      questions: questions.map((_, j) =>
        str(questions as unknown as Record<string, unknown>, String(j), LIMITS.question, `${where}.questions[`, ']'),
      ),
    };
    if (obj['answer'] !== undefined) out.answer = str(obj, 'answer', LIMITS.answer, `${where}.`);
    return out;
  });
}

/** A plain JSON object with only `keys` (a `__proto__` key of the text is an unknown key too). */
function record(value: unknown, what: string, shape: string, keys: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Refused(`${what} must be ${shape}`);
  for (const key of Object.keys(value)) {
    if (!keys.includes(key))
      throw new Refused(`${what} has an unknown field ${shownKey(key)} (known: ${keys.join(', ')})`);
  }
  return value as Record<string, unknown>;
}

function str(obj: Record<string, unknown>, key: string, max: number, prefix = '', suffix = ''): string {
  const name = prefix.endsWith('[') ? `${prefix}${key}${suffix}` : `field "${prefix}${key}"`;
  // Own fields only: an inherited `constructor` or `toString` is not the file's.
  const v = Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
  if (typeof v !== 'string') throw new Refused(`${name} must be text`);
  if (v.length > max) throw new Refused(`${name} is ${v.length} characters; the limit is ${max}`);
  if (v.includes('\u0000')) throw new Refused(`${name} holds a NUL character`);
  return v;
}

/** A key as a message may show it: short, quoted, with nothing invisible or unprintable. */
function shownKey(key: string): string {
  const printable = key.replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(printable.length > 40 ? `${printable.slice(0, 40)}…` : printable);
}
