// What a front end shows of a discovery conversation, as a pure function of the core's data (the
// session as its round file holds it, or the brief a finished one left) and of the facts only a
// running front end knows (the text streaming in, the tool calls, a retry, the last failure).
// Plain data, no words of its own: the panel and the CLI say it in their language.
import type { ToolActivity } from '../tools/toolActivity';
import { toolLines, type ToolLine } from '../tools/toolLines';
import { MAX_ROUNDS, type BriefFields, type DiscoveryView } from './discoveryTypes';

/** One round as the transcript shows it: its questions and, once given, the answer. */
export interface RoundTranscript {
  round: number;
  questions: string[];
  answer?: string;
}

/** The Idea Brief a finished conversation left, until it is saved as a plan or discarded. */
export interface BriefCard {
  request: string;
  brief: BriefFields;
  /** The brief as the model wrote it; shown when it had none of the eight field labels. */
  raw?: string;
  transcript: RoundTranscript[];
  /** The core's closing message ("Here is the brief…"). */
  message: string;
  /** Where it was saved as a plan, e.g. `.groundwork/plans/<slug>/idea-brief.md`. */
  savedAt?: string;
}

/** What the conversation rests on: the core's data between turns. */
export type DiscoverySource =
  | { kind: 'none' }
  /** A session of the round file; `message` is the core's lead-in of the questions, when known. */
  | { kind: 'session'; view: DiscoveryView; message?: string }
  | { kind: 'brief'; card: BriefCard }
  /** The brief kept for the card (`file`) cannot be read: why. */
  | { kind: 'damaged'; file: string; reason: string };

/** A model call that failed before its reply began and is tried again: retry `attempt` of at most `of`. */
export interface ModelRetry {
  attempt: number;
  of: number;
}

/** A turn under way. */
export interface DiscoveryTurn {
  /** The text that starts a new conversation: the request shown until the session has its own. */
  request: string;
  streamed: string;
  retry?: ModelRetry;
  /** The agent's tool calls so far, as reported (a 'running' report, then its end). */
  tools: readonly ToolActivity[];
}

/** Why the last turn did not end with the model's reply. */
export type DiscoveryFailure =
  /** The model call failed: what the core said. The answer is kept; Retry asks again. */
  | { reason: 'error'; error: string }
  /** The answer is saved but no reply was: the window closed (or crashed) during the call. */
  | { reason: 'interrupted' };

/** What a front end knows beyond the core's data. */
export interface DiscoveryLive {
  turn?: DiscoveryTurn;
  failure?: DiscoveryFailure;
  /** The core's notice of the last turn (a session that had expired, a message cut for the model). */
  notice?: string;
  /** The last text was not a build request: say what discovery is for. */
  hint?: boolean;
}

/** What the person can do next, for a front end to offer. */
export type DiscoveryAction =
  | 'send'
  | 'discover-this'
  | 'answer'
  | 'cancel'
  | 'retry'
  | 'edit'
  | 'save'
  | 'open-plan'
  | 'brainstorm'
  | 'build'
  | 'discard';

interface Conversation {
  request: string;
  /** The round shown: the one asked, or, while answers are read, the one they lead to. */
  round: number;
  maxRounds: number;
  rounds: RoundTranscript[];
}

export type DiscoveryViewModel =
  | { status: 'idle'; hint?: boolean; actions: DiscoveryAction[] }
  | (Conversation & {
      status: 'running';
      streamed: string;
      tools: ToolLine[];
      retry?: ModelRetry;
      actions: DiscoveryAction[];
    })
  | (Conversation & {
      status: 'questions';
      questions: string[];
      message: string;
      notice?: string;
      actions: DiscoveryAction[];
    })
  | (Conversation & { status: 'failed'; failure: DiscoveryFailure; actions: DiscoveryAction[] })
  | (BriefCard & { status: 'brief'; actions: DiscoveryAction[] })
  | { status: 'damaged'; file: string; reason: string; actions: DiscoveryAction[] };

export type DiscoveryStatus = DiscoveryViewModel['status'];

export function transcriptOf(view: Pick<DiscoveryView, 'rounds'>): RoundTranscript[] {
  return view.rounds.map((r) => ({
    round: r.round,
    questions: r.questions,
    ...(r.answer !== undefined ? { answer: r.answer } : {}),
  }));
}

function conversation(view: DiscoveryView): Conversation {
  return { request: view.originalRequest, round: view.round, maxRounds: view.maxRounds, rounds: transcriptOf(view) };
}

export function discoveryView(source: DiscoverySource, live: DiscoveryLive = {}): DiscoveryViewModel {
  const session = source.kind === 'session' ? source.view : undefined;
  const turn = live.turn;
  if (turn) {
    // With a session, the turn reads the answer to its round: what comes is the next round (or the brief).
    const base = session
      ? { ...conversation(session), round: Math.min(session.round + 1, session.maxRounds) }
      : { request: turn.request, round: 1, maxRounds: MAX_ROUNDS, rounds: [] };
    return {
      status: 'running',
      ...base,
      streamed: turn.streamed,
      tools: toolLines(turn.tools),
      ...(turn.retry ? { retry: { ...turn.retry } } : {}),
      actions: ['cancel'],
    };
  }
  switch (source.kind) {
    case 'none':
      return live.hint
        ? { status: 'idle', hint: true, actions: ['send', 'discover-this'] }
        : { status: 'idle', actions: ['send'] };
    case 'session': {
      const view = source.view;
      // An answer saved with no reply and no failure seen here: the window closed during the call.
      const failure =
        live.failure ?? (view.state === 'answer-pending' ? { reason: 'interrupted' as const } : undefined);
      if (failure) return { status: 'failed', ...conversation(view), failure, actions: ['retry', 'cancel'] };
      const current = view.rounds.find((r) => r.round === view.round);
      return {
        status: 'questions',
        ...conversation(view),
        questions: current?.questions ?? [],
        message: source.message ?? '',
        ...(live.notice ? { notice: live.notice } : {}),
        actions: ['answer', 'cancel'],
      };
    }
    case 'brief': {
      const card = source.card;
      // Brainstorm Deeper and Build This take the brief saved as a plan (saved first when it is not).
      const deeper: DiscoveryAction[] = card.brief.summary.trim()
        ? ['brainstorm', 'build']
        : card.raw?.trim()
          ? ['build']
          : [];
      const actions: DiscoveryAction[] =
        card.savedAt === undefined ? ['edit', 'save', ...deeper, 'discard'] : ['open-plan', ...deeper, 'discard'];
      return { status: 'brief', ...card, actions };
    }
    case 'damaged':
      return { status: 'damaged', file: source.file, reason: source.reason, actions: ['discard', 'send'] };
  }
}
