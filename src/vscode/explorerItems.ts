// How each node of the plan explorer looks: its label, codicon in a theme colour, description, a
// tooltip of untrusted text (escaped, never trusted), the contextValue its actions' `when` clauses
// read, and what a click does. Every label is one visible line: names come from folders and files
// that a cloned repository may have planted.
import * as vscode from 'vscode';
import type { DocumentNode, PlanNode, SessionNode } from '../core/explorer/explorerTree';
import type { JournalEntry } from '../core/journal/journalEntry';
import { sleeperStatus, type Sleeper } from '../core/sleep/sleepLog';
import { displayPath } from '../core/storage/workspaceStore';
import { visibleText } from '../core/visibleText';
import type { CasesRow } from './casesTree';
import type { ExplorerNode, GroupName } from './explorerNodes';
import type { ExplorerRoot } from './explorerRoots';
import type { RowLook } from './rowLook';
import { RUN_FILE_SCHEME, type FileRow, type RunRow } from './runsTree';

/** The most of a request or topic a tooltip shows. */
const TOOLTIP_CHARS = 1500;

/** The panel's own discovery session (discoveryController.ts): Resume opens the panel. */
const PANEL_SESSION = 'panel';

export function groupItem(group: GroupName, count: number, root: ExplorerRoot): vscode.TreeItem {
  const labels = {
    sessions: [vscode.l10n.t('Active sessions'), 'comment-discussion'],
    plans: [vscode.l10n.t('Plans'), 'folder-library'],
    journal: [vscode.l10n.t('Discoveries journal'), 'book'],
    sleepers: [vscode.l10n.t('Sleeping agents'), 'clock'],
    discoveries: [vscode.l10n.t('Discoveries'), 'lightbulb-sparkle'],
    builds: [vscode.l10n.t('Builds'), 'tools'],
    runs: [vscode.l10n.t('Runs'), 'history'],
    specs: [vscode.l10n.t('Other specs'), 'file-symlink-directory'],
  } as const;
  const [label, iconName] = labels[group];
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  // The folder Groundwork works in keeps the ids of a one-folder window (VS Code keeps expansion by id).
  item.id = root.active ? `group:${group}` : `${root.key}|group:${group}`;
  item.iconPath = new vscode.ThemeIcon(iconName);
  item.description = String(count);
  item.contextValue = group;
  if (group === 'specs') item.tooltip = vscode.l10n.t('Specs written with Spec Kit (specs/<feature>/) or Kiro (.kiro/specs/<feature>/): build from one with its context menu.');
  return item;
}

export function folderItem(root: ExplorerRoot): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(root.folder.name), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `folder:${root.key}`;
  item.iconPath = new vscode.ThemeIcon('root-folder');
  item.description = root.active ? vscode.l10n.t('Groundwork works here') : undefined;
  item.tooltip = paragraphs([
    root.folder.uri.fsPath,
    root.active ? vscode.l10n.t('Discoveries, builds and runs start in this folder.') : vscode.l10n.t('"Work in This Folder" makes Groundwork start its work here.'),
  ]);
  item.contextValue = root.active ? 'folder-active' : 'folder';
  return item;
}

