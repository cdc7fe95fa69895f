// Runs brainstorms: loads the session file of a plan folder, steps the machine
// (brainstormMachine.ts) and carries out its effects — the inquisitors in parallel, the
// coordinator's calls, the round files and the artifacts — feeding each model result back as an
// event. The session file is saved before every model call, so an answer is never asked twice
// and a stopped or crashed step resumes where it was.
import { AuditLog, auditInput } from '../audit/auditLog';
import type { Clock } from '../clock';
import { LlmError } from '../llm/llmClient';
import type { LlmClient, LlmErrorKind, LlmRetry, LlmUsage } from '../llm/llmClient';
import { costOf } from '../llm/usage';
import type { PriceTable } from '../llm/usage';
import { CAP_BYTES, capText, cutText, utf8Length } from '../prompt/cap';
import { isBlankText, secureRandomBytes } from '../prompt/untrustedText';
import type { RandomBytes } from '../prompt/untrustedText';
import type { Role } from '../roles/roleSchema';
import { slugify, uniqueSlug } from '../storage/safeNames';
import { StorageError } from '../storage/storageError';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { renderBrainstormDocument, renderRoundFile } from './brainstormDocs';
import { currentRound, due, step } from './brainstormMachine';
import { isSetAside, recoverSession, setAside } from './damagedPlan';
import type { BrainstormEffect, BrainstormEvent, CoordinatorTask } from './brainstormMachine';
import { coordinatorPrompt, inquisitorPrompt } from './brainstormPrompt';
import type { PromptPlaces } from './brainstormPrompt';
import { ANGLES, ANSWER_KEPT_MAX_BYTES, BrainstormError, COORDINATOR_ROLE, DEFAULT_CONCURRENCY, DEFAULT_INQUISITOR_TIMEOUT_SECONDS, DEFAULT_MAX_ROUNDS, DEFAULT_MIN_ROUNDS, INQUISITOR_ROLES, ROUNDS_LIMIT, TOPIC_MAX_BYTES } from './brainstormTypes';
import type {
  Angle,
  Answer,
  BrainstormApi,
  BrainstormSession,
  InquisitorOutcome,
  Question,
  RoundAction,
  StartOptions,
  StepOptions,
  UnfinishedBrainstorm,
} from './brainstormTypes';
import { renderContextFile, toContext } from './contextFile';
import { harvestQuestions, parseSummary } from './harvest';
import { checkSlug, isComplete, planFolderExists } from './planFolder';
import { SESSION_FILE_MAX_BYTES } from './sessionFile';
import { ARTIFACT_MODE, PlanStore, SlugTaken, USER_LOG } from './planStore';
import type { Loaded } from './planStore';
import { PLANS_DIR, PLAN_FILES, planDisplayPath, planFile, roundFileName } from '../plan/layout';

const INQUISITOR_MAX_TOKENS = 2048;
const COORDINATOR_MAX_TOKENS = 4096;
/** Model failures that are about the setup, not the call: the same for every inquisitor. */
const SETUP_ERRORS: ReadonlySet<LlmErrorKind> = new Set(['no-provider', 'auth', 'quota', 'consent']);

export interface BrainstormServiceDeps {
  store: WorkspaceStore;
  /** The model port, or a function that makes it on first use (the SDK loads lazily). */
  llm: LlmClient | (() => Promise<LlmClient>);
  clock: Clock;
  /** A role by name (the inquisitors and the coordinator), loaded through src/core/roles. */
  role: (name: string) => Promise<Role>;
  /** How many inquisitors run at once (`groundwork.brainstorm.concurrency`, default 3). */
  concurrency?: number | (() => number);
  /** Each inquisitor's time limit in ms (default 120 s). */
  inquisitorTimeoutMs?: number | (() => number);
  audit?: AuditLog;
  prices?: PriceTable;
  random?: RandomBytes;
}

export class BrainstormService implements BrainstormApi {
  private readonly audit: AuditLog;
  private readonly busy = new Set<string>();
  private llmClient: LlmClient | undefined;

  private readonly plans: PlanStore;

  constructor(private readonly deps: BrainstormServiceDeps) {
    this.audit = deps.audit ?? AuditLog.of(deps.store, deps.clock);
    this.plans = new PlanStore(deps.store, deps.clock);
  }

