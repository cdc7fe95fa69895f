// The plan explorer: for each folder with a `.groundwork/` (explorerFolders.ts; one folder's groups
// sit at the top, several folders are roots of their own) the sessions waiting for the person, the
// plans (each expanding to its documents, its builds and the cases they reported: the core's model,
// core/explorer, through explorerRoots.ts) and the specs of other tools; for the folder Groundwork
// works in also the journal, sleeping agents, and the groups the features registered (discovery
// cases, builds, agent runs: explorerGroups.ts). Its own nodes are drawn by explorerItems.ts.
// An empty workspace yields no nodes, so VS Code shows the view's welcome content. While the view
// is visible, sleepers' countdowns are redrawn every second and sessions' time left every 30.
import * as vscode from 'vscode';
import { isSessionProblem, type FileProblem } from '../../core/explorer/explorerTree';
import { JOURNAL_FILE, SLEEP_FILE } from '../../core/plan/layout';
import type { ExplorerGroups, GroupRow } from './explorerGroups';
import type { ExplorerNode, OwnGroup } from './explorerNodes';
import { nodeItem } from './explorerItems';
import type { ExplorerRoot, RootChange } from './explorerRoots';
import { Disposable, Emitter, toDisposable } from '../base/lifecycle';
import type { WorkspaceModel } from '../base/workspaceModel';
import { ExplorerSources } from './explorerSources';

export type { ExplorerNode } from './explorerNodes';
export const PLAN_EXPLORER_ID = 'groundwork.planExplorer';
const MAX_JOURNAL_NODES = 200;
const SESSION_TICKS = 30;

/** The folders the explorer shows (explorerFolders.ts). */
export interface RootsSource {
  readonly onDidChange: vscode.Event<void>;
  list(): Promise<ExplorerRoot[]>;
}

export class PlanExplorer extends Disposable implements vscode.TreeDataProvider<ExplorerNode> {
  private readonly changed = this._register(new Emitter<ExplorerNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** One object per group (and per plan) for the life of the view: VS Code refreshes a node by identity. */
  private readonly groups = new Map<string, Extract<ExplorerNode, { kind: 'group' | 'featureGroup' }>>();
  private readonly plans = new Map<string, Extract<ExplorerNode, { kind: 'plan' }>>();
  private view: vscode.TreeView<ExplorerNode> | undefined;
  private readonly parents = new WeakMap<ExplorerNode, ExplorerNode>();
  private readonly sources: ExplorerSources;
  private readonly followed = new Set<string>();
  /** The groups each folder showed when its groups were last read: one that comes or goes redraws the folder. */
  private readonly shownGroups = new Set<string>();
  private sleeping = false;
  private timedSessions = false;
  private ticks = 0;
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** What the model showed when it last changed. */
  private modelShown: string | undefined;
  /** Whether VS Code has read the root: until then there is nothing to redraw (a hidden view, a window that never showed it). */
  private rootRead = false;

  constructor(
    private readonly model: WorkspaceModel,
    private readonly roots: RootsSource,
    featureGroups: ExplorerGroups,
  ) {
    super();
    this.sources = this._register(new ExplorerSources(featureGroups));
    this._register(model.onDidChange(() => void this.modelChanged()));
    this._register(roots.onDidChange(() => this.redrawAll()));
    this._register(this.sources.onDidChange((name) => void this.sourceChanged(name)));
    this._register(toDisposable(() => clearInterval(this.ticker)));
  }

  /** Redraws the whole tree (the view's Refresh). */
  redrawAll(): void {
    this.modelShown = undefined;
    this.changed.fire(undefined);
  }

  /** The tree view that shows this provider: its countdowns tick only while it is visible; its badge counts the sessions waiting. */
  attach(view: vscode.TreeView<ExplorerNode>): void {
    this.view = view;
    this._register(view.onDidChangeVisibility(() => this.tick()));
  }

  /** A node's parent, for TreeView.reveal: known for the nodes getChildren gave. */
  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return this.parents.get(node);
  }

  /** The groups of the folder Groundwork works in, wherever they sit. */
  async activeGroups(): Promise<ExplorerNode[]> {
    const top = await this.getChildren();
    const folder = top.find((n) => n.kind === 'folder' && n.root.active);
    return folder ? this.getChildren(folder) : top;
  }

