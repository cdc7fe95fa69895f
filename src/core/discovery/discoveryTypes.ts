// The public API of discovery: what the agent panel and the CLI call. A vague build request
// becomes an Idea Brief through at most three rounds of questions. The implementation is
// DiscoveryService (discoveryService.ts); the pure session machine is discoveryMachine.ts.
// Everything here is plain data, safe to post to a webview or print as JSON.
import type { LlmRetry } from '../llm/llmClient';
import type { LlmUsage } from '../llm/llmClient';

export const DISCOVERY_LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl', 'ru'] as const;
export type DiscoveryLanguage = (typeof DISCOVERY_LANGUAGES)[number];

/** At most this many rounds of questions; the model call after round 3's answers must write the brief. */
export const MAX_ROUNDS = 3;
/** `groundwork.discovery.ttlMinutes` when unset: a session lives this long after its CREATED stamp. */
export const DEFAULT_TTL_MINUTES = 30;

import type { ToolActivity } from '../tools/toolActivity';

/**
 * The eight fields of an Idea Brief, in the order the role writes them: one list for the core and
 * the front ends (the panel's protocol takes its type from here).
 */
export const BRIEF_FIELDS = [
  'summary',
  'problem',
  'users',
  'mvpScope',
  'technology',
  'outOfScope',
  'keyDecisions',
  'constraints',
] as const;
export type BriefField = (typeof BRIEF_FIELDS)[number];
/** A brief's fields as a person reads and edits them, without the model's whole text. */
export type BriefFields = Record<BriefField, string>;

/** The labels the role writes (always in English, whatever the person's language). */
export const BRIEF_LABELS: Readonly<Record<BriefField, string>> = {
  summary: 'One-line summary',
  problem: 'Problem',
  users: 'Users',
  mvpScope: 'MVP scope',
  technology: 'Technology',
  outOfScope: 'Out of scope',
  keyDecisions: 'Key decisions',
  constraints: 'Constraints',
};

/**
 * An Idea Brief. Each field is '' when the model left it out; `text` is the brief as the model
 * wrote it (after `IDEA_BRIEF:`), which is all there is when the reply had no field labels.
 */
export interface IdeaBrief {
  summary: string;
  problem: string;
  users: string;
  mvpScope: string;
  technology: string;
  outOfScope: string;
  keyDecisions: string;
  constraints: string;
  text: string;
}

/** One round of the conversation. */
export interface RoundView {
  /** 1-based. */
  round: number;
  /** The model's questions as it wrote them (after the marker line). */
  questionsText: string;
  /** The lead-in line before the numbered questions ('' if none). */
  intro: string;
  /** One entry per question; the whole text as one question when the model did not number them. */
  questions: string[];
  /** The person's answer, whole (never capped); absent while the round awaits it. */
  answer?: string;
}

/** A session as the panel and the CLI show it: everything needed to redraw it after a reload. */
export interface DiscoveryView {
  /** The session id as the caller gave it. */
  session: string;
  /** ms since the epoch (the round file's CREATED stamp, whole seconds). */
  createdAt: number;
  /** ms since the epoch when the session expires (createdAt + TTL). */
  expiresAt: number;
  /** The person's first message, whole. */
  originalRequest: string;
  /** The current round (the round file's ROUND header). */
  round: number;
  maxRounds: number;
  rounds: RoundView[];
  /**
   * 'awaiting-answers': the last round's questions wait for an answer.
   * 'answer-pending': the answer is saved but the model has not replied to it (it failed or was
   * stopped): offer Retry (`retry`), or let the person add to the answer (`handle` appends).
   */
  state: 'awaiting-answers' | 'answer-pending';
  /** Workspace-relative path of the round file, e.g. `.groundwork/discovery/abc.md`. */
  file: string;
}

export type DiscoveryOutcome =
  /** The model asked questions: show them (`message` is the localized intro or "(n/3)" follow-up with them). */
  | { kind: 'questions'; view: DiscoveryView; questions: string[]; message: string }
  /** The brief is ready; the round file is gone. Offer Edit / Save as plan (`saveBrief`) / Discard. */
  | {
      kind: 'complete';
      brief: IdeaBrief;
      originalRequest: string;
      transcript: RoundView[];
      rounds: number;
      message: string;
    }
  /** The person cancelled (a cancel word, or `cancel`); the round file is gone. */
  | { kind: 'cancelled'; message: string }
  /**
   * The model call was stopped through the signal. Nothing was lost: the session is as it was
   * before the call (`view` in state 'answer-pending'; undefined when it was the first message,
   * which the caller still holds and may send again).
   */
  | { kind: 'stopped'; view?: DiscoveryView; message: string }
  /** Only from `retry`: the session had expired and was removed; nothing was sent to the model. */
  | { kind: 'expired'; message: string }
  /** No session, and the text is not a build request (and `force` was not set): say what Groundwork can do. */
  | { kind: 'not-a-build'; message: string };

