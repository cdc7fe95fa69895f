// The roles tell the models to reply with bare JSON, but models wrap it in prose or code
// fences, stop mid-reply at a token limit, drop fields or invent values. Round 1 counts an
// inquisitor as a success when one usable question comes out of its reply, so the harvest keeps
// every question it can read and, when none, says in a short phrase why (the panel shows it).
// Nothing in a reply can make it throw or work without bound: a reply is untrusted model output.
// A summary reply that cannot be read says why (`summaryParseError`, quoted when the coordinator
// is asked again); if the second reply cannot be read either, its prose is the summary
// (`proseSummary`), so a model that never writes the JSON cannot leave a brainstorm stuck.

import { CAP_BYTES, capText, cutText } from '../prompt/cap';
import { isBlankText } from '../prompt/untrustedText';
import { DEFAULT_PRIORITY, MAX_PRIORITY, MIN_PRIORITY, SUMMARY_ITEMS_MAX, isAngle } from './brainstormTypes';
import type { Angle, BrainstormSummary, InquisitorStatus, Question } from './brainstormTypes';

/** What the harvest can tell; a timeout is the runner's to tell, not the reply's. */
export type HarvestStatus = Extract<InquisitorStatus, 'success' | 'parse_error' | 'empty'>;

export interface Harvest {
  status: HarvestStatus;
  questions: Question[];
  /** Why, when the status is not success. */
  detail?: string;
}

// A real reply is a few KB; these bound the work a runaway or hostile one can cause. Searching
// from every bracket is quadratic at worst, so the steps are bounded as well as the candidates.
const MAX_SCAN_CHARS = 1 << 20;
const MAX_CANDIDATES = 64;
const MAX_SCAN_STEPS = 16 * MAX_SCAN_CHARS;
const MAX_PARSE_CHARS = 2 * MAX_SCAN_CHARS;

const NO_QUESTIONS_JSON = 'no JSON object with a questions list in the reply';
const CUT_OFF = 'the JSON is cut off';
const QUESTIONS_NOT_A_LIST = 'the questions field is not a list';

/**
 * The questions of an inquisitor's (or the coordinator's follow-up) reply. `fallbackAngle` is
 * given to questions without a valid angle; `keptIn` names where the whole reply is kept, for the
 * marker of a question cut to CAP_BYTES.
 */
export function harvestQuestions(reply: string, fallbackAngle: Angle, keptIn: string): Harvest {
  if (typeof reply !== 'string' || isBlank(reply))
    return { status: 'empty', questions: [], detail: 'the reply is empty' };
  let list: unknown[] | undefined;
  let notAList = false;
  const scan = scanJson(reply, (value) => {
    if (isRecord(value) && 'questions' in value) {
      if (Array.isArray(value.questions)) {
        list = value.questions;
        return true;
      }
      notAList = true;
      return false;
    }
    if (Array.isArray(value) && value.some((item) => isRecord(item) && 'text' in item)) {
      list = value;
      return true;
    }
    return false;
  });
  if (!list) {
    const detail = notAList ? QUESTIONS_NOT_A_LIST : scan.cutOff ? CUT_OFF : NO_QUESTIONS_JSON;
    return { status: 'parse_error', questions: [], detail };
  }
  if (list.length === 0) return { status: 'empty', questions: [], detail: 'the questions list is empty' };

  const questions: Question[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const question = readQuestion(item, fallbackAngle, keptIn);
    if (!question) continue;
    // Exact repeats only; near-duplicates across inquisitors are the merge's to judge.
    const key = question.text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    questions.push(question);
  }
  if (questions.length === 0) {
    return { status: 'empty', questions: [], detail: `none of the ${list.length} questions has a text` };
  }
  return { status: 'success', questions };
}

/**
 * The most of a coordinator's reply a 'text' summary keeps (`proseSummary`): a summary is a page
 * or two; the whole reply stays in the coordinator's worker log.
 */
export const SUMMARY_TEXT_MAX_BYTES = 32 * 1024;

/**
 * The coordinator's `{"summary":{…}}` reply, or undefined when there is none in it. Lists a model
 * left out are empty, items that are not text are dropped, and each string is capped
 * with a marker naming `keptIn`.
 */
export function parseSummary(reply: string, keptIn: string): BrainstormSummary | undefined {
  const read = findSummary(reply);
  if (!('summary' in read)) return undefined;
  const summary = read.summary;
  const list = (...keys: string[]): string[] => {
    const value = keys.map((key) => summary[key]).find(Array.isArray);
    if (!value) return [];
    return value
      .flatMap((item) => {
        const text = typeof item === 'string' ? cleanText(item, keptIn) : '';
        return text ? [text] : [];
      })
      .slice(0, SUMMARY_ITEMS_MAX);
  };
  return {
    topic: typeof summary.topic === 'string' ? cleanText(summary.topic, keptIn) : '',
    // The role asks for snake_case; camelCase is what a model drifts to when it sees TypeScript.
    keyInsights: list('key_insights', 'keyInsights'),
    decisions: list('decisions'),
    openQuestions: list('open_questions', 'openQuestions'),
  };
}

/**
 * Why `parseSummary` finds no summary in `reply`, as one short sentence a prompt can quote back
 * to the coordinator when it asks again; undefined when there is one.
 */
export function summaryParseError(reply: string): string | undefined {
  const read = findSummary(reply);
  return 'error' in read ? read.error : undefined;
}

/**
 * The summary of a brainstorm whose coordinator did not reply with the summary JSON even when
 * asked again: its reply kept as prose (trimmed, cut to SUMMARY_TEXT_MAX_BYTES), the lists empty.
 * The text is untrusted model output, kept as data: the documents show it neutralised.
 */
