// The brainstorm as a pure state machine: step(session, event) → { session, effects }. No await, no
// clock, no I/O: the runner (brainstormService.ts) carries out the effects (model calls, files) and
// feeds the results back as events. Each phase of BrainstormPhase says what is due next, so a
// session read back after a crash continues with `due(session)`. An event the phase cannot take
// is not thrown: it comes back as a 'reject' effect with the session unchanged, and the runner
// throws `new BrainstormError(kind, reason)` for it.
import { cutText } from '../prompt/cap';
import { ANGLES, DETAIL_MAX_BYTES, ERROR_MAX_BYTES } from './brainstormTypes';
import type {
  Angle,
  Answer,
  BrainstormErrorKind,
  BrainstormSession,
  BrainstormSummary,
  InquisitorOutcome,
  Question,
  RoundAction,
} from './brainstormTypes';
import { mergeQuestions } from './merge';

export type CoordinatorTask = 'follow-up' | 'summarize';

export type BrainstormEvent =
  /** Round 1's inquisitors have all finished (or timed out); `questions` is everything harvested. */
  | { type: 'inquired'; outcomes: Record<Angle, InquisitorOutcome>; questions: Question[] }
  | { type: 'answered'; answers: Answer[]; action: RoundAction }
  | { type: 'followed-up'; questions: Question[] }
  | { type: 'summarized'; summary: BrainstormSummary }
  | { type: 'call-failed'; during: CoordinatorTask; error: string }
  /** Run what is due again: after a failure, a stop, or a crash. */
  | { type: 'retry' }
  /** Forget the rounds and begin again from round 1 (an unfinished brainstorm only). */
  | { type: 'restart' };

export type BrainstormEffect =
  /** Write the session file. */
  | { type: 'save' }
  | { type: 'write-round'; round: number }
  | { type: 'remove-rounds' }
  | { type: 'call-inquisitors' }
  | { type: 'call-coordinator'; task: CoordinatorTask }
  /** The document and the context file, then the sentinel, last. */
  | { type: 'write-artifacts' }
  | { type: 'audit'; kind: string; status: 'ok' | 'error'; detail: string }
  /** Something the person should know about the step (a choice the round limits overruled). */
  | { type: 'notice'; text: string }
  /**
   * The event does not fit the session (its phase, or answers that do not match the questions):
   * the only effect, the session unchanged. `reason` is the message to show, as it is.
   */
  | { type: 'reject'; kind: BrainstormErrorKind; reason: string };

export interface StepResult {
  session: BrainstormSession;
  effects: BrainstormEffect[];
}

/** The model call the session's phase waits for, if any. */
export function due(session: BrainstormSession): BrainstormEffect[] {
  switch (session.phase.kind) {
    case 'inquiring':
      return [{ type: 'call-inquisitors' }];
    case 'following-up':
      return [{ type: 'call-coordinator', task: 'follow-up' }];
    case 'summarizing':
      return [{ type: 'call-coordinator', task: 'summarize' }];
    default:
      return [];
  }
}

/** The round being asked or answered (0 before round 1's questions). */
export function currentRound(session: BrainstormSession): number {
  return session.rounds.at(-1)?.round ?? 0;
}

/** What follows the answers to round `n`: the round limits overrule the person's choice. */
export function nextTask(
  n: number,
  limits: { minRounds: number; maxRounds: number },
  action: RoundAction,
): CoordinatorTask {
  if (n >= limits.maxRounds) return 'summarize';
  if (n < limits.minRounds) return 'follow-up';
  return action === 'more' ? 'follow-up' : 'summarize';
}

