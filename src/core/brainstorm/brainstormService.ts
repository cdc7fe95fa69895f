// Runs brainstorms: loads the session file of a plan folder, steps the machine
// (brainstormMachine.ts) and carries out its effects (brainstormEffects.ts) — the inquisitors in
// parallel, the coordinator's calls, the round files and the artifacts — feeding each model result
// back as an event. The session file is saved before every model call, so an answer is never asked
// twice and a stopped or crashed step resumes where it was.
import type { AuditLog } from '../audit/auditLog';
import type { Clock } from '../clock';
import type { LlmClient } from '../llm/llmClient';
import type { PriceTable } from '../llm/usage';
import { CAP_BYTES, capText, cutText, utf8Length } from '../prompt/cap';
import { isBlankText } from '../prompt/untrustedText';
import type { RandomBytes } from '../prompt/untrustedText';
import type { Role } from '../roles/roleSchema';
import { slugify, uniqueSlug } from '../storage/safeNames';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { SessionRunner } from '../session/sessionRunner';
import type { SessionTools } from '../session/sessionRunner';
import { sessionTools } from '../session/sessionTools';
import { BrainstormAgents } from './brainstormAgents';
import { auditEntry, BrainstormEffects } from './brainstormEffects';
import { currentRound } from './brainstormMachine';
import { isSetAside, recoverSession, setAside } from './damagedPlan';
import {
  ANSWER_KEPT_MAX_BYTES,
  BrainstormError,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_MIN_ROUNDS,
  ROUNDS_LIMIT,
  TOPIC_MAX_BYTES,
} from './brainstormTypes';
import type {
  Answer,
  BrainstormApi,
  BrainstormSession,
  RoundAction,
  StartOptions,
  StepOptions,
  UnfinishedBrainstorm,
} from './brainstormTypes';
import { checkSlug, isComplete, planFolderExists } from './planFolder';
import { SESSION_FILE_MAX_BYTES } from './sessionFile';
import { PlanStore, SlugTaken, USER_LOG } from './planStore';
import type { Loaded } from './planStore';
import { PLANS_DIR, PLAN_FILES, planDisplayPath, planFile, workerLogName } from '../plan/layout';

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
  /** The agents' read tools; by default the workspace of the store (see SessionRunnerDeps). */
  tools?: SessionTools | false;
}

export class BrainstormService implements BrainstormApi {
  private readonly audit: AuditLog;
  private readonly runner: SessionRunner;
  private readonly agents: BrainstormAgents;
  private readonly plans: PlanStore;
  private readonly effects: BrainstormEffects;

  constructor(private readonly deps: BrainstormServiceDeps) {
    this.runner = new SessionRunner({ ...deps, tools: sessionTools(deps.store, deps.tools) });
    this.audit = this.runner.audit;
    this.plans = new PlanStore(deps.store, deps.clock);
    this.agents = new BrainstormAgents({ ...deps, runner: this.runner, plans: this.plans });
    this.effects = new BrainstormEffects({ ...deps, runner: this.runner, agents: this.agents, plans: this.plans });
  }

