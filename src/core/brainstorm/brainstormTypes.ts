// The brainstorm's vocabulary: round 1 sends the topic to three
// inquisitors at once, their JSON questions are harvested and merged into at most eight; later
// rounds are the coordinator's follow-ups; the end is a human document and a machine-readable
// context file in the plan folder `.groundwork/plans/<slug>/`. Plain data only, safe to post to a
// webview or print as JSON.

import type { ToolActivity } from '../tools/toolActivity';

/** The three angles of round 1, in the order they are listed and picked. */
export const ANGLES = ['ux', 'technical', 'edge-cases'] as const;
export type Angle = (typeof ANGLES)[number];

export function isAngle(value: unknown): value is Angle {
  return typeof value === 'string' && (ANGLES as readonly string[]).includes(value);
}

/** The role that questions the topic from each angle (roles/inquisitor-*.md). */
export const INQUISITOR_ROLES: Readonly<Record<Angle, string>> = {
  ux: 'inquisitor-ux',
  technical: 'inquisitor-technical',
  'edge-cases': 'inquisitor-edge-cases',
};
export const COORDINATOR_ROLE = 'brainstorm-coordinator';

/** How an inquisitor's round 1 went; round 1 fails only when none succeeded. */
export const INQUISITOR_STATUSES = ['success', 'parse_error', 'timeout', 'empty'] as const;
export type InquisitorStatus = (typeof INQUISITOR_STATUSES)[number];

/** Priority 1 is the most important, 5 nice to know; a reply without one gets DEFAULT_PRIORITY. */
export const MIN_PRIORITY = 1;
export const MAX_PRIORITY = 5;
export const DEFAULT_PRIORITY = 3;
/** At most this many questions are put to the person per round. */
export const MAX_QUESTIONS = 8;
/** Token-set Jaccard similarity at or above which two questions are one. */
export const DUPLICATE_SIMILARITY = 0.6;
/** What a skipped question's answer is recorded as; it is never fed to a model. */
export const SKIPPED_ANSWER = '[skipped by user]';

/** A topic is a line or a paragraph; a pasted document belongs in a file the topic names. */
export const TOPIC_MAX_BYTES = 64 * 1024;
/** The seed brief as the models see it (and as the session file keeps it). */
export const SEED_MAX_BYTES = 16 * 1024;
/** An inquisitor's "why not" line, as kept and shown. */
export const DETAIL_MAX_BYTES = 1024;
/** A failed step's error (round 1's names all three inquisitors' details), as kept and shown. */
export const ERROR_MAX_BYTES = 8 * 1024;
/** Items per list of the summary: a runaway reply must not make the session file unreadable. */
export const SUMMARY_ITEMS_MAX = 50;
/**
 * The most of one answer `.workers/user.ndjson` keeps (discovery keeps as much per message); the
 * prompt sees at most CAP_BYTES of it. A longer paste is cut there, and the person is told.
 */
export const ANSWER_KEPT_MAX_BYTES = 256 * 1024;

export const DEFAULT_MIN_ROUNDS = 1;
export const DEFAULT_MAX_ROUNDS = 5;
/** Rounds can never be more than this, whatever a setting says. */
export const ROUNDS_LIMIT = 20;
export const DEFAULT_CONCURRENCY = 3;
export const DEFAULT_INQUISITOR_TIMEOUT_SECONDS = 120;

export interface Question {
  /** One question, at most CAP_BYTES of UTF-8 (longer ones end in the truncation marker). */
  text: string;
  angle: Angle;
  /** A whole number from MIN_PRIORITY to MAX_PRIORITY. */
  priority: number;
}

/** The person's answer to one question. */
export type Answer = { kind: 'answered'; text: string } | { kind: 'skipped' };

export interface BrainstormRound {
  /** 1-based. */
  round: number;
  questions: Question[];
  /** One per question, in order; absent while the round waits for the person. */
  answers?: Answer[];
}

/** One inquisitor's outcome: its status, and for anything but success a line saying why. */
export interface InquisitorOutcome {
  status: InquisitorStatus;
  /** e.g. "no JSON object in the reply", "no reply within 120 s", "model error: …". */
  detail?: string;
}

