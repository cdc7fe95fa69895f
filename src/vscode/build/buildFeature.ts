// Builds in VS Code, the feature's own bundle (dist/build.js, loaded on first use: Build from Brief,
// the panel showing the last build, or the explorer finding build folders). It wires core/build's
// BuildRunner to the window — the agent runtime of agentRuntime.ts (the approval modal, the
// user-level auto-approve, trust, the sleep log, the journal), the roles of host.roles, the bundled
// workflow — and shows each build three ways: a terminal per phase try (buildTerminals.ts), the
// panel's build part (buildView.ts) and the explorer's Builds group (buildListing.ts). At the end it
// opens report.md in the markdown preview and, when the build failed or was stopped, says why with
// Resume, Rerun Phase and Open Folder.
import * as vscode from 'vscode';
import { systemClock } from '../../core/clock';
import { BuildPrinter } from '../../core/build/buildLines';
import { buildSummaryLines } from '../../core/build/buildReport';
import { BuildRefusedError, BuildRunner, type BuildEvent, type BuildRequest } from '../../core/build/buildRunner';
import { BuildStore } from '../../core/build/buildStore';
import { stoppedPhase } from '../../core/build/buildText';
import type { BuildRecord } from '../../core/build/buildTypes';
import { secureRandomBytes } from '../../core/prompt/untrustedText';
import type { RunPiece } from '../../core/run/runLines';
import { visibleText } from '../../core/visibleText';
import { buildStream, type BuildMessage, type BuildPanelView } from '../../shared/protocol/build';
import { AgentRuntime, sha256, type RunLogs } from '../agentRuntime/agentRuntime';
import { readAttempts, readBuilds, readNewest } from './buildListing';
import { confirmBuild, maxCostSetting, pickSource, sourceOf } from './buildStart';
import { pickSpec, specArgument } from './buildSpecPick';
import type { AttemptNode, BuildShownStatus, BuildsListing } from './buildRows';
import { BuildTerminals } from './buildTerminals';
import { readRunFiles } from '../agentRun/runFiles';
import type { FileRow } from '../agentRun/runRows';
import { askPlace } from './buildPlace';
import { askAcceptTestChange, askAfterFailure, hasPendingTestChange } from './buildAccept';
import { openFolder, openReport } from './buildOpen';
import { appendTail, buildView, type BuildLive } from './buildView';
import type { Host } from '../host';
import { Disposable, Emitter, toDisposable } from '../base/lifecycle';
import type { FeatureController, StreamChunk } from '../panel/panelParts';
import { requireTrust } from '../base/trust';

export const BUILD_RUNNING_KEY = 'groundwork.buildRunning';

/** The build this window carries. */
interface Live {
  abort: AbortController;
  terminals: BuildTerminals;
  printer: BuildPrinter;
  /** Known from the first phase on. */
  build?: BuildRecord;
  tail?: BuildLive;
  /** The agent run of the try under way. */
  runId?: string;
  /** The output so far ends mid-line. */
  midLine: boolean;
}

export function createBuilds(host: Host, changed: () => void, logs: RunLogs): Builds {
  return new Builds(host, changed, logs);
}

export class Builds extends Disposable implements FeatureController<BuildPanelView, BuildMessage> {
  private readonly changedEmitter = this._register(new Emitter<void>());
  readonly onDidChange = this.changedEmitter.event;
  private readonly streamed = this._register(new Emitter<StreamChunk>());
  readonly onDidStream = this.streamed.event;
  private readonly runtime: AgentRuntime;
  private live: Live | undefined;
  /** What the panel shows while no build runs here: the newest build. */
  private shown: { build: BuildRecord; status: BuildShownStatus } | undefined;
  /** The build the person closed in the panel: not shown again until another comes. */
  private hidden: string | undefined;
  private view: BuildPanelView = { status: 'none' };
  private restored: Promise<void> | undefined;
  /** The source is being picked or the gate is open. */
  private starting = false;

