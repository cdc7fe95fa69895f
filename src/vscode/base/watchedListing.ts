// A list of what a `.groundwork/` folder holds (the agent runs, the builds) for the plan explorer,
// read only when the explorer asks, kept until something changes, and read again when the folder
// changes on disk (any window, the CLI) or the feature says so — at most every LISTING_REFRESH_MS,
// so a run or a build that streams does not redraw the tree on every line.
import * as vscode from 'vscode';
import { Disposable, Emitter, toDisposable } from './lifecycle';
import type { WorkspaceModel } from './workspaceModel';

/** A listing is read again at most this often. */
export const LISTING_REFRESH_MS = 500;

export class WatchedListing<T> extends Disposable {
  private readonly emitter = this._register(new Emitter<void>());
  readonly onDidChange = this.emitter.event;
  private cached: Promise<T | undefined> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFired = 0;
  private watching = false;

  /**
   * `dir` is the folder under `.groundwork/`; `read` gives the listing (undefined: nothing to show),
   * `failed` what to show when reading throws.
   */
  constructor(
    private readonly workspace: WorkspaceModel,
    private readonly dir: string,
    private readonly read: () => Promise<T | undefined>,
    private readonly failed: (err: unknown) => T,
  ) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
  }

  list(): Promise<T | undefined> {
    if (!this.workspace.hasWorkspace) return Promise.resolve(undefined);
    this.watch();
    return (this.cached ??= this.read().catch((err: unknown) => this.failed(err)));
  }

  /** Something changed: the list is read again, now or LISTING_REFRESH_MS after the last time. */
  changed(): void {
    if (this.timer !== undefined || this.isDisposed) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.lastFired = Date.now();
        this.cached = undefined;
        this.emitter.fire();
      },
      Math.max(0, this.lastFired + LISTING_REFRESH_MS - Date.now()),
    );
  }

  private watch(): void {
    const root = this.workspace.root;
    if (this.watching || !root) return;
    this.watching = true;
    // The folders themselves too: a `.groundwork` or `<dir>` folder deleted whole reports only itself.
    const pattern = `{.groundwork,.groundwork/${this.dir},.groundwork/${this.dir}/**}`;
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, pattern)));
    for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete])
      this._register(event(() => this.changed()));
  }
}
