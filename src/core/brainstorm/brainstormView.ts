// What a front end shows of a brainstorm, as a pure function of the core's session (as its plan
// folder keeps it) and of the facts only a running front end knows: the step under way and what
// its agents report (inquisitors, the coordinator's text, retries, tool calls), how the last step
// ended. Which step runs and which round is shown follow from the session's phase and the
// machine's own rules (brainstormMachine.ts), not from a front end's guess. Plain data, no words
// of its own: the panel and the CLI say it in their language.
import type { ToolActivity } from '../tools/toolActivity';
import { toolLines, type ToolLine } from '../tools/toolLines';
import { step as machineStep, nextTask } from './brainstormMachine';
import type { CoordinatorTask } from './brainstormMachine';
import { ANGLES } from './brainstormTypes';
import type { Angle, Answer, BrainstormSession, InquisitorStatus, Question, RoundAction } from './brainstormTypes';
import { PLAN_FILES, planDisplayPath } from '../plan/layout';

/** A round already answered: each answer, or null where the person skipped the question. */
export interface BrainstormRoundView {
  round: number;
  questions: Question[];
  answers: (string | null)[];
}

export type InquisitorState = 'running' | InquisitorStatus;

export interface InquisitorView {
  angle: Angle;
  state: InquisitorState;
  /** Why it gave nothing usable (or the model's error). */
  detail?: string;
  /** Its tool calls, while round 1 runs. */
  tools: ToolLine[];
}

export interface BrainstormHeader {
  slug: string;
  topic: string;
  /** The round being asked or answered, 1-based. */
  round: number;
  minRounds: number;
  maxRounds: number;
  /** Earlier rounds, answered. */
  rounds: BrainstormRoundView[];
  /** Round 1's inquisitors, once they have started. */
  inquisitors?: InquisitorView[];
}

/** What a running step is doing. */
export type BrainstormStep = 'inquisitors' | 'follow-up' | 'summary';

export type BrainstormAgent = Angle | 'coordinator';

/** Why a step ended without its result. */
export type BrainstormProblem =
  /** What the core or the model said went wrong (a model error, a busy or damaged brainstorm). */
  | { kind: 'error'; text: string }
  /** Something nobody planned for: said as it is, as a fault. */
  | { kind: 'unexpected'; text: string }
  /** The person stopped it. Nothing is lost. */
  | { kind: 'stopped' }
  /** The window closed (or crashed) while the model worked. */
  | { kind: 'interrupted' }
  /** The step returned with the session still waiting for a model call. */
  | { kind: 'unfinished' };

export type BrainstormAction =
  'start' | 'resume' | 'stop' | 'more' | 'summarize' | 'retry' | 'close' | 'open-document' | 'open-context' | 'build';

export type BrainstormViewModel =
  | { status: 'none'; actions: BrainstormAction[] }
  | (BrainstormHeader & {
      status: 'running';
      step: BrainstormStep;
      /** The coordinator's reply so far (the inquisitors' replies are JSON, not shown). */
      streamed: string;
      /** The coordinator's tool calls (each inquisitor's are with it). */
      tools: ToolLine[];
      retry?: { who: BrainstormAgent; attempt: number; of: number };
      actions: BrainstormAction[];
    })
  | (BrainstormHeader & { status: 'questions'; questions: Question[]; notice?: string; actions: BrainstormAction[] })
  | (BrainstormHeader & { status: 'failed'; problem: BrainstormProblem; actions: BrainstormAction[] })
  | {
      status: 'complete';
      slug: string;
      topic: string;
      rounds: number;
      keyInsights: string[];
      decisions: string[];
      openQuestions: string[];
      /** The coordinator's prose, when its summary was not the JSON asked for (the lists are then empty). */
      summaryText?: string;
      /** Paths relative to the workspace, e.g. `.groundwork/plans/x/00-brainstorming.md`. */
      documentPath: string;
      contextPath: string;
      actions: BrainstormAction[];
    };

export type BrainstormStatus = BrainstormViewModel['status'];

