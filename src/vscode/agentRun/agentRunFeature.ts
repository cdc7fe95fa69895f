// Agent runs in VS Code, the feature's own bundle (dist/agentRun.js, loaded on first use: the
// `Run Agent…` command, or the plan explorer finding run folders). It wires core/run's AgentRunner
// to the window — the model of ModelService, commands through NodeCommandRunner behind the approval
// modal (runApproval.ts), the workspace trust, the user's settings — and prints each run in an
// integrated terminal of its own (agentTerminal.ts). It also lists the runs for the explorer's Runs
// group, reverts and resumes them; the diffs are runDiffs.ts.
import * as vscode from 'vscode';
import { bundledRoleSource } from '../../core/node/roleFiles';
import { loadRoles } from '../../core/roles/roleLoader';
import type { Role } from '../../core/roles/roleSchema';
import { workspaceRoleSource } from '../../core/roles/workspaceRoleSource';
import { RunRefusedError } from '../../core/run/agentRun';
import type { AgentRunner } from '../../core/run/agentRun';
import { readChanges } from '../../core/run/changesFile';
import { revertRun } from '../../core/run/revert';
import { RunPrinter } from '../../core/run/runLines';
import { RunStore, displayStatus } from '../../core/run/runStore';
import { TASK_MAX_CHARS } from '../../core/run/runTypes';
import type { RunEvent, RunRecord } from '../../core/run/runTypes';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { visibleText } from '../../core/visibleText';
import { AgentRuntime, sha256, type RunLogs } from '../agentRuntime/agentRuntime';
import { AgentTerminal } from '../agentRuntime/agentTerminal';
import type { Host } from '../host';
import { Disposable, toDisposable } from '../base/lifecycle';
import { RunDiffs } from './runDiffs';
import { readRunFiles } from './runFiles';
import { runsListing } from './runRows';
import type { FileRow, RunsListing, RunShownStatus } from './runRows';
import { runWords } from './runWords';
import { requireTrust } from '../base/trust';

/** A run whose record changed this recently is not probed for its lock (a start or a resume may be taking it); the list is read again after. */
const FRESH_MS = 5000;

export function createAgentRuns(host: Host, changed: () => void, logs: RunLogs): AgentRuns {
  return new AgentRuns(host, changed, logs);
}