  constructor(
    private readonly host: Host,
    /** The builds changed: the explorer's Builds group is read again (at most every 500 ms). */
    private readonly treeChanged: () => void,
    logs: RunLogs,
  ) {
    super();
    this.runtime = new AgentRuntime(host, logs);
    // A window that closes stops its build; it is recorded as stopped.
    this._register(toDisposable(() => this.live?.abort.abort()));
  }

  get state(): BuildPanelView {
    return this.view;
  }

  /** The newest build, for the panel (read once; again when the builds change on disk). */
  restore(): Promise<void> {
    return (this.restored ??= this.readNewest());
  }

  /** `.groundwork/builds/` changed (another window, the CLI, this one): the panel's build is read again. */
  diskChanged(): void {
    if (this.restored !== undefined && !this.live) void this.readNewest();
  }

  async handle(message: BuildMessage): Promise<void> {
    const id = this.live?.build?.id ?? this.shown?.build.id;
    switch (message.command) {
      case 'stop':
        return this.stop();
      case 'show-terminal':
        this.live?.terminals.show();
        return;
      case 'close':
        this.hidden = id;
        return this.update();
      case 'resume':
        if (id !== undefined) await this.resume(id);
        return;
      case 'open-report':
        if (id !== undefined) await this.openReport(id);
        return;
      case 'open-folder':
        if (id !== undefined) await this.openFolder(id, false);
        return;
    }
  }

  /** Build from Brief: the source (the argument, or picked), the gate, then the build. */
  async start(arg: unknown): Promise<void> {
    // A second Build This while the gate of the first is open is ignored.
    if (this.busy() || this.starting) return;
    const given = sourceOf(arg);
    if (typeof given === 'string') return void vscode.window.showErrorMessage(given);
    let request: BuildRequest | undefined;
    this.starting = true;
    try {
      const source = given ?? (await pickSource(this.runtime.store));
      request = source && !this.busy() ? await confirmBuild(this.host, source) : undefined;
    } finally {
      this.starting = false;
    }
    if (!request || this.busy()) return;
    const go = request;
    await this.carry((runner, signal, emit) => runner.start(go, signal, emit));
  }

  /** Build from Spec: the spec (the argument, or picked among the workspace's), the gate, then the build. */
  async startFromSpec(arg: unknown): Promise<void> {
    if (this.busy() || this.starting) return;
    const given = specArgument(arg);
    if (given !== undefined && 'error' in given) return void vscode.window.showErrorMessage(given.error);
    let request: BuildRequest | undefined;
    this.starting = true;
    try {
      const spec = given ?? (await pickSpec(this.runtime.store));
      request = spec && !this.busy() ? await confirmBuild(this.host, { kind: 'spec', path: spec.path }) : undefined;
    } finally {
      this.starting = false;
    }
    if (!request || this.busy()) return;
    const go = request;
    await this.carry((runner, signal, emit) => runner.start(go, signal, emit));
  }

  /** Resume: an interrupted, stopped or failed build, from its first phase that has not passed. */
  async resume(id: string): Promise<void> {
    if (this.busy() || !requireTrust(vscode.l10n.t('resume a build'))) return;
    await this.carry((runner, signal, emit) => runner.resume(id, signal, emit, this.options()));
  }

  /** Accept Test Change: the changes to a failed build's test contract, shown and accepted, then Resume with them. */
  async acceptTestChange(id: string): Promise<void> {
    if (this.busy() || !requireTrust(vscode.l10n.t('accept a test change'))) return;
    const read = await new BuildStore(this.runtime.store).read(id);
    if (!read.ok) return void vscode.window.showErrorMessage(visibleText(read.problem));
    const store = this.runtime.store;
    const files = await askAcceptTestChange(store.files, store.folder, read.build, sha256);
    if (files === undefined) return;
    await this.carry((runner, signal, emit) =>
      runner.resume(id, signal, emit, { ...this.options(), acceptTestChange: files }),
    );
  }

