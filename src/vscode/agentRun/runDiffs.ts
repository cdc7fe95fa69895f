// What an agent run changed, as VS Code's diff editors show it: each file's content before the run
// (a read-only virtual document made from the run's changes.json, scheme RUN_BEFORE_SCHEME) against
// the file as it is now. Open Changes shows every file of a run in one multi-file diff editor.
import * as vscode from 'vscode';
import { decodeBefore, readChanges } from '../../core/run/changesFile';
import type { Sha256 } from '../../core/run/changesFile';
import { isRunId, relativePathProblem } from '../../core/run/runRecord';
import { RunStore } from '../../core/run/runStore';
import type { ChangeEntry, RunRecord } from '../../core/run/runTypes';
import { visibleText } from '../../core/visibleText';
import { RUN_BEFORE_SCHEME } from './runRows';
import type { WorkspaceModel } from '../base/workspaceModel';

/** The most files Open Changes shows in one editor. */
const CHANGES_SHOWN = 200;
const EMPTY = 'empty';

/** `groundwork-run-before:/<run-id>/<path>`; `empty`: an empty document (a file that is not there). */
export function beforeUri(runId: string, path: string, empty = false): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_BEFORE_SCHEME, path: `/${runId}/${path}`, ...(empty ? { query: EMPTY } : {}) });
}

/** The run id and path a before document names, or undefined when it names none. */
export function parseBeforeUri(uri: vscode.Uri): { runId: string; path: string } | undefined {
  const [first, runId = '', ...rest] = uri.path.split('/');
  const path = rest.join('/');
  return first === '' && isRunId(runId) && relativePathProblem(path) === undefined ? { runId, path } : undefined;
}

export class RunDiffs {
  constructor(
    private readonly workspace: WorkspaceModel,
    private readonly hash: Sha256,
  ) {}

  /** The content a before document shows: the file before the run, empty for a file the run created. */
  async beforeText(uri: vscode.Uri): Promise<string> {
    if (uri.query === EMPTY) return '';
    const named = parseBeforeUri(uri);
    if (!named) return vscode.l10n.t('This is not a file of an agent run.');
    const read = await readChanges(this.workspace.workspaceStore(), named.runId, this.hash);
    if (!read.ok) return visibleText(read.problem);
    const entry = read.changes.files.find((f) => f.path === named.path);
    if (!entry) return vscode.l10n.t('Run {0} did not change {1}.', named.runId, visibleText(named.path));
    return beforeContent(entry);
  }

  /** The diff of one file: before the run ↔ now. */
  async openDiff(runId: string, path: string): Promise<void> {
    const run = await this.run(runId);
    if (!run) return;
    const { before, now, exists } = await this.sides(run, path);
    await vscode.commands.executeCommand(
      'vscode.diff',
      before,
      exists ? now : beforeUri(run.id, path, true),
      diffTitle(run, path),
      { preview: true },
    );
  }

  /** Every file the run changed, in one multi-file diff editor; a message when it changed none. */
  async openChanges(runId: string): Promise<void> {
    const run = await this.run(runId);
    if (!run) return;
    const read = await readChanges(this.workspace.workspaceStore(), runId, this.hash);
    if (!read.ok) return void vscode.window.showErrorMessage(visibleText(read.problem));
    const files = read.changes.files;
    if (files.length === 0)
      return void vscode.window.showInformationMessage(vscode.l10n.t('Run {0} changed no file.', runId));
    const shown = files.slice(0, CHANGES_SHOWN);
    // [the file, before (none: the run created it), now (none: it is gone)]: how the multi-file diff editor tells added from changed.
    const resources = await Promise.all(
      shown.map(async (f) => {
        const { before, now, exists } = await this.sides(run, f.path);
        return [now, f.before === null ? undefined : before, exists ? now : undefined] as const;
      }),
    );
    await vscode.commands.executeCommand(
      'vscode.changes',
      vscode.l10n.t('Changes of run {0} ({1})', run.id, visibleText(run.role)),
      resources,
    );
    if (files.length > shown.length)
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The first {0} of the {1} files the run changed are shown.', shown.length, files.length),
      );
  }

  /** Before (virtual) and now (the file, which may be gone). */
  private async sides(run: RunRecord, path: string): Promise<{ before: vscode.Uri; now: vscode.Uri; exists: boolean }> {
    const root = this.workspace.root as vscode.Uri;
    const now = vscode.Uri.joinPath(root, ...(run.root === '.' ? [] : run.root.split('/')), ...path.split('/'));
    const exists = await vscode.workspace.fs.stat(now).then(
      (s) => (s.type & vscode.FileType.File) !== 0,
      () => false,
    );
    return { before: beforeUri(run.id, path), now, exists };
  }

  private async run(runId: string): Promise<RunRecord | undefined> {
    const found = await new RunStore(this.workspace.workspaceStore()).read(runId);
    if (found.ok) return found.run;
    void vscode.window.showErrorMessage(visibleText(found.problem));
    return undefined;
  }
}

/** A file's content before the run, as a document shows it: text as it was, bytes that are not text said so. */
export function beforeContent(entry: Pick<ChangeEntry, 'before'>): string {
  if (entry.before === null) return '';
  if (entry.before.encoding === 'utf8') return entry.before.data;
  const bytes = decodeBefore(entry.before);
  return vscode.l10n.t('(binary content of {0} bytes, not shown)', bytes?.length ?? 0);
}

function diffTitle(run: RunRecord, path: string): string {
  const name = visibleText(path.slice(path.lastIndexOf('/') + 1));
  return vscode.l10n.t('{0} (before {1} ↔ now)', name, visibleText(run.role));
}
