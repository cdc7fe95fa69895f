// What the workspace's .groundwork folder holds, read lazily and shared by the panel and the
// plan explorer. Nothing is read until a view asks; a file watcher (made on first read) says
// when to read again. The store it reads through is made by the composition root (extension.ts).
// Countdowns are not its business: the panel and the explorer tick their own.
import * as vscode from 'vscode';
import { systemClock } from '../../core/clock';
import { Journal } from '../../core/journal/journal';
import { parseJournalEntry, type JournalEntry } from '../../core/journal/journalEntry';
import { SleepLog, type Sleeper } from '../../core/sleep/sleepLog';
import type { ReadResult } from '../../core/storage/recordLog';
import { isSlug } from '../../core/storage/safeNames';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { Disposable, Emitter } from './lifecycle';
import { JOURNAL_FILE, PLAN_MAIN_FILES, PLANS_DIR, planFile, planStateOf, SLEEP_FILE } from '../../core/plan/layout';

export interface PlanSummary {
  slug: string;
  /** The file that best represents the plan, relative to .groundwork/, if there is one. */
  mainFile?: string;
  complete: boolean;
  /** A brainstorm under way (its session file without the sentinel): Resume continues it. */
  unfinishedBrainstorm: boolean;
}

export interface WorkspaceView {
  journal: ReadResult<JournalEntry> | { error: string };
  sleepers: Sleeper[] | { error: string };
  plans: PlanSummary[] | { error: string };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class WorkspaceModel extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private cached: Promise<WorkspaceView> | undefined;
  private watching = false;
  private debounce: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly folder: vscode.WorkspaceFolder | undefined,
    /** Over the folder's .groundwork/, when the folder is on disk. */
    private readonly store: WorkspaceStore | undefined,
  ) {
    super();
    this._register({ dispose: () => clearTimeout(this.debounce) });
  }

  get hasWorkspace(): boolean {
    return this.store !== undefined;
  }

  /** The workspace folder's URI, when there is one on disk. */
  get root(): vscode.Uri | undefined {
    return this.hasWorkspace ? this.folder?.uri : undefined;
  }

  /**
   * The store over .groundwork/; throws when no folder is open. In Restricted Mode it reads but
   * refuses every write (writeGuard.ts).
   */
  workspaceStore(): WorkspaceStore {
    if (!this.store) throw new Error('Open a folder first: Groundwork keeps its state in the workspace.');
    return this.store;
  }

  /** The journal file, for "Open file" actions. */
  get journalUri(): vscode.Uri | undefined {
    return this.folder && vscode.Uri.joinPath(this.folder.uri, '.groundwork', JOURNAL_FILE);
  }

  fileUri(relInsideGroundwork: string): vscode.Uri | undefined {
    return this.folder && vscode.Uri.joinPath(this.folder.uri, '.groundwork', ...relInsideGroundwork.split('/'));
  }

  read(): Promise<WorkspaceView> {
    this.watch();
    this.cached ??= this.load();
    return this.cached;
  }

  /** Forget what was read and tell the views; the next read goes to disk. */
  refresh(): void {
    this.cached = undefined;
    this.changed.fire();
  }

  async addJournalEntry(title: string, description: string): Promise<JournalEntry> {
    const entry = await this.journal().append({ title, description });
    this.refresh();
    return entry;
  }

  async wake(agent: string, reason: string): Promise<void> {
    await this.sleepLog().recordWake(agent, reason);
    this.refresh();
  }

  private journal(): Journal {
    return new Journal(this.workspaceStore().log(JOURNAL_FILE, parseJournalEntry), systemClock);
  }

  private sleepLog(): SleepLog {
    return new SleepLog(this.workspaceStore().log(SLEEP_FILE, SleepLog.parseRecord), systemClock);
  }

  private async load(): Promise<WorkspaceView> {
    if (!this.hasWorkspace) return { journal: { records: [], problems: [] }, sleepers: [], plans: [] };
    const [journal, sleepers, plans] = await Promise.all([
      this.journal()
        .load()
        .catch((e: unknown) => ({ error: describe(e) })),
      this.sleepLog()
        .sleepers(systemClock.now())
        .catch((e: unknown) => ({ error: describe(e) })),
      this.listPlans().catch((e: unknown) => ({ error: describe(e) })),
    ]);
    return { journal, sleepers, plans };
  }

  private async listPlans(): Promise<PlanSummary[]> {
    const store = this.workspaceStore();
    const names = await store.list(PLANS_DIR);
    const plans: PlanSummary[] = [];
    for (const slug of names.sort()) {
      // Only plan folders Groundwork could have made; the store refuses one linked out of .groundwork.
      if (!isSlug(slug)) continue;
      const files = await store.list(planFile(slug)).catch(() => undefined);
      if (!files) continue;
      const main = await this.openable(PLAN_MAIN_FILES.filter((f) => files.includes(f)).map((f) => planFile(slug, f)));
      plans.push({ slug, mainFile: main, ...planStateOf(files) });
    }
    return plans;
  }

  /**
   * The first of `rels` that is a regular file: a link planted in a cloned repository must not turn
   * a click on a plan into opening a file elsewhere on the disk.
   */
  private async openable(rels: string[]): Promise<string | undefined> {
    for (const rel of rels) {
      const info = await this.workspaceStore()
        .info(rel)
        .catch(() => undefined);
      if (info?.kind === 'file') return rel;
    }
    return undefined;
  }

  private watch(): void {
    if (this.watching || !this.folder || !this.hasWorkspace) return;
    this.watching = true;
    const pattern = new vscode.RelativePattern(this.folder, '.groundwork/**');
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const onChange = () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.refresh(), 150);
    };
    this._register(watcher);
    this._register(watcher.onDidChange(onChange));
    this._register(watcher.onDidCreate(onChange));
    this._register(watcher.onDidDelete(onChange));
  }
}
