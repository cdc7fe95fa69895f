// Turning the machine's turn ends and the round file's data into what the panel and the CLI show.
import { discoveryMessages } from './discoveryMessages';
import type { TurnEnd } from './discoveryMachine';
import { parseIdeaBrief, splitQuestions, truncateBriefPreview } from './discoveryParser';
import { MAX_ROUNDS } from './discoveryTypes';
import type { DiscoveryLanguage, DiscoveryOutcome, DiscoveryView, RoundView } from './discoveryTypes';
import { displayPath } from '../storage/workspaceStore';
import { roundFileRel } from './roundFile';
import type { RoundFileData, RoundRecord } from './roundFile';

/** How much of the brief the complete message shows (docs/discovery.md, "Messages"). */
export const BRIEF_PREVIEW_CHARS = 300;

export function toView(session: string, data: RoundFileData, ttlMs: number): DiscoveryView {
  const last = data.rounds[data.rounds.length - 1];
  const createdAt = data.createdSec * 1000;
  return {
    session,
    createdAt,
    expiresAt: createdAt + ttlMs,
    originalRequest: data.originalRequest,
    round: data.round,
    maxRounds: MAX_ROUNDS,
    rounds: roundViews(data.rounds),
    state: last?.answer !== undefined ? 'answer-pending' : 'awaiting-answers',
    file: displayPath(roundFileRel(session)),
  };
}

export function outcomeOf(end: TurnEnd, session: string, lang: DiscoveryLanguage, ttlMs: number): DiscoveryOutcome {
  const m = discoveryMessages(lang);
  switch (end.kind) {
    case 'questions': {
      const view = toView(session, end.session, ttlMs);
      const current = view.rounds[view.rounds.length - 1]!;
      const message =
        view.round <= 1 ? m.intro(current.questionsText) : m.followUp(current.questionsText, view.round, MAX_ROUNDS);
      return { kind: 'questions', view, questions: current.questions, message };
    }
    case 'complete': {
      const brief = parseIdeaBrief(end.brief);
      return {
        kind: 'complete',
        brief,
        originalRequest: end.originalRequest,
        transcript: roundViews(end.rounds),
        rounds: end.rounds.length,
        message: m.complete(truncateBriefPreview(brief.text, BRIEF_PREVIEW_CHARS)),
      };
    }
    case 'cancelled':
      return { kind: 'cancelled', message: m.cancelled() };
    case 'stopped':
      return end.session
        ? { kind: 'stopped', view: toView(session, end.session, ttlMs), message: m.stopped() }
        : { kind: 'stopped', message: m.stopped() };
    case 'expired':
      return { kind: 'expired', message: m.expired() };
    case 'not-a-build':
    case 'no-session':
      return { kind: 'not-a-build', message: m.notABuild() };
  }
}

export function roundViews(rounds: readonly RoundRecord[]): RoundView[] {
  return rounds.map((r, i) => {
    const split = splitQuestions(r.questions);
    const view: RoundView = {
      round: i + 1,
      questionsText: r.questions,
      intro: split.intro,
      questions: split.questions,
    };
    if (r.answer !== undefined) view.answer = r.answer;
    return view;
  });
}