export function step(session: BrainstormSession, event: BrainstormEvent): StepResult {
  const phase = session.phase;
  switch (event.type) {
    case 'inquired': {
      if (phase.kind !== 'inquiring') return wrongPhase(session, 'take the inquisitors’ questions');
      const outcomes = keptOutcomes(event.outcomes);
      const merged = mergeQuestions(event.questions);
      const statuses = ANGLES.map((a) => `${a}: ${describeOutcome(outcomes[a])}`).join('; ');
      if (merged.length === 0) {
        const error =
          `None of the three inquisitors asked a usable question (${statuses}). ` +
          'Retry, or check the model connection if every one failed the same way.';
        const next = {
          ...session,
          inquisitors: outcomes,
          phase: { kind: 'inquiry-failed' as const, error: cutText(error, ERROR_MAX_BYTES) },
        };
        return {
          session: next,
          effects: [{ type: 'save' }, { type: 'audit', kind: 'brainstorm.round', status: 'error', detail: error }],
        };
      }
      const next: BrainstormSession = {
        ...session,
        inquisitors: outcomes,
        rounds: [{ round: 1, questions: merged }],
        phase: { kind: 'answering' },
      };
      return {
        session: next,
        effects: [
          { type: 'save' },
          { type: 'write-round', round: 1 },
          {
            type: 'audit',
            kind: 'brainstorm.round',
            status: 'ok',
            detail: `round 1: ${merged.length} questions from ${event.questions.length} asked (${statuses})`,
          },
        ],
      };
    }
    case 'answered': {
      const last = session.rounds.at(-1);
      if (phase.kind !== 'answering' || last === undefined) return wrongPhase(session, 'take answers');
      if (event.answers.length !== last.questions.length) {
        return reject(
          session,
          'invalid',
          `Round ${last.round} has ${last.questions.length} questions; ${event.answers.length} answers were given. Answer or skip each question.`,
        );
      }
      const rounds = [...session.rounds.slice(0, -1), { ...last, answers: event.answers }];
      const n = last.round;
      const effects: BrainstormEffect[] = [];
      const task = nextTask(n, session, event.action);
      if (task === 'summarize' && event.action === 'more')
        effects.push({
          type: 'notice',
          text: `This brainstorm is limited to ${session.maxRounds} rounds, so it is summarized now.`,
        });
      if (task === 'follow-up' && event.action === 'summarize')
        effects.push({
          type: 'notice',
          text: `This brainstorm asks at least ${session.minRounds} rounds, so round ${n + 1} follows.`,
        });
      const skipped = event.answers.filter((a) => a.kind === 'skipped').length;
      const next: BrainstormSession = {
        ...session,
        rounds,
        phase: { kind: task === 'follow-up' ? 'following-up' : 'summarizing' },
      };
      return {
        session: next,
        effects: [
          { type: 'save' },
          { type: 'write-round', round: n },
          {
            type: 'audit',
            kind: 'brainstorm.answers',
            status: 'ok',
            detail: `round ${n}: ${event.answers.length - skipped} answered, ${skipped} skipped; next: ${task}`,
          },
          ...effects,
          { type: 'call-coordinator', task },
        ],
      };
    }
    case 'followed-up': {
      if (phase.kind !== 'following-up') return wrongPhase(session, 'take follow-up questions');
      const asked = session.rounds.flatMap((r) => r.questions);
      const fresh = mergeQuestions(event.questions, { asked });
      if (fresh.length === 0) {
        const next: BrainstormSession = { ...session, phase: { kind: 'summarizing' } };
        return {
          session: next,
          effects: [
            { type: 'save' },
            { type: 'notice', text: 'The coordinator has nothing more to ask, so the brainstorm is summarized now.' },
            { type: 'call-coordinator', task: 'summarize' },
          ],
        };
      }
      const round = currentRound(session) + 1;
      const next: BrainstormSession = {
        ...session,
        rounds: [...session.rounds, { round, questions: fresh }],
        phase: { kind: 'answering' },
      };
      return {
        session: next,
        effects: [
          { type: 'save' },
          { type: 'write-round', round },
          {
            type: 'audit',
            kind: 'brainstorm.round',
            status: 'ok',
            detail: `round ${round}: ${fresh.length} follow-up questions`,
          },
        ],
      };
    }
    case 'summarized': {
      if (phase.kind !== 'summarizing') return wrongPhase(session, 'take the summary');
      const next: BrainstormSession = { ...session, summary: event.summary, phase: { kind: 'complete' } };
      const kept = event.summary.format === 'text' ? '; the summary is kept as the coordinator’s prose' : '';
      return {
        session: next,
        // Saved first: a crash before the sentinel leaves a complete session whose artifacts
        // `resume` writes again; the sentinel is always the last file written.
        effects: [
          { type: 'save' },
          { type: 'write-artifacts' },
          {
            type: 'audit',
            kind: 'brainstorm.complete',
            status: 'ok',
            detail: `complete after ${session.rounds.length} round(s)${kept}`,
          },
        ],
      };
    }
    case 'call-failed': {
      const expected = event.during === 'follow-up' ? 'following-up' : 'summarizing';
      if (phase.kind !== expected) return wrongPhase(session, 'record a failed call');
      const next: BrainstormSession = {
        ...session,
        phase: { kind: 'failed', during: event.during, error: cutText(event.error, ERROR_MAX_BYTES) },
      };
      return {
        session: next,
        effects: [
          { type: 'save' },
          { type: 'audit', kind: `brainstorm.${event.during}`, status: 'error', detail: event.error },
        ],
      };
    }
    case 'retry': {
      if (phase.kind === 'inquiry-failed') {
        const { inquisitors: _dropped, ...rest } = session;
        return {
          session: { ...rest, phase: { kind: 'inquiring' } },
          effects: [{ type: 'save' }, { type: 'call-inquisitors' }],
        };
      }
      if (phase.kind === 'failed') {
        const next: BrainstormSession = {
          ...session,
          phase: { kind: phase.during === 'follow-up' ? 'following-up' : 'summarizing' },
        };
        return { session: next, effects: [{ type: 'save' }, ...due(next)] };
      }
      const effects = due(session);
      if (effects.length === 0) return wrongPhase(session, 'retry');
      return { session, effects };
    }
    case 'restart': {
      if (phase.kind === 'complete') return wrongPhase(session, 'restart');
      const { inquisitors: _i, summary: _s, ...rest } = session;
      return {
        session: { ...rest, rounds: [], phase: { kind: 'inquiring' } },
        effects: [{ type: 'remove-rounds' }, { type: 'save' }, { type: 'call-inquisitors' }],
      };
    }
  }
}

