// Runs brainstorms: loads the session file of a plan folder, steps the machine
// (brainstormMachine.ts) and carries out its effects — the inquisitors in parallel, the
// coordinator's calls, the round files and the artifacts — feeding each model result back as an
// event. The session file is saved before every model call, so an answer is never asked twice
// and a stopped or crashed step resumes where it was.
import { AuditLog, auditInput } from '../audit/auditLog';
import type { Clock } from '../clock';
import { IDEA_BRIEF_FILE } from '../discovery/ideaBriefFile';
import { isPlainObject } from '../inputChecks';
import { LlmError } from '../llm/llmClient';
import type { LlmClient, LlmErrorKind, LlmUsage } from '../llm/llmClient';
import { costOf } from '../llm/usage';
import type { PriceTable } from '../llm/usage';
import { capText, utf8Length } from '../prompt/cap';
import { secureRandomBytes } from '../prompt/untrustedText';
import type { RandomBytes } from '../prompt/untrustedText';
import type { Role } from '../roles/roleSchema';
import { slugify, uniqueSlug } from '../storage/safeNames';
import { StorageError } from '../storage/storageError';
import type { RecordParser } from '../storage/recordLog';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { renderBrainstormDocument, renderBrainstormsPointer, renderRoundFile, renderSeededFromPointer, parseBrainstormsPointer } from './brainstormDocs';
import { currentRound, due, step } from './brainstormMachine';
import type { BrainstormEffect, BrainstormEvent, CoordinatorTask } from './brainstormMachine';
import { coordinatorPrompt, inquisitorPrompt } from './brainstormPrompt';
import type { PromptPlaces } from './brainstormPrompt';
import {
  ANGLES,
  BrainstormError,
  COORDINATOR_ROLE,
  DEFAULT_CONCURRENCY,
  DEFAULT_INQUISITOR_TIMEOUT_SECONDS,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_MIN_ROUNDS,
  INQUISITOR_ROLES,
  PLAN_FILES,
  ROUNDS_LIMIT,
  roundFileName,
} from './brainstormTypes';
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
import { checkSlug, isComplete, planDisplayPath, planFile, planFolderExists, planSlugs, PLANS_DIR } from './planFolder';
import { parseSession, serializeSession, SESSION_FILE_MAX_BYTES } from './sessionFile';

/** A topic is a line or a paragraph; a pasted document belongs in a file the topic names. */
export const TOPIC_MAX_BYTES = 64 * 1024;
/** The seed brief as the models see it. */
const SEED_MAX_BYTES = 16 * 1024;
const INQUISITOR_MAX_TOKENS = 2048;
const COORDINATOR_MAX_TOKENS = 4096;
const ARTIFACT_MODE = 0o644;
const USER_LOG = 'user';
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

/** A session as read, with the file text it was read from, to detect a writer elsewhere. */
interface Loaded {
  session: BrainstormSession;
  text: string | undefined;
}

/** One line of `.workers/<agent>.ndjson`: a model's whole reply, or the person's whole answers. */
interface WorkerRecord {
  timestamp: string;
  round: number;
  task: string;
  status?: string;
  text?: string;
  answers?: (string | null)[];
  model?: string;
  usage?: LlmUsage;
}

const parseWorkerRecord: RecordParser<WorkerRecord> = (value) =>
  isPlainObject(value) && typeof value['timestamp'] === 'string' && typeof value['task'] === 'string'
    ? { ok: true, record: value as unknown as WorkerRecord }
    : { ok: false, reason: 'not a worker record' };

export class BrainstormService implements BrainstormApi {
  private readonly audit: AuditLog;
  private readonly busy = new Set<string>();
  private llmClient: LlmClient | undefined;

  constructor(private readonly deps: BrainstormServiceDeps) {
    this.audit = deps.audit ?? AuditLog.of(deps.store, deps.clock);
  }

  async start(topic: string, options: StartOptions, run: StepOptions): Promise<BrainstormSession> {
    const text = topic.replace(/\r\n?/g, '\n').trim();
    if (text === '') throw new BrainstormError('invalid', 'The topic is empty. Say in a sentence what you want to think through.');
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
    const seed = options.seedFrom === undefined ? undefined : await this.readSeed(options.seedFrom);

    const store = this.deps.store;
    const loaded = await store.withLock(async (): Promise<Loaded> => {
      const taken = new Set(await store.list(PLANS_DIR));
      let slug: string;
      if (options.slug !== undefined) {
        if (taken.has(options.slug)) {
          throw new BrainstormError('invalid', `${planDisplayPath(options.slug)} exists already. Resume that brainstorm, or choose another slug.`);
        }
        slug = options.slug;
      } else {
        slug = uniqueSlug(slugify(text), taken);
      }
      const session: BrainstormSession = { slug, topic: text, createdAt: this.deps.clock.now(), minRounds, maxRounds, rounds: [], phase: { kind: 'inquiring' } };
      if (seed !== undefined) session.seed = seed;
      const fileText = serializeSession(session);
      await store.writeText(planFile(slug, PLAN_FILES.state), fileText);
      if (seed !== undefined) await this.linkSeed(slug, seed);
      return { session, text: fileText };
    });
    run.onProgress?.({ kind: 'started', slug: loaded.session.slug });
    await this.auditEntry(loaded.session.slug, 'brainstorm.start', 'ok', `rounds ${minRounds}–${maxRounds}${seed ? `; seeded from ${seed.slug}` : ''}`, text);
    return this.drive(loaded, undefined, run);
  }