/** A step under way, as its progress reports it. */
export interface BrainstormStepLive {
  /** start: a new brainstorm (no session yet); restart: round 1 again; answer: the current round's answers; resume: what is due. */
  kind: 'start' | 'restart' | 'answer' | 'resume';
  /** With 'start': what was asked for; `slug` once the plan folder exists. */
  start?: { topic: string; minRounds: number; maxRounds: number; slug?: string };
  /** With 'answer': the answers given and what the person chose. */
  answers?: Answer[];
  action?: RoundAction;
  /** The coordinator's task, once the core said which it runs. */
  task?: CoordinatorTask;
  inquisitors: Partial<Record<Angle, { state: InquisitorState; detail?: string }>>;
  streamed: string;
  retry?: { who: BrainstormAgent; attempt: number; of: number };
  tools: readonly { who: BrainstormAgent; activity: ToolActivity }[];
}

export interface BrainstormLive {
  step?: BrainstormStepLive;
  /** How the last step ended, when not with its result. */
  failure?: BrainstormProblem;
  /** Something the core said during the last step (a choice the round limits overruled). */
  notice?: string;
}

/** A step with nothing reported yet. */
export function newStep(kind: BrainstormStepLive['kind'], extra: Partial<BrainstormStepLive> = {}): BrainstormStepLive {
  return { kind, inquisitors: {}, streamed: '', tools: [], ...extra };
}

function answeredRounds(session: BrainstormSession): BrainstormRoundView[] {
  return session.rounds
    .filter((r) => r.answers !== undefined)
    .map((r) => ({
      round: r.round,
      questions: r.questions,
      answers: r.answers!.map((a) => (a.kind === 'answered' ? a.text : null)),
    }));
}

/** The round being asked (the last one, unanswered) or the one its answers lead to, within the limits. */
export function shownRound(session: Pick<BrainstormSession, 'rounds' | 'maxRounds'>): number {
  const last = session.rounds.at(-1);
  const round = last === undefined ? 1 : last.answers === undefined ? last.round : last.round + 1;
  return Math.max(1, Math.min(round, session.maxRounds));
}

function header(session: BrainstormSession): BrainstormHeader {
  const view: BrainstormHeader = {
    slug: session.slug,
    topic: session.topic,
    round: shownRound(session),
    minRounds: session.minRounds,
    maxRounds: session.maxRounds,
    rounds: answeredRounds(session),
  };
  const outcomes = session.inquisitors;
  if (outcomes)
    view.inquisitors = ANGLES.map((angle) => ({
      angle,
      state: outcomes[angle].status,
      ...(outcomes[angle].detail ? { detail: outcomes[angle].detail } : {}),
      tools: [],
    }));
  return view;
}

/** The step a session's phase waits for. */
export function stepOfPhase(phase: BrainstormSession['phase']): BrainstormStep | undefined {
  switch (phase.kind) {
    case 'inquiring':
    case 'inquiry-failed':
      return 'inquisitors';
    case 'following-up':
      return 'follow-up';
    case 'summarizing':
      return 'summary';
    case 'failed':
      return phase.during === 'follow-up' ? 'follow-up' : 'summary';
    default:
      return undefined;
  }
}

/** The session as the step will have saved it before its model call: the answers in, the phase moved on. */
function answered(session: BrainstormSession, live: BrainstormStepLive): BrainstormSession {
  if (
    live.kind !== 'answer' ||
    live.answers === undefined ||
    live.action === undefined ||
    session.phase.kind !== 'answering'
  )
    return session;
  try {
    return machineStep(session, { type: 'answered', answers: live.answers, action: live.action }).session;
  } catch {
    return session;
  }
}