  /** Rerun Phase: `phase` and every phase after it, on a build that is not under way. */
  async rerun(id: string, phase: string): Promise<void> {
    if (this.busy() || !requireTrust(vscode.l10n.t('rerun a build phase'))) return;
    await this.carry((runner, signal, emit) => runner.rerunPhase(id, phase, signal, emit, this.options()));
  }

  /** Stops this window's build (`id` given: only when it is that one). */
  stop(id?: string): void {
    if (this.live && (id === undefined || this.live.build?.id === id)) this.live.abort.abort();
  }

  showTerminal(): void {
    this.live?.terminals.show();
  }

  openReport(id: string): Promise<void> {
    return openReport(this.runtime.store, this.host.workspace, id);
  }

  /** The project folder: revealed in the Explorer, or opened in a new window. */
  openFolder(id: string, newWindow: boolean): Promise<void> {
    return openFolder(this.runtime.store, this.host.workspace, id, newWindow);
  }

  listing(): Promise<BuildsListing> {
    return readBuilds(this.runtime.store, this.live?.build);
  }

  attempts(id: string, phase: string): Promise<AttemptNode[]> {
    return readAttempts(this.runtime.store, id, phase, (runId) => this.live?.runId === runId);
  }

  /** The files a try's agent run changed. */
  files(runId: string): Promise<FileRow[]> {
    return readRunFiles(this.runtime.store, runId);
  }

  private busy(): boolean {
    if (!this.live) return false;
    void vscode.window.showInformationMessage(
      vscode.l10n.t('A build is under way in this window: wait for it to end, or stop it first.'),
    );
    return true;
  }

  private options(): { maxCostUsd?: number } {
    const max = maxCostSetting();
    return max === undefined ? {} : { maxCostUsd: max };
  }

  /** One build (start, resume, rerun) carried to its end: a terminal per try, the panel, the tree, then the report. */
  private async carry(
    go: (runner: BuildRunner, signal: AbortSignal, emit: (event: BuildEvent) => void) => Promise<BuildRecord>,
  ): Promise<void> {
    const abort = new AbortController();
    const live: Live = {
      abort,
      terminals: new BuildTerminals(() => abort.abort()),
      printer: new BuildPrinter(),
      midLine: false,
    };
    this.live = live;
    this.hidden = undefined;
    void vscode.commands.executeCommand('setContext', BUILD_RUNNING_KEY, true);
    let final: BuildRecord | undefined;
    try {
      final = await go(this.runner(), abort.signal, (event) => this.onEvent(live, event));
      this.host.log.info(`build: ${final.id} ${final.status}${final.reason ? ` (${final.reason})` : ''}`);
      live.terminals.end(
        buildSummaryLines(final).map((text, i): RunPiece => ({
          kind: 'line',
          text: visibleText(text),
          style: i === 0 ? 'accent' : 'plain',
        })),
      );
    } catch (err) {
      const text = visibleText(err instanceof Error ? err.message : String(err));
      live.terminals.end([{ kind: 'line', text: `✗ ${text}`, style: 'error' }]);
      if (err instanceof BuildRefusedError)
        void vscode.window.showErrorMessage(vscode.l10n.t('The build did not start: {0}', text));
      else {
        this.host.log.error('build: the build failed', err);
        void vscode.window.showErrorMessage(vscode.l10n.t('The build failed: {0}', text));
      }
    } finally {
      this.live = undefined;
      void vscode.commands.executeCommand('setContext', BUILD_RUNNING_KEY, false);
      this.treeChanged();
      if (final) this.shown = { build: final, status: final.status };
      else await this.readNewest();
      this.update();
    }
    if (final) void this.ended(final);
  }