  async start(topic: string, options: StartOptions, run: StepOptions): Promise<BrainstormSession> {
    const text = topic.replace(/\r\n?/g, '\n').trim();
    if (isBlankText(text)) throw new BrainstormError('invalid', 'The topic is empty (or only invisible characters). Say in a sentence what you want to think through.');
    if (utf8Length(text) > TOPIC_MAX_BYTES) {
      throw new BrainstormError('invalid', `The topic is ${Math.round(utf8Length(text) / 1024)} KB; a topic is at most ${TOPIC_MAX_BYTES / 1024} KB. Save the long text in a file of the workspace and name the file in the topic.`);
    }
    const minRounds = options.minRounds ?? DEFAULT_MIN_ROUNDS;
    const maxRounds = options.maxRounds ?? Math.max(DEFAULT_MAX_ROUNDS, minRounds);
    for (const [name, n] of [['minimum', minRounds], ['maximum', maxRounds]] as const) {
      if (!Number.isSafeInteger(n) || n < 1 || n > ROUNDS_LIMIT) throw new BrainstormError('invalid', `The ${name} number of rounds must be a whole number from 1 to ${ROUNDS_LIMIT}, not ${n}.`);
    }
    if (minRounds > maxRounds) throw new BrainstormError('invalid', `The minimum number of rounds (${minRounds}) is more than the maximum (${maxRounds}). Lower the minimum or raise the maximum.`);
    if (options.slug !== undefined) checkSlug(options.slug);
    const seed = options.seedFrom === undefined ? undefined : await this.plans.readSeed(options.seedFrom);

    // Everything the brainstorm will write is checked before anything is: a link or a folder in
    // the way of the audit log must not stop it after its plan folder exists.
    await this.plans.checkWritable(undefined, seed?.slug);
    for (let attempt = 1; ; attempt++) {
      const slug = options.slug ?? uniqueSlug(slugify(text), new Set(await this.deps.store.list(PLANS_DIR)));
      try {
        // The session's lock from the start: a resume elsewhere cannot run round 1 a second time.
        return await this.exclusive(slug, async () => {
          const loaded = await this.plans.create(slug, text, { minRounds, maxRounds }, seed, options.slug !== undefined);
          run.onProgress?.({ kind: 'started', slug });
          await this.auditEntry(slug, 'brainstorm.start', 'ok', `rounds ${minRounds}–${maxRounds}${seed ? `; seeded from ${seed.slug}` : ''}`, text);
          return this.drive(loaded, undefined, run);
        });
      } catch (err) {
        // Another window took the same name at the same moment: pick the next free one.
        const taken = err instanceof SlugTaken || (err instanceof BrainstormError && err.kind === 'busy');
        if (!taken) throw err;
        if (options.slug !== undefined || attempt >= 5) {
          throw new BrainstormError('invalid', `${planDisplayPath(slug)} exists already. Resume that brainstorm, or choose another slug.`);
        }
      }
    }
  }

  unfinished(): Promise<UnfinishedBrainstorm[]> {
    return this.plans.unfinished();
  }

  async load(slug: string): Promise<BrainstormSession> {
    return (await this.plans.read(slug)).session;
  }

  async answer(slug: string, answers: Answer[], action: RoundAction, run: StepOptions): Promise<BrainstormSession> {
    checkSlug(slug);
    const typed = answers.map((a) => (a.kind === 'answered' && !isBlankText(a.text) ? a.text.replace(/\r\n?/g, '\n').trim() : undefined));
    const whole = typed.map((t) => (t === undefined ? undefined : cutText(t, ANSWER_KEPT_MAX_BYTES)));
    const userLog = planDisplayPath(slug, `${PLAN_FILES.workersDir}/${USER_LOG}.ndjson`);
    let kept = false;
    const keep = async (round: number | undefined) => {
      // Whatever becomes of the step, what the person typed is kept first: a capped answer's marker
      // points here, and a refused step (busy elsewhere, the round already answered) loses nothing.
      await this.plans.workerLog(slug, USER_LOG).append({ timestamp: this.isoNow(), ...(round !== undefined ? { round } : {}), task: 'answers', answers: whole.map((t) => t ?? null) });
      kept = true;
      typed.forEach((t, i) => {
        if (t !== undefined && utf8Length(t) > ANSWER_KEPT_MAX_BYTES) {
          const notice = `Answer ${i + 1} is ${Math.round(utf8Length(t) / 1024)} KB; its first ${ANSWER_KEPT_MAX_BYTES / 1024} KB are kept in ${userLog}, and the model reads the first ${CAP_BYTES / 1024} KB.`;
          run.onProgress?.({ kind: 'notice', text: notice });
        }
      });
    };
    try {
      return await this.exclusive(slug, async () => {
        const loaded = await this.plans.read(slug);
        await keep(currentRound(loaded.session));
        const given: Answer[] = whole.map((t) => (t === undefined ? { kind: 'skipped' } : { kind: 'answered', text: capText(t, userLog).text }));
        return this.drive(loaded, { type: 'answered', answers: given, action }, run);
      });
    } catch (err) {
      if (kept || !(err instanceof BrainstormError) || err.kind !== 'busy' || !(await planFolderExists(this.deps.store, slug))) throw err;
      await keep(undefined);
      throw new BrainstormError('busy', `${err.message} Your answers are kept in ${userLog}.`);
    }
  }