/**
 * What the coordinator's `TASK: summarize` reply carries (roles/brainstorm-coordinator.md). When
 * the reply could not be read as that JSON even after asking again, `format` is 'text': the
 * reply's prose is kept in `text` (trimmed, at most SUMMARY_TEXT_MAX_BYTES of harvest.ts) and the
 * three lists are empty. `format` and `text` come together or not at all.
 */
export interface BrainstormSummary {
  /** The topic as it is understood now (for a 'text' summary, the brainstorm's own topic). */
  topic: string;
  keyInsights: string[];
  decisions: string[];
  openQuestions: string[];
  /** Absent for a summary read from the JSON the role asks for. */
  format?: 'text';
  /** The coordinator's reply as written (untrusted model text); only with `format: 'text'`. */
  text?: string;
}

/** Where a brainstorm stands. Each phase says what happens next; none is a bag of flags. */
export type BrainstormPhase =
  /** Round 1's inquisitor calls are to be made (also after a crash while they ran). */
  | { kind: 'inquiring' }
  /** No inquisitor gave a usable question: `error` says what each did; Retry re-runs them. */
  | { kind: 'inquiry-failed'; error: string }
  /** The last round's questions wait for the person's answers. */
  | { kind: 'answering' }
  /** The last round is answered; the coordinator's follow-up call is to be made. */
  | { kind: 'following-up' }
  /** Every round is answered; the coordinator's summary call is to be made. */
  | { kind: 'summarizing' }
  /** A coordinator call failed; the answers are kept and Retry makes the call again. */
  | { kind: 'failed'; during: 'follow-up' | 'summarize'; error: string }
  /** The artifacts and the sentinel are written. */
  | { kind: 'complete' };

/** An Idea Brief (or another plan) a brainstorm was started from ("Brainstorm deeper"). */
export interface BrainstormSeed {
  /** The plan folder it came from. */
  slug: string;
  /** The file inside that folder, e.g. `idea-brief.md`. */
  file: string;
  /** Its text, capped, given to the inquisitors and the coordinator as untrusted data. */
  text: string;
}

/**
 * A brainstorm as it is kept in its plan folder between steps (`.brainstorm.json`), so that a
 * reloaded window or a later CLI run continues at its round.
 */
export interface BrainstormSession {
  slug: string;
  topic: string;
  seed?: BrainstormSeed;
  /** ms since the epoch. */
  createdAt: number;
  minRounds: number;
  maxRounds: number;
  /** Set once round 1's inquisitors have run. */
  inquisitors?: Record<Angle, InquisitorOutcome>;
  rounds: BrainstormRound[];
  /** Set when complete. */
  summary?: BrainstormSummary;
  phase: BrainstormPhase;
}

/** The machine-readable result, `00-brainstorming.context.md` (schema_version 1). */
export interface BrainstormContext {
  schemaVersion: 1;
  slug: string;
  topic: string;
  /** ISO-8601 UTC. */
  created: string;
  /** How many rounds were asked. */
  rounds: number;
  inquisitorStatus: Record<Angle, InquisitorStatus>;
  /** The plan the brainstorm was seeded from, by slug. */
  seededFrom?: string;
  questions: ContextQuestion[];
  /** With `format: 'text'` (`summary_format: text` in the file) the prose is in `text`. */
  summary: Omit<BrainstormSummary, 'topic'>;
}

export interface ContextQuestion {
  round: number;
  text: string;
  angle: Angle;
  priority: number;
  /** Absent when skipped. */
  answer?: string;
  skipped: boolean;
}

export const CONTEXT_SCHEMA_VERSION = 1;

export type BrainstormErrorKind =
  /** A bad slug, topic or option: the caller's input. */
  | 'invalid'
  /** No brainstorm with that slug. */
  | 'not-found'
  /** The brainstorm is complete already (the sentinel is there). */
  | 'complete'
  /** A file of the plan folder is damaged. */
  | 'corrupt'
  /** The context file is of a newer schema than this version reads. */
  | 'schema'
  /** A step of this brainstorm is under way elsewhere (another window or the CLI). */
  | 'busy'
  /** The step asked for does not fit the brainstorm's phase. */
  | 'wrong-phase'
  /** The person stopped the model call; nothing is lost, Resume continues. */
  | 'stopped';

