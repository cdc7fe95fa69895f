// The plan explorer: plans, the discoveries journal, sleeping agents, discovery cases, builds and
// agent runs, as the workspace holds them (the cases come from Host.services.cases: casesTree.ts; the
// builds from Host.services.builds: buildsTree.ts; the runs from Host.services.runs: runsTree.ts). A
// plan with builds lists them beneath it, as the Builds group does. An empty workspace yields no
// nodes, so VS Code shows the view's welcome content. While agents sleep and the view is visible,
// their countdowns are redrawn every second (only that group).
import * as vscode from 'vscode';
import type { JournalEntry } from '../core/journal/journalEntry';
import { sleeperStatus, type Sleeper } from '../core/sleep/sleepLog';
import { visibleText } from '../core/visibleText';
import { Disposable, Emitter, toDisposable } from './lifecycle';
import type { BuildRow, BuildsSource, PhaseRow } from './buildsTree';
import type { CasesRow, CasesSource } from './casesTree';
import { RUN_FILE_SCHEME } from './runsTree';
import type { RowLook } from './rowLook';
import type { FileRow, RunRow, RunsSource } from './runsTree';
import type { PlanSummary, WorkspaceModel } from './workspaceModel';

export const PLAN_EXPLORER_ID = 'groundwork.planExplorer';
const MAX_JOURNAL_NODES = 200;

type GroupName = 'plans' | 'journal' | 'sleepers' | 'discoveries' | 'builds' | 'runs';

/**
 * `via` prefixes the tree item's id of a build (and of what is beneath it) shown under its plan as
 * well as in the Builds group: `plan:<slug>/`. A run file's `under` is the id of the run row it is
 * listed beneath (a build's try is also a row of the Runs group).
 */
export type ExplorerNode =
  | { kind: 'group'; group: GroupName; count: number; tooltip?: readonly string[] }
  | { kind: 'plan'; plan: PlanSummary; builds: readonly BuildRow[] }
  | { kind: 'entry'; entry: JournalEntry }
  | { kind: 'sleeper'; sleeper: Sleeper }
  | { kind: 'build'; row: BuildRow; via?: string }
  | { kind: 'phase'; row: PhaseRow; via?: string }
  | { kind: 'run'; row: RunRow; via?: string }
  | { kind: 'runFile'; file: FileRow; under: string }
  /** A row of the Discoveries group: a status, a scope and impact, a case, or the unreadable lines. */
  | { kind: 'case'; row: CasesRow }
  | { kind: 'note'; text: string; tooltip?: string }
  | { kind: 'error'; text: string };

