// The plan folder of a brainstorm as files: its session file read back with care and saved with
// a check that no one else changed it, the folder made (after checking what it will write), a
// damaged brainstorm's folder taken over, the seed's pointers, the workers' logs, the listing of
// unfinished brainstorms. The service (brainstormService.ts) runs the steps over it.
import type { Clock } from '../clock';
import { capText } from '../prompt/cap';
import { StorageError } from '../storage/storageError';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { currentRound } from './brainstormMachine';
import { parseBrainstormsPointer, renderBrainstormsPointer, renderSeededFromPointer } from './brainstormDocs';
import { BrainstormError, SEED_MAX_BYTES } from './brainstormTypes';
import type { BrainstormSession, UnfinishedBrainstorm } from './brainstormTypes';
import { onlySetAside, recoverSession, setAside } from './damagedPlan';
import { isComplete, planFolderExists, planSlugs } from './planFolder';
import { parseSession, serializeSession, SESSION_FILE_MAX_BYTES } from './sessionFile';
import { parseWorkerRecord } from './workerLog';
import type { WorkerRecord } from './workerLog';
import { AUDIT_FILE, PLANS_DIR, PLAN_FILES, planDisplayPath, planFile, workerLogName } from '../plan/layout';
import { replaceIfUnchanged } from '../session/savedState';

/** The files Groundwork writes in a plan folder besides the session file are world-readable. */
export const ARTIFACT_MODE = 0o644;
/** `.workers/user.ndjson`: every answer the person typed, whole (up to its cap). */
export const USER_LOG = 'user';

/** A session as read, with the file text it was read from, to detect a writer elsewhere. */
export interface Loaded {
  session: BrainstormSession;
  text: string | undefined;
}

/** The plan folder exists already (made by another window a moment ago). */
export class SlugTaken extends Error {}

export class PlanStore {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The plan folder and its session file. A folder that exists is SlugTaken, unless `reuse` (a
   * slug the person chose) and it holds a damaged brainstorm (whose files are set aside first) or
   * only what earlier discards set aside.
   */
  async create(
    slug: string,
    topic: string,
    rounds: { minRounds: number; maxRounds: number },
    seed: BrainstormSession['seed'],
    reuse = false,
  ): Promise<Loaded> {
    const store = this.store;
    return store.withLock(async () => {
      if ((await store.info(`${PLANS_DIR}/${slug}`)) !== undefined && !(reuse && (await this.reusable(slug))))
        throw new SlugTaken();
      await this.checkWritable(slug, seed?.slug);
      const session: BrainstormSession = {
        slug,
        topic,
        createdAt: this.clock.now(),
        ...rounds,
        rounds: [],
        phase: { kind: 'inquiring' },
      };
      if (seed !== undefined) session.seed = seed;
      const fileText = serializeSession(session);
      await store.writeText(planFile(slug, PLAN_FILES.state), fileText);
      if (seed !== undefined) await this.linkSeed(slug, seed);
      return { session, text: fileText };
    }, PLANS_DIR);
  }

  /** Whether a new brainstorm may take the existing folder `slug`, setting a damaged one aside. */
  private async reusable(slug: string): Promise<boolean> {
    if (!(await planFolderExists(this.store, slug))) return false;
    if (await onlySetAside(this.store, slug)) return true;
    try {
      await this.read(slug);
      return false;
    } catch (err) {
      if (!(err instanceof BrainstormError) || err.kind !== 'corrupt') return false;
      await setAside(this.store, slug, this.clock.now());
      return true;
    }
  }

  /**
   * Refuses (StorageError) when a file the brainstorm writes is unsafe or in the way: the audit
   * log, the plans folder and, once the slug is known, the plan folder's files and the seed's
   * pointer file.
   */
  async checkWritable(slug: string | undefined, seedSlug: string | undefined): Promise<void> {
    const store = this.store;
    await store.checkWritable(AUDIT_FILE, 'file');
    await store.checkWritable(PLANS_DIR, 'directory');
    if (seedSlug !== undefined) await store.checkWritable(planFile(seedSlug, PLAN_FILES.brainstorms), 'file');
    if (slug === undefined) return;
    for (const file of [PLAN_FILES.state, PLAN_FILES.seededFrom, workerLogName(USER_LOG)])
      await store.checkWritable(planFile(slug, file), 'file');
  }

  async unfinished(): Promise<UnfinishedBrainstorm[]> {
    const found: UnfinishedBrainstorm[] = [];
    const store = this.store;
    for (const slug of await planSlugs(store)) {
      try {
        if (!(await planFolderExists(store, slug)) || (await isComplete(store, slug))) continue;
        const s = (await this.read(slug)).session;
        found.push({
          slug,
          topic: s.topic,
          round: Math.max(1, currentRound(s)),
          phase: s.phase.kind,
          createdAt: s.createdAt,
        });
      } catch (err) {
        if (!(err instanceof BrainstormError) && !(err instanceof StorageError)) throw err;
        if (err instanceof BrainstormError && (err.kind === 'not-found' || err.kind === 'complete')) continue;
        // Damaged or unsafe: listed with why, so that it can be discarded or restarted by name.
        const info = await store.info(planFile(slug, PLAN_FILES.state)).catch(() => undefined);
        const text = await store
          .readText(planFile(slug, PLAN_FILES.state), SESSION_FILE_MAX_BYTES)
          .catch(() => undefined);
        const topic = recoverSession(text)?.topic ?? '';
        found.push({ slug, topic, round: 0, phase: 'damaged', damaged: err.message, createdAt: info?.mtimeMs ?? 0 });
      }
    }
    return found.sort((a, b) => b.createdAt - a.createdAt);
  }

