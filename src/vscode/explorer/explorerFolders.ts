// The folders the plan explorer shows: the one Groundwork works in (base/folderChoice.ts), and every
// other folder of the window that has a `.groundwork/`, each a root of its own (explorerRoots.ts).
import * as vscode from 'vscode';
import { GROUNDWORK_DIR } from '../../core/plan/layout';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { Disposable, Emitter } from '../base/lifecycle';
import { ExplorerRoot } from './explorerRoots';

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
    const watcher = this._register(
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, GROUNDWORK_DIR), false, true, false),
    );
    this._register(watcher.onDidCreate(() => this.again()));
    this._register(watcher.onDidDelete(() => this.again()));
  }
}

async function hasGroundwork(folder: vscode.WorkspaceFolder): Promise<boolean> {
  const stat = await Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, GROUNDWORK_DIR))).catch(
    () => undefined,
  );
  return (
    stat !== undefined &&
    (stat.type & vscode.FileType.Directory) !== 0 &&
    (stat.type & vscode.FileType.SymbolicLink) === 0
  );
}
