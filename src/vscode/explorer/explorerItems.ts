// How each node of the plan explorer looks: its label, codicon in a theme colour, description, a
// tooltip of untrusted text (escaped, never trusted), the contextValue its actions' `when` clauses
// read, and what a click does. Every label is one visible line: names come from folders and files
// that a cloned repository may have planted.
import * as vscode from 'vscode';
import type { DocumentNode, PlanNode, SessionNode } from '../../core/explorer/explorerTree';
import type { JournalEntry } from '../../core/journal/journalEntry';
import { sleeperStatus, type Sleeper } from '../../core/sleep/sleepLog';
import { displayPath } from '../../core/storage/workspaceStore';
import { PANEL_SESSION } from '../../core/plan/layout';
import { visibleText } from '../../core/visibleText';
import type { ExplorerNode, OwnGroup } from './explorerNodes';
import type { ExplorerRoot } from './explorerRoots';
import { paragraphs } from './rowItem';

/** The most of a request or topic a tooltip shows. */
const TOOLTIP_CHARS = 1500;

export function groupItem(group: OwnGroup, count: number, root: ExplorerRoot): vscode.TreeItem {
  const labels = {
    sessions: [vscode.l10n.t('Active sessions'), 'comment-discussion'],
    plans: [vscode.l10n.t('Plans'), 'folder-library'],
    journal: [vscode.l10n.t('Discoveries journal'), 'book'],
    sleepers: [vscode.l10n.t('Sleeping agents'), 'clock'],
    specs: [vscode.l10n.t('Other specs'), 'file-symlink-directory'],
  } as const;
  const [label, icon] = labels[group];
  const item = groupRow(group, label, icon, count, root);
  if (group === 'specs')
    item.tooltip = vscode.l10n.t(
      'Specs written with Spec Kit (specs/<feature>/) or Kiro (.kiro/specs/<feature>/): build from one with its context menu.',
    );
  return item;
}

/** A feature's group (explorerGroups.ts), drawn as the explorer's own are. */
export function featureGroupItem(
  group: { id: string; label: string; icon: string },
  count: number,
  tooltip: readonly string[] | undefined,
  root: ExplorerRoot,
): vscode.TreeItem {
  const item = groupRow(group.id, group.label, group.icon, count, root);
  if (tooltip) item.tooltip = paragraphs(tooltip);
  return item;
}

function groupRow(id: string, label: string, icon: string, count: number, root: ExplorerRoot): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  // The folder Groundwork works in keeps the ids of a one-folder window (VS Code keeps expansion by id).
  item.id = root.active ? `group:${id}` : `${root.key}|group:${id}`;
  item.iconPath = new vscode.ThemeIcon(icon);
  item.description = String(count);
  item.contextValue = id;
  return item;
}

export function folderItem(root: ExplorerRoot): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(root.folder.name), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `folder:${root.key}`;
  item.iconPath = new vscode.ThemeIcon('root-folder');
  item.description = root.active ? vscode.l10n.t('Groundwork works here') : undefined;
  item.tooltip = paragraphs([
    root.folder.uri.fsPath,
    root.active
      ? vscode.l10n.t('Discoveries, builds and runs start in this folder.')
      : vscode.l10n.t('"Work in This Folder" makes Groundwork start its work here.'),
  ]);
  item.contextValue = root.active ? 'folder-active' : 'folder';
  return item;
}