  async resume(slug: string, run: StepOptions): Promise<BrainstormSession> {
    return this.exclusive(slug, async () => {
      const loaded = await this.plans.read(slug);
      const phase = loaded.session.phase.kind;
      if (phase === 'complete') {
        if (await isComplete(this.deps.store, slug)) {
          throw new BrainstormError('complete', `The brainstorm ${slug} is complete: read ${planDisplayPath(slug, PLAN_FILES.document)}.`);
        }
        // Saved as complete, but the window closed before the sentinel: write the artifacts again.
        await this.runEffect({ type: 'write-artifacts' }, loaded, run);
        return loaded.session;
      }
      if (phase === 'answering') return loaded.session;
      return this.drive(loaded, { type: 'retry' }, run);
    });
  }

  async restart(slug: string, run: StepOptions): Promise<BrainstormSession> {
    return this.exclusive(slug, async () => {
      let loaded: Loaded;
      try {
        loaded = await this.plans.read(slug);
      } catch (err) {
        if (!(err instanceof BrainstormError) || err.kind !== 'corrupt') throw err;
        return this.drive(await this.restartDamaged(slug, err), undefined, run);
      }
      return this.drive(loaded, { type: 'restart' }, run);
    });
  }

  async discard(slug: string): Promise<{ keptIn?: string; damaged?: true }> {
    return this.exclusive(slug, async () => {
      let session: BrainstormSession;
      try {
        session = (await this.plans.read(slug)).session;
      } catch (err) {
        if (!(err instanceof BrainstormError) || err.kind !== 'corrupt') throw err;
        const keptIn = await setAside(this.deps.store, slug, this.deps.clock.now());
        await this.auditEntry(slug, 'brainstorm.discard', 'ok', `discarded a damaged brainstorm; its files are in ${keptIn}`);
        return { keptIn, damaged: true };
      }
      if (session.phase.kind === 'complete') throw new BrainstormError('complete', `The brainstorm ${slug} is complete; Groundwork does not discard finished plans. Delete ${planDisplayPath(slug)} yourself if you no longer want it.`);
      // What an earlier discard set aside in the folder stays: it was promised to be kept.
      const entries = await this.deps.store.list(`${PLANS_DIR}/${slug}`);
      const kept = entries.filter(isSetAside);
      if (kept.length === 0) await this.deps.store.remove(`${PLANS_DIR}/${slug}`);
      else for (const name of entries.filter((n) => !isSetAside(n))) await this.deps.store.remove(planFile(slug, name));
      await this.auditEntry(slug, 'brainstorm.discard', 'ok', `discarded at round ${currentRound(session)}`, session.topic);
      return kept.length === 0 ? {} : { keptIn: planDisplayPath(slug, kept.at(-1)!) };
    });
  }