export interface TurnResult {
  outcome: DiscoveryOutcome;
  /** Set when the session had expired: tell the person; their message was then handled as a fresh one. */
  expiredMessage?: string;
  /** Set when the person's text was over the prompt cap (8 KB): what the model saw and where the whole text is. */
  capped?: CappedNotice;
  /** Token usage of this turn's model call (absent when no model was called). */
  usage?: LlmUsage;
  /** The concrete model that answered. */
  model?: string;
  /** USD, when the model's price is known. */
  costUsd?: number;
}

export interface CappedNotice {
  /** The size of the whole text, in bytes of UTF-8. */
  originalBytes: number;
  /** How much of it went into the prompt (marker included). */
  sentBytes: number;
  /**
   * Workspace-relative file that keeps the whole text (the round file). Absent when a first message
   * completed at once: the whole text is then in the outcome's `originalRequest` (and in the saved brief).
   */
  keptAt?: string;
  /** Localized notice for the person. */
  message: string;
}

export interface TurnOptions {
  lang: DiscoveryLanguage;
  /** Stops the model call; the turn then ends with outcome 'stopped'. */
  signal: AbortSignal;
  /** The reply as it streams, without the protocol's marker lines (DISCOVERY_QUESTIONS…). */
  onText?: (chunk: string) => void;
  /** Start discovery even without a build keyword (the "Discover Idea…" command). */
  force?: boolean;
  /** An attempt failed before the reply began and is retried: "waiting for the model… (retry 2 of 3)". */
  onRetry?: (retry: LlmRetry) => void;
  /** The agent called a tool (read a file, listed a folder, searched): as it starts and as it ends. */
  onTool?: (activity: ToolActivity) => void;
}

/** What `saveBrief` takes: a 'complete' outcome (possibly with a brief the person edited). */
export interface BriefToSave {
  brief: IdeaBrief;
  originalRequest: string;
  transcript: RoundView[];
}

export interface SavedBrief {
  slug: string;
  /** Workspace-relative, e.g. `.groundwork/plans/<slug>/idea-brief.md`. */
  path: string;
}

/**
 * Wrong input that the person (or script) can fix; the CLI exits 2 on it. Model failures are
 * LlmError (exit 1) and propagate unchanged.
 */
export type DiscoveryErrorKind =
  /** The message is empty. */
  | 'empty'
  /** The message is over DISCOVERY_TEXT_MAX_BYTES. */
  | 'too-large'
  /** `retry` with nothing to retry. */
  | 'nothing-to-retry'
  /** Another turn of this session is under way (in this window, or another one wrote the round file meanwhile). */
  | 'busy'
  /** The round file is not in the discovery format (edited by hand?). */
  | 'corrupt'
  /** The session name cannot name a session, or its file belongs to another name. */
  | 'invalid';

export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
  constructor(
    readonly kind: DiscoveryErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The discovery conversation, one user message at a time. State lives only in the round file
 * `.groundwork/discovery/<session>.md` between turns, so a reloaded window or a later CLI run
 * continues it. Session ids may be anything (a chat id, a UUID); they are made filesystem-safe.
 */
export interface DiscoveryApi {
  /**
   * One message from the person: starts a session (a build request, or any text with `force`),
   * answers the current round, or cancels (a cancel word in any of the eight languages). An
   * expired session is removed, reported in `expiredMessage`, and the message handled as fresh.
   * Throws LlmError when the model fails: the answer is already saved, so `retry` continues;
   * DiscoveryError on bad input.
   */
  handle(session: string, message: string, options: TurnOptions): Promise<TurnResult>;
  /** Re-runs the model for the saved answer (after a failure or a stop), without saving it again. */
  retry(session: string, options: TurnOptions): Promise<TurnResult>;
  /** Ends the session (the Cancel button / command); undefined when there was none. */
  cancel(session: string, lang: DiscoveryLanguage): Promise<{ message: string } | undefined>;
  /** The session to show, or undefined when there is none or it expired (an expired one is removed). */
  view(session: string): Promise<DiscoveryView | undefined>;
  /** Writes `.groundwork/plans/<slug>/idea-brief.md` (slug from the one-line summary, made unique). */
  saveBrief(result: BriefToSave): Promise<SavedBrief>;
  /** Removes round files older than the TTL (call lazily, not at activation); returns their session file names. */
  cleanupExpired(): Promise<string[]>;
}
