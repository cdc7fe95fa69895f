// A brainstorm between steps: `.groundwork/plans/<slug>/.brainstorm.json`, replaced atomically after
// every step. It is a file in the workspace, maybe committed to a repository by someone else, and
// its texts go back into prompts when the brainstorm resumes. So it is read back with care: every
// field is checked for its type, its size and, for names, the characters it may hold; anything
// off is a 'corrupt' error naming the field, never a half-trusted session.
import { isIsoStorableMs } from '../clock';
import { describeValue, isPlainObject } from '../inputChecks';
import { CAP_BYTES, utf8Length } from '../prompt/cap';
import { isBlankText } from '../prompt/untrustedText';
import { isSlug } from '../storage/safeNames';
import { SUMMARY_TEXT_MAX_BYTES } from './harvest';
import {
  ANGLES,
  BrainstormError,
  DETAIL_MAX_BYTES,
  ERROR_MAX_BYTES,
  INQUISITOR_STATUSES,
  MAX_PRIORITY,
  MAX_QUESTIONS,
  MIN_PRIORITY,
  ROUNDS_LIMIT,
  SEED_MAX_BYTES,
  SUMMARY_ITEMS_MAX,
  TOPIC_MAX_BYTES,
  isAngle,
} from './brainstormTypes';
import type {
  Angle,
  Answer,
  BrainstormPhase,
  BrainstormRound,
  BrainstormSession,
  BrainstormSummary,
  InquisitorOutcome,
  Question,
} from './brainstormTypes';

/** The file a brainstorm may be seeded from: a markdown file directly in a plan folder. */
const SEED_FILE = /^[a-z0-9][a-z0-9-]{0,62}\.md$/;

/**
 * The read cap of a session file, above the largest one Groundwork can write: 20 rounds of 8
 * questions and answers of 8 KB each, 150 summary items of 8 KB (or a summary of 32 KB prose), a
 * 64 KB topic, each text six times its size when every character is a control character JSON
 * escapes (about 24 MB).
 * `serializeSession` refuses to make a file its reader would refuse.
 */
export const SESSION_FILE_MAX_BYTES = 32 * 1024 * 1024;
const FILE_VERSION = 1;

export function serializeSession(session: BrainstormSession): string {
  const text = `${JSON.stringify({ version: FILE_VERSION, ...session }, null, 2)}\n`;
  if (utf8Length(text) > SESSION_FILE_MAX_BYTES) {
    // Cannot happen within the caps above; refused rather than written past what reads back.
    throw new BrainstormError(
      'invalid',
      `The brainstorm ${session.slug} would grow over ${SESSION_FILE_MAX_BYTES / 1024 / 1024} MB. Shorten your answers, or summarize it now.`,
    );
  }
  return text;
}