export function proseSummary(topic: string, replyText: string): BrainstormSummary {
  const text = typeof replyText === 'string' ? cutText(replyText.trim(), SUMMARY_TEXT_MAX_BYTES) : '';
  return { topic: cutText(topic, CAP_BYTES), keyInsights: [], decisions: [], openQuestions: [], format: 'text', text };
}

/** The `summary` object of the first JSON value that has one, or why there is none. */
function findSummary(reply: string): { summary: Record<string, unknown> } | { error: string } {
  if (typeof reply !== 'string' || isBlank(reply)) return { error: 'The reply is empty.' };
  let found: Record<string, unknown> | undefined;
  let notAnObject = false;
  const scan = scanJson(reply, (value) => {
    if (!isRecord(value) || !('summary' in value)) return false;
    if (isRecord(value.summary)) {
      found = value.summary;
      return true;
    }
    notAnObject = true;
    return false;
  });
  if (found) return { summary: found };
  if (notAnObject) return { error: 'The "summary" field of the reply is not a JSON object.' };
  if (scan.cutOff) return { error: 'The JSON of the reply is cut off before it ends.' };
  return { error: 'The reply has no JSON object with a "summary" field.' };
}

function readQuestion(item: unknown, fallbackAngle: Angle, keptIn: string): Question | undefined {
  if (typeof item === 'string') {
    const text = cleanText(item, keptIn);
    return text ? { text, angle: fallbackAngle, priority: DEFAULT_PRIORITY } : undefined;
  }
  if (!isRecord(item) || typeof item.text !== 'string') return undefined;
  const text = cleanText(item.text, keptIn);
  if (!text) return undefined;
  return { text, angle: readAngle(item.angle) ?? fallbackAngle, priority: readPriority(item.priority) };
}

function readAngle(value: unknown): Angle | undefined {
  if (typeof value !== 'string') return undefined;
  // "UX" and "edge cases" are what a model means by the angles; anything else is not an angle.
  const angle = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return isAngle(angle) ? angle : undefined;
}

function readPriority(value: unknown): number {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number)) return DEFAULT_PRIORITY;
  return Math.min(MAX_PRIORITY, Math.max(MIN_PRIORITY, Math.round(number)));
}

/** One line (a question is shown and re-fed as one), capped. Empty when nothing visible is left. */
function cleanText(text: string, keptIn: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return isBlankText(line) ? '' : capText(line, keptIn).text;
}

function isBlank(text: string): boolean {
  return text.replace(/^\uFEFF/, '').trim() === '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Offers `accept` each JSON value found in `reply`, in order of where it starts, until it returns
 * true. A candidate runs from a `{` or `[` to the bracket that balances it, strings skipped, so
 * prose, code fences and trailing text around the JSON don't matter; a candidate that does not
 * parse is skipped and the search goes on from the next bracket (the JSON may start inside it).
 * `cutOff` says a candidate that began like JSON was still open at the end of the reply.
 */
function scanJson(reply: string, accept: (value: unknown) => boolean): { cutOff: boolean } {
  const text = reply.length > MAX_SCAN_CHARS ? reply.slice(0, MAX_SCAN_CHARS) : reply;
  let cutOff = false;
  let steps = 0;
  let candidates = 0;
  let parsed = 0;
  for (let start = nextOpening(text, 0); start >= 0; start = nextOpening(text, start + 1)) {
    if (candidates >= MAX_CANDIDATES || steps >= MAX_SCAN_STEPS) break;
    const match = balancedEnd(text, start, MAX_SCAN_STEPS - steps);
    steps += match.steps;
    if (match.end < 0) {
      if (match.reachedEnd && looksLikeJson(text, start)) cutOff = true;
      continue;
    }
    candidates++;
    parsed += match.end - start;
    if (parsed > MAX_PARSE_CHARS) break;
    const candidate = text.slice(start, match.end);
    const value = parse(match.rawControl ? escapeRawControls(candidate) : candidate);
    if (value !== undefined && accept(value)) break;
  }
  return { cutOff };
}

function nextOpening(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return i;
  }
  return -1;
}

/** Where the bracket at `start` is balanced (exclusive), or -1; brackets in strings don't count. */
function balancedEnd(
  text: string,
  start: number,
  maxSteps: number,
): { end: number; steps: number; reachedEnd: boolean; rawControl: boolean } {
  const stop = Math.min(text.length, start + maxSteps);
  let depth = 0;
  let inString = false;
  let escaped = false;
  let rawControl = false;
  let i = start;
  for (; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
      else if (c < 0x20) rawControl = true;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      // A mismatched pair (`{ ]`) closes too; JSON.parse rejects the candidate.
      if (--depth === 0) return { end: i + 1, steps: i + 1 - start, reachedEnd: false, rawControl };
    }
  }
  return { end: -1, steps: Math.max(1, i - start), reachedEnd: i >= text.length, rawControl };
}

/** `{"…` or `[{…` / `["…`: the start of JSON rather than a brace in prose. */
function looksLikeJson(text: string, start: number): boolean {
  const rest = text.slice(start, start + 64);
  return /^(\{\s*"|\[\s*[{"])/.test(rest);
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    // Not JSON (prose in braces, a fence's other content): the caller goes on to the next one.
    return undefined;
  }
}

/**
 * A line break written raw inside a string is the commonest way a model's JSON is invalid; the
 * text is made one line anyway, so such characters become spaces instead of failing the parse.
 */
function escapeRawControls(json: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  let from = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (!inString) {
      if (c === QUOTE) inString = true;
    } else if (escaped) escaped = false;
    else if (c === BACKSLASH) escaped = true;
    else if (c === QUOTE) inString = false;
    else if (c < 0x20) {
      out += json.slice(from, i) + ' ';
      from = i + 1;
    }
  }
  return out + json.slice(from);
}
