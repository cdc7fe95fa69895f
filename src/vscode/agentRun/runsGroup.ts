// The Runs group of the plan explorer (explorerGroups.ts): one row per agent run, newest first, each
// expanding to the files it changed. A build's try is an agent run too: the Builds group shows it
// with runNode, an id of its own, and the same commands (its type is `run`).
import * as vscode from 'vscode';
import { listingGroup, type ExplorerGroup, type GroupChild, type ListingSource } from '../explorer/explorerGroups';
import { rowItem } from '../explorer/rowItem';
import { RUN_FILE_SCHEME, type FileRow, type RunRow, type RunsListing } from './runRows';

/** Where the runs come from (agentRunContribution.ts: read only once there is a run folder). */
export interface RunsGroupSource extends ListingSource<RunsListing> {
  files(runId: string): Promise<FileRow[]>;
}

/** The commands of a run row's context menu are given its RunRow (rowValue(node, 'run')). */
export function runsGroup(source: RunsGroupSource): ExplorerGroup {
  const group = { id: 'runs', label: vscode.l10n.t('Runs'), icon: 'history', order: 30 };
  return listingGroup(group, source, (listing) => ({
    count: listing.rows.length + listing.more,
    rows: [
      ...listing.rows.map((row) => runNode(row, '', (id) => source.files(id))),
      ...(listing.more > 0
        ? [{ kind: 'note' as const, text: vscode.l10n.t('{0} more — use groundwork runs list', listing.more) }]
        : []),
      ...listing.problems.map((p): GroupChild => ({
        kind: 'error',
        text: vscode.l10n.t('Run {0} cannot be read: {1}', p.id, p.problem),
      })),
    ],
  }));
}

/**
 * A run's row: its task, role and time, a status codicon, its record as a tooltip; expanding it
 * lists its files. `via` prefixes its tree id where it is shown a second time (under a plan).
 */
export function runNode(row: RunRow, via: string, files: (runId: string) => Promise<FileRow[]>): GroupChild {
  const id = runItemId(row, via);
  return {
    kind: 'row',
    row: {
      type: 'run',
      value: row,
      item: () => rowItem(row, id, vscode.TreeItemCollapsibleState.Collapsed),
      async children(): Promise<GroupChild[]> {
        const changed = await files(row.id);
        if (changed.length === 0) return [{ kind: 'note', text: vscode.l10n.t('It changed no file.') }];
        return changed.map((file) => ({
          kind: 'row',
          row: { type: 'runFile', value: file, item: () => runFileItem(file, id) },
        }));
      },
    },
  };
}

/** A build's try is a run too, shown under its phase as well as in the Runs group (and under its plan): an id of its own in each. */
function runItemId(row: RunRow, prefix: string): string {
  return `${prefix}${row.contextValue === 'build-run' ? 'build-run' : 'run'}:${row.id}`;
}

/** A file a run changed: the file's icon, an A/M badge (agentRunContribution's decorations); a click opens its diff. */
function runFileItem(file: FileRow, under: string): vscode.TreeItem {
  const item = new vscode.TreeItem(file.label, vscode.TreeItemCollapsibleState.None);
  // Beneath the run row it is listed under: the same file shows under a build's try and in the Runs group.
  item.id = `${under}:${file.path}`;
  item.resourceUri = vscode.Uri.from({
    scheme: RUN_FILE_SCHEME,
    path: `/${file.runId}/${file.path}`,
    query: file.created ? 'A' : 'M',
  });
  item.description = file.description;
  item.tooltip = file.tooltip;
  item.accessibilityInformation = { label: file.ariaLabel };
  item.contextValue = 'runFile';
  item.command = { command: 'groundwork.runs.openFile', title: vscode.l10n.t('Open Changes'), arguments: [file] };
  return item;
}
