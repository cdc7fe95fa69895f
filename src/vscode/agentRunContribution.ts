// Agent runs: `Run Agent…`, the Runs group of the plan explorer (given to it as Host.services.runs)
// and the run commands of its context menu. The runtime, the terminal and the diffs are a bundle of
// their own (agentRunFeature.ts → dist/agentRun.js), loaded when a command needs it or the explorer
// finds a run folder: activation registers, and reads nothing.
import * as vscode from 'vscode';
import { systemClock } from '../core/clock';
import { Journal } from '../core/journal/journal';
import { parseJournalEntry } from '../core/journal/journalEntry';
import { JOURNAL_FILE, RUNS_DIR, SLEEP_FILE } from '../core/plan/layout';
import { SleepLog } from '../core/sleep/sleepLog';
import type { AgentRuns, RunLogs } from './agentRunFeature';
import type { Contribution } from './contributions';
import { Disposable, DisposableStore, Emitter, toDisposable } from './lifecycle';
import { onboardingMessage } from './llm/modelService';
import type { ExplorerNode } from './planExplorer';
import { RUN_BEFORE_SCHEME, RUN_FILE_SCHEME } from './runsTree';
import type { FileRow, RunsListing, RunsSource } from './runsTree';
import { requireTrust } from './trust';
import type { WorkspaceModel } from './workspaceModel';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/agentRun.js). */
const load = (): typeof import('./agentRunFeature') => require('./agentRunFeature');

/** The Runs group is read again at most this often while runs stream. */
export const RUNS_REFRESH_MS = 500;
/** A run folder's name begins with its time: enough to know there is something to list. */
const RUN_FOLDER = /^\d{8}-\d{6}-/;

/** The journal and the sleep log of a run, from this bundle (their error classes must be one class). */
const LOGS: RunLogs = {
  journal: (store) => new Journal(store.log(JOURNAL_FILE, parseJournalEntry), systemClock),
  sleepLog: (store) => new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), systemClock),
};

export const agentRunContribution: Contribution = {
  id: 'agentRun',
  register(host) {
    const store = new DisposableStore();
    let feature: AgentRuns | undefined;
    const runs = store.add(new LazyRunsSource(host.workspace, () => (feature ??= store.add(load().createAgentRuns(host, () => runs.changed(), LOGS)))));
    host.services.runs = runs;
    store.add(toDisposable(() => delete host.services.runs));
    const withRun = (fn: (runs: AgentRuns, id: string) => Promise<void> | void) => async (node?: ExplorerNode) => {
      if (node?.kind !== 'run') return;
      try {
        await fn(runs.feature(), node.row.id);
      } catch (err) {
        host.log.error(`runs: ${node.row.id}`, err);
        void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
      }
    };
    const registered = [
      vscode.commands.registerCommand('groundwork.runAgent', async () => {
        if (!host.workspace.hasWorkspace) {
          return void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: an agent works in the workspace folder and keeps its runs there.'));
        }
        if (!requireTrust(vscode.l10n.t('run an agent'))) return;
        // Without a model the run could only fail: say how to connect one before a role and a task are asked for.
        const model = await host.models.status().catch(() => undefined);
        if (model?.kind === 'onboarding') return void vscode.window.showWarningMessage(onboardingMessage(model.need));
        await runs.feature().pickAndStart();
      }),
      vscode.commands.registerCommand(
        'groundwork.runs.revert',
        withRun((f, id) => f.revert(id)),
      ),
      vscode.commands.registerCommand(
        'groundwork.runs.resume',
        withRun((f, id) => f.resume(id)),
      ),
      vscode.commands.registerCommand(
        'groundwork.runs.openChanges',
        withRun((f, id) => f.openChanges(id)),
      ),
      vscode.commands.registerCommand(
        'groundwork.runs.stop',
        withRun((f, id) => f.stop(id)),
      ),
      vscode.commands.registerCommand('groundwork.runs.openFile', async (file?: FileRow) => {
        if (file && typeof file.runId === 'string' && typeof file.path === 'string') await runs.feature().openDiff(file.runId, file.path);
      }),
      vscode.workspace.registerTextDocumentContentProvider(RUN_BEFORE_SCHEME, { provideTextDocumentContent: (uri) => runs.feature().beforeText(uri) }),
      vscode.window.registerFileDecorationProvider({ provideFileDecoration: fileDecoration }),
    ];
    for (const disposable of registered) store.add(disposable);
    return store;
  },
};

/** The A/M badge of a run's file in the tree (its rows carry `groundwork-run-file:/<run>/<path>?A`). */
function fileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
  if (uri.scheme !== RUN_FILE_SCHEME) return undefined;
  return uri.query === 'A'
    ? new vscode.FileDecoration('A', undefined, new vscode.ThemeColor('gitDecoration.addedResourceForeground'))
    : new vscode.FileDecoration('M', undefined, new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'));
}

/**
 * The runs for the explorer, without loading the feature while `.groundwork/runs/` holds no run.
 * Read again when `.groundwork/runs/**` changes on disk (any window, the CLI) or a run of this
 * window moves on, at most every RUNS_REFRESH_MS.
 */
class LazyRunsSource extends Disposable implements RunsSource {
  private readonly emitter = this._register(new Emitter<void>());
  readonly onDidChange = this.emitter.event;
  private cached: Promise<RunsListing | undefined> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFired = 0;
  private watching = false;

  constructor(
    private readonly workspace: WorkspaceModel,
    readonly feature: () => AgentRuns,
  ) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
  }

  list(): Promise<RunsListing | undefined> {
    if (!this.workspace.hasWorkspace) return Promise.resolve(undefined);
    this.watch();
    return (this.cached ??= this.read().catch((err: unknown) => ({ rows: [], more: 0, problems: [{ id: RUNS_DIR, problem: err instanceof Error ? err.message : String(err) }] })));
  }

  files(runId: string): Promise<FileRow[]> {
    return this.feature().files(runId);
  }

  refresh(): void {
    this.changed();
  }

  /** Something changed: the list is read again, now or RUNS_REFRESH_MS after the last time. */
  changed(): void {
    if (this.timer !== undefined || this.isDisposed) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.lastFired = Date.now();
        this.cached = undefined;
        this.emitter.fire();
      },
      Math.max(0, this.lastFired + RUNS_REFRESH_MS - Date.now()),
    );
  }

  private async read(): Promise<RunsListing | undefined> {
    const names = await this.workspace.workspaceStore().list(RUNS_DIR);
    return names.some((n) => RUN_FOLDER.test(n)) ? this.feature().listing() : undefined;
  }

  private watch(): void {
    const root = this.workspace.root;
    if (this.watching || !root) return;
    this.watching = true;
    // The folders themselves too: a `.groundwork` or `runs` folder deleted whole reports only itself.
    const pattern = `{.groundwork,.groundwork/${RUNS_DIR},.groundwork/${RUNS_DIR}/**}`;
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, pattern)));
    for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) this._register(event(() => this.changed()));
  }
}