  /** The node of the first row of a feature's group that `match`es, three levels deep at most (ExplorerGroups.reveal). */
  async findRow(groupId: string, match: (row: GroupRow) => boolean): Promise<ExplorerNode | undefined> {
    const group = (await this.activeGroups()).find((n) => n.kind === 'featureGroup' && n.group.id === groupId);
    const find = async (nodes: readonly ExplorerNode[], depth: number): Promise<ExplorerNode | undefined> => {
      for (const node of nodes) {
        if (node.kind !== 'row') continue;
        if (match(node.row)) return node;
        if (node.row.children && depth < 3) {
          const found = await find(await this.getChildren(node), depth + 1);
          if (found) return found;
        }
      }
      return undefined;
    };
    return group ? find(await this.getChildren(group), 0) : undefined;
  }

  /** Counts the sessions waiting in every folder on the view's badge (also before the view is first shown). */
  async updateBadge(): Promise<void> {
    const roots = await this.roots.list().catch(() => []);
    const reads = await Promise.all(roots.map((r) => r.read().catch(() => undefined)));
    const now = Date.now();
    const waiting = reads.reduce((n, read) => n + (read?.tree.waiting(now) ?? 0), 0);
    this.timedSessions = reads.some((read) =>
      read?.tree.sessions(now).some((s) => s.expiresAt !== undefined && !s.expired),
    );
    this.tick();
    if (!this.view) return;
    const tooltip =
      waiting === 1
        ? vscode.l10n.t('1 session waits for your answers')
        : vscode.l10n.t('{0} sessions wait for your answers', waiting);
    this.view.badge = waiting > 0 ? { value: waiting, tooltip } : undefined;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    const children = await this.childrenOf(node);
    if (node) for (const child of children) this.parents.set(child, node);
    return children;
  }