export function planItem(plan: PlanNode, root: ExplorerRoot): vscode.TreeItem {
  const children = plan.documents.length + plan.builds.length + (plan.cases.length > 0 ? 1 : 0);
  const item = new vscode.TreeItem(
    plan.slug,
    children > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${root.active ? '' : `${root.key}|`}plan:${plan.slug}`;
  item.iconPath = new vscode.ThemeIcon(plan.complete ? 'notebook' : 'loading~spin');
  item.description = plan.complete ? undefined : vscode.l10n.t('in progress');
  // plan-<folder|other>: the actions that start work in this window need the folder Groundwork works in.
  item.contextValue = plan.unfinishedBrainstorm ? 'brainstorm-unfinished' : root.active ? 'plan' : 'plan-other';
  const facts = [
    displayPath(`plans/${plan.slug}`),
    vscode.l10n.t(
      '{0} documents · {1} builds · {2} discoveries',
      plan.documents.length,
      plan.builds.length,
      plan.cases.length,
    ),
  ];
  item.tooltip = paragraphs(facts);
  if (plan.unfinishedBrainstorm) {
    item.description = vscode.l10n.t('brainstorm in progress');
    item.iconPath = new vscode.ThemeIcon('debug-pause');
    if (root.active)
      item.command = {
        command: 'groundwork.brainstorm.resume',
        title: vscode.l10n.t('Resume Brainstorm'),
        arguments: [plan.slug],
      };
  } else if (plan.mainFile) item.command = openCommand(root.fileUri(plan.mainFile));
  return item;
}

export function documentItem(doc: DocumentNode, slug: string, root: ExplorerRoot): vscode.TreeItem {
  const labels: Record<DocumentNode['kind'], string> = {
    ideaBrief: vscode.l10n.t('Idea Brief'),
    brainstorm: vscode.l10n.t('Brainstorm result'),
    context: vscode.l10n.t('Brainstorm context'),
    seededFrom: vscode.l10n.t('Seeded from'),
    brainstorms: vscode.l10n.t('Brainstorms made from it'),
    round: vscode.l10n.t('Round {0}', doc.round ?? 0),
  };
  const uri = root.fileUri(doc.file);
  const item = new vscode.TreeItem(labels[doc.kind], vscode.TreeItemCollapsibleState.None);
  item.id = `${root.active ? '' : `${root.key}|`}plan:${slug}/doc:${doc.file}`;
  item.resourceUri = uri;
  item.iconPath = new vscode.ThemeIcon(doc.kind === 'round' ? 'comment' : doc.kind === 'context' ? 'json' : 'markdown');
  item.description = doc.file.split('/').pop();
  item.tooltip = displayPath(doc.file);
  item.contextValue = 'document';
  item.command = openCommand(uri);
  return item;
}

export function planCasesItem(slug: string, count: number, root: ExplorerRoot): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Discoveries'), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${root.active ? '' : `${root.key}|`}plan:${slug}/cases`;
  item.iconPath = new vscode.ThemeIcon('lightbulb-sparkle');
  item.description = String(count);
  item.tooltip = vscode.l10n.t('What the agents of its builds learned');
  return item;
}

/** "round 2/3 · 24 min left": the time left is counted down while the view is visible (planExplorer.ts). */
export function sessionItem(session: SessionNode, root: ExplorerRoot, now: number): vscode.TreeItem {
  const facts = session.facts;
  const title = facts.kind === 'discovery' ? facts.request : facts.topic;
  const item = new vscode.TreeItem(oneLine(title), vscode.TreeItemCollapsibleState.None);
  const key = facts.kind === 'discovery' ? facts.session : facts.slug;
  item.id = `${root.active ? '' : `${root.key}|`}session:${facts.kind}:${key}`;
  // Round 0: a brainstorm before its first questions, which are round 1's.
  const round = vscode.l10n.t('round {0}/{1}', Math.max(1, facts.round), facts.maxRounds);
  const left =
    session.expiresAt === undefined
      ? undefined
      : session.expired
        ? vscode.l10n.t('expired')
        : timeLeft(session.expiresAt - now);
  item.description = left ? `${round} · ${left}` : round;
  item.iconPath = session.expired
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
    : new vscode.ThemeIcon(facts.kind === 'discovery' ? 'comment-discussion' : 'lightbulb');
  const kind = facts.kind === 'discovery' ? vscode.l10n.t('Discovery') : vscode.l10n.t('Brainstorm');
  item.tooltip = paragraphs([
    `${kind} · ${item.description}`,
    shown(title, TOOLTIP_CHARS),
    shown(displayPath(facts.file), 300),
  ]);
  const here = root.active && (facts.kind === 'brainstorm' || facts.session === PANEL_SESSION);
  item.contextValue = `session-${facts.kind}${here ? '-here' : ''}${session.expired ? '-expired' : ''}`;
  if (here && facts.kind === 'brainstorm')
    item.command = { command: 'groundwork.brainstorm.resume', title: vscode.l10n.t('Resume'), arguments: [facts.slug] };
  else if (here) item.command = { command: 'groundwork.openPanel', title: vscode.l10n.t('Resume') };
  else item.command = openCommand(root.fileUri(facts.file));
  return item;
}

export function specItem(
  spec: { kind: 'spec-kit' | 'kiro'; feature: string; path: string },
  root: ExplorerRoot,
): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(spec.feature), vscode.TreeItemCollapsibleState.None);
  item.id = `${root.active ? '' : `${root.key}|`}spec:${spec.path}`;
  item.iconPath = new vscode.ThemeIcon(spec.kind === 'kiro' ? 'symbol-event' : 'checklist');
  item.description = spec.kind === 'kiro' ? vscode.l10n.t('Kiro spec') : vscode.l10n.t('Spec Kit feature');
  const uri = vscode.Uri.joinPath(root.folder.uri, ...spec.path.split('/'));
  item.resourceUri = uri;
  item.tooltip = paragraphs([spec.path, vscode.l10n.t('Build from it with "Build from Spec…" in its context menu.')]);
  item.contextValue = root.active ? 'spec' : 'spec-other';
  item.command = { command: 'revealInExplorer', title: vscode.l10n.t('Reveal in Explorer'), arguments: [uri] };
  return item;
}

