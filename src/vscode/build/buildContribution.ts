// Builds: `Build from Brief…` (and Build This on the Idea Brief card, a finished brainstorm and a
// plan of the explorer, through Host.services.buildFrom), the panel's build part, the Builds group
// of the plan explorer (buildsGroup.ts, registered with it) and the commands of its context menu. The runtime,
// the gate, the terminals and the listing are a bundle of their own (buildFeature.ts →
// dist/build.js), loaded when a command needs it, the panel shows the last build, or the explorer
// finds a build folder: activation registers, and reads nothing.
import * as vscode from 'vscode';
import { BUILDS_DIR } from '../../core/plan/layout';
import { BUILD_INBOUND, type BuildMessage, type BuildPanelView } from '../../shared/protocol/build';
import type { Builds } from './buildFeature';
import type { AttemptNode, BuildRow, BuildsListing, PhaseRow } from './buildRows';
import { buildsGroup, type BuildsGroupSource } from './buildsGroup';
import type { FileRow } from '../agentRun/runRows';
import type { Contribution } from '../host';
import { Disposable, DisposableStore, toDisposable } from '../base/lifecycle';
import { onboardingMessage } from '../llm/modelService';
import { LazyFeature } from '../panel/panelParts';
import { rowValue } from '../explorer/explorerGroups';
import { RUN_LOGS } from '../agentRuntime/runLogs';
import { requireTrust } from '../base/trust';
import { WatchedListing } from '../base/watchedListing';
import type { WorkspaceModel } from '../base/workspaceModel';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/build.js). */
const load = (): typeof import('./buildFeature') => require('./buildFeature');

/** A build folder's name begins with its time: enough to know there is something to list. */
const BUILD_FOLDER = /^\d{8}-\d{6}-/;

export const buildContribution: Contribution = {
  id: 'build',
  register(host) {
    const store = new DisposableStore();
    const feature = store.add(
      new LazyBuildPanel(host.workspace, async () => load().createBuilds(host, () => source.changed(), RUN_LOGS)),
    );
    const source = store.add(new LazyBuildsSource(host.workspace, () => feature.controller()));
    store.add(host.panel.register(feature));
    // A build of another window or the CLI: the panel shows it too.
    store.add(source.onDidChange(() => (feature.ifLoaded ? feature.ifLoaded.diskChanged() : void feature.load())));
    store.add(host.explorer.register(buildsGroup(source, (rel) => host.workspace.fileUri(rel))));
    host.services.buildList = () => source.list();
    host.services.buildFrom = async (from) =>
      void (await vscode.commands.executeCommand('groundwork.buildFromBrief', from));
    store.add(
      toDisposable(() => {
        delete host.services.buildList;
        delete host.services.buildFrom;
      }),
    );
    /** A command of the explorer's context menu (or the panel): the feature, with what went wrong said. */
    const run =
      <A extends unknown[]>(fn: (builds: Builds, ...args: A) => Promise<void> | void) =>
      async (...args: A) => {
        try {
          await fn(await feature.controller(), ...args);
        } catch (err) {
          host.log.error('build: a command failed', err);
          void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
        }
      };
    const onBuild = (fn: (builds: Builds, id: string) => Promise<void> | void) =>
      run((builds, node?: unknown) => {
        const build = rowValue<BuildRow>(node, 'build');
        return build ? fn(builds, build.id) : undefined;
      });
    /** A folder, trust and a model: what every build needs before anything is asked (said when missing). */
    const mayBuild = async (): Promise<boolean> => {
      if (!host.workspace.hasWorkspace) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Open a folder first: a build writes its project into the workspace folder and keeps its state there.',
          ),
        );
        return false;
      }
      if (!requireTrust(vscode.l10n.t('start a build'))) return false;
      // Without a model the build could only fail: say how to connect one before anything is asked.
      const model = await host.models.status().catch(() => undefined);
      if (model?.kind === 'onboarding') {
        void vscode.window.showWarningMessage(onboardingMessage(model.need));
        return false;
      }
      return true;
    };
    // The checks come before the feature's bundle loads: a refusal needs no build code.
    const registered = [
      vscode.commands.registerCommand('groundwork.buildFromBrief', async (arg?: unknown) => {
        if (await mayBuild()) await run((builds) => builds.start(arg))();
      }),
      vscode.commands.registerCommand('groundwork.buildFromSpec', async (arg?: unknown) => {
        if (await mayBuild()) await run((builds) => builds.startFromSpec(arg))();
      }),
      // "Build This" on a plan of the explorer: the same command, named for the menu.
      vscode.commands.registerCommand('groundwork.buildThis', (node?: unknown) =>
        vscode.commands.executeCommand('groundwork.buildFromBrief', node),
      ),
      vscode.commands.registerCommand('groundwork.build.stop', (node?: unknown) =>
        feature.ifLoaded?.stop(rowValue<BuildRow>(node, 'build')?.id),
      ),
      vscode.commands.registerCommand('groundwork.build.showTerminal', () => feature.ifLoaded?.showTerminal()),
      vscode.commands.registerCommand(
        'groundwork.build.resume',
        onBuild((b, id) => b.resume(id)),
      ),
      vscode.commands.registerCommand(
        'groundwork.build.acceptTestChange',
        onBuild((b, id) => b.acceptTestChange(id)),
      ),
      vscode.commands.registerCommand(
        'groundwork.build.openReport',
        onBuild((b, id) => b.openReport(id)),
      ),
      vscode.commands.registerCommand(
        'groundwork.build.openFolder',
        onBuild((b, id) => b.openFolder(id, false)),
      ),
      vscode.commands.registerCommand(
        'groundwork.build.openInNewWindow',
        onBuild((b, id) => b.openFolder(id, true)),
      ),
      vscode.commands.registerCommand(
        'groundwork.build.rerunPhase',
        run((b, node?: unknown) => {
          const phase = rowValue<PhaseRow>(node, 'phase');
          return phase ? b.rerun(phase.buildId, phase.name) : undefined;
        }),
      ),
    ];
    for (const disposable of registered) store.add(disposable);
    return store;
  },
};

