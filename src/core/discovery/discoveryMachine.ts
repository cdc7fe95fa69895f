// The discovery session as a pure state machine (docs/ARCHITECTURE.md): `step(state, event, config)`
// returns the next state and the effects for the runner (DiscoveryService) to carry out. No await,
// no clock: time arrives in each event. The round file is the state between turns; `stateOf`
// reads it back.
//
// Rounds, at most three: the round-1 call reads the request and
// asks round 1's questions (ROUND: 1); each answer is saved, then the model is called again and
// asks the next round's questions (ROUND: 2, ROUND: 3). The call made after round 3's answers
// (ROUND: 3 in the file when the answer arrives) is the final one: its prompt says so, and
// whatever it replies is the brief — DISCOVERY_QUESTIONS included. So the person answers at most
// three rounds of questions and then gets a brief.
import { parseDiscoveryOutput } from './discoveryParser';
import { isBuildRequest, isCancelWord } from './keywords';
import type { RoundFileData, RoundRecord } from './roundFile';
import type { DiscoveryErrorKind } from './discoveryTypes';
import type { LlmUsage } from '../llm/llmClient';

export type DiscoveryState =
  /** No session. */
  | { kind: 'idle' }
  /** The first message's model call is under way; nothing is on disk yet. */
  | { kind: 'starting'; request: string; createdSec: number }
  /** The first message's call failed or was stopped; kept in memory only, for `retry`. */
  | { kind: 'start-pending'; request: string; createdSec: number }
  /** The last round's questions wait for the person. */
  | { kind: 'awaiting-answers'; session: RoundFileData }
  /** The answer is saved, the model call for it is under way. */
  | { kind: 'thinking'; session: RoundFileData; final: boolean }
  /** The answer is saved, the model call for it failed or was stopped. */
  | { kind: 'answer-pending'; session: RoundFileData };

export type DiscoveryEvent =
  | { type: 'message'; text: string; now: number; force: boolean }
  | { type: 'retry'; now: number }
  | { type: 'cancel'; now: number }
  | { type: 'model-replied'; text: string; now: number; usage?: LlmUsage; model?: string }
  | { type: 'model-failed'; reason: string; now: number }
  | { type: 'model-stopped'; now: number };

export interface DiscoveryConfig {
  ttlMs: number;
  maxRounds: number;
}

export type AuditKind =
  'discovery.start' | 'discovery.round' | 'discovery.complete' | 'discovery.cancel' | 'discovery.expire';

/** What the model is asked: everything so far, and which call this is. */
export interface ModelCall {
  /** The round the call is for: 1 for the request, n + 1 after round n's answer, the last round on the final call. */
  round: number;
  /** The call after the last round's answer: it must write the brief. */
  final: boolean;
  request: string;
  /** The rounds so far, each answered (none on round 1). */
  rounds: RoundRecord[];
}

export type TurnEnd =
  | { kind: 'questions'; session: RoundFileData }
  | { kind: 'complete'; brief: string; originalRequest: string; rounds: RoundRecord[] }
  | { kind: 'cancelled' }
  | { kind: 'stopped'; session?: RoundFileData }
  | { kind: 'expired' }
  | { kind: 'not-a-build' }
  | { kind: 'no-session' };

export type DiscoveryEffect =
  | { type: 'write-round-file'; data: RoundFileData }
  | { type: 'delete-round-file' }
  | { type: 'call-model'; call: ModelCall }
  | {
      type: 'audit';
      kind: AuditKind;
      status: 'ok' | 'error';
      text: string;
      detail?: string;
      usage?: LlmUsage;
      model?: string;
    }
  /** The session had expired: tell the person (the message is then handled as fresh). */
  | { type: 'notify-expired' }
  /** The turn's outcome. */
  | { type: 'end'; end: TurnEnd }
  /** The event does not fit the state: refuse it. */
  | { type: 'reject'; kind: DiscoveryErrorKind; reason: string };

export interface Step {
  state: DiscoveryState;
  effects: DiscoveryEffect[];
}

/** The state a round file stands for: its last round answered means the model has yet to reply. */
export function stateOf(data: RoundFileData | undefined): DiscoveryState {
  if (data === undefined) return { kind: 'idle' };
  const last = data.rounds[data.rounds.length - 1];
  return last?.answer !== undefined
    ? { kind: 'answer-pending', session: data }
    : { kind: 'awaiting-answers', session: data };
}