export function errorItem(text: string, file: vscode.Uri | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(text, 200), vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  item.tooltip = paragraphs(file ? [text, vscode.l10n.t('Click to open the file.')] : [text]);
  if (file) {
    item.command = openCommand(file);
    item.contextValue = 'error-file';
  }
  return item;
}

function openCommand(uri: vscode.Uri | undefined): vscode.Command | undefined {
  return uri && { command: 'groundwork.explorer.open', title: vscode.l10n.t('Open'), arguments: [uri] };
}

function timeLeft(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 120) return vscode.l10n.t('{0} min left', minutes);
  return vscode.l10n.t('{0} h left', Math.floor(minutes / 60));
}

export function entryItem(entry: JournalEntry): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(entry.title), vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon('lightbulb');
  item.description = shortDate(entry.timestamp);
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(entry.title);
  tooltip.appendMarkdown('\n\n');
  tooltip.appendText(entry.description);
  item.tooltip = tooltip;
  item.contextValue = 'entry';
  return item;
}

export function sleeperItem(sleeper: Sleeper, now: number): vscode.TreeItem {
  const item = new vscode.TreeItem(sleeper.state.agent, vscode.TreeItemCollapsibleState.None);
  const { expired, status } = sleeperStatus(sleeper.state, now);
  item.iconPath = new vscode.ThemeIcon(expired ? 'warning' : 'clock');
  item.description = status;
  item.contextValue = 'sleeper';
  return item;
}

function shortDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/** Text from a file, as a tooltip's paragraph: visible characters, at most `max` of them. */
function shown(text: string, max: number): string {
  const visible = visibleText(text);
  return visible.length > max ? `${visible.slice(0, max)}…` : visible;
}

/** Tree labels are one line of visible characters; names and titles may hold anything. */
export function oneLine(text: string, max = 120): string {
  return visibleText(text.replace(/[\r\n\t]+/g, ' ')).slice(0, max);
}

/** How a node of the explorer is drawn: its own nodes here, a feature's row by the feature. */
export function nodeItem(node: ExplorerNode): vscode.TreeItem {
  switch (node.kind) {
    case 'folder':
      return folderItem(node.root);
    case 'group':
      return groupItem(node.group, node.count, node.root);
    case 'featureGroup':
      return featureGroupItem(node.group, node.count, node.tooltip, node.root);
    case 'plan':
      return planItem(node.plan, node.root);
    case 'document':
      return documentItem(node.doc, node.slug, node.root);
    case 'planCases':
      return planCasesItem(node.slug, node.ids.length, node.root);
    case 'session':
      return sessionItem(node.session, node.root, Date.now());
    case 'spec':
      return specItem(node.spec, node.root);
    case 'entry':
      return entryItem(node.entry);
    case 'sleeper':
      return sleeperItem(node.sleeper, Date.now());
    case 'row':
      return node.row.item();
    case 'note': {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('info');
      item.tooltip = node.tooltip ?? node.text;
      return item;
    }
    case 'error':
      return errorItem(visibleText(node.text), node.file);
  }
}
