// The brainstorm's agents: round 1's three inquisitors at once, each with its time limit, and the
// coordinator's follow-ups and summary. Each call goes through the session runner (tool turns,
// usage, audit); each reply is kept in the plan's worker log and turned into the event the
// machine takes. A coordinator reply that breaks the protocol is asked for once more, naming what
// was wrong; a second one that breaks it too still moves the brainstorm on (see `coordinate`).
import type { AuditInput } from '../audit/auditLog';
import { auditInput } from '../audit/auditLog';
import type { Clock } from '../clock';
import { LlmError } from '../llm/llmClient';
import type { LlmErrorKind, LlmMessage, LlmUsage } from '../llm/llmClient';
import { cutText } from '../prompt/cap';
import { secureRandomBytes } from '../prompt/untrustedText';
import type { RandomBytes } from '../prompt/untrustedText';
import { planDisplayPath, PLAN_FILES, workerLogName } from '../plan/layout';
import type { Role } from '../roles/roleSchema';
import type { AgentObserver } from '../session/agentCall';
import type { SessionRunner } from '../session/sessionRunner';
import { currentRound } from './brainstormMachine';
import type { BrainstormEvent, CoordinatorTask } from './brainstormMachine';
import { coordinatorPrompt, inquisitorPrompt } from './brainstormPrompt';
import type { PromptPlaces } from './brainstormPrompt';
import {
  ANGLES,
  BrainstormError,
  COORDINATOR_ROLE,
  DEFAULT_CONCURRENCY,
  DEFAULT_INQUISITOR_TIMEOUT_SECONDS,
  INQUISITOR_ROLES,
} from './brainstormTypes';
import type { Angle, BrainstormSession, InquisitorOutcome, Question, StepOptions } from './brainstormTypes';
import { harvestQuestions, parseSummary, proseSummary, summaryParseError } from './harvest';
import type { PlanStore } from './planStore';
import type { WorkerRecord } from './workerLog';
import { USER_LOG } from './planStore';

const INQUISITOR_MAX_TOKENS = 2048;
const COORDINATOR_MAX_TOKENS = 4096;
/** Model failures that are about the setup, not the call: the same for every inquisitor. */
const SETUP_ERRORS: ReadonlySet<LlmErrorKind> = new Set(['no-provider', 'auth', 'quota', 'consent']);
/** How much of a broken reply is quoted back to the model when it is asked again. */
const REASK_QUOTE_MAX_BYTES = 16 * 1024;

export interface BrainstormAgentsDeps {
  runner: SessionRunner;
  plans: PlanStore;
  clock: Clock;
  role: (name: string) => Promise<Role>;
  concurrency?: number | (() => number);
  inquisitorTimeoutMs?: number | (() => number);
  random?: RandomBytes;
}

interface Reply {
  text: string;
  stopped: boolean;
  /** It still asked for tools when its turns were used up: its text is no answer. */
  outOfTurns: boolean;
  usage?: LlmUsage;
  model?: string;
}

export class BrainstormAgents {
  constructor(private readonly deps: BrainstormAgentsDeps) {}

  /** Round 1: the three inquisitors at once (at most `concurrency` at a time). */
  async inquire(session: BrainstormSession, run: StepOptions): Promise<BrainstormEvent> {
    const limit = Math.max(1, Math.min(ANGLES.length, Math.floor(setting(this.deps.concurrency, DEFAULT_CONCURRENCY))));
    const results = new Map<Angle, { outcome: InquisitorOutcome; questions: Question[]; error?: LlmError }>();
    const waiting = [...ANGLES];
    const worker = async () => {
      for (let angle = waiting.shift(); angle !== undefined; angle = waiting.shift()) {
        results.set(angle, await this.inquisitor(session, angle, run));
      }
    };
    await Promise.all(Array.from({ length: limit }, worker));
    if (run.signal.aborted) throw stopped(session);
    // No model, a bad key, no quota: all three fail alike, and one message says what to do.
    const errors = ANGLES.map((a) => results.get(a)!.error);
    const first = errors[0];
    if (first !== undefined && SETUP_ERRORS.has(first.kind) && errors.every((e) => e?.kind === first.kind)) throw first;
    const outcomes = {} as Record<Angle, InquisitorOutcome>;
    const questions: Question[] = [];
    for (const angle of ANGLES) {
      const r = results.get(angle)!;
      outcomes[angle] = r.outcome;
      questions.push(...r.questions);
    }
    return { type: 'inquired', outcomes, questions };
  }

