// The plan explorer: plans, the discoveries journal and sleeping agents, as the workspace holds
// them. An empty workspace yields no nodes, so VS Code shows the view's welcome content.
import * as vscode from 'vscode';
import type { JournalEntry } from '../core/journal/journalEntry';
import { sleeperStatus, type Sleeper } from '../core/sleep/sleepLog';
import type { PlanSummary, WorkspaceModel } from './workspaceModel';

export const PLAN_EXPLORER_ID = 'groundwork.planExplorer';
const MAX_JOURNAL_NODES = 200;

export type ExplorerNode =
  | { kind: 'group'; group: 'plans' | 'journal' | 'sleepers'; count: number }
  | { kind: 'plan'; plan: PlanSummary }
  | { kind: 'entry'; entry: JournalEntry }
  | { kind: 'sleeper'; sleeper: Sleeper }
  | { kind: 'error'; text: string };

export class PlanExplorer implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: WorkspaceModel) {
    this.subscription = model.onDidChange(() => this.changed.fire(undefined));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!this.model.hasWorkspace) return [];
    const view = await this.model.read();
    if (!node) {
      const groups: ExplorerNode[] = [];
      const add = (group: 'plans' | 'journal' | 'sleepers', value: unknown[] | { error: string }) => {
        if ('error' in value) groups.push({ kind: 'error', text: value.error });
        else if (value.length) groups.push({ kind: 'group', group, count: value.length });
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
        item.contextValue = 'plan';
        const uri = node.plan.mainFile && this.model.fileUri(node.plan.mainFile);
        if (uri) item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri] };
        return item;
      }
      case 'entry': {
        const item = new vscode.TreeItem(oneLine(node.entry.title), vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('lightbulb');
        item.description = new Date(node.entry.timestamp).toLocaleString();
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

function groupItem(group: 'plans' | 'journal' | 'sleepers', count: number): vscode.TreeItem {
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

/** Tree labels are one line; journal titles may hold anything. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').slice(0, 120);
}