export class PlanExplorer extends Disposable implements vscode.TreeDataProvider<ExplorerNode> {
  private readonly changed = this._register(new Emitter<ExplorerNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** One object per group for the life of the view: VS Code refreshes a node by identity. */
  private readonly groups = new Map<GroupName, Extract<ExplorerNode, { kind: 'group' }>>();
  private view: vscode.TreeView<ExplorerNode> | undefined;
  private readonly parents = new WeakMap<ExplorerNode, ExplorerNode>();
  private sleeping = false;
  private ticker: ReturnType<typeof setInterval> | undefined;

  /** The groups of a source (Runs, Builds, Discoveries) shown last time the root was read: their coming or going redraws the root. */
  private readonly shown = new Set<GroupName>();
  /** What the model showed when it last changed. */
  private modelShown: string | undefined;
  /** Whether VS Code has read the root: until then there is nothing to redraw (a hidden view, a window that never showed it). */
  private rootRead = false;

  constructor(
    private readonly model: WorkspaceModel,
    private readonly runs?: RunsSource,
    private readonly builds?: BuildsSource,
    private readonly cases?: CasesSource,
  ) {
    super();
    this._register(model.onDidChange(() => void this.modelChanged()));
    if (runs) this._register(runs.onDidChange(() => void this.sourceChanged('runs')));
    if (builds) this._register(builds.onDidChange(() => void this.sourceChanged('builds')));
    if (cases) this._register(cases.onDidChange(() => void this.sourceChanged('discoveries')));
    this._register(toDisposable(() => clearInterval(this.ticker)));
  }

  /** Redraws the whole tree (the view's Refresh). */
  redrawAll(): void {
    this.modelShown = undefined;
    this.changed.fire(undefined);
  }

  /** The tree view that shows this provider: its countdowns tick only while it is visible. */
  attach(view: vscode.TreeView<ExplorerNode>): void {
    this.view = view;
    this._register(view.onDidChangeVisibility(() => this.tick()));
  }

  /** Starts or stops the countdowns' ticker as sleepers come and go and the view shows or hides. */
  private tick(): void {
    const run = this.sleeping && (this.view?.visible ?? false);
    if (run && !this.ticker) {
      this.ticker = setInterval(() => {
        const group = this.groups.get('sleepers');
        if (group) this.changed.fire(group);
      }, 1000);
    } else if (!run && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /**
   * `.groundwork/` changed (the model watches all of it): the whole tree is redrawn only when what
   * the model shows changed. A run or a build writes its files many times a second, and each redraw
   * of the root makes VS Code forget every row while it may still be loading an open group's rows
   * (which then stays open and empty); their own groups are redrawn by their sources.
   */
  private async modelChanged(): Promise<void> {
    if (!this.rootRead) return;
    const view = await this.model.read().catch(() => undefined);
    const journal = view && !('error' in view.journal) ? [view.journal.records.length, view.journal.records.at(-1), view.journal.problems.length] : view?.journal;
    const shown = JSON.stringify([journal, view?.sleepers, view?.plans]);
    if (view === undefined || shown !== this.modelShown) this.changed.fire(undefined);
    this.modelShown = shown;
  }

  /** A source's group is redrawn (rows are new objects; the Plans group too for builds: a plan shows its builds), the root when it appears or goes. */
  private async sourceChanged(name: 'runs' | 'builds' | 'discoveries'): Promise<void> {
    if (!this.rootRead) return;
    const listing = await (name === 'runs' ? this.runs : name === 'builds' ? this.builds : this.cases)?.list().catch(() => undefined);
    const group = this.groups.get(name);
    if ((listing !== undefined) !== this.shown.has(name) || !group || !listing) return this.changed.fire(undefined);
    group.count = 'total' in listing ? listing.total : runCount(listing);
    if ('tooltip' in listing) group.tooltip = listing.tooltip;
    this.changed.fire(group);
    const plans = this.groups.get('plans');
    if (name === 'builds' && plans) this.changed.fire(plans);
  }

  private group(group: GroupName, count: number, tooltip?: readonly string[]): ExplorerNode {
    let node = this.groups.get(group);
    if (!node) {
      node = { kind: 'group', group, count };
      this.groups.set(group, node);
    }
    node.count = count;
    if (tooltip) node.tooltip = tooltip;
    return node;
  }

  /** A node's parent, for TreeView.reveal (caseReveal.ts): known for the nodes getChildren gave. */
  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return this.parents.get(node);
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    const children = await this.childrenOf(node);
    if (node) for (const child of children) this.parents.set(child, node);
    return children;
  }

  private async childrenOf(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!this.model.hasWorkspace) return [];
    const view = await this.model.read();
    this.sleeping = !('error' in view.sleepers) && view.sleepers.length > 0;
    this.tick();
    if (!node) {
      this.rootRead = true;
      const groups: ExplorerNode[] = [];
      const add = (group: GroupName, value: unknown[] | { error: string }) => {
        if ('error' in value) groups.push({ kind: 'error', text: value.error });
        else if (value.length) groups.push(this.group(group, value.length));
      };
      add('plans', view.plans);
      add('journal', 'error' in view.journal ? view.journal : view.journal.records);
      add('sleepers', view.sleepers);
      const [cases, builds, runs] = await Promise.all([this.cases, this.builds, this.runs].map((source) => source?.list().catch(() => undefined)));
      const show = (name: GroupName, listing: typeof cases | typeof builds | typeof runs) => {
        if (listing === undefined) return void this.shown.delete(name);
        this.shown.add(name);
        groups.push(this.group(name, 'total' in listing ? listing.total : runCount(listing), 'tooltip' in listing ? listing.tooltip : undefined));
      };
      show('discoveries', cases);
      show('builds', builds);
      show('runs', runs);
      return groups;
    }
    if (node.kind === 'run') return this.runFiles(node.row, runItemId(node.row, node.via));
    if (node.kind === 'plan') return node.builds.map((row): ExplorerNode => ({ kind: 'build', row, via: `plan:${node.plan.slug}/` }));
    if (node.kind === 'build') return node.row.phases.map((row): ExplorerNode => ({ kind: 'phase', row, via: node.via }));
    if (node.kind === 'phase') return this.phaseTries(node.row, node.via);
    if (node.kind === 'case') return 'children' in node.row ? node.row.children.map((row): ExplorerNode => ({ kind: 'case', row })) : [];
    if (node.kind !== 'group') return [];
    switch (node.group) {
      case 'plans': {
        if ('error' in view.plans) return [];
        const builds = (await this.builds?.list().catch(() => undefined))?.rows ?? [];
        return view.plans.map((plan): ExplorerNode => ({ kind: 'plan', plan, builds: builds.filter((b) => b.plan === plan.slug) }));
      }
      case 'journal':
        return 'error' in view.journal
          ? []
          : view.journal.records
              .slice(-MAX_JOURNAL_NODES)
              .reverse()
              .map((entry) => ({ kind: 'entry', entry }));
      case 'sleepers':
        return 'error' in view.sleepers ? [] : view.sleepers.map((sleeper) => ({ kind: 'sleeper', sleeper }));
      case 'discoveries':
        return ((await this.cases?.list().catch(() => undefined))?.rows ?? []).map((row): ExplorerNode => ({ kind: 'case', row }));
      case 'builds': {
        const listing = await this.builds?.list().catch(() => undefined);
        if (!listing) return [];
        return [
          ...listing.rows.map((row): ExplorerNode => ({ kind: 'build', row })),
          ...(listing.more > 0 ? [{ kind: 'note' as const, text: vscode.l10n.t('{0} more in .groundwork/builds/', listing.more) }] : []),
          ...listing.problems.map((p): ExplorerNode => ({ kind: 'error', text: vscode.l10n.t('Build {0} cannot be read: {1}', p.id, p.problem) })),
        ];
      }
      case 'runs': {
        const listing = await this.runs?.list().catch(() => undefined);
        if (!listing) return [];
        return [
          ...listing.rows.map((row): ExplorerNode => ({ kind: 'run', row })),
          ...(listing.more > 0 ? [{ kind: 'note' as const, text: vscode.l10n.t('{0} more — use groundwork runs list', listing.more) }] : []),
          ...listing.problems.map((p): ExplorerNode => ({ kind: 'error', text: vscode.l10n.t('Run {0} cannot be read: {1}', p.id, p.problem) })),
        ];
      }
    }
  }

  private async phaseTries(row: PhaseRow, via: string | undefined): Promise<ExplorerNode[]> {
    try {
      const tries = (await this.builds?.attempts(row.buildId, row.name)) ?? [];
      return tries.map((t): ExplorerNode => (t.kind === 'run' ? { kind: 'run', row: t.row, via } : { kind: 'note', text: t.text, ...(t.tooltip ? { tooltip: t.tooltip } : {}) }));
    } catch (err) {
      return [{ kind: 'error', text: visibleText((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim()) }];
    }
  }

  private async runFiles(row: RunRow, under: string): Promise<ExplorerNode[]> {
    try {
      const files = (await this.runs?.files(row.id)) ?? [];
      if (files.length === 0) return [{ kind: 'note', text: vscode.l10n.t('It changed no file.') }];
      return files.map((file) => ({ kind: 'runFile', file, under }));
    } catch (err) {
      // The sentence may name a file of a cloned run folder: one visible line.
      return [{ kind: 'error', text: visibleText((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim()) }];
    }
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = groupItem(node.group, node.count);
        if (node.tooltip) item.tooltip = paragraphs(node.tooltip);
        return item;
      }
      case 'plan': {
        const item = new vscode.TreeItem(node.plan.slug, node.builds.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `plan:${node.plan.slug}`;
        item.iconPath = new vscode.ThemeIcon(node.plan.complete ? 'notebook' : 'loading~spin');
        item.description = node.plan.complete ? undefined : vscode.l10n.t('in progress');
        item.contextValue = node.plan.unfinishedBrainstorm ? 'brainstorm-unfinished' : 'plan';
        const uri = node.plan.mainFile && this.model.fileUri(node.plan.mainFile);
        if (node.plan.unfinishedBrainstorm) {
          item.description = vscode.l10n.t('brainstorm in progress');
          item.iconPath = new vscode.ThemeIcon('debug-pause');
          item.command = { command: 'groundwork.brainstorm.resume', title: vscode.l10n.t('Resume Brainstorm'), arguments: [node.plan.slug] };
        } else if (uri) item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri] };
        return item;
      }
      case 'entry': {
        const item = new vscode.TreeItem(oneLine(node.entry.title), vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('lightbulb');
        item.description = shortDate(node.entry.timestamp);
        const tooltip = new vscode.MarkdownString();
        tooltip.appendText(node.entry.title);
        tooltip.appendMarkdown('\n\n');
        tooltip.appendText(node.entry.description);
        item.tooltip = tooltip;
        item.contextValue = 'entry';
        return item;
      }
      case 'sleeper': {
        const state = node.sleeper.state;
        const item = new vscode.TreeItem(state.agent, vscode.TreeItemCollapsibleState.None);
        const { expired, status } = sleeperStatus(state, Date.now());
        item.iconPath = new vscode.ThemeIcon(expired ? 'warning' : 'clock');
        item.description = status;
        item.contextValue = 'sleeper';
        return item;
      }
      case 'build':
        return rowItem(node.row, `${node.via ?? ''}build:${node.row.id}`, vscode.TreeItemCollapsibleState.Collapsed);
      case 'phase':
        return rowItem(
          node.row,
          `${node.via ?? ''}build:${node.row.buildId}:${node.row.name}`,
          node.row.tried ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
      case 'run':
        // A run: its task, role and time, a status codicon, its record as a tooltip; expanding it lists its files.
        return rowItem(node.row, runItemId(node.row, node.via), vscode.TreeItemCollapsibleState.Collapsed);
      case 'runFile':
        return runFileItem(node.file, node.under);
      case 'case':
        return caseItem(node.row);
      case 'note': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('info');
        item.tooltip = node.tooltip ?? node.text;
        return item;
      }
      case 'error': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        item.tooltip = node.text;
        return item;
      }
    }
  }
}

