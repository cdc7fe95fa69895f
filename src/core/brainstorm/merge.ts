// Three inquisitors questioning one topic ask much the same thing in different words, and the
// person's attention is the scarce resource: at most MAX_QUESTIONS a round, no question twice.
// The merge is plain code, not a model call, so that the same replies always give the same round
// (a reloaded window replays it) and tests can say exactly which questions a person sees.

import { ANGLES, DUPLICATE_SIMILARITY, MAX_QUESTIONS } from './brainstormTypes';
import type { Angle, Question } from './brainstormTypes';

/**
 * Lower case, NFKC (full-width letters and ligatures read as the plain ones), punctuation and
 * symbols as spaces, whitespace runs collapsed: the text as compared, never as shown.
 */
export function normalizeQuestion(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

export function tokenSet(text: string): Set<string> {
  const normalized = normalizeQuestion(text);
  return new Set(normalized ? normalized.split(' ') : []);
}

/** |a ∩ b| / |a ∪ b|; two empty sets are alike (both questions are nothing but punctuation). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const token of a) if (b.has(token)) common++;
  return common / (a.size + b.size - common);
}

export interface MergeOptions {
  /** At most this many questions come out (default MAX_QUESTIONS). */
  max?: number;
  /** Earlier rounds' questions: a new one that repeats any of them is dropped. */
  asked?: Question[];
}

interface Candidate {
  question: Question;
  tokens: Set<string>;
  normalized: string;
  angleIndex: number;
}

/**
 * The round's questions from the inquisitors' (or the follow-up's) questions: near-duplicates
 * dropped, at most `max` kept with every angle heard, in the order they are put
 * to the person. The result depends on the questions only, never on the order they came in.
 */
export function mergeQuestions(questions: Question[], options: MergeOptions = {}): Question[] {
  const max = Math.max(0, Math.floor(options.max ?? MAX_QUESTIONS));
  const asked = (options.asked ?? []).map((question) => tokenSet(question.text));
  const candidates = questions.map(toCandidate);

  // Near-duplicates: when two angles ask the same thing, the one that asked less keeps it, so the
  // round does not tilt further toward the inquisitor that already fills most of it.
  const angleCounts = new Map<Angle, number>();
  for (const { question } of candidates) angleCounts.set(question.angle, (angleCounts.get(question.angle) ?? 0) + 1);
  const preferred = [...candidates].sort(
    (a, b) =>
      (angleCounts.get(a.question.angle) ?? 0) - (angleCounts.get(b.question.angle) ?? 0) || byPriorityThenText(a, b),
  );
  const unique: Candidate[] = [];
  for (const candidate of preferred) {
    // A question the person has seen in an earlier round is not put again, answered or skipped.
    if (asked.some((tokens) => jaccard(candidate.tokens, tokens) >= DUPLICATE_SIMILARITY)) continue;
    const twin = unique.findIndex((kept) => jaccard(candidate.tokens, kept.tokens) >= DUPLICATE_SIMILARITY);
    if (twin < 0) {
      unique.push(candidate);
      continue;
    }
    // The kept wording carries the more urgent of the two priorities: the question matters as
    // much as its most worried asker thought (the coordinator's merge rule).
    const kept = unique[twin]!;
    if (candidate.question.priority < kept.question.priority) {
      unique[twin] = { ...kept, question: { ...kept.question, priority: candidate.question.priority } };
    }
  }

  // At most `max`: every angle that asked anything gets its best question in (the floor), so a
  // flood of urgent questions from one inquisitor cannot silence the others; the rest go by priority.
  let chosen = unique;
  if (unique.length > max) {
    const ranked = [...unique].sort(byPriorityThenText);
    const floor = ANGLES.flatMap((angle) => ranked.find((candidate) => candidate.question.angle === angle) ?? []).slice(
      0,
      max,
    );
    const rest = ranked.filter((candidate) => !floor.includes(candidate));
    chosen = [...floor, ...rest.slice(0, max - floor.length)];
  }
  return chosen.sort(byPriorityThenAngle).map((candidate) => candidate.question);
}

function toCandidate(question: Question): Candidate {
  return {
    question,
    tokens: tokenSet(question.text),
    normalized: normalizeQuestion(question.text),
    angleIndex: ANGLES.indexOf(question.angle),
  };
}

// Code-unit comparison, not localeCompare: the order must not change with the machine's locale.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Priority, then the text alphabetically; the rest only makes the order total. */
function byPriorityThenText(a: Candidate, b: Candidate): number {
  return (
    a.question.priority - b.question.priority ||
    compareText(a.normalized, b.normalized) ||
    a.angleIndex - b.angleIndex ||
    compareText(a.question.text, b.question.text)
  );
}

/** The order a round is shown in: most urgent first, angles in their listed order within a priority. */
function byPriorityThenAngle(a: Candidate, b: Candidate): number {
  return (
    a.question.priority - b.question.priority ||
    a.angleIndex - b.angleIndex ||
    compareText(a.normalized, b.normalized) ||
    compareText(a.question.text, b.question.text)
  );
}
