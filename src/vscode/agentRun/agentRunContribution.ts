// Agent runs: `Run Agent…`, the Runs group of the plan explorer (runsGroup.ts, registered with it)
// and the run commands of its context menu. The runtime, the terminal and the diffs are a bundle of
// their own (agentRunFeature.ts → dist/agentRun.js), loaded when a command needs it or the explorer
// finds a run folder: activation registers, and reads nothing.
import * as vscode from 'vscode';
import { RUNS_DIR } from '../../core/plan/layout';
import type { AgentRuns } from './agentRunFeature';
import type { Contribution } from '../host';
import { Disposable, DisposableStore, toDisposable } from '../base/lifecycle';
import { onboardingMessage } from '../llm/modelService';
import { rowValue } from '../explorer/explorerGroups';
import { RUN_LOGS } from '../agentRuntime/runLogs';
import { RUN_BEFORE_SCHEME, RUN_FILE_SCHEME } from './runRows';
import type { FileRow, RunRow, RunsListing } from './runRows';
import { runsGroup, type RunsGroupSource } from './runsGroup';
import { requireTrust } from '../base/trust';
import type { WorkspaceModel } from '../base/workspaceModel';
import { WatchedListing } from '../base/watchedListing';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/agentRun.js). */
const load = (): typeof import('./agentRunFeature') => require('./agentRunFeature');

/** A run folder's name begins with its time: enough to know there is something to list. */
const RUN_FOLDER = /^\d{8}-\d{6}-/;

export const agentRunContribution: Contribution = {
  id: 'agentRun',
  register(host) {
    const store = new DisposableStore();
    let feature: AgentRuns | undefined;
    const runs = store.add(
      new LazyRunsSource(
        host.workspace,
        () => (feature ??= store.add(load().createAgentRuns(host, () => runs.changed(), RUN_LOGS))),
      ),
    );
    store.add(host.explorer.register(runsGroup(runs)));
    host.services.runList = () => runs.list();
    store.add(toDisposable(() => delete host.services.runList));
    const withRun = (fn: (runs: AgentRuns, id: string) => Promise<void> | void) => async (node?: unknown) => {
      const row = rowValue<RunRow>(node, 'run');
      if (!row) return;
      try {
        await fn(runs.feature(), row.id);
      } catch (err) {
        host.log.error(`runs: ${row.id}`, err);
        void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
      }
    };
    const registered = [
      vscode.commands.registerCommand('groundwork.runAgent', async () => {
        if (!host.workspace.hasWorkspace) {
          return void vscode.window.showWarningMessage(
            vscode.l10n.t('Open a folder first: an agent works in the workspace folder and keeps its runs there.'),
          );
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
        if (file && typeof file.runId === 'string' && typeof file.path === 'string')
          await runs.feature().openDiff(file.runId, file.path);
      }),
      vscode.workspace.registerTextDocumentContentProvider(RUN_BEFORE_SCHEME, {
        provideTextDocumentContent: (uri) => runs.feature().beforeText(uri),
      }),
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
 * window moves on (watchedListing.ts).
 */
class LazyRunsSource extends Disposable implements RunsGroupSource {
  private readonly listing: WatchedListing<RunsListing>;
  readonly onDidChange: vscode.Event<void>;

  constructor(
    private readonly workspace: WorkspaceModel,
    readonly feature: () => AgentRuns,
  ) {
    super();
    this.listing = this._register(
      new WatchedListing(
        workspace,
        RUNS_DIR,
        () => this.read(),
        (err) => ({
          rows: [],
          more: 0,
          problems: [{ id: RUNS_DIR, problem: err instanceof Error ? err.message : String(err) }],
        }),
      ),
    );
    this.onDidChange = this.listing.onDidChange;
  }

  list(): Promise<RunsListing | undefined> {
    return this.listing.list();
  }

  files(runId: string): Promise<FileRow[]> {
    return this.feature().files(runId);
  }

  refresh(): void {
    this.listing.changed();
  }

  /** Something changed: the list is read again (at most every LISTING_REFRESH_MS). */
  changed(): void {
    this.listing.changed();
  }

  private async read(): Promise<RunsListing | undefined> {
    const names = await this.workspace.workspaceStore().list(RUNS_DIR);
    return names.some((n) => RUN_FOLDER.test(n)) ? this.feature().listing() : undefined;
  }
}
