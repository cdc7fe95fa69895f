// The plan explorer's roots: one per folder of the window that has a `.groundwork/` (and always the
// folder Groundwork works in, folderChoice.ts), each with the core's model of its plans, sessions
// and other specs (core/explorer). A root reads its folder once, when the view first asks, then
// follows its own watchers: a change inside one plan folder reads that plan again (one plan, not
// the workspace: npm run bench:tree), a session file the sessions, a spec folder the specs.
import * as vscode from 'vscode';
import type { ExternalSpecEntry } from '../../core/build/externalSpec';
import { ExplorerTree, isSessionProblem, type FileProblem } from '../../core/explorer/explorerTree';
import { DISCOVERY_DIR, GROUNDWORK_DIR, PLAN_FILES, PLANS_DIR } from '../../core/plan/layout';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { Disposable, Emitter } from '../base/lifecycle';

export interface RootRead {
  tree: ExplorerTree;
  /** Files of `.groundwork/` that could not be read: error nodes. */
  problems: FileProblem[];
  specs: ExternalSpecEntry[];
}

/** What changed in a root: everything, some plans (and whether the list of plans or the sessions changed), or the specs. */
export type RootChange =
  { kind: 'all' } | { kind: 'plans'; slugs: string[]; list: boolean; sessions: boolean } | { kind: 'specs' };

/** The readers, on first use: a bundle of their own (explorerFeature.ts → dist/explorer.js). */
const readers = (): typeof import('./explorerFeature') => require('./explorerFeature');

/** What the watchers gather: `.groundwork`-relative paths, and these two. */
const EVERYTHING = '//all';
const SPECS = '//specs';

/** Milliseconds to gather a burst of file events (a build writes many a second) before reading. */
const SETTLE_MS = 150;

export class ExplorerRoot extends Disposable {
  private readonly changed = this._register(new Emitter<RootChange>());
  readonly onDidChange = this.changed.event;
  private cached: Promise<RootRead> | undefined;
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watching = false;
  private settling: Promise<void> = Promise.resolve();

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    readonly store: WorkspaceStore,
    /** The folder Groundwork works in: its builds, cases, runs, journal and sleepers show too. */
    readonly active: boolean,
    private readonly ttlMs: () => number,
  ) {
    super();
    this._register({ dispose: () => clearTimeout(this.timer) });
  }

  get key(): string {
    return this.folder.uri.toString();
  }

  /** A `.groundwork`-relative path's URI. */
  fileUri(rel: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder.uri, GROUNDWORK_DIR, ...rel.split('/'));
  }

  read(): Promise<RootRead> {
    this.watch();
    this.cached ??= this.load();
    return this.cached;
  }

  /** Forget what was read (the view's Refresh). */
  refresh(): void {
    this.cached = undefined;
    this.changed.fire({ kind: 'all' });
  }

  private async load(): Promise<RootRead> {
    const { readExplorer, findExternalSpecs } = readers();
    const [read, specs] = await Promise.all([
      readExplorer(this.store, this.ttlMs()),
      findExternalSpecs(this.store.files, this.store.folder).catch(() => []),
    ]);
    return { tree: new ExplorerTree({ plans: read.plans, sessions: read.sessions }), problems: read.problems, specs };
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    // `.groundwork` itself too: a folder deleted whole (git checkout, rm -r) is one event for its top.
    const groundwork = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(
        this.folder,
        `{${GROUNDWORK_DIR},${GROUNDWORK_DIR}/${PLANS_DIR},${GROUNDWORK_DIR}/{${PLANS_DIR},${DISCOVERY_DIR}}/**}`,
      ),
    );
    const specs = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(this.folder, '{specs,.kiro/specs}/**'),
    );
    const onFile = (uri: vscode.Uri) => {
      const rel = vscode.workspace.asRelativePath(uri, false);
      this.pending.add(
        rel === GROUNDWORK_DIR
          ? EVERYTHING
          : rel.startsWith(`${GROUNDWORK_DIR}/`)
            ? rel.slice(GROUNDWORK_DIR.length + 1)
            : SPECS,
      );
      clearTimeout(this.timer);
      // One settle at a time, in order: an older read never lands after a newer one.
      this.timer = setTimeout(
        () => (this.settling = this.settling.then(() => this.settle()).catch(() => undefined)),
        SETTLE_MS,
      );
    };
    for (const watcher of [groundwork, specs]) {
      this._register(watcher);
      this._register(watcher.onDidChange(onFile));
      this._register(watcher.onDidCreate(onFile));
      this._register(watcher.onDidDelete(onFile));
    }
  }

  /** Reads again what the files gathered since the last settle touch, and says what changed. */
  private async settle(): Promise<void> {
    const paths = [...this.pending];
    this.pending = new Set();
    const cached = this.cached;
    if (cached === undefined) return;
    const read = await cached.catch(() => undefined);
    // The whole folder, or all plans, came or went; or a problem not of a session's file may be gone.
    const whole =
      paths.includes(EVERYTHING) || paths.includes(PLANS_DIR) || read?.problems.some((p) => !isSessionProblem(p));
    if (read === undefined || whole) return this.refresh();
    if (paths.includes(SPECS)) {
      read.specs = await readers()
        .findExternalSpecs(this.store.files, this.store.folder)
        .catch(() => []);
      this.changed.fire({ kind: 'specs' });
    }
    const slugs = new Set<string>();
    let sessions = false;
    for (const path of paths) {
      const [top, slug, file] = path.split('/');
      if (top === DISCOVERY_DIR) sessions = true;
      else if (top === PLANS_DIR && slug) {
        slugs.add(slug);
        if (file === undefined || file === PLAN_FILES.state || file === PLAN_FILES.sentinel) sessions = true;
      }
    }
    if (slugs.size === 0 && !sessions) return;
    let list = false;
    for (const slug of slugs) {
      const had = read.tree.plan(slug) !== undefined;
      const now = read.tree.updatePlan(slug, await readers().readPlanFacts(this.store, slug));
      if (had !== (now !== undefined)) list = true;
    }
    if (sessions) await this.readSessions(read);
    this.changed.fire({ kind: 'plans', slugs: [...slugs], list, sessions });
  }

  /** The sessions again: the discovery round files and each plan's brainstorm under way (a problem not of a session's file refreshes everything first: settle). */
  private async readSessions(read: RootRead): Promise<void> {
    const brainstorming = read.tree
      .planNodes()
      .filter((p) => p.unfinishedBrainstorm)
      .map((p) => p.slug);
    const { sessions, problems } = await readers().readSessions(this.store, brainstorming, this.ttlMs());
    read.tree.setSessions(sessions);
    read.problems = problems;
  }
}