function groupItem(group: GroupName, count: number): vscode.TreeItem {
  const labels = {
    plans: [vscode.l10n.t('Plans'), 'folder-library'],
    journal: [vscode.l10n.t('Discoveries journal'), 'book'],
    sleepers: [vscode.l10n.t('Sleeping agents'), 'clock'],
    discoveries: [vscode.l10n.t('Discoveries'), 'lightbulb-sparkle'],
    builds: [vscode.l10n.t('Builds'), 'tools'],
    runs: [vscode.l10n.t('Runs'), 'history'],
  } as const;
  const [label, iconName] = labels[group];
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `group:${group}`;
  item.iconPath = new vscode.ThemeIcon(iconName);
  item.description = String(count);
  item.contextValue = group;
  return item;
}

/** A build's try is a run too, shown under its phase as well as in the Runs group (and under its plan): an id of its own in each. */
function runItemId(row: RunRow, prefix: string | undefined): string {
  return `${prefix ?? ''}${row.contextValue === 'build-run' ? 'build-run' : 'run'}:${row.id}`;
}

function runCount(listing: { rows: unknown[]; more: number } | undefined): number {
  return listing ? listing.rows.length + listing.more : 0;
}

/** Such a row: its label and figures, a status codicon in its theme colour, its record as an untrusted (escaped) tooltip. */
function rowItem(row: RowLook, id: string, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const item = new vscode.TreeItem(row.label, state);
  item.id = id;
  item.description = row.description;
  item.iconPath = new vscode.ThemeIcon(row.icon, row.color ? new vscode.ThemeColor(row.color) : undefined);
  item.tooltip = paragraphs(row.tooltip);
  item.accessibilityInformation = { label: row.ariaLabel };
  if (row.contextValue) item.contextValue = row.contextValue;
  return item;
}