  async load(slug: string): Promise<BrainstormSession> {
    return (await this.read(slug)).session;
  }

  async answer(slug: string, answers: Answer[], action: RoundAction, run: StepOptions): Promise<BrainstormSession> {
    return this.exclusive(slug, async () => {
      const loaded = await this.read(slug);
      const round = currentRound(loaded.session);
      const whole = answers.map((a) => (a.kind === 'answered' ? a.text.replace(/\r\n?/g, '\n').trim() : ''));
      if (loaded.session.phase.kind === 'answering') {
        // The whole answers go to the person's log first: a capped answer's marker points there.
        await this.workerLog(slug, USER_LOG).append({
          timestamp: this.isoNow(),
          round,
          task: 'answers',
          answers: answers.map((a, i) => (a.kind === 'answered' && whole[i] !== '' ? whole[i]! : null)),
        });
      }
      const kept: Answer[] = answers.map((a, i) =>
        a.kind === 'answered' && whole[i] !== '' ? { kind: 'answered', text: capText(whole[i]!, planDisplayPath(slug, `${PLAN_FILES.workersDir}/${USER_LOG}.ndjson`)).text } : { kind: 'skipped' },
      );
      return this.drive(loaded, { type: 'answered', answers: kept, action }, run);
    });
  }

  async resume(slug: string, run: StepOptions): Promise<BrainstormSession> {
    return this.exclusive(slug, async () => {
      const loaded = await this.read(slug);
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
    return this.exclusive(slug, async () => this.drive(await this.read(slug), { type: 'restart' }, run));
  }

  async discard(slug: string): Promise<void> {
    await this.exclusive(slug, async () => {
      const { session } = await this.read(slug);
      if (session.phase.kind === 'complete') throw new BrainstormError('complete', `The brainstorm ${slug} is complete; Groundwork does not discard finished plans. Delete ${planDisplayPath(slug)} yourself if you no longer want it.`);
      await this.deps.store.remove(`${PLANS_DIR}/${slug}`);
      await this.auditEntry(slug, 'brainstorm.discard', 'ok', `discarded at round ${currentRound(session)}`, session.topic);
    });
  }

  async unfinished(): Promise<UnfinishedBrainstorm[]> {
    const found: UnfinishedBrainstorm[] = [];
    for (const slug of await planSlugs(this.deps.store)) {
      try {
        if (!(await planFolderExists(this.deps.store, slug)) || (await isComplete(this.deps.store, slug))) continue;
        const text = await this.deps.store.readText(planFile(slug, PLAN_FILES.state), SESSION_FILE_MAX_BYTES);
        if (text === undefined) continue;
        const s = parseSession(text, planDisplayPath(slug, PLAN_FILES.state));
        found.push({ slug, topic: s.topic, round: Math.max(1, currentRound(s)), phase: s.phase.kind, createdAt: s.createdAt });
      } catch (err) {
        // A damaged or unsafe folder is not listed; resuming it by name says what is wrong.
        if (!(err instanceof BrainstormError) && !(err instanceof StorageError)) throw err;
      }
    }
    return found.sort((a, b) => b.createdAt - a.createdAt);
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
        await this.save(loaded);
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
      reply = await this.call(role, inquisitorPrompt(session, angle, this.places(session.slug), this.random()), INQUISITOR_MAX_TOKENS, abort.signal);
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
    await this.workerLog(session.slug, roleName).append({
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
      reply = await this.call(role, coordinatorPrompt(session, task, this.places(session.slug), this.random()), COORDINATOR_MAX_TOKENS, run.signal, (text) =>
        run.onProgress?.({ kind: 'text', text }),
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
      await this.workerLog(session.slug, COORDINATOR_ROLE).append({ ...base, status: harvest.status });
      await this.auditEntry(session.slug, 'brainstorm.follow-up', harvest.status === 'parse_error' ? 'error' : 'ok', `after round ${round}: ${harvest.questions.length} questions (${harvest.status})`, undefined, reply);
      if (harvest.status === 'parse_error') {
        return { type: 'call-failed', during: task, error: `The coordinator's reply could not be read (${harvest.detail ?? 'no questions JSON'}). Your answers are kept: Retry asks it again. The reply is kept in ${keptIn}.` };
      }
      return { type: 'followed-up', questions: harvest.questions };
    }
    const summary = parseSummary(reply.text, keptIn);
    await this.workerLog(session.slug, COORDINATOR_ROLE).append({ ...base, status: summary ? 'success' : 'parse_error' });
    await this.auditEntry(session.slug, 'brainstorm.summarize', summary ? 'ok' : 'error', summary ? `summary of ${round} round(s)` : 'the summary could not be read', undefined, reply);
    if (summary === undefined) {
      return { type: 'call-failed', during: task, error: `The coordinator's summary could not be read. Your answers are kept: Retry asks for it again. The reply is kept in ${keptIn}.` };
    }
    return { type: 'summarized', summary };
  }

  /** One streamed model call; the whole text, usage, and whether it was stopped. */
  private async call(role: Role, prompt: string, maxTokens: number, signal: AbortSignal, onText?: (text: string) => void): Promise<Reply> {
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

  // ---- files ----

  private async read(slug: string): Promise<Loaded> {
    if (!(await planFolderExists(this.deps.store, slug))) {
      const open = (await this.unfinished()).map((u) => u.slug);
      throw new BrainstormError('not-found', `There is no plan ${planDisplayPath(slug)}.${open.length ? ` Unfinished brainstorms: ${open.slice(0, 10).join(', ')}.` : ''}`);
    }
    const where = planDisplayPath(slug, PLAN_FILES.state);
    let text: string | undefined;
    try {
      text = await this.deps.store.readText(planFile(slug, PLAN_FILES.state), SESSION_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'too-large') throw new BrainstormError('corrupt', `${where} is larger than a brainstorm can be. Discard this brainstorm and start it again.`);
      throw err;
    }
    if (text === undefined) {
      const complete = await isComplete(this.deps.store, slug);
      throw new BrainstormError(
        complete ? 'complete' : 'not-found',
        complete ? `The brainstorm ${slug} is complete: read ${planDisplayPath(slug, PLAN_FILES.document)}.` : `${planDisplayPath(slug)} is not a brainstorm (it has no ${PLAN_FILES.state}).`,
      );
    }
    const session = parseSession(text, where);
    if (session.slug !== slug) throw new BrainstormError('corrupt', `${where} belongs to the plan "${session.slug}", not "${slug}". Discard this brainstorm and start it again.`);
    return { session, text };
  }

  /** Saves under the lock, refusing when another window or the CLI changed the file meanwhile. */
  private async save(loaded: Loaded): Promise<void> {
    const rel = planFile(loaded.session.slug, PLAN_FILES.state);
    const text = serializeSession(loaded.session);
    await this.deps.store.withLock(async () => {
      const current = await this.deps.store.readText(rel, SESSION_FILE_MAX_BYTES);
      if (current !== loaded.text) {
        throw new BrainstormError('busy', `The brainstorm ${loaded.session.slug} was changed elsewhere (another window or the CLI) during this step. Reopen it to continue from there.`);
      }
      await this.deps.store.writeText(rel, text);
    });
    loaded.text = text;
  }

  /** The seed plan's Idea Brief, capped, for "Brainstorm deeper". */
  private async readSeed(slug: string): Promise<{ slug: string; file: string; text: string }> {
    if (!(await planFolderExists(this.deps.store, slug))) throw new BrainstormError('not-found', `There is no plan ${planDisplayPath(slug)} to seed the brainstorm from.`);
    const text = await this.deps.store.readText(planFile(slug, IDEA_BRIEF_FILE));
    if (text === undefined) throw new BrainstormError('not-found', `${planDisplayPath(slug)} has no ${IDEA_BRIEF_FILE} to seed the brainstorm from.`);
    return { slug, file: IDEA_BRIEF_FILE, text: capText(text, planDisplayPath(slug, IDEA_BRIEF_FILE), SEED_MAX_BYTES).text };
  }

  /** DEC-3: each folder points at the other; nothing is copied between them. */
  private async linkSeed(slug: string, seed: { slug: string; file: string }): Promise<void> {
    const store = this.deps.store;
    await store.writeText(planFile(slug, PLAN_FILES.seededFrom), renderSeededFromPointer(seed), ARTIFACT_MODE);
    const pointer = planFile(seed.slug, PLAN_FILES.brainstorms);
    const listed = parseBrainstormsPointer((await store.readText(pointer)) ?? '');
    if (!listed.includes(slug)) await store.writeText(pointer, renderBrainstormsPointer([...listed, slug]), ARTIFACT_MODE);
  }

  private workerLog(slug: string, agent: string) {
    return this.deps.store.log<WorkerRecord>(planFile(slug, `${PLAN_FILES.workersDir}/${agent}.ndjson`), parseWorkerRecord);
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

  /** One step per brainstorm at a time in this process (another process is caught by `save`). */
  private async exclusive<T>(slug: string, fn: () => Promise<T>): Promise<T> {
    checkSlug(slug);
    if (this.busy.has(slug)) throw new BrainstormError('busy', `The brainstorm ${slug} is busy with a step. Wait for it, or stop it first.`);
    this.busy.add(slug);
    try {
      return await fn();
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