  /**
   * A fresh session on the damaged one's topic, its files set aside first; refused, with what to
   * do instead, when the topic cannot be read from what is left.
   */
  private async restartDamaged(slug: string, damage: BrainstormError): Promise<Loaded> {
    const text = await this.deps.store.readText(planFile(slug, PLAN_FILES.state), SESSION_FILE_MAX_BYTES).catch(() => undefined);
    const recovered = recoverSession(text);
    if (recovered === undefined) {
      throw new BrainstormError(
        'corrupt',
        `${damage.message.replace(/ Discard this brainstorm and start it again\.$/, '')}. Its topic cannot be read from it, so it cannot restart: ` +
          `discard it (its files are kept), or start a new brainstorm under the same name (slug ${slug}).`,
      );
    }
    const keptIn = await setAside(this.deps.store, slug, this.deps.clock.now());
    const loaded = await this.plans.create(slug, recovered.topic, recovered, undefined, true);
    await this.auditEntry(slug, 'brainstorm.restart', 'ok', `restarted a damaged brainstorm; its files are in ${keptIn}`, recovered.topic);
    return loaded;
  }

  // ---- the runner ----

  private async drive(loaded: Loaded, event: BrainstormEvent | undefined, run: StepOptions): Promise<BrainstormSession> {
    const queue: BrainstormEffect[] = [];
    const apply = (ev: BrainstormEvent) => {
      const next = step(loaded.session, ev);
      loaded.session = next.session;
      queue.push(...next.effects);
    };
    if (event === undefined) queue.push(...due(loaded.session));
    else apply(event);
    while (queue.length > 0) {
      const reply = await this.runEffect(queue.shift()!, loaded, run);
      if (reply !== undefined) apply(reply);
    }
    return loaded.session;
  }

  private async runEffect(effect: BrainstormEffect, loaded: Loaded, run: StepOptions): Promise<BrainstormEvent | undefined> {
    const { store } = this.deps;
    const slug = loaded.session.slug;
    switch (effect.type) {
      case 'save':
        await this.plans.save(loaded);
        return undefined;
      case 'write-round':
        await store.writeText(planFile(slug, `${PLAN_FILES.roundsDir}/${roundFileName(effect.round)}`), renderRoundFile(loaded.session, effect.round), ARTIFACT_MODE);
        return undefined;
      case 'remove-rounds':
        await store.remove(planFile(slug, PLAN_FILES.roundsDir));
        return undefined;
      case 'write-artifacts':
        // Each file is replaced atomically; the sentinel, written last, vouches for the pair.
        const context = renderContextFile(toContext(loaded.session));
        await store.writeText(planFile(slug, PLAN_FILES.document), renderBrainstormDocument(loaded.session), ARTIFACT_MODE);
        await store.writeText(planFile(slug, PLAN_FILES.context), context, ARTIFACT_MODE);
        await store.writeText(planFile(slug, PLAN_FILES.sentinel), `${this.isoNow()}\n`, ARTIFACT_MODE);
        return undefined;
      case 'audit':
        await this.auditEntry(slug, effect.kind, effect.status, effect.detail);
        return undefined;
      case 'notice':
        run.onProgress?.({ kind: 'notice', text: effect.text });
        return undefined;
      case 'call-inquisitors':
        return this.inquire(loaded.session, run);
      case 'call-coordinator':
        return this.coordinate(loaded.session, effect.task, run);
    }
  }