/** The outcomes as the session keeps them: a detail (a model error may quote a whole page) cut short. */
function keptOutcomes(outcomes: Record<Angle, InquisitorOutcome>): Record<Angle, InquisitorOutcome> {
  const kept = {} as Record<Angle, InquisitorOutcome>;
  for (const angle of ANGLES) {
    const o = outcomes[angle];
    kept[angle] = o.detail === undefined ? o : { ...o, detail: cutText(o.detail, DETAIL_MAX_BYTES) };
  }
  return kept;
}

export function describeOutcome(outcome: InquisitorOutcome | undefined): string {
  if (outcome === undefined) return 'did not run';
  return outcome.detail ? `${outcome.status} (${outcome.detail})` : outcome.status;
}

/** The event refused: the session as it was, and why. */
function reject(session: BrainstormSession, kind: BrainstormErrorKind, reason: string): StepResult {
  return { session, effects: [{ type: 'reject', kind, reason }] };
}

/** "Cannot <what>: the brainstorm … <where it stands>." — 'complete' when it is complete. */
function wrongPhase(session: BrainstormSession, what: string): StepResult {
  const now: Record<BrainstormSession['phase']['kind'], string> = {
    inquiring: 'is waiting for its inquisitors',
    'inquiry-failed': 'found no questions in round 1 (Retry runs the inquisitors again)',
    answering: `is waiting for the answers to round ${currentRound(session)}`,
    'following-up': 'is waiting for the coordinator’s follow-up questions',
    summarizing: 'is waiting for its summary',
    failed: 'stopped on a failed model call (Retry makes it again)',
    complete: 'is complete',
  };
  return reject(
    session,
    session.phase.kind === 'complete' ? 'complete' : 'wrong-phase',
    `Cannot ${what}: the brainstorm ${session.slug} ${now[session.phase.kind]}.`,
  );
}
