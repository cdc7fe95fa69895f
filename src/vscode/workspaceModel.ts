// What the workspace's .groundwork folder holds, read lazily and shared by the panel and the
// plan explorer. Nothing is read until a view asks; a file watcher (made on first read) says
// when to read again.
import * as vscode from 'vscode';
import { systemClock } from '../core/clock';
import { Journal } from '../core/journal/journal';
import { parseJournalEntry, type JournalEntry } from '../core/journal/journalEntry';
import { SleepLog, type Sleeper } from '../core/sleep/sleepLog';
import { NodeWorkspaceFs } from '../core/node/nodeWorkspaceFs';
import type { ReadResult } from '../core/storage/recordLog';
import { isSlug } from '../core/storage/safeNames';
import { WorkspaceStore } from '../core/storage/workspaceStore';
import { isTrusted } from './trust';
import { writeGuardedFs } from './writeGuard';
import { JOURNAL_FILE, PLAN_MAIN_FILES, PLANS_DIR, planFile, planStateOf, SLEEP_FILE } from '../core/plan/layout';

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

export class WorkspaceModel implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Every second while an agent sleeps, so countdowns shown to the user keep moving. */
  private readonly ticked = new vscode.EventEmitter<void>();
  readonly onDidTick = this.ticked.event;
  private readonly disposables: vscode.Disposable[] = [this.changed, this.ticked];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private store: WorkspaceStore | undefined;
  private cached: Promise<WorkspaceView> | undefined;
  private watching = false;
  private debounce: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly folder: vscode.WorkspaceFolder | undefined) {}

  get hasWorkspace(): boolean {
    return this.folder !== undefined && this.folder.uri.scheme === 'file';
  }

  /** The workspace folder's URI, when there is one on disk. */
  get root(): vscode.Uri | undefined {
    return this.hasWorkspace ? this.folder?.uri : undefined;
  }

  /**
   * The store over .groundwork/, opened on first use; throws when no folder is open. In Restricted
   * Mode it reads but refuses every write (writeGuard.ts).
   */
  workspaceStore(): WorkspaceStore {
    return this.openStore();
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

  dispose(): void {
    clearTimeout(this.debounce);
    clearInterval(this.ticker);
    for (const d of this.disposables) d.dispose();
  }

  private openStore(): WorkspaceStore {
    if (!this.folder || !this.hasWorkspace) {
      throw new Error('Open a folder first: Groundwork keeps its state in the workspace.');
    }
    this.store ??= new WorkspaceStore(writeGuardedFs(new NodeWorkspaceFs(), isTrusted), this.folder.uri.fsPath);
    return this.store;
  }

  private journal(): Journal {
    return new Journal(this.openStore().log(JOURNAL_FILE, parseJournalEntry), systemClock);
  }

  private sleepLog(): SleepLog {
    return new SleepLog(this.openStore().log(SLEEP_FILE, SleepLog.parseRecord), systemClock);
  }

  private async load(): Promise<WorkspaceView> {
    if (!this.hasWorkspace) return { journal: { records: [], problems: [] }, sleepers: [], plans: [] };
    const [journal, sleepers, plans] = await Promise.all([
      this.journal().load().catch((e: unknown) => ({ error: describe(e) })),
      this.sleepLog().sleepers(systemClock.now()).catch((e: unknown) => ({ error: describe(e) })),
      this.listPlans().catch((e: unknown) => ({ error: describe(e) })),
    ]);
    const asleep = !('error' in sleepers) && sleepers.length > 0;
    if (asleep && !this.ticker) {
      this.ticker = setInterval(() => this.ticked.fire(), 1000);
    } else if (!asleep && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
    return { journal, sleepers, plans };
  }

  private async listPlans(): Promise<PlanSummary[]> {
    const store = this.openStore();
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
      const info = await this.openStore().info(rel).catch(() => undefined);
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
    this.disposables.push(watcher, watcher.onDidChange(onChange), watcher.onDidCreate(onChange), watcher.onDidDelete(onChange));
  }
}