/** The panel's build part: the feature's bundle is loaded only once there is a build to show (or a command needs it). */
class LazyBuildPanel extends LazyFeature<'build', BuildMessage, Builds> {
  constructor(
    private readonly workspace: WorkspaceModel,
    make: () => Promise<Builds>,
  ) {
    super('build', BUILD_INBOUND, make);
  }

  override async load(): Promise<void> {
    if (this.ifLoaded || (await hasBuilds(this.workspace))) await super.load();
  }

  override current(): BuildPanelView {
    return super.current() ?? { status: 'none' };
  }
}

async function hasBuilds(workspace: WorkspaceModel): Promise<boolean> {
  if (!workspace.hasWorkspace) return false;
  const names = await workspace.workspaceStore().list(BUILDS_DIR);
  return names.some((n) => BUILD_FOLDER.test(n));
}

/**
 * The builds for the explorer, without loading the feature while `.groundwork/builds/` holds no
 * build. Read again when `.groundwork/builds/**` changes on disk or a build of this window moves on.
 */
class LazyBuildsSource extends Disposable implements BuildsGroupSource {
  private readonly listing: WatchedListing<BuildsListing>;
  readonly onDidChange: vscode.Event<void>;

  constructor(
    private readonly workspace: WorkspaceModel,
    private readonly feature: () => Promise<Builds>,
  ) {
    super();
    this.listing = this._register(
      new WatchedListing(
        workspace,
        BUILDS_DIR,
        () => this.read(),
        (err) => ({
          rows: [],
          more: 0,
          problems: [{ id: BUILDS_DIR, problem: err instanceof Error ? err.message : String(err) }],
        }),
      ),
    );
    this.onDidChange = this.listing.onDidChange;
  }

  list(): Promise<BuildsListing | undefined> {
    return this.listing.list();
  }

  async attempts(buildId: string, phase: string): Promise<AttemptNode[]> {
    return (await this.feature()).attempts(buildId, phase);
  }

  async files(runId: string): Promise<FileRow[]> {
    return (await this.feature()).files(runId);
  }

  refresh(): void {
    this.listing.changed();
  }

  changed(): void {
    this.listing.changed();
  }

  private async read(): Promise<BuildsListing | undefined> {
    return (await hasBuilds(this.workspace)) ? (await this.feature()).listing() : undefined;
  }
}