  async read(slug: string): Promise<Loaded> {
    if (!(await planFolderExists(this.store, slug))) {
      const open = (await this.unfinished()).map((u) => u.slug);
      throw new BrainstormError(
        'not-found',
        `There is no plan ${planDisplayPath(slug)}.${open.length ? ` Unfinished brainstorms: ${open.slice(0, 10).join(', ')}.` : ''}`,
      );
    }
    const where = planDisplayPath(slug, PLAN_FILES.state);
    let info;
    try {
      info = await this.store.info(planFile(slug, PLAN_FILES.state));
    } catch (err) {
      // A link in its place that leads out of .groundwork: damaged, and set aside as a link.
      if (err instanceof StorageError && err.code === 'unsafe-path')
        throw new BrainstormError(
          'corrupt',
          `${where} is damaged: ${err.message} Discard this brainstorm and start it again.`,
        );
      throw err;
    }
    if (info !== undefined && info.kind !== 'file') {
      throw new BrainstormError(
        'corrupt',
        `${where} is damaged: it is ${info.kind === 'other' ? 'a special file (a FIFO, socket or device)' : `a ${info.kind}`}, not a file. Discard this brainstorm and start it again.`,
      );
    }
    let text: string | undefined;
    try {
      text = await this.store.readText(planFile(slug, PLAN_FILES.state), SESSION_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'too-large')
        throw new BrainstormError(
          'corrupt',
          `${where} is larger than a brainstorm can be. Discard this brainstorm and start it again.`,
        );
      throw err;
    }
    if (text === undefined) {
      const complete = await isComplete(this.store, slug);
      throw new BrainstormError(
        complete ? 'complete' : 'not-found',
        complete
          ? `The brainstorm ${slug} is complete: read ${planDisplayPath(slug, PLAN_FILES.document)}.`
          : `${planDisplayPath(slug)} is not a brainstorm (it has no ${PLAN_FILES.state}).`,
      );
    }
    const session = parseSession(text, where);
    if (session.slug !== slug)
      throw new BrainstormError(
        'corrupt',
        `${where} belongs to the plan "${session.slug}", not "${slug}". Discard this brainstorm and start it again.`,
      );
    return { session, text };
  }

  /** Saves under the lock, refusing when another window or the CLI changed the file meanwhile. */
  async save(loaded: Loaded): Promise<void> {
    const rel = planFile(loaded.session.slug, PLAN_FILES.state);
    const text = serializeSession(loaded.session);
    const conflict = () =>
      new BrainstormError(
        'busy',
        `The brainstorm ${loaded.session.slug} was changed elsewhere (another window or the CLI) during this step. Reopen it to continue from there.`,
      );
    await replaceIfUnchanged(this.store, rel, loaded.text, text, SESSION_FILE_MAX_BYTES, conflict);
    loaded.text = text;
  }

  /** The seed plan's Idea Brief, capped, for "Brainstorm deeper". */
  async readSeed(slug: string): Promise<{ slug: string; file: string; text: string }> {
    if (!(await planFolderExists(this.store, slug)))
      throw new BrainstormError('not-found', `There is no plan ${planDisplayPath(slug)} to seed the brainstorm from.`);
    const text = await this.store.readText(planFile(slug, PLAN_FILES.ideaBrief));
    if (text === undefined)
      throw new BrainstormError(
        'not-found',
        `${planDisplayPath(slug)} has no ${PLAN_FILES.ideaBrief} to seed the brainstorm from.`,
      );
    return {
      slug,
      file: PLAN_FILES.ideaBrief,
      text: capText(text, planDisplayPath(slug, PLAN_FILES.ideaBrief), SEED_MAX_BYTES).text,
    };
  }

  /** A brainstorm seeded from a plan: each folder points at the other; nothing is copied between them. */
  private async linkSeed(slug: string, seed: { slug: string; file: string }): Promise<void> {
    const store = this.store;
    await store.writeText(planFile(slug, PLAN_FILES.seededFrom), renderSeededFromPointer(seed), ARTIFACT_MODE);
    const pointer = planFile(seed.slug, PLAN_FILES.brainstorms);
    const listed = parseBrainstormsPointer((await store.readText(pointer)) ?? '');
    if (!listed.includes(slug))
      await store.writeText(pointer, renderBrainstormsPointer([...listed, slug]), ARTIFACT_MODE);
  }

  workerLog(slug: string, agent: string) {
    return this.store.log<WorkerRecord>(planFile(slug, workerLogName(agent)), parseWorkerRecord);
  }
}