export class BrainstormError extends Error {
  override readonly name = 'BrainstormError';
  constructor(
    readonly kind: BrainstormErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** What the person does with a round's answers: more questions, or the summary now. */
export type RoundAction = 'more' | 'summarize';

/** Progress of a step, for the panel and the CLI while the model works. */
export type BrainstormProgress =
  /** The plan folder exists: from here on the brainstorm can be resumed by this slug. */
  | { kind: 'started'; slug: string }
  /** An inquisitor started or finished; once finished, how many questions it gave, or why none. */
  | { kind: 'inquisitor'; angle: Angle; state: 'running' | InquisitorStatus; questions?: number; detail?: string }
  | { kind: 'coordinator'; task: 'follow-up' | 'summarize' }
  /** Model text as it streams (the coordinator's; the inquisitors' replies are JSON). */
  | { kind: 'text'; text: string }
  /** Something the person should know about the step, e.g. a choice the round limits overruled. */
  | { kind: 'notice'; text: string }
  /** A model call failed before its reply began and is tried again: "waiting for the model… (retry 2 of 3)". */
  | { kind: 'retry'; who: Angle | 'coordinator'; attempt: number; of: number; reason: string }
  /** An agent called a tool (read a file, listed a folder, searched): as it starts and as it ends. */
  | { kind: 'tool'; who: Angle | 'coordinator'; activity: ToolActivity };

export interface StepOptions {
  signal: AbortSignal;
  onProgress?: (progress: BrainstormProgress) => void;
}

export interface StartOptions {
  minRounds?: number;
  maxRounds?: number;
  /** A slug the person chose; else one is made from the topic. Must be free. */
  slug?: string;
  /** The plan to seed from, by slug (its idea-brief.md). */
  seedFrom?: string;
}

/** A brainstorm not yet complete, for "Resume Brainstorm…". */
export interface UnfinishedBrainstorm {
  slug: string;
  /** '' for a damaged one whose topic cannot be read. */
  topic: string;
  /** The round it is at; 0 for a damaged one. */
  round: number;
  phase: BrainstormPhase['kind'] | 'damaged';
  /** For a damaged one: what is wrong (it can be discarded or restarted, its files kept). */
  damaged?: string;
  /** For a damaged one, when its session file was last written. */
  createdAt: number;
}

/**
 * The brainstorm as the panel and the CLI drive it. Each step runs what is due (model calls,
 * file writes) and returns the session as saved; a model failure is a phase with Retry, not a
 * lost answer. Aborting a step throws BrainstormError 'stopped' and leaves the session resumable.
 */
export interface BrainstormApi {
  /** Makes the plan folder and runs round 1 (the inquisitors, the merge). */
  start(topic: string, options: StartOptions, step: StepOptions): Promise<BrainstormSession>;
  /** The session of `slug`, checked (slug, containment, symlinks, state file). */
  load(slug: string): Promise<BrainstormSession>;
  /** Records the answers to the current round and runs what follows (follow-up or summary). */
  answer(slug: string, answers: Answer[], action: RoundAction, step: StepOptions): Promise<BrainstormSession>;
  /** Runs whatever is due: inquisitors, the follow-up or the summary (after a failure or a crash). */
  resume(slug: string, step: StepOptions): Promise<BrainstormSession>;
  /**
   * Discards an unfinished brainstorm's rounds and starts again from round 1 on the same topic.
   * A damaged one's files are set aside in `.damaged-<time>/` first.
   */
  restart(slug: string, step: StepOptions): Promise<BrainstormSession>;
  /**
   * Removes an unfinished brainstorm's folder; a damaged one's files are moved into
   * `.damaged-<time>/` of its folder instead (`damaged`), and `keptIn` names that folder. What
   * earlier discards set aside is never removed; `keptIn` then names the newest such folder.
   */
  discard(slug: string): Promise<{ keptIn?: string; damaged?: true }>;
  unfinished(): Promise<UnfinishedBrainstorm[]>;
}