  /** Round 1: the three inquisitors at once (at most `concurrency` at a time), each with its time limit. */
  private async inquire(session: BrainstormSession, run: StepOptions): Promise<BrainstormEvent> {
    const limit = Math.max(1, Math.min(ANGLES.length, Math.floor(setting(this.deps.concurrency, DEFAULT_CONCURRENCY))));
    const results = new Map<Angle, { outcome: InquisitorOutcome; questions: Question[]; error?: LlmError }>();
    const waiting = [...ANGLES];
    const worker = async () => {
      for (let angle = waiting.shift(); angle !== undefined; angle = waiting.shift()) {
        results.set(angle, await this.inquisitor(session, angle, run));
      }
    };
    await Promise.all(Array.from({ length: limit }, worker));
    if (run.signal.aborted) throw this.stopped(session);
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

  private async inquisitor(session: BrainstormSession, angle: Angle, run: StepOptions): Promise<{ outcome: InquisitorOutcome; questions: Question[]; error?: LlmError }> {
    const roleName = INQUISITOR_ROLES[angle];
    const timeoutMs = setting(this.deps.inquisitorTimeoutMs, DEFAULT_INQUISITOR_TIMEOUT_SECONDS * 1000);
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort();
    run.signal.addEventListener('abort', onOuterAbort, { once: true });
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    run.onProgress?.({ kind: 'inquisitor', angle, state: 'running' });
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
      reply = await this.call(role, inquisitorPrompt(session, angle, this.places(session.slug), this.random()), INQUISITOR_MAX_TOKENS, abort.signal, undefined, (r) =>
        run.onProgress?.({ kind: 'retry', who: angle, attempt: r.attempt, of: r.of, reason: r.reason }),
      );
      if (timedOut) outcome = { status: 'timeout', detail: `no reply within ${seconds(timeoutMs)} s` };
      else if (run.signal.aborted) return { outcome: { status: 'empty', detail: 'stopped' }, questions };
      else {
        const harvest = harvestQuestions(reply.text, angle, planDisplayPath(session.slug, `${PLAN_FILES.workersDir}/${roleName}.ndjson`));
        outcome = harvest.detail !== undefined ? { status: harvest.status, detail: harvest.detail } : { status: harvest.status };
        questions = harvest.questions;
      }
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      error = err;
      outcome = timedOut ? { status: 'timeout', detail: `no reply within ${seconds(timeoutMs)} s` } : { status: 'empty', detail: `model error: ${err.message}` };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      run.signal.removeEventListener('abort', onOuterAbort);
    }
    await this.plans.workerLog(session.slug, roleName).append({
      timestamp: this.isoNow(),
      round: 1,
      task: 'questions',
      status: outcome.status,
      text: reply?.text ?? '',
      ...(reply?.model !== undefined ? { model: reply.model } : {}),
      ...(reply?.usage !== undefined ? { usage: reply.usage } : {}),
    });
    await this.auditEntry(session.slug, 'brainstorm.inquisitor', outcome.status === 'success' ? 'ok' : 'error', `${angle}: ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ''}; ${questions.length} questions`, undefined, reply);
    run.onProgress?.({ kind: 'inquisitor', angle, state: outcome.status, questions: questions.length, ...(outcome.detail !== undefined ? { detail: outcome.detail } : {}) });
    return error !== undefined ? { outcome, questions, error } : { outcome, questions };
  }

  private async coordinate(session: BrainstormSession, task: CoordinatorTask, run: StepOptions): Promise<BrainstormEvent> {
    if (run.signal.aborted) throw this.stopped(session);
    run.onProgress?.({ kind: 'coordinator', task });
    const round = currentRound(session);
    let reply: Reply;
    try {
      const role = await this.deps.role(COORDINATOR_ROLE);
      reply = await this.call(
        role,
        coordinatorPrompt(session, task, this.places(session.slug), this.random()),
        COORDINATOR_MAX_TOKENS,
        run.signal,
        (text) => run.onProgress?.({ kind: 'text', text }),
        (r) => run.onProgress?.({ kind: 'retry', who: 'coordinator', attempt: r.attempt, of: r.of, reason: r.reason }),
      );
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      return { type: 'call-failed', during: task, error: err.message };
    }
    if (run.signal.aborted || reply.stopped) throw this.stopped(session);
    const keptIn = planDisplayPath(session.slug, `${PLAN_FILES.workersDir}/${COORDINATOR_ROLE}.ndjson`);
    const base = { timestamp: this.isoNow(), round, task, text: reply.text, ...(reply.model ? { model: reply.model } : {}), ...(reply.usage ? { usage: reply.usage } : {}) };
    if (task === 'follow-up') {
      const harvest = harvestQuestions(reply.text, 'edge-cases', keptIn);
      await this.plans.workerLog(session.slug, COORDINATOR_ROLE).append({ ...base, status: harvest.status });
      await this.auditEntry(session.slug, 'brainstorm.follow-up', harvest.status === 'parse_error' ? 'error' : 'ok', `after round ${round}: ${harvest.questions.length} questions (${harvest.status})`, undefined, reply);
      if (harvest.status === 'parse_error') {
        return { type: 'call-failed', during: task, error: `The coordinator's reply could not be read (${harvest.detail ?? 'no questions JSON'}). Your answers are kept: Retry asks it again. The reply is kept in ${keptIn}.` };
      }
      return { type: 'followed-up', questions: harvest.questions };
    }
    const summary = parseSummary(reply.text, keptIn);
    await this.plans.workerLog(session.slug, COORDINATOR_ROLE).append({ ...base, status: summary ? 'success' : 'parse_error' });
    await this.auditEntry(session.slug, 'brainstorm.summarize', summary ? 'ok' : 'error', summary ? `summary of ${round} round(s)` : 'the summary could not be read', undefined, reply);
    if (summary === undefined) {
      return { type: 'call-failed', during: task, error: `The coordinator's summary could not be read. Your answers are kept: Retry asks for it again. The reply is kept in ${keptIn}.` };
    }
    return { type: 'summarized', summary };
  }