export function planItem(plan: PlanNode, root: ExplorerRoot): vscode.TreeItem {
  const children = plan.documents.length + plan.builds.length + (plan.cases.length > 0 ? 1 : 0);
  const item = new vscode.TreeItem(plan.slug, children > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `${root.active ? '' : `${root.key}|`}plan:${plan.slug}`;
  item.iconPath = new vscode.ThemeIcon(plan.complete ? 'notebook' : 'loading~spin');
  item.description = plan.complete ? undefined : vscode.l10n.t('in progress');
  // plan-<folder|other>: the actions that start work in this window need the folder Groundwork works in.
  item.contextValue = plan.unfinishedBrainstorm ? 'brainstorm-unfinished' : root.active ? 'plan' : 'plan-other';
  const facts = [displayPath(`plans/${plan.slug}`), vscode.l10n.t('{0} documents · {1} builds · {2} discoveries', plan.documents.length, plan.builds.length, plan.cases.length)];
  item.tooltip = paragraphs(facts);
  if (plan.unfinishedBrainstorm) {
    item.description = vscode.l10n.t('brainstorm in progress');
    item.iconPath = new vscode.ThemeIcon('debug-pause');
    if (root.active) item.command = { command: 'groundwork.brainstorm.resume', title: vscode.l10n.t('Resume Brainstorm'), arguments: [plan.slug] };
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
  const left = session.expiresAt === undefined ? undefined : session.expired ? vscode.l10n.t('expired') : timeLeft(session.expiresAt - now);
  item.description = left ? `${round} · ${left}` : round;
  item.iconPath = session.expired
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
    : new vscode.ThemeIcon(facts.kind === 'discovery' ? 'comment-discussion' : 'lightbulb');
  const kind = facts.kind === 'discovery' ? vscode.l10n.t('Discovery') : vscode.l10n.t('Brainstorm');
  item.tooltip = paragraphs([`${kind} · ${item.description}`, shown(title, TOOLTIP_CHARS), shown(displayPath(facts.file), 300)]);
  const here = root.active && (facts.kind === 'brainstorm' || facts.session === PANEL_SESSION);
  item.contextValue = `session-${facts.kind}${here ? '-here' : ''}${session.expired ? '-expired' : ''}`;
  if (here && facts.kind === 'brainstorm') item.command = { command: 'groundwork.brainstorm.resume', title: vscode.l10n.t('Resume'), arguments: [facts.slug] };
  else if (here) item.command = { command: 'groundwork.openPanel', title: vscode.l10n.t('Resume') };
  else item.command = openCommand(root.fileUri(facts.file));
  return item;
}

export function specItem(spec: { kind: 'spec-kit' | 'kiro'; feature: string; path: string }, root: ExplorerRoot): vscode.TreeItem {
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

/** A build's try is a run too, shown under its phase as well as in the Runs group (and under its plan): an id of its own in each. */
export function runItemId(row: RunRow, prefix: string | undefined): string {
  return `${prefix ?? ''}${row.contextValue === 'build-run' ? 'build-run' : 'run'}:${row.id}`;
}

/** Such a row: its label and figures, a status codicon in its theme colour, its record as an untrusted (escaped) tooltip. */
export function rowItem(row: RowLook, id: string, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const item = new vscode.TreeItem(row.label, state);
  item.id = id;
  item.description = row.description;
  item.iconPath = new vscode.ThemeIcon(row.icon, row.color ? new vscode.ThemeColor(row.color) : undefined);
  item.tooltip = paragraphs(row.tooltip);
  item.accessibilityInformation = { label: row.ariaLabel };
  if (row.contextValue) item.contextValue = row.contextValue;
  return item;
}

/** A row of the Discoveries group (or a case under its plan: `via`); the error row opens cases.jsonl at its first unreadable line. */
export function caseItem(row: CasesRow, via = ''): vscode.TreeItem {
  const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
  const item = rowItem(row, `${via}${row.treeId}`, 'children' in row ? (row.expanded ? Expanded : Collapsed) : None);
  if (row.kind === 'problem') item.command = { command: 'groundwork.cases.openFile', title: vscode.l10n.t('Open cases.jsonl'), arguments: [row.line] };
  return item;
}

/**
 * Paragraphs of untrusted text as a tooltip: no command link runs (not trusted), markdown is escaped
 * by appendText, and `<` and `&` become entities, which VS Code would otherwise drop as HTML.
 */
export function paragraphs(texts: readonly string[]): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  texts.forEach((paragraph, i) => {
    if (i > 0) tooltip.appendMarkdown('\n\n');
    tooltip.appendText(paragraph.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  });
  return tooltip;
}

/** A file a run changed: the file's icon, an A/M badge (agentRunContribution's decorations); a click opens its diff. */
export function runFileItem(file: FileRow, under: string): vscode.TreeItem {
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

export type { ExplorerNode };