  private onEvent(live: Live, event: BuildEvent): void {
    const pieces = live.printer.print(event);
    let loud = false;
    switch (event.type) {
      case 'phase':
        live.build = event.build;
        live.terminals.next(event.phase.name, event.attempt);
        live.tail = { phase: event.phase.name, attempt: event.attempt, text: '', from: 0 };
        live.midLine = false;
        loud = true;
        break;
      case 'build':
        live.build = event.build;
        loud = true;
        break;
      case 'checked':
        loud = true;
        break;
      case 'run':
        if (event.event.type === 'started') live.runId = event.event.run.id;
        // A run's end carries its usage: the phase's tokens and cost change.
        loud = event.event.type === 'started' || event.event.type === 'ended';
        if (loud || event.event.type === 'wrote') this.treeChanged();
        break;
    }
    if (event.type !== 'run') this.treeChanged();
    live.terminals.print(pieces);
    const text = this.plain(live, pieces);
    const tail = live.tail;
    const at = tail ? tail.from + tail.text.length : 0;
    if (tail && text) live.tail = appendTail(tail, text);
    this.update(!loud);
    if (tail && text && live.build)
      this.streamed.fire({ stream: buildStream(live.build.id, tail.phase, tail.attempt), kind: 'text', at, text });
  }

  /** The pieces as the terminal shows them, without colours: what the panel streams. */
  private plain(live: Live, pieces: readonly RunPiece[]): string {
    let out = '';
    for (const piece of pieces) {
      if (piece.kind === 'stream') {
        out += piece.text;
        if (piece.text !== '') live.midLine = !piece.text.endsWith('\n');
      } else {
        out += `${live.midLine ? '\n' : ''}${piece.text}\n`;
        live.midLine = false;
      }
    }
    return out;
  }

  /** The report in the preview; for a build that failed or was stopped, why, with what to do next. */
  private async ended(build: BuildRecord): Promise<void> {
    await this.openReport(build.id).catch((err: unknown) =>
      this.host.log.warn(`build: the report of ${build.id} could not be opened`, err),
    );
    if (build.status === 'completed') {
      const where = build.projectDir === undefined || build.projectDir === '.' ? '.' : `${build.projectDir}/`;
      void vscode.window.setStatusBarMessage(
        vscode.l10n.t('Build completed: the project is in {0}', visibleText(where)),
        10_000,
      );
      return;
    }
    const store = this.runtime.store;
    const choice = await askAfterFailure(build, await hasPendingTestChange(store.files, store.folder, build, sha256));
    const phase = stoppedPhase(build);
    if (choice === 'accept') await this.acceptTestChange(build.id);
    else if (choice === 'resume') await this.resume(build.id);
    else if (choice === 'rerun' && phase) await this.rerun(build.id, phase.name);
    else if (choice === 'folder') await this.openFolder(build.id, false);
  }

  private runner(): BuildRunner {
    const store = this.runtime.store;
    // The window's discovery cases: what a build learned goes in its report, and a completed build archives its local ones.
    const cases = this.host.services.discoveries;
    return new BuildRunner({
      store,
      builds: new BuildStore(store),
      agents: this.runtime.runner(),
      gate: this.runtime.gate,
      clock: systemClock,
      random: secureRandomBytes,
      hash: sha256,
      loadRole: (name) => this.host.roles(name),
      origin: 'vscode',
      place: askPlace,
      specs: this.runtime.specs(),
      ...(cases
        ? { discoveriesOf: (id: string) => cases().learnedIn(id), archiveTask: (id: string) => cases().archiveTask(id) }
        : {}),
    });
  }

  private async readNewest(): Promise<void> {
    if (!this.host.workspace.hasWorkspace) return;
    try {
      const newest = await readNewest(this.runtime.store);
      if (this.live) return;
      this.shown = newest;
      this.update();
    } catch (err) {
      this.host.log.warn('build: the builds could not be read for the panel', err);
    }
  }

  private update(quiet = false): void {
    const live = this.live;
    if (live?.build) this.view = buildView(live.build, 'running', true, live.tail);
    else if (this.shown && this.shown.build.id !== this.hidden)
      this.view = buildView(this.shown.build, this.shown.status, false);
    else this.view = { status: 'none' };
    if (!quiet) this.changedEmitter.fire();
  }
}