  /** One streamed model call; the whole text, usage, and whether it was stopped. */
  private async call(role: Role, prompt: string, maxTokens: number, signal: AbortSignal, onText?: (text: string) => void, onRetry?: (retry: LlmRetry) => void): Promise<Reply> {
    const llm = await this.llm();
    const reply: Reply = { text: '', stopped: false };
    const stream = llm.stream({ system: role.prompt, messages: [{ role: 'user', content: prompt }], model: role.model, maxTokens }, signal);
    for await (const ev of stream) {
      if (ev.type === 'text') {
        reply.text += ev.text;
        onText?.(ev.text);
      } else if (ev.type === 'usage') {
        reply.usage = ev.usage;
        reply.model = ev.model;
      } else if (ev.type === 'stop') {
        reply.stopped = ev.reason === 'cancelled';
      } else if (ev.type === 'retry') {
        onRetry?.(ev);
      }
    }
    return reply;
  }

  private async llm(): Promise<LlmClient> {
    if (this.llmClient === undefined) {
      const llm = this.deps.llm;
      this.llmClient = typeof llm === 'function' ? await llm() : llm;
    }
    return this.llmClient;
  }

  private places(slug: string): PromptPlaces {
    return { state: planDisplayPath(slug, PLAN_FILES.state), answers: planDisplayPath(slug, `${PLAN_FILES.workersDir}/${USER_LOG}.ndjson`) };
  }

  private random(): RandomBytes {
    return this.deps.random ?? secureRandomBytes;
  }

  private async auditEntry(slug: string, kind: string, status: 'ok' | 'error', detail: string, text?: string, reply?: Reply): Promise<void> {
    const usd = reply?.model !== undefined && reply.usage !== undefined ? costOf(reply.model, reply.usage, this.deps.prices) : undefined;
    await this.audit.append({
      kind,
      input: auditInput('BRAINSTORM', slug, text),
      status,
      detail,
      ...(reply?.usage !== undefined ? { usage: reply.usage } : {}),
      ...(reply?.model !== undefined ? { model: reply.model } : {}),
      ...(usd !== undefined ? { costUsd: usd } : {}),
    });
  }

  private stopped(session: BrainstormSession): BrainstormError {
    return new BrainstormError('stopped', `Stopped. The brainstorm ${session.slug} is kept at round ${Math.max(1, currentRound(session))}; resume it to go on.`);
  }

  /**
   * One step per brainstorm at a time: in this process by the busy set, across processes (another
   * window, the CLI) by the session's lock, held through the model calls. A second step is refused
   * before it reads the session, so it never pays for a call the first one is making. `save`
   * still compares the file, for a writer that does not take the lock (a hand edit).
   */
  private async exclusive<T>(slug: string, fn: () => Promise<T>): Promise<T> {
    checkSlug(slug);
    const busy = () => new BrainstormError('busy', `The brainstorm ${slug} is busy with a step (in this window, another one or a groundwork command). Wait for it, or stop it first.`);
    if (this.busy.has(slug)) throw busy();
    this.busy.add(slug);
    try {
      return await this.deps.store.withSessionLock(`brainstorm-${slug}`, fn);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'busy') throw busy();
      throw err;
    } finally {
      this.busy.delete(slug);
    }
  }

  private isoNow(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

interface Reply {
  text: string;
  stopped: boolean;
  usage?: LlmUsage;
  model?: string;
}

/** "120", or "0.5" for a short limit: never "0". */
function seconds(ms: number): string {
  return String(+(ms / 1000).toFixed(1));
}

function setting(value: number | (() => number) | undefined, fallback: number): number {
  const raw = typeof value === 'function' ? value() : value;
  return raw !== undefined && Number.isFinite(raw) && raw > 0 ? raw : fallback;
}