  async start(topic: string, options: StartOptions, run: StepOptions): Promise<BrainstormSession> {
    const text = topic.replace(/\r\n?/g, '\n').trim();
    if (isBlankText(text))
      throw new BrainstormError(
        'invalid',
        'The topic is empty (or only invisible characters). Say in a sentence what you want to think through.',
      );
    if (utf8Length(text) > TOPIC_MAX_BYTES) {
      throw new BrainstormError(
        'invalid',
        `The topic is ${Math.round(utf8Length(text) / 1024)} KB; a topic is at most ${TOPIC_MAX_BYTES / 1024} KB. Save the long text in a file of the workspace and name the file in the topic.`,
      );
    }
    const minRounds = options.minRounds ?? DEFAULT_MIN_ROUNDS;
    const maxRounds = options.maxRounds ?? Math.max(DEFAULT_MAX_ROUNDS, minRounds);
    for (const [name, n] of [
      ['minimum', minRounds],
      ['maximum', maxRounds],
    ] as const) {
      if (!Number.isSafeInteger(n) || n < 1 || n > ROUNDS_LIMIT)
        throw new BrainstormError(
          'invalid',
          `The ${name} number of rounds must be a whole number from 1 to ${ROUNDS_LIMIT}, not ${n}.`,
        );
    }
    if (minRounds > maxRounds)
      throw new BrainstormError(
        'invalid',
        `The minimum number of rounds (${minRounds}) is more than the maximum (${maxRounds}). Lower the minimum or raise the maximum.`,
      );
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
          const loaded = await this.plans.create(
            slug,
            text,
            { minRounds, maxRounds },
            seed,
            options.slug !== undefined,
          );
          run.onProgress?.({ kind: 'started', slug });
          await auditEntry(
            this.audit,
            slug,
            'brainstorm.start',
            'ok',
            `rounds ${minRounds}–${maxRounds}${seed ? `; seeded from ${seed.slug}` : ''}`,
            text,
          );
          return this.effects.drive(loaded, undefined, run);
        });
      } catch (err) {
        // Another window took the same name at the same moment: pick the next free one.
        const taken = err instanceof SlugTaken || (err instanceof BrainstormError && err.kind === 'busy');
        if (!taken) throw err;
        if (options.slug !== undefined || attempt >= 5) {
          throw new BrainstormError(
            'invalid',
            `${planDisplayPath(slug)} exists already. Resume that brainstorm, or choose another slug.`,
          );
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
    const typed = answers.map((a) =>
      a.kind === 'answered' && !isBlankText(a.text) ? a.text.replace(/\r\n?/g, '\n').trim() : undefined,
    );
    const whole = typed.map((t) => (t === undefined ? undefined : cutText(t, ANSWER_KEPT_MAX_BYTES)));
    const userLog = planDisplayPath(slug, workerLogName(USER_LOG));
    let kept = false;
    const keep = async (round: number | undefined) => {
      // Whatever becomes of the step, what the person typed is kept first: a capped answer's marker
      // points here, and a refused step (busy elsewhere, the round already answered) loses nothing.
      await this.plans.workerLog(slug, USER_LOG).append({
        timestamp: this.isoNow(),
        ...(round !== undefined ? { round } : {}),
        task: 'answers',
        answers: whole.map((t) => t ?? null),
      });
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
        const given: Answer[] = whole.map((t) =>
          t === undefined ? { kind: 'skipped' } : { kind: 'answered', text: capText(t, userLog).text },
        );
        return this.effects.drive(loaded, { type: 'answered', answers: given, action }, run);
      });
    } catch (err) {
      if (
        kept ||
        !(err instanceof BrainstormError) ||
        err.kind !== 'busy' ||
        !(await planFolderExists(this.deps.store, slug))
      )
        throw err;
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
          throw new BrainstormError(
            'complete',
            `The brainstorm ${slug} is complete: read ${planDisplayPath(slug, PLAN_FILES.document)}.`,
          );
        }
        // Saved as complete, but the window closed before the sentinel: write the artifacts again.
        await this.effects.runEffect({ type: 'write-artifacts' }, loaded, run);
        return loaded.session;
      }
      if (phase === 'answering') return loaded.session;
      return this.effects.drive(loaded, { type: 'retry' }, run);
    });
  }

  async restart(slug: string, run: StepOptions): Promise<BrainstormSession> {
    return this.exclusive(slug, async () => {
      let loaded: Loaded;
      try {
        loaded = await this.plans.read(slug);
      } catch (err) {
        if (!(err instanceof BrainstormError) || err.kind !== 'corrupt') throw err;
        return this.effects.drive(await this.restartDamaged(slug, err), undefined, run);
      }
      return this.effects.drive(loaded, { type: 'restart' }, run);
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
        await auditEntry(
          this.audit,
          slug,
          'brainstorm.discard',
          'ok',
          `discarded a damaged brainstorm; its files are in ${keptIn}`,
        );
        return { keptIn, damaged: true };
      }
      if (session.phase.kind === 'complete')
        throw new BrainstormError(
          'complete',
          `The brainstorm ${slug} is complete; Groundwork does not discard finished plans. Delete ${planDisplayPath(slug)} yourself if you no longer want it.`,
        );
      // What an earlier discard set aside in the folder stays: it was promised to be kept.
      const entries = await this.deps.store.list(`${PLANS_DIR}/${slug}`);
      const kept = entries.filter(isSetAside);
      if (kept.length === 0) await this.deps.store.remove(`${PLANS_DIR}/${slug}`);
      else for (const name of entries.filter((n) => !isSetAside(n))) await this.deps.store.remove(planFile(slug, name));
      await auditEntry(
        this.audit,
        slug,
        'brainstorm.discard',
        'ok',
        `discarded at round ${currentRound(session)}`,
        session.topic,
      );
      return kept.length === 0 ? {} : { keptIn: planDisplayPath(slug, kept.at(-1)!) };
    });
  }

  /**
   * A fresh session on the damaged one's topic, its files set aside first; refused, with what to
   * do instead, when the topic cannot be read from what is left.
   */
  private async restartDamaged(slug: string, damage: BrainstormError): Promise<Loaded> {
    const text = await this.deps.store
      .readText(planFile(slug, PLAN_FILES.state), SESSION_FILE_MAX_BYTES)
      .catch(() => undefined);
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
    await auditEntry(
      this.audit,
      slug,
      'brainstorm.restart',
      'ok',
      `restarted a damaged brainstorm; its files are in ${keptIn}`,
      recovered.topic,
    );
    return loaded;
  }

  /**
   * One step per brainstorm at a time, in this process and across windows and the CLI (see
   * SessionRunner.exclusive). `save` still compares the file, for a writer that does not take the
   * lock (a hand edit).
   */
  private async exclusive<T>(slug: string, fn: () => Promise<T>): Promise<T> {
    checkSlug(slug);
    const busy = () =>
      new BrainstormError(
        'busy',
        `The brainstorm ${slug} is busy with a step (in this window, another one or a groundwork command). Wait for it, or stop it first.`,
      );
    return this.runner.exclusive(`brainstorm-${slug}`, busy, fn);
  }

  private isoNow(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
