// Which folder of a multi-root window Groundwork works in, and which folders the plan explorer
// shows. Groundwork keeps its state in one folder's `.groundwork/`: the one the person chose
// ("Work in This Folder" in the explorer, "Groundwork: Choose Workspace Folder…"), remembered for
// the workspace; else the first folder. The choice is read at activation without touching the disk;
// changing it reloads the window, so every feature starts again in the chosen folder.
import * as vscode from 'vscode';
import { GROUNDWORK_DIR } from '../core/plan/layout';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import { ExplorerRoot } from './explorerRoots';
import { Disposable, Emitter } from './lifecycle';

const CHOICE_KEY = 'groundwork.folder';

/** The folder Groundwork works in: the remembered choice while it is still open, else the first. */
export function chosenFolder(state: vscode.Memento): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const chosen = state.get<unknown>(CHOICE_KEY);
  return folders.find((f) => typeof chosen === 'string' && f.uri.toString() === chosen) ?? folders[0];
}

/** Remembers `folder` and offers the reload that makes every feature work in it. */
export async function chooseFolder(state: vscode.Memento, current: vscode.WorkspaceFolder | undefined, folder?: vscode.WorkspaceFolder): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folder === undefined) {
    if (folders.length < 2) return void vscode.window.showInformationMessage(vscode.l10n.t('This window has one folder: Groundwork works in it.'));
    const picked = await vscode.window.showQuickPick(
      folders.map((f) => ({
        label: f.name,
        description: f.uri.toString() === current?.uri.toString() ? vscode.l10n.t('Groundwork works here now') : undefined,
        detail: f.uri.fsPath,
        folder: f,
      })),
      { title: vscode.l10n.t('Choose the Folder Groundwork Works In'), placeHolder: vscode.l10n.t('Its .groundwork/ holds the plans, builds and discoveries') },
    );
    if (!picked) return;
    folder = picked.folder;
  }
  if (folder.uri.toString() === current?.uri.toString()) return;
  await state.update(CHOICE_KEY, folder.uri.toString());
  const reload = vscode.l10n.t('Reload Window');
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t('Groundwork will work in "{0}" after the window reloads.', folder.name),
    { modal: true, detail: vscode.l10n.t('A discovery, brainstorm or build under way in "{0}" stays on disk and can be resumed there.', current?.name ?? '') },
    reload,
  );
  if (answer === reload) await vscode.commands.executeCommand('workbench.action.reloadWindow');
}

/** The explorer's roots: the chosen folder, and every other folder of the window that has a `.groundwork/`. */
export class ExplorerFolders extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly roots = new Map<string, ExplorerRoot>();
  private listed: Promise<ExplorerRoot[]> | undefined;
  private watching = false;
  private readonly watched = new Set<string>();

  constructor(
    private readonly active: { folder: vscode.WorkspaceFolder; store: WorkspaceStore } | undefined,
    private readonly storeFor: (folder: vscode.WorkspaceFolder) => WorkspaceStore | undefined,
    private readonly ttlMs: () => number,
  ) {
    super();
    this._register({ dispose: () => this.roots.forEach((r) => r.dispose()) });
  }

  list(): Promise<ExplorerRoot[]> {
    this.watch();
    this.listed ??= this.find();
    return this.listed;
  }

  /** Read the folders again (the view's Refresh): every root forgets what it read. */
  refresh(): void {
    this.listed = undefined;
    for (const root of this.roots.values()) root.refresh();
    this.changed.fire();
  }

  private async find(): Promise<ExplorerRoot[]> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const found: ExplorerRoot[] = [];
    for (const folder of folders) {
      const isActive = folder.uri.toString() === this.active?.folder.uri.toString();
      this.watchFolder(folder);
      if (!isActive && !(await hasGroundwork(folder))) continue;
      const root = this.roots.get(folder.uri.toString()) ?? this.make(folder, isActive);
      if (root) found.push(root);
    }
    return found;
  }

  private make(folder: vscode.WorkspaceFolder, isActive: boolean): ExplorerRoot | undefined {
    const store = isActive ? this.active?.store : this.storeFor(folder);
    if (!store) return undefined;
    const root = new ExplorerRoot(folder, store, isActive, this.ttlMs);
    this.roots.set(root.key, root);
    return root;
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.again()));
  }

  private again(): void {
    this.listed = undefined;
    this.changed.fire();
  }

  /** Another folder gets a .groundwork/ (a clone, the CLI) or loses it: the roots are found again. */
  private watchFolder(folder: vscode.WorkspaceFolder): void {
    if (this.watched.has(folder.uri.toString())) return;
    this.watched.add(folder.uri.toString());
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, GROUNDWORK_DIR), false, true, false));
    this._register(watcher.onDidCreate(() => this.again()));
    this._register(watcher.onDidDelete(() => this.again()));
  }
}

async function hasGroundwork(folder: vscode.WorkspaceFolder): Promise<boolean> {
  const stat = await Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, GROUNDWORK_DIR))).catch(() => undefined);
  return stat !== undefined && (stat.type & vscode.FileType.Directory) !== 0 && (stat.type & vscode.FileType.SymbolicLink) === 0;
}