  private async childrenOf(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node) {
      this.rootRead = true;
      const roots = await this.roots.list();
      roots.forEach((root) => this.follow(root));
      void this.updateBadge();
      if (roots.length > 1) return roots.map((root): ExplorerNode => ({ kind: 'folder', root }));
      return roots[0] ? this.groupsOf(roots[0]) : [];
    }
    switch (node.kind) {
      case 'folder':
        return this.groupsOf(node.root);
      case 'group':
        return this.groupChildren(node);
      case 'featureGroup':
        return [...(await this.sources.rows(node.group.id))];
      case 'plan': {
        const { plan, root } = node;
        const via = `plan:${plan.slug}/`;
        return [
          ...plan.documents.map((doc): ExplorerNode => ({ kind: 'document', doc, slug: plan.slug, root })),
          ...(root.active ? await this.sources.planRows('builds', plan.builds, via) : []),
          ...(plan.cases.length > 0 && root.active
            ? [{ kind: 'planCases' as const, slug: plan.slug, ids: plan.cases, root }]
            : []),
        ];
      }
      case 'planCases':
        return this.sources.planRows('cases', node.ids, `plan:${node.slug}/`);
      case 'row':
        return this.sources.children(node.row);
      default:
        return [];
    }
  }

  /** A folder's groups: sessions, plans, then (in the folder Groundwork works in) the features' groups, then other specs. */
  private async groupsOf(root: ExplorerRoot): Promise<ExplorerNode[]> {
    const read = await root.read();
    const now = Date.now();
    const groups: ExplorerNode[] = [];
    const sessions = read.tree.sessions(now);
    const [sessionProblems, planProblems] = splitProblems(read.problems);
    if (sessions.length + sessionProblems.length > 0) groups.push(this.group(root, 'sessions', read.tree.waiting(now)));
    const plans = read.tree.planNodes();
    if (plans.length + planProblems.length > 0) groups.push(this.group(root, 'plans', plans.length));
    if (root.active && this.model.hasWorkspace) {
      const view = await this.model.read();
      this.sleeping = !('error' in view.sleepers) && view.sleepers.length > 0;
      this.tick();
      const add = (group: 'journal' | 'sleepers', value: unknown[] | { error: string }) => {
        if ('error' in value)
          groups.push({
            kind: 'error',
            text: value.error,
            file: root.fileUri(group === 'journal' ? JOURNAL_FILE : SLEEP_FILE),
          });
        else if (value.length) groups.push(this.group(root, group, value.length));
      };
      add('journal', 'error' in view.journal ? view.journal : view.journal.records);
      add('sleepers', view.sleepers);
      for (const { group, listing } of await this.sources.groups())
        groups.push(this.featureGroup(root, group, listing.count, listing.tooltip));
    }
    if (read.specs.length > 0) groups.push(this.group(root, 'specs', read.specs.length));
    for (const key of [...this.shownGroups]) if (key.startsWith(`${root.key}|`)) this.shownGroups.delete(key);
    for (const g of groups) if (g.kind === 'group') this.shownGroups.add(`${root.key}|${g.group}`);
    for (const g of groups) if (g.kind === 'featureGroup') this.shownGroups.add(`${root.key}|${g.group.id}`);
    return groups;
  }

  private async groupChildren(node: Extract<ExplorerNode, { kind: 'group' }>): Promise<ExplorerNode[]> {
    const root = node.root;
    switch (node.group) {
      case 'sessions': {
        const read = await root.read();
        return [
          ...read.tree.sessions(Date.now()).map((session): ExplorerNode => ({ kind: 'session', session, root })),
          ...splitProblems(read.problems)[0].map((p): ExplorerNode => ({
            kind: 'error',
            text: `${p.file}: ${p.problem}`,
            file: vscode.Uri.joinPath(root.folder.uri, p.file),
          })),
        ];
      }
      case 'plans': {
        const read = await root.read();
        if (root.active) await this.sources.relate(read.tree);
        return [
          ...read.tree.planNodes().map((plan) => this.planNode(root, plan)),
          ...splitProblems(read.problems)[1].map((p): ExplorerNode => ({
            kind: 'error',
            text: `${p.file}: ${p.problem}`,
          })),
        ];
      }
      case 'specs':
        return (await root.read()).specs.map((spec): ExplorerNode => ({ kind: 'spec', spec, root }));
      case 'journal': {
        const view = await this.model.read();
        if ('error' in view.journal) return [];
        return view.journal.records
          .slice(-MAX_JOURNAL_NODES)
          .reverse()
          .map((entry) => ({ kind: 'entry', entry }));
      }
      case 'sleepers': {
        const view = await this.model.read();
        return 'error' in view.sleepers ? [] : view.sleepers.map((sleeper) => ({ kind: 'sleeper', sleeper }));
      }
    }
  }

  private planNode(root: ExplorerRoot, plan: Extract<ExplorerNode, { kind: 'plan' }>['plan']): ExplorerNode {
    const key = `${root.key}|${plan.slug}`;
    const node = this.plans.get(key);
    if (node) {
      node.plan = plan;
      return node;
    }
    const made: Extract<ExplorerNode, { kind: 'plan' }> = { kind: 'plan', plan, root };
    this.plans.set(key, made);
    return made;
  }

  private group(root: ExplorerRoot, group: OwnGroup, count: number): ExplorerNode {
    const key = `${root.key}|${group}`;
    let node = this.groups.get(key);
    if (node?.kind !== 'group') {
      node = { kind: 'group', group, count, root };
      this.groups.set(key, node);
    }
    node.count = count;
    return node;
  }

  private featureGroup(
    root: ExplorerRoot,
    group: Extract<ExplorerNode, { kind: 'featureGroup' }>['group'],
    count: number,
    tooltip: readonly string[] | undefined,
  ): ExplorerNode {
    const key = `${root.key}|${group.id}`;
    let node = this.groups.get(key);
    if (node?.kind !== 'featureGroup' || node.group !== group) {
      node = { kind: 'featureGroup', group, count, root };
      this.groups.set(key, node);
    }
    node.count = count;
    node.tooltip = tooltip;
    return node;
  }

  /** A root's own changes: a plan redrawn alone when only its folder changed, its group when plans come or go. */
  private follow(root: ExplorerRoot): void {
    if (this.followed.has(root.key)) return;
    this.followed.add(root.key);
    this._register(root.onDidChange((change) => void this.rootChanged(root, change)));
  }

  private async rootChanged(root: ExplorerRoot, change: RootChange): Promise<void> {
    void this.updateBadge();
    if (!this.rootRead) return;
    const read = await root.read().catch(() => undefined);
    const plansGroup = this.groups.get(`${root.key}|plans`);
    const sessionsGroup = this.groups.get(`${root.key}|sessions`);
    const specsGroup = this.groups.get(`${root.key}|specs`);
    if (change.kind === 'all' || !read) return this.changed.fire(undefined);
    if (change.kind === 'specs')
      return this.changed.fire(
        specsGroup && read.specs.length > 0 && this.shownGroups.has(`${root.key}|specs`) ? specsGroup : undefined,
      );
    const sessionsShown = read.tree.sessions(Date.now()).length + splitProblems(read.problems)[0].length > 0;
    const plansShown = read.tree.planNodes().length > 0;
    // A group that comes or goes redraws the folder's groups.
    const shown = (group: OwnGroup) => this.shownGroups.has(`${root.key}|${group}`);
    if ((change.sessions && sessionsShown !== shown('sessions')) || (change.list && plansShown !== shown('plans')))
      return this.changed.fire(undefined);
    if (change.sessions && sessionsGroup) {
      sessionsGroup.count = read.tree.waiting(Date.now());
      this.changed.fire(sessionsGroup);
    }
    if (change.list && plansGroup) {
      plansGroup.count = read.tree.planNodes().length;
      return this.changed.fire(plansGroup);
    }
    for (const slug of change.slugs) {
      const node = this.plans.get(`${root.key}|${slug}`);
      const plan = read.tree.plan(slug);
      if (node && plan) {
        node.plan = plan;
        this.changed.fire(node);
      }
    }
  }

  /**
   * `.groundwork/` changed (the model watches all of it): the whole tree is redrawn only when what
   * the model shows changed (the journal, the sleepers). A run or a build writes its files many
   * times a second, and each redraw of the root makes VS Code forget every row while it may still be
   * loading an open group's rows; their own groups are redrawn by their sources.
   */
  private async modelChanged(): Promise<void> {
    if (!this.rootRead) return;
    const view = await this.model.read().catch(() => undefined);
    const journal =
      view && !('error' in view.journal)
        ? [view.journal.records.length, view.journal.records.at(-1), view.journal.problems.length]
        : view?.journal;
    const shown = JSON.stringify([journal, view?.sleepers]);
    if (view === undefined || shown !== this.modelShown) this.changed.fire(undefined);
    this.modelShown = shown;
  }

  /**
   * A feature's group is redrawn, the Plans group too when the group links to plans (a plan lists
   * its builds and their cases), the root when the group appears or goes or groups were registered.
   */
  private async sourceChanged(id: string | undefined): Promise<void> {
    if (!this.rootRead) return;
    if (id === undefined) return this.changed.fire(undefined);
    const active = (await this.roots.list().catch(() => [])).find((r) => r.active);
    const node = active && this.groups.get(`${active.key}|${id}`);
    const was = this.sources.shown(id);
    const shown = await this.sources.group(id);
    if (node?.kind !== 'featureGroup' || !shown || !was) return this.changed.fire(undefined);
    node.count = shown.listing.count;
    node.tooltip = shown.listing.tooltip;
    this.changed.fire(node);
    const plans = this.groups.get(`${active!.key}|plans`);
    if (shown.listing.plans && plans) this.changed.fire(plans);
  }

  /** Starts or stops the countdowns' ticker as sleepers and timed sessions come and go and the view shows or hides. */
  private tick(): void {
    const run = (this.sleeping || this.timedSessions) && (this.view?.visible ?? false);
    if (run && !this.ticker) {
      this.ticker = setInterval(() => {
        const sleepers = [...this.groups.entries()].find(([key]) => key.endsWith('|sleepers'))?.[1];
        if (this.sleeping && sleepers) this.changed.fire(sleepers);
        if (++this.ticks % SESSION_TICKS !== 0) return;
        for (const [key, group] of this.groups) if (key.endsWith('|sessions')) this.changed.fire(group);
        void this.updateBadge();
      }, 1000);
    } else if (!run && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    return nodeItem(node);
  }
}

/** The problems of session files (under Active sessions), and the others (under Plans). */
function splitProblems(problems: readonly FileProblem[]): [FileProblem[], FileProblem[]] {
  return [problems.filter(isSessionProblem), problems.filter((p) => !isSessionProblem(p))];
}