/** A row of the Discoveries group; the error row opens cases.jsonl at its first unreadable line. */
function caseItem(row: CasesRow): vscode.TreeItem {
  const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
  const item = rowItem(row, row.treeId, 'children' in row ? (row.expanded ? Expanded : Collapsed) : None);
  if (row.kind === 'problem') item.command = { command: 'groundwork.cases.openFile', title: vscode.l10n.t('Open cases.jsonl'), arguments: [row.line] };
  return item;
}

/**
 * Paragraphs of untrusted text as a tooltip: no command link runs (not trusted), markdown is escaped
 * by appendText, and `<` and `&` become entities, which VS Code would otherwise drop as HTML.
 */
function paragraphs(texts: readonly string[]): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  texts.forEach((paragraph, i) => {
    if (i > 0) tooltip.appendMarkdown('\n\n');
    tooltip.appendText(paragraph.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  });
  return tooltip;
}

/** A file a run changed: the file's icon, an A/M badge (agentRunContribution's decorations); a click opens its diff. */
function runFileItem(file: FileRow, under: string): vscode.TreeItem {
  const item = new vscode.TreeItem(file.label, vscode.TreeItemCollapsibleState.None);
  // Beneath the run row it is listed under: the same file shows under a build's try and in the Runs group.
  item.id = `${under}:${file.path}`;
  item.resourceUri = vscode.Uri.from({ scheme: RUN_FILE_SCHEME, path: `/${file.runId}/${file.path}`, query: file.created ? 'A' : 'M' });
  item.description = file.description;
  item.tooltip = file.tooltip;
  item.accessibilityInformation = { label: file.ariaLabel };
  item.contextValue = 'runFile';
  item.command = { command: 'groundwork.runs.openFile', title: vscode.l10n.t('Open Changes'), arguments: [file] };
  return item;
}

function shortDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/** Tree labels are one line; journal titles may hold anything. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').slice(0, 120);
}
