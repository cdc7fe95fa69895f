// Discovery cases as one module every front end plugs in the same way (the CLI's `groundwork
// cases`, the explorer's Discoveries group, the agent runtime, the build): the store, the
// curator's queue, and what follows each change — the new case to the journal, the contradiction
// check, the views regenerated. Reports, review actions, staleness checks and archival all go
// through here so that nothing changes the store without the views following.
import type { Clock } from '../clock';
import { cutText } from '../prompt/cap';
import type { Sha256 } from '../run/changesFile';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { oneLine } from '../tools/toolLines';
import { ARCHIVE_OUTDATED_AFTER_DAYS, archiveTask, archiveUnreviewedOutdated } from './archival';
import type { CaseAction } from './caseActions';
import { discoveryMetrics } from './caseMetrics';
import type { DiscoveryMetrics } from './caseMetrics';
import type { CaseScope, DiscoveryCase } from './caseRecord';
import { CASES_AREA, CaseStore } from './caseStore';
import type { CaseList, CaseStoreOptions } from './caseStore';
import { writeCaseViews } from './caseViews';
import type { ViewsWritten } from './caseViews';
import { DUPLICATES_COUNTER } from './counters';
import { Curator } from './curator';
import type { CreatedFollowUp, CurateResult, DiscoveryReport } from './curator';
import { discoveryBlock } from './injection';
import type { InjectionBlock, InjectionOptions } from './injection';
import { checkContradictions, checkFileStaleness } from './staleness';
import type { GitLogPort, OutdatedFinding, Supersession } from './staleness';

/** Where a new case is also written: the journal (core/journal's Journal fits). */
export interface CaseJournal {
  append(entry: {
    title: string;
    description: string;
    scope?: CaseScope;
    agent?: string;
    task?: string;
  }): Promise<unknown>;
}

export interface CaseServiceDeps {
  store: WorkspaceStore;
  clock: Clock;
  hash: Sha256;
  journal?: CaseJournal;
  /** git for the staleness check; without it the file check is skipped with a reason. */
  git?: GitLogPort;
  storeOptions?: CaseStoreOptions;
}

export interface StalenessReport {
  /** Marked outdated because a commit changed a file they name. */
  findings: OutdatedFinding[];
  /** Marked outdated because a newer case says otherwise. */
  superseded: Supersession[];
  /** Outdated and unreviewed past the setting's days: archived. */
  archived: DiscoveryCase[];
  /** Why the file check did not run (no git, not a repository); show it once. */
  skipped?: string;
}

/** The journal keeps this much of a case's content as its title. */
const TITLE_CHARS = 120;
/** The journal's limit on a description (core/journal/journalEntry.ts). */
const JOURNAL_DESCRIPTION_BYTES = 8 * 1024;
const NO_GIT = 'Git is not available here, so discoveries are not checked against commits.';

export class CaseService {
  readonly cases: CaseStore;
  private readonly curator: Curator;
  /** The views' rewrite: one at a time, and one more queued at most (it reads the store as it is then). */
  private viewsRunning: Promise<void> | undefined;
  private viewsAgain = false;
  private viewsError: unknown;

  constructor(private readonly deps: CaseServiceDeps) {
    this.cases = new CaseStore(deps.store, deps.clock, deps.hash, deps.storeOptions);
    this.curator = new Curator({ store: this.cases, onCreated: (c) => this.created(c) });
  }

  /** Every case and every unreadable line. */
  list(): Promise<CaseList> {
    return this.cases.load();
  }

  /** A report from an agent or a person: a new case (journal, contradiction check, views) or the duplicate it repeats. */
  async report(report: DiscoveryReport): Promise<CurateResult> {
    const result = await this.curator.submit(report);
    if (result.kind === 'created') this.refreshViews();
    return result;
  }

  /** A review action (caseActions.ts); the views follow. CaseNotFoundError, CaseTransitionError. */
  async apply(id: string, action: CaseAction): Promise<DiscoveryCase> {
    const next = await this.cases.apply(id, action);
    this.refreshViews();
    return next;
  }