function running(session: BrainstormSession | undefined, live: BrainstormStepLive): BrainstormViewModel {
  let base: BrainstormHeader;
  let step: BrainstormStep;
  if (live.kind === 'start' || session === undefined) {
    const start = live.start ?? {
      topic: session?.topic ?? '',
      minRounds: session?.minRounds ?? 1,
      maxRounds: session?.maxRounds ?? 1,
    };
    base = {
      slug: start.slug ?? session?.slug ?? '',
      topic: start.topic,
      round: 1,
      minRounds: start.minRounds,
      maxRounds: start.maxRounds,
      rounds: [],
    };
    step = 'inquisitors';
  } else if (live.kind === 'restart') {
    const { inquisitors: _earlier, ...rest } = header(session);
    base = { ...rest, round: 1, rounds: [] };
    step = 'inquisitors';
  } else {
    const shown = answered(session, live);
    base = header(shown);
    step =
      stepOfPhase(shown.phase) ??
      (live.action
        ? nextTask(shown.rounds.at(-1)?.round ?? 1, shown, live.action) === 'follow-up'
          ? 'follow-up'
          : 'summary'
        : 'summary');
  }
  if (live.task) step = live.task === 'follow-up' ? 'follow-up' : 'summary';
  const toolsOf = (who: BrainstormAgent) => toolLines(live.tools.filter((t) => t.who === who).map((t) => t.activity));
  if (step === 'inquisitors') {
    base = { ...base, round: 1 };
    const reported = ANGLES.filter((angle) => live.inquisitors[angle] !== undefined);
    if (reported.length)
      base.inquisitors = reported.map((angle) => ({ angle, ...live.inquisitors[angle]!, tools: toolsOf(angle) }));
    else delete base.inquisitors;
  }
  return {
    ...base,
    status: 'running',
    step,
    streamed: live.streamed,
    tools: toolsOf('coordinator'),
    ...(live.retry ? { retry: { ...live.retry } } : {}),
    actions: ['stop'],
  };
}

function questions(session: BrainstormSession, notice: string | undefined): BrainstormViewModel {
  const view = header(session);
  const actions: BrainstormAction[] = [
    ...(view.round < view.maxRounds ? ['more' as const] : []),
    ...(view.round >= view.minRounds ? ['summarize' as const] : []),
    'close',
  ];
  return {
    ...view,
    status: 'questions',
    questions: session.rounds.at(-1)?.questions ?? [],
    ...(notice ? { notice } : {}),
    actions,
  };
}

function problemText(problem: BrainstormProblem): string | undefined {
  return problem.kind === 'error' || problem.kind === 'unexpected' ? problem.text : undefined;
}

export function brainstormView(session: BrainstormSession | undefined, live: BrainstormLive = {}): BrainstormViewModel {
  if (live.step) return running(session, live.step);
  if (session === undefined) return { status: 'none', actions: ['start', 'resume'] };
  const phase = session.phase;
  if (phase.kind === 'answering') {
    // A step refused or failed before its model call: the same questions, and why, as a notice.
    const notices = [live.notice, live.failure && problemText(live.failure)].filter((n): n is string => Boolean(n));
    return questions(session, notices.length ? notices.join(' ') : undefined);
  }
  if (live.failure) return { ...header(session), status: 'failed', problem: live.failure, actions: ['retry', 'close'] };
  switch (phase.kind) {
    case 'complete': {
      const summary = session.summary ?? { topic: session.topic, keyInsights: [], decisions: [], openQuestions: [] };
      return {
        status: 'complete',
        slug: session.slug,
        topic: session.topic,
        rounds: session.rounds.length,
        keyInsights: summary.keyInsights,
        decisions: summary.decisions,
        openQuestions: summary.openQuestions,
        ...(summary.format === 'text' ? { summaryText: summary.text ?? '' } : {}),
        documentPath: planDisplayPath(session.slug, PLAN_FILES.document),
        contextPath: planDisplayPath(session.slug, PLAN_FILES.context),
        actions: ['open-document', 'open-context', 'build', 'close'],
      };
    }
    case 'inquiry-failed':
    case 'failed':
      return {
        ...header(session),
        status: 'failed',
        problem: { kind: 'error', text: phase.error },
        actions: ['retry', 'close'],
      };
    default:
      return { ...header(session), status: 'failed', problem: { kind: 'unfinished' }, actions: ['retry', 'close'] };
  }
}