/** Expired when strictly older than the TTL: at exactly the TTL it still lives (docs/discovery.md). */
export function isExpired(createdSec: number, now: number, ttlMs: number): boolean {
  return now - createdSec * 1000 > ttlMs;
}

export function step(state: DiscoveryState, event: DiscoveryEvent, config: DiscoveryConfig): Step {
  switch (state.kind) {
    case 'idle':
      return fromIdle(event);
    case 'start-pending':
      if (event.type === 'retry') return callFirstRound(state.request, state.createdSec);
      if (event.type === 'cancel') return { state: { kind: 'idle' }, effects: [end({ kind: 'cancelled' })] };
      // A new message replaces the one that did not get through.
      return fromIdle(event);
    case 'starting':
      return afterFirstCall(state, event);
    case 'awaiting-answers':
    case 'answer-pending':
      return inSession(state, event, config);
    case 'thinking':
      return afterRoundCall(state, event);
  }
}

function end(e: TurnEnd): DiscoveryEffect {
  return { type: 'end', end: e };
}

function busy(state: DiscoveryState): Step {
  return { state, effects: [{ type: 'reject', kind: 'busy', reason: 'a model call for this session is under way' }] };
}

function fromIdle(event: DiscoveryEvent): Step {
  const idle: DiscoveryState = { kind: 'idle' };
  switch (event.type) {
    case 'message':
      if (!event.force && !isBuildRequest(event.text)) return { state: idle, effects: [end({ kind: 'not-a-build' })] };
      return callFirstRound(event.text, Math.floor(event.now / 1000));
    case 'retry':
      return {
        state: idle,
        effects: [
          {
            type: 'reject',
            kind: 'nothing-to-retry',
            reason: 'there is no discovery session with an answer waiting for the model',
          },
        ],
      };
    case 'cancel':
      return { state: idle, effects: [end({ kind: 'no-session' })] };
    default:
      return { state: idle, effects: [] };
  }
}

function callFirstRound(request: string, createdSec: number): Step {
  return {
    state: { kind: 'starting', request, createdSec },
    effects: [{ type: 'call-model', call: { round: 1, final: false, request, rounds: [] } }],
  };
}

function afterFirstCall(state: Extract<DiscoveryState, { kind: 'starting' }>, event: DiscoveryEvent): Step {
  const pending: DiscoveryState = { kind: 'start-pending', request: state.request, createdSec: state.createdSec };
  switch (event.type) {
    case 'model-replied': {
      const usage = { usage: event.usage, model: event.model };
      const parsed = parseDiscoveryOutput(event.text);
      if (parsed.kind === 'complete') {
        // Specific enough: the brief at once, and no round file.
        return {
          state: { kind: 'idle' },
          effects: [
            audit('discovery.start', 'ok', state.request, 'brief at once', usage),
            audit('discovery.complete', 'ok', state.request, 'brief after 0 rounds of questions'),
            end({ kind: 'complete', brief: parsed.brief, originalRequest: state.request, rounds: [] }),
          ],
        };
      }
      const session: RoundFileData = {
        createdSec: state.createdSec,
        round: 1,
        originalRequest: state.request,
        rounds: [{ questions: parsed.text }],
      };
      return {
        state: { kind: 'awaiting-answers', session },
        effects: [
          audit('discovery.start', 'ok', state.request, 'round 1 questions', usage),
          { type: 'write-round-file', data: session },
          end({ kind: 'questions', session }),
        ],
      };
    }
    case 'model-failed':
      return { state: pending, effects: [audit('discovery.start', 'error', state.request, event.reason)] };
    case 'model-stopped':
      return { state: pending, effects: [end({ kind: 'stopped' })] };
    default:
      return busy(state);
  }
}