export class AgentRuns extends Disposable {
  /** The runs of this window that are under way, by id: Stop Run aborts them. */
  private readonly live = new Map<string, AbortController>();
  private readonly runtime: AgentRuntime;
  private readonly diffs: RunDiffs;
  private recheck: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: Host,
    /** The runs changed: the explorer's Runs group is read again (at most every 500 ms). */
    private readonly changed: () => void,
    logs: RunLogs,
  ) {
    super();
    this.runtime = new AgentRuntime(host, logs);
    this.diffs = new RunDiffs(host.workspace, sha256);
    this._register(toDisposable(() => clearTimeout(this.recheck)));
    // A window that closes stops its runs; each is recorded as stopped.
    this._register(toDisposable(() => this.live.forEach((run) => run.abort())));
  }

  private get store(): WorkspaceStore {
    return this.host.workspace.workspaceStore();
  }

  /** `Run Agent…`: a role, a task, then the run in a terminal of its own. */
  async pickAndStart(): Promise<void> {
    const role = await this.pickRole();
    if (!role) return;
    const task = await vscode.window.showInputBox({
      title: vscode.l10n.t('Run Agent: {0}', role.name),
      prompt: vscode.l10n.t(
        'What should the agent do? It works in the workspace folder and asks before it runs a command.',
      ),
      placeHolder: vscode.l10n.t('e.g. Add a sum function in src/sum.js with a test, and run the tests'),
      ignoreFocusOut: true,
      validateInput: (v) =>
        v.trim() === ''
          ? vscode.l10n.t('Say what the agent should do.')
          : v.length > TASK_MAX_CHARS
            ? vscode.l10n.t('The task is {0} characters; the limit is {1}.', v.length, TASK_MAX_CHARS)
            : undefined,
    });
    if (task === undefined || task.trim() === '' || task.length > TASK_MAX_CHARS) return;
    // Trust may have been withdrawn while the task was typed.
    if (!requireTrust(vscode.l10n.t('run an agent'))) return;
    const root = this.store.folder;
    await this.carry(role.name, task, (runner, signal, onEvent) => runner.start({ role, task, root }, signal, onEvent));
  }

  /** Resume Run: a stopped, failed or interrupted run, continued in a new terminal. */
  async resume(id: string): Promise<void> {
    if (!requireTrust(vscode.l10n.t('resume an agent run'))) return;
    const found = await new RunStore(this.store).read(id);
    if (!found.ok) return void vscode.window.showErrorMessage(visibleText(found.problem));
    const role = await this.host
      .roles(found.run.role)
      .catch((err: unknown) => void vscode.window.showErrorMessage(message(err)));
    if (!role) return;
    await this.carry(found.run.role, found.run.task, (runner, signal, onEvent) =>
      runner.resume(id, role, signal, onEvent),
    );
  }

  /** Stop Run: only a run of this window can be stopped from here. */
  stop(id: string): void {
    this.live.get(id)?.abort();
  }

  /** Revert Run: after a modal naming how many files, every change of the run is taken back, or none. */
  async revert(id: string): Promise<void> {
    if (!requireTrust(vscode.l10n.t('revert an agent run'))) return;
    const runs = new RunStore(this.store);
    const found = await runs.read(id);
    if (!found.ok) return void vscode.window.showErrorMessage(visibleText(found.problem));
    if (this.live.has(id) || (await runs.isHeld(id)))
      return void vscode.window.showWarningMessage(
        vscode.l10n.t('Run {0} is under way: stop it first, then revert it.', id),
      );
    const changes = await readChanges(this.store, id, sha256);
    if (!changes.ok)
      return void vscode.window.showErrorMessage(
        vscode.l10n.t('Run {0} cannot be reverted: {1}', id, visibleText(changes.problem)),
      );
    const n = changes.changes.files.length;
    if (n === 0)
      return void vscode.window.showInformationMessage(
        vscode.l10n.t('Run {0} changed no file: there is nothing to revert.', id),
      );
    const revert = vscode.l10n.t('Revert');
    const detail = vscode.l10n.t(
      'Files it created are removed; files it changed get back their content from before the run. If a file changed since outside the run, nothing is touched.',
    );
    const question =
      n === 1
        ? vscode.l10n.t('Revert the 1 file run {0} changed?', id)
        : vscode.l10n.t('Revert the {0} files run {1} changed?', n, id);
    if ((await vscode.window.showWarningMessage(question, { modal: true, detail }, revert)) !== revert) return;
    const root = found.run.root === '.' ? this.store.folder : `${this.store.folder}/${found.run.root}`;
    const result = await revertRun(this.store, runs, id, sha256, root);
    this.changed();
    if (!result.ok) {
      const outside = result.changedOutside.map(visibleText);
      const text =
        outside.length > 0
          ? vscode.l10n.t('Run {0} was not reverted: these files changed outside the run: {1}', id, outside.join(', '))
          : vscode.l10n.t('Run {0} was not reverted: {1}', id, visibleText(result.problem));
      this.host.log.warn(`runs: revert of ${id} refused: ${result.problem}`);
      return void vscode.window.showErrorMessage(text);
    }
    this.host.log.info(
      `runs: reverted ${id} (${result.restored.length} restored, ${result.removed.length} removed, ${result.unchanged.length} unchanged)`,
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Run {0} reverted: {1} restored, {2} removed, {3} already as before.',
        id,
        result.restored.length,
        result.removed.length,
        result.unchanged.length,
      ),
    );
  }

  openChanges(id: string): Promise<void> {
    return this.diffs.openChanges(id);
  }

  openDiff(id: string, path: string): Promise<void> {
    return this.diffs.openDiff(id, path);
  }

  beforeText(uri: vscode.Uri): Promise<string> {
    return this.diffs.beforeText(uri);
  }

  /** The Runs group: newest first, each with the status a person should see ('interrupted' when nobody holds a running run). */
  async listing(): Promise<RunsListing> {
    const runs = new RunStore(this.store);
    const { runs: all, problems } = await runs.list();
    const now = Date.now();
    let fresh = false;
    const rows = await Promise.all(
      all.map(async (run) => {
        const here = this.live.has(run.id);
        if (run.status !== 'running' || here) return { run, status: run.status as RunShownStatus, here };
        if (now - Date.parse(run.updatedAt) < FRESH_MS) {
          fresh = true;
          return { run, status: run.status as RunShownStatus, here };
        }
        return { run, status: displayStatus(run, await runs.isHeld(run.id).catch(() => true)), here };
      }),
    );
    if (fresh) {
      clearTimeout(this.recheck);
      this.recheck = setTimeout(() => this.changed(), FRESH_MS);
    }
    return runsListing(
      rows,
      problems.map((p) => ({ id: visibleText(p.id), problem: visibleText(p.problem) })),
      runWords(),
      now,
      vscode.env.language,
    );
  }

  files(id: string): Promise<FileRow[]> {
    return readRunFiles(this.store, id);
  }

  /** One run, start or resume, in a terminal of its own: Ctrl+C or closing it stops the run. */
  private async carry(
    role: string,
    task: string,
    go: (runner: AgentRunner, signal: AbortSignal, onEvent: (event: RunEvent) => void) => Promise<RunRecord>,
  ): Promise<void> {
    const abort = new AbortController();
    const terminal = new AgentTerminal(`Groundwork: ${cut(role, 64)} — ${cut(task, 40)}`, () => abort.abort());
    terminal.show();
    const printer = new RunPrinter();
    let id: string | undefined;
    const onEvent = (event: RunEvent) => {
      if (event.type === 'started') {
        id = event.run.id;
        this.live.set(id, abort);
        this.host.log.info(`runs: ${event.resumed ? 'resumed' : 'started'} ${id}`);
      }
      terminal.print(printer.print(event));
      if (event.type === 'started' || event.type === 'wrote' || event.type === 'ended') this.changed();
    };
    try {
      const final = await go(this.runtime.runner(), abort.signal, onEvent);
      this.host.log.info(`runs: ${final.id} ${final.status}${final.reason ? ` (${final.reason})` : ''}`);
    } catch (err) {
      const text = message(err);
      terminal.line(`✗ ${text}`, 'error');
      if (err instanceof RunRefusedError)
        void vscode.window.showErrorMessage(vscode.l10n.t('The agent run did not start: {0}', text));
      else {
        this.host.log.error('runs: the run failed', err);
        void vscode.window.showErrorMessage(vscode.l10n.t('The agent run failed: {0}', text));
      }
    } finally {
      if (id !== undefined) this.live.delete(id);
      this.changed();
      terminal.end(vscode.l10n.t('Press any key to close this terminal.'));
    }
  }

  /** The roles, bundled and the workspace's overrides (in a trusted folder), with their descriptions. */
  private async pickRole(): Promise<Role | undefined> {
    const overrides = vscode.workspace.isTrusted ? workspaceRoleSource(this.store) : undefined;
    const loaded = await loadRoles(bundledRoleSource(this.host.context.extensionUri.fsPath), overrides);
    const items = [...loaded.roles.values()].map((r) => ({
      label: r.role.name,
      // Descriptions may come from a workspace file: no $(icon) syntax is drawn from them.
      detail: noIcons(visibleText(r.role.description)),
      ...(r.origin === 'workspace'
        ? { description: vscode.l10n.t('overridden by {0}', noIcons(visibleText(r.file))) }
        : {}),
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Run Agent'),
      placeHolder: vscode.l10n.t('Pick the role the agent plays'),
      matchOnDetail: true,
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    try {
      return await this.host.roles(picked.label);
    } catch (err) {
      void vscode.window.showErrorMessage(message(err));
      return undefined;
    }
  }
}

function message(err: unknown): string {
  return visibleText(err instanceof Error ? err.message : String(err));
}

function cut(text: string, max: number): string {
  const chars = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** `$(name)` in a QuickPick's text draws an icon: broken up with a zero-width space. */
function noIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}