/** The session in `text`, or BrainstormError 'corrupt' saying what is wrong with it. */
export function parseSession(text: string, where: string): BrainstormSession {
  const bad = (why: string) =>
    new BrainstormError('corrupt', `${where} is damaged: ${why}. Discard this brainstorm and start it again.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('it is not valid JSON');
  }
  if (!isPlainObject(value)) throw bad('it is not a JSON object');
  if (value['version'] !== FILE_VERSION) throw bad(`version ${describeValue(value['version'])} is not ${FILE_VERSION}`);
  const { slug, createdAt, minRounds, maxRounds } = value;
  if (typeof slug !== 'string' || !isSlug(slug)) throw bad('field slug is not a plan name');
  const topic = textField(value['topic'], 'topic', TOPIC_MAX_BYTES, bad);
  if (!isIsoStorableMs(createdAt)) throw bad('field createdAt is not a time between 1970 and 9999');
  if (!isRoundCount(minRounds) || !isRoundCount(maxRounds) || minRounds > maxRounds)
    throw bad('fields minRounds/maxRounds are not 1 ≤ min ≤ max ≤ 20');
  const session: BrainstormSession = {
    slug,
    topic,
    createdAt,
    minRounds,
    maxRounds,
    rounds: [],
    phase: { kind: 'inquiring' },
  };

  const seed = value['seed'];
  if (seed !== undefined) {
    if (!isPlainObject(seed)) throw bad('field seed is not {slug, file, text}');
    const seedSlug = seed['slug'];
    const file = seed['file'];
    if (typeof seedSlug !== 'string' || !isSlug(seedSlug)) throw bad('seed.slug is not a plan name');
    if (typeof file !== 'string' || !SEED_FILE.test(file))
      throw bad('seed.file is not the name of a markdown file of a plan folder');
    session.seed = {
      slug: seedSlug,
      file,
      text: textField(seed['text'], 'seed.text', SEED_MAX_BYTES, bad, { blank: true }),
    };
  }
  const inquisitors = value['inquisitors'];
  if (inquisitors !== undefined) session.inquisitors = parseOutcomes(inquisitors, bad);

  const rounds = value['rounds'];
  if (!Array.isArray(rounds) || rounds.length > ROUNDS_LIMIT)
    throw bad('field rounds is not a list of at most 20 rounds');
  session.rounds = rounds.map((r, i) => parseRound(r, i + 1, bad));

  const summary = value['summary'];
  if (summary !== undefined) session.summary = parseSummaryField(summary, bad);
  session.phase = parsePhase(value['phase'], bad);
  checkConsistent(session, bad);
  return session;
}

/**
 * A text field: a string of at most `maxBytes` (what Groundwork itself ever writes there), not
 * blank unless `blank` says it may be.
 */
function textField(
  value: unknown,
  field: string,
  maxBytes: number,
  bad: Bad,
  options: { blank?: boolean } = {},
): string {
  if (typeof value !== 'string') throw bad(`${field} is not text`);
  if (utf8Length(value) > maxBytes) throw bad(`${field} is longer than ${maxBytes / 1024} KB`);
  if (!options.blank && isBlankText(value)) throw bad(`${field} is empty`);
  return value;
}

function isRoundCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= ROUNDS_LIMIT;
}

type Bad = (why: string) => BrainstormError;

function parseOutcomes(value: unknown, bad: Bad): Record<Angle, InquisitorOutcome> {
  if (!isPlainObject(value)) throw bad('field inquisitors is not an object');
  const out = {} as Record<Angle, InquisitorOutcome>;
  for (const angle of ANGLES) {
    const o = value[angle];
    if (!isPlainObject(o) || !(INQUISITOR_STATUSES as readonly unknown[]).includes(o['status']))
      throw bad(`inquisitors.${angle}.status is not one of ${INQUISITOR_STATUSES.join(', ')}`);
    const detail =
      o['detail'] === undefined
        ? undefined
        : textField(o['detail'], `inquisitors.${angle}.detail`, DETAIL_MAX_BYTES, bad, { blank: true });
    out[angle] = { status: o['status'] as InquisitorOutcome['status'], ...(detail !== undefined ? { detail } : {}) };
  }
  return out;
}

function parseRound(value: unknown, expected: number, bad: Bad): BrainstormRound {
  const at = `rounds[${expected - 1}]`;
  if (!isPlainObject(value) || value['round'] !== expected) throw bad(`${at}.round is not ${expected}`);
  const questions = value['questions'];
  if (!Array.isArray(questions) || questions.length === 0 || questions.length > MAX_QUESTIONS)
    throw bad(`${at}.questions is not a list of 1 to ${MAX_QUESTIONS} questions`);
  const round: BrainstormRound = {
    round: expected,
    questions: questions.map((q, i) => parseQuestion(q, `${at}.questions[${i}]`, bad)),
  };
  const answers = value['answers'];
  if (answers !== undefined) {
    if (!Array.isArray(answers) || answers.length !== questions.length)
      throw bad(`${at}.answers does not have one answer per question`);
    round.answers = answers.map((a, i) => parseAnswer(a, `${at}.answers[${i}]`, bad));
  }
  return round;
}

function parseQuestion(value: unknown, at: string, bad: Bad): Question {
  if (!isPlainObject(value)) throw bad(`${at} is not a question`);
  const { angle, priority } = value;
  const question = textField(value['text'], `${at}.text`, CAP_BYTES, bad);
  if (!isAngle(angle)) throw bad(`${at}.angle is not one of ${ANGLES.join(', ')}`);
  if (!Number.isSafeInteger(priority) || (priority as number) < MIN_PRIORITY || (priority as number) > MAX_PRIORITY)
    throw bad(`${at}.priority is not 1 to 5`);
  return { text: question, angle, priority: priority as number };
}

function parseAnswer(value: unknown, at: string, bad: Bad): Answer {
  if (isPlainObject(value) && value['kind'] === 'skipped') return { kind: 'skipped' };
  if (isPlainObject(value) && value['kind'] === 'answered')
    return { kind: 'answered', text: textField(value['text'], `${at}.text`, CAP_BYTES, bad) };
  throw bad(`${at} is not an answer`);
}

function parseSummaryField(value: unknown, bad: Bad): BrainstormSummary {
  const list = (v: unknown, name: string) => {
    if (!Array.isArray(v) || v.length > SUMMARY_ITEMS_MAX)
      throw bad(`summary.${name} is not a list of at most ${SUMMARY_ITEMS_MAX} texts`);
    return v.map((x, i) => textField(x, `summary.${name}[${i}]`, CAP_BYTES, bad));
  };
  if (!isPlainObject(value)) throw bad('field summary is not a summary');
  const summary: BrainstormSummary = {
    topic: textField(value['topic'], 'summary.topic', CAP_BYTES, bad, { blank: true }),
    keyInsights: list(value['keyInsights'], 'keyInsights'),
    decisions: list(value['decisions'], 'decisions'),
    openQuestions: list(value['openQuestions'], 'openQuestions'),
  };
  // A summary kept as prose (harvest.ts proseSummary): both fields or neither, and no lists.
  const { format, text } = value;
  if (format === undefined && text === undefined) return summary;
  if (format !== 'text')
    throw bad(
      format === undefined
        ? 'summary.text is there without summary.format text'
        : `summary.format ${describeValue(format)} is not text`,
    );
  if (text === undefined) throw bad('summary.format text has no summary.text');
  if (summary.keyInsights.length + summary.decisions.length + summary.openQuestions.length > 0)
    throw bad('summary.format text has items in its lists');
  // A blank reply is still what the coordinator wrote: the documents say it was empty.
  return { ...summary, format, text: textField(text, 'summary.text', SUMMARY_TEXT_MAX_BYTES, bad, { blank: true }) };
}

function parsePhase(value: unknown, bad: Bad): BrainstormPhase {
  if (!isPlainObject(value)) throw bad('field phase is missing');
  const error = value['error'];
  switch (value['kind']) {
    case 'inquiring':
    case 'answering':
    case 'following-up':
    case 'summarizing':
    case 'complete':
      return { kind: value['kind'] };
    case 'inquiry-failed':
      return { kind: 'inquiry-failed', error: textField(error, 'phase.error', ERROR_MAX_BYTES, bad) };
    case 'failed': {
      const during = value['during'];
      if (during !== 'follow-up' && during !== 'summarize') throw bad('phase.during is not follow-up or summarize');
      return { kind: 'failed', during, error: textField(error, 'phase.error', ERROR_MAX_BYTES, bad) };
    }
    default:
      throw bad(`phase.kind ${describeValue(value['kind'])} is unknown`);
  }
}

/** The phase must fit the rounds, or a step would act on a round that is not there. */
function checkConsistent(s: BrainstormSession, bad: Bad): void {
  const last = s.rounds.at(-1);
  const open = s.rounds.filter((r) => r.answers === undefined);
  if (open.length > 1 || (open.length === 1 && open[0] !== last)) throw bad('only the last round may wait for answers');
  const kind = s.phase.kind;
  const needsRounds = kind !== 'inquiring' && kind !== 'inquiry-failed';
  if (needsRounds && last === undefined) throw bad(`phase ${kind} needs a round`);
  if (!needsRounds && s.rounds.length > 0) throw bad(`phase ${kind} comes before any round`);
  if (kind === 'answering' && last?.answers !== undefined) throw bad('phase answering needs an unanswered round');
  if (
    (kind === 'following-up' || kind === 'summarizing' || kind === 'failed' || kind === 'complete') &&
    last?.answers === undefined
  ) {
    throw bad(`phase ${kind} needs the last round answered`);
  }
  if (kind === 'complete' && s.summary === undefined) throw bad('phase complete needs a summary');
  if (s.rounds.length > s.maxRounds) throw bad('there are more rounds than maxRounds');
}