function inSession(
  state: Extract<DiscoveryState, { kind: 'awaiting-answers' | 'answer-pending' }>,
  event: DiscoveryEvent,
  config: DiscoveryConfig,
): Step {
  const session = state.session;
  if (event.type === 'cancel') return cancelled(session, 'cancelled by the person');
  if (event.type !== 'message' && event.type !== 'retry') return busy(state);

  if (isExpired(session.createdSec, event.now, config.ttlMs)) {
    const expiry: DiscoveryEffect[] = [
      audit(
        'discovery.expire',
        'error',
        session.originalRequest,
        `expired after ${Math.round(config.ttlMs / 60_000)} minutes`,
      ),
      { type: 'delete-round-file' },
      { type: 'notify-expired' },
    ];
    if (event.type === 'retry') return { state: { kind: 'idle' }, effects: [...expiry, end({ kind: 'expired' })] };
    // Expired: tell the person, then handle the message as a fresh one.
    const fresh = fromIdle(event);
    return { state: fresh.state, effects: [...expiry, ...fresh.effects] };
  }

  if (event.type === 'retry') {
    if (state.kind === 'awaiting-answers') {
      return {
        state,
        effects: [
          {
            type: 'reject',
            kind: 'nothing-to-retry',
            reason: 'the questions of this round are still waiting for an answer',
          },
        ],
      };
    }
    return callRound(session);
  }

  if (isCancelWord(event.text)) return cancelled(session, `cancel word: ${event.text}`);

  // The answer is saved before the model is called, so a failure loses nothing. An answer already
  // waiting (the model failed on it) is kept and the new text added to it.
  const rounds = session.rounds.slice();
  const last = rounds[rounds.length - 1]!;
  const answer = last.answer === undefined || last.answer === '' ? event.text : `${last.answer}\n\n${event.text}`;
  rounds[rounds.length - 1] = { ...last, answer };
  const answered: RoundFileData = { ...session, rounds };
  const next = callRound(answered);
  return { state: next.state, effects: [{ type: 'write-round-file', data: answered }, ...next.effects] };

  function callRound(s: RoundFileData): Step {
    const final = s.round >= config.maxRounds;
    const call: ModelCall = {
      round: final ? s.round : s.round + 1,
      final,
      request: s.originalRequest,
      rounds: s.rounds,
    };
    return { state: { kind: 'thinking', session: s, final }, effects: [{ type: 'call-model', call }] };
  }
}

function cancelled(session: RoundFileData, detail: string): Step {
  return {
    state: { kind: 'idle' },
    effects: [
      audit('discovery.cancel', 'error', session.originalRequest, detail),
      { type: 'delete-round-file' },
      end({ kind: 'cancelled' }),
    ],
  };
}

function afterRoundCall(state: Extract<DiscoveryState, { kind: 'thinking' }>, event: DiscoveryEvent): Step {
  const session = state.session;
  const pending: DiscoveryState = { kind: 'answer-pending', session };
  const lastAnswer = session.rounds[session.rounds.length - 1]?.answer ?? '';
  switch (event.type) {
    case 'model-replied': {
      const usage = { usage: event.usage, model: event.model };
      const parsed = parseDiscoveryOutput(event.text);
      // The final call's reply is the brief whatever its markers.
      const brief = parsed.kind === 'complete' ? parsed.brief : state.final ? parsed.text : undefined;
      const roundNo = session.rounds.length;
      if (brief !== undefined) {
        const forced = parsed.kind === 'questions' ? ', questions taken as the brief on the final round' : '';
        return {
          state: { kind: 'idle' },
          effects: [
            audit('discovery.round', 'ok', lastAnswer, `round ${roundNo} answered; brief${forced}`, usage),
            audit(
              'discovery.complete',
              'ok',
              session.originalRequest,
              `brief after ${roundNo} round${roundNo === 1 ? '' : 's'} of questions`,
            ),
            { type: 'delete-round-file' },
            end({ kind: 'complete', brief, originalRequest: session.originalRequest, rounds: session.rounds }),
          ],
        };
      }
      const next: RoundFileData = {
        ...session,
        round: session.round + 1,
        rounds: [...session.rounds, { questions: parsed.kind === 'questions' ? parsed.text : '' }],
      };
      return {
        state: { kind: 'awaiting-answers', session: next },
        effects: [
          audit('discovery.round', 'ok', lastAnswer, `round ${roundNo} answered; round ${next.round} questions`, usage),
          { type: 'write-round-file', data: next },
          end({ kind: 'questions', session: next }),
        ],
      };
    }
    case 'model-failed':
      return { state: pending, effects: [audit('discovery.round', 'error', lastAnswer, event.reason)] };
    case 'model-stopped':
      return { state: pending, effects: [end({ kind: 'stopped', session })] };
    default:
      return busy(state);
  }
}

function audit(
  kind: AuditKind,
  status: 'ok' | 'error',
  text: string,
  detail: string,
  extra: { usage?: LlmUsage | undefined; model?: string | undefined } = {},
): DiscoveryEffect {
  const effect: Extract<DiscoveryEffect, { type: 'audit' }> = { type: 'audit', kind, status, text, detail };
  if (extra.usage !== undefined) effect.usage = extra.usage;
  if (extra.model !== undefined) effect.model = extra.model;
  return effect;
}