  /**
   * The staleness check: files changed by commits since each case, contradictions among the active
   * cases, and outdated cases unreviewed for `archiveAfterDays` archived.
   */
  async checkStaleness(archiveAfterDays: number = ARCHIVE_OUTDATED_AFTER_DAYS): Promise<StalenessReport> {
    const files =
      this.deps.git === undefined
        ? { findings: [], skipped: NO_GIT }
        : await checkFileStaleness(this.cases, this.deps.git);
    const superseded = await checkContradictions(this.cases);
    const archived = await archiveUnreviewedOutdated(this.cases, archiveAfterDays);
    if (files.findings.length + superseded.length + archived.length > 0) this.refreshViews();
    return {
      findings: files.findings,
      superseded,
      archived,
      ...(files.skipped !== undefined ? { skipped: files.skipped } : {}),
    };
  }

  /** A finished task's (a build's, a run's) active local cases, archived. */
  async archiveTask(taskId: string): Promise<DiscoveryCase[]> {
    const archived = await archiveTask(this.cases, taskId);
    if (archived.length > 0) this.refreshViews();
    return archived;
  }

  /** The block a prompt of `agentId` carries (empty text when there is no active case). */
  async injection(agentId?: string, options?: InjectionOptions): Promise<InjectionBlock> {
    const { cases } = await this.cases.load();
    return discoveryBlock(cases, agentId, { now: this.cases.nowIso(), ...options });
  }

  /** What a task (a build) learned, for its report: `[disc-012] …` for each of its cases, in id order. */
  async learnedIn(taskId: string): Promise<string[]> {
    const { cases } = await this.cases.load();
    return cases.filter((c) => c.metadata.sourceTaskId === taskId).map((c) => `[${c.id}] ${c.content}`);
  }

  async metrics(): Promise<DiscoveryMetrics> {
    const [{ cases }, { counters }] = await Promise.all([this.cases.load(), this.cases.readCounters()]);
    return discoveryMetrics(cases, { duplicatesPrevented: counters[DUPLICATES_COUNTER] ?? 0 });
  }

  /** Rewrites the views now and says what changed (the CLI's `cases views`). */
  async writeViews(): Promise<ViewsWritten> {
    await this.settled();
    return this.writeLocked();
  }

  /** The views from the store as it is, under the store's lock: another writer's newer views are never overwritten by older ones. */
  private writeLocked(): Promise<ViewsWritten> {
    return this.deps.store.withLock(
      async () => writeCaseViews(this.deps.store, (await this.cases.load()).cases),
      CASES_AREA,
    );
  }

  /**
   * Resolves when every queued report and view rewrite is done; rejects with the last rewrite's
   * failure (once), so a front end can say the views are behind.
   */
  async settled(): Promise<void> {
    await this.curator.idle();
    while (this.viewsRunning !== undefined) await this.viewsRunning;
    const failed = this.viewsError;
    this.viewsError = undefined;
    if (failed !== undefined) throw failed;
  }

  /** After each new case, in queue order: the journal, then the cases it contradicts. */
  private async created(c: DiscoveryCase): Promise<CreatedFollowUp> {
    const problems: string[] = [];
    if (this.deps.journal !== undefined) {
      const entry = {
        title: oneLine(c.content, TITLE_CHARS),
        description: cutText(c.content, JOURNAL_DESCRIPTION_BYTES),
        scope: c.metadata.scope,
        ...(c.metadata.sourceAgentId !== null ? { agent: c.metadata.sourceAgentId } : {}),
        ...(c.metadata.sourceTaskId !== null ? { task: c.metadata.sourceTaskId } : {}),
      };
      await this.deps.journal.append(entry).catch((err: unknown) => problems.push(`the journal: ${messageOf(err)}`));
    }
    const superseded = await checkContradictions(this.cases, c).catch((err: unknown) => {
      problems.push(`the contradiction check: ${messageOf(err)}`);
      return [];
    });
    if (problems.length > 0) throw new Error(`${c.id} was stored, but ${problems.join('; ')}`);
    return { superseded: superseded.map((s) => s.id) };
  }

  /** Queues a rewrite of the views; a burst of changes costs one or two. */
  private refreshViews(): void {
    if (this.viewsRunning !== undefined) {
      this.viewsAgain = true;
      return;
    }
    this.viewsRunning = (async () => {
      do {
        this.viewsAgain = false;
        try {
          await this.writeLocked();
        } catch (err) {
          this.viewsError = err;
        }
      } while (this.viewsAgain);
      this.viewsRunning = undefined;
    })();
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
