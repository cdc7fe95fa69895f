// The plan explorer: plans, the discoveries journal and sleeping agents, as the workspace holds
// them. An empty workspace yields no nodes, so VS Code shows the view's welcome content. While
// agents sleep and the view is visible, their countdowns are redrawn every second (only that group).
import * as vscode from 'vscode';
import type { JournalEntry } from '../core/journal/journalEntry';
import { sleeperStatus, type Sleeper } from '../core/sleep/sleepLog';
import { Disposable, Emitter, toDisposable } from './lifecycle';
import type { PlanSummary, WorkspaceModel } from './workspaceModel';

export const PLAN_EXPLORER_ID = 'groundwork.planExplorer';
const MAX_JOURNAL_NODES = 200;

type GroupName = 'plans' | 'journal' | 'sleepers';

export type ExplorerNode =
  | { kind: 'group'; group: GroupName; count: number }
  | { kind: 'plan'; plan: PlanSummary }
  | { kind: 'entry'; entry: JournalEntry }
  | { kind: 'sleeper'; sleeper: Sleeper }
  | { kind: 'error'; text: string };

export class PlanExplorer extends Disposable implements vscode.TreeDataProvider<ExplorerNode> {
  private readonly changed = this._register(new Emitter<ExplorerNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** One object per group for the life of the view: VS Code refreshes a node by identity. */
  private readonly groups = new Map<GroupName, Extract<ExplorerNode, { kind: 'group' }>>();
  private view: vscode.TreeView<ExplorerNode> | undefined;
  private sleeping = false;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly model: WorkspaceModel) {
    super();
    this._register(model.onDidChange(() => this.changed.fire(undefined)));
    this._register(toDisposable(() => clearInterval(this.ticker)));
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

  private group(group: GroupName, count: number): ExplorerNode {
    let node = this.groups.get(group);
    if (!node) {
      node = { kind: 'group', group, count };
      this.groups.set(group, node);
    }
    node.count = count;
    return node;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!this.model.hasWorkspace) return [];
    const view = await this.model.read();
    this.sleeping = !('error' in view.sleepers) && view.sleepers.length > 0;
    this.tick();
    if (!node) {
      const groups: ExplorerNode[] = [];
      const add = (group: GroupName, value: unknown[] | { error: string }) => {
        if ('error' in value) groups.push({ kind: 'error', text: value.error });
        else if (value.length) groups.push(this.group(group, value.length));
      };
      add('plans', view.plans);
      add('journal', 'error' in view.journal ? view.journal : view.journal.records);
      add('sleepers', view.sleepers);
      return groups;
    }
    if (node.kind !== 'group') return [];
    switch (node.group) {
      case 'plans':
        return 'error' in view.plans ? [] : view.plans.map((plan) => ({ kind: 'plan', plan }));
      case 'journal':
        return 'error' in view.journal
          ? []
          : view.journal.records
              .slice(-MAX_JOURNAL_NODES)
              .reverse()
              .map((entry) => ({ kind: 'entry', entry }));
      case 'sleepers':
        return 'error' in view.sleepers ? [] : view.sleepers.map((sleeper) => ({ kind: 'sleeper', sleeper }));
    }
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group':
        return groupItem(node.group, node.count);
      case 'plan': {
        const item = new vscode.TreeItem(node.plan.slug, vscode.TreeItemCollapsibleState.None);
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
  } as const;
  const [label, iconName] = labels[group];
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `group:${group}`;
  item.iconPath = new vscode.ThemeIcon(iconName);
  item.description = String(count);
  item.contextValue = group;
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