  private async inquisitor(
    session: BrainstormSession,
    angle: Angle,
    run: StepOptions,
  ): Promise<{ outcome: InquisitorOutcome; questions: Question[]; error?: LlmError }> {
    const roleName = INQUISITOR_ROLES[angle];
    const timeoutMs = setting(this.deps.inquisitorTimeoutMs, DEFAULT_INQUISITOR_TIMEOUT_SECONDS * 1000);
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort();
    run.signal.addEventListener('abort', onOuterAbort, { once: true });
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    run.onProgress?.({ kind: 'inquisitor', angle, state: 'running' });
    const timeout: InquisitorOutcome = { status: 'timeout', detail: `no reply within ${seconds(timeoutMs)} s` };
    let outcome: InquisitorOutcome;
    let questions: Question[] = [];
    let reply: Reply | undefined;
    let error: LlmError | undefined;
    try {
      const role = await this.deps.role(roleName);
      // The time limit is the model's: loading the role does not count against it.
      timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, timeoutMs);
      reply = await this.call(
        role,
        [{ role: 'user', content: inquisitorPrompt(session, angle, this.places(session.slug), this.random()) }],
        INQUISITOR_MAX_TOKENS,
        abort.signal,
        session,
        angle,
        run,
        false,
      );
      if (timedOut) outcome = timeout;
      else if (run.signal.aborted) return { outcome: { status: 'empty', detail: 'stopped' }, questions };
      else if (reply.outOfTurns)
        outcome = { status: 'empty', detail: `used all its ${role.maxTurns} turns on tools without asking` };
      else {
        const harvest = harvestQuestions(reply.text, angle, planDisplayPath(session.slug, workerLogName(roleName)));
        outcome =
          harvest.detail !== undefined
            ? { status: harvest.status, detail: harvest.detail }
            : { status: harvest.status };
        questions = harvest.questions;
      }
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      error = err;
      outcome = timedOut ? timeout : { status: 'empty', detail: `model error: ${err.message}` };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      run.signal.removeEventListener('abort', onOuterAbort);
    }
    await this.keep(session.slug, roleName, { round: 1, task: 'questions', status: outcome.status }, reply);
    const detail = `${angle}: ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ''}; ${questions.length} questions`;
    await this.audit(
      session.slug,
      'brainstorm.inquisitor',
      outcome.status === 'success' ? 'ok' : 'error',
      detail,
      reply,
    );
    run.onProgress?.({
      kind: 'inquisitor',
      angle,
      state: outcome.status,
      questions: questions.length,
      ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}),
    });
    return error !== undefined ? { outcome, questions, error } : { outcome, questions };
  }

  /**
   * The coordinator's follow-up questions or summary. A reply that cannot be read is asked for
   * once more with the reason; when the second cannot be read either, a follow-up ends the
   * questions (the brainstorm is summarized) and a summary keeps the reply's prose as it is.
   */
  async coordinate(session: BrainstormSession, task: CoordinatorTask, run: StepOptions): Promise<BrainstormEvent> {
    if (run.signal.aborted) throw stopped(session);
    run.onProgress?.({ kind: 'coordinator', task });
    const round = currentRound(session);
    const keptIn = planDisplayPath(session.slug, workerLogName(COORDINATOR_ROLE));
    const messages: LlmMessage[] = [
      { role: 'user', content: coordinatorPrompt(session, task, this.places(session.slug), this.random()) },
    ];
    for (let attempt = 1; ; attempt++) {
      let reply: Reply;
      try {
        const role = await this.deps.role(COORDINATOR_ROLE);
        reply = await this.call(role, messages, COORDINATOR_MAX_TOKENS, run.signal, session, 'coordinator', run, true);
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        return { type: 'call-failed', during: task, error: err.message };
      }
      if (run.signal.aborted || reply.stopped) throw stopped(session);
      const last = attempt === 2;
      if (reply.outOfTurns) {
        const why = 'you used all your turns on tools without answering';
        await this.audit(
          session.slug,
          `brainstorm.${task}`,
          'error',
          `the coordinator ${why}${last ? '' : '; asked again'}`,
          reply,
        );
        if (last)
          return {
            type: 'call-failed',
            during: task,
            error: `The coordinator used all its turns reading the workspace without answering, twice. Retry; your answers are kept.`,
          };
        messages.push(...reask(reply.text, why, task === 'follow-up' ? 'the questions JSON' : 'the summary JSON'));
        continue;
      }
      if (task === 'follow-up') {
        const harvest = harvestQuestions(reply.text, 'edge-cases', keptIn);
        const broken = harvest.status === 'parse_error';
        await this.keep(session.slug, COORDINATOR_ROLE, { round, task, status: harvest.status }, reply);
        await this.audit(
          session.slug,
          'brainstorm.follow-up',
          broken ? 'error' : 'ok',
          `after round ${round}: ${harvest.questions.length} questions (${harvest.status})${broken && !last ? '; asked again' : ''}`,
          reply,
        );
        if (!broken) return { type: 'followed-up', questions: harvest.questions };
        if (last) {
          run.onProgress?.({
            kind: 'notice',
            text: `The coordinator's follow-up questions could not be read twice, so the brainstorm is summarized now. Its replies are kept in ${keptIn}.`,
          });
          return { type: 'followed-up', questions: [] };
        }
        messages.push(...reask(reply.text, harvest.detail ?? 'no questions JSON was found', 'the questions JSON'));
        continue;
      }
      const summary = parseSummary(reply.text, keptIn);
      const status = summary ? 'success' : 'parse_error';
      await this.keep(session.slug, COORDINATOR_ROLE, { round, task, status }, reply);
      if (summary !== undefined) {
        await this.audit(session.slug, 'brainstorm.summarize', 'ok', `summary of ${round} round(s)`, reply);
        return { type: 'summarized', summary };
      }
      if (last) {
        await this.audit(
          session.slug,
          'brainstorm.summarize',
          'error',
          `the summary could not be read twice; its text is kept as the summary (summary_format: text)`,
          reply,
        );
        return { type: 'summarized', summary: proseSummary(session.topic, reply.text) };
      }
      await this.audit(
        session.slug,
        'brainstorm.summarize',
        'error',
        'the summary could not be read; asked again',
        reply,
      );
      messages.push(
        ...reask(reply.text, summaryParseError(reply.text) ?? 'the summary JSON was not found', 'the summary JSON'),
      );
    }
  }

  /** One agent call through the runner; its text, usage and whether it was stopped. */
  private async call(
    role: Role,
    messages: LlmMessage[],
    maxTokens: number,
    signal: AbortSignal,
    session: BrainstormSession,
    who: Angle | 'coordinator',
    run: StepOptions,
    streams: boolean,
  ): Promise<Reply> {
    const observer: AgentObserver = {
      onRetry: (r) => run.onProgress?.({ kind: 'retry', who, attempt: r.attempt, of: r.of, reason: r.reason }),
      onTool: (activity) => run.onProgress?.({ kind: 'tool', who, activity }),
    };
    if (streams) observer.onText = (text) => run.onProgress?.({ kind: 'text', text });
    const reply = await this.deps.runner.call(role, { messages, maxTokens }, signal, observer, {
      kind: 'brainstorm',
      what: 'BRAINSTORM',
      name: session.slug,
    });
    return {
      text: reply.text,
      stopped: reply.outcome === 'stopped',
      outOfTurns: reply.outcome === 'max-turns',
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(reply.model ? { model: reply.model } : {}),
    };
  }

  private async keep(
    slug: string,
    agent: string,
    entry: Pick<WorkerRecord, 'round' | 'task' | 'status'>,
    reply: Reply | undefined,
  ): Promise<void> {
    await this.deps.plans.workerLog(slug, agent).append({
      timestamp: new Date(this.deps.clock.now()).toISOString(),
      ...entry,
      text: reply?.text ?? '',
      ...(reply?.model !== undefined ? { model: reply.model } : {}),
      ...(reply?.usage !== undefined ? { usage: reply.usage } : {}),
    });
  }

  private async audit(
    slug: string,
    kind: string,
    status: 'ok' | 'error',
    detail: string,
    reply?: Reply,
  ): Promise<void> {
    const entry: AuditInput = {
      kind,
      input: auditInput('BRAINSTORM', slug),
      status,
      detail,
      ...this.deps.runner.usageFields(reply?.model, reply?.usage),
    };
    await this.deps.runner.audit.append(entry);
  }

  private places(slug: string): PromptPlaces {
    return { state: planDisplayPath(slug, PLAN_FILES.state), answers: planDisplayPath(slug, workerLogName(USER_LOG)) };
  }

  private random(): RandomBytes {
    return this.deps.random ?? secureRandomBytes;
  }
}

/** The broken reply, then the request to answer again, naming what was wrong. */
function reask(replyText: string, why: string, what: string): LlmMessage[] {
  const quoted = cutText(replyText.trim(), REASK_QUOTE_MAX_BYTES);
  return [
    { role: 'assistant', content: quoted === '' ? '(an empty reply)' : quoted },
    {
      role: 'user',
      content: `Your reply could not be read: ${cutText(why, 500)}. Reply again with only ${what}, exactly in the format asked for above.`,
    },
  ];
}

export function stopped(session: BrainstormSession): BrainstormError {
  return new BrainstormError(
    'stopped',
    `Stopped. The brainstorm ${session.slug} is kept at round ${Math.max(1, currentRound(session))}; resume it to go on.`,
  );
}

/** "120", or "0.5" for a short limit: never "0". */
function seconds(ms: number): string {
  return String(+(ms / 1000).toFixed(1));
}

function setting(value: number | (() => number) | undefined, fallback: number): number {
  const raw = typeof value === 'function' ? value() : value;
  return raw !== undefined && Number.isFinite(raw) && raw > 0 ? raw : fallback;
}
