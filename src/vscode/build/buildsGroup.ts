// The Builds group of the plan explorer (explorerGroups.ts): build → phases → tries, a try being its
// agent run's row (agentRun/runsGroup.ts: Open Changes, its files beneath). A plan lists the builds
// made from it, as rows of their own (`plan:<slug>/` before their ids, so that no tree id repeats).
import * as vscode from 'vscode';
import { BUILD_FILES, buildFile } from '../../core/plan/layout';
import { runNode } from '../agentRun/runsGroup';
import type { FileRow } from '../agentRun/runRows';
import { listingGroup, type ExplorerGroup, type GroupChild, type ListingSource } from '../explorer/explorerGroups';
import { rowItem } from '../explorer/rowItem';
import type { AttemptNode, BuildRow, BuildsListing, PhaseRow } from './buildRows';

/** Where the builds come from (buildContribution.ts: read only once there is a build folder). */
export interface BuildsGroupSource extends ListingSource<BuildsListing> {
  /** The tries of one phase of one build, oldest first. Throws with a sentence when they cannot be read. */
  attempts(buildId: string, phase: string): Promise<AttemptNode[]>;
  /** The files a try's agent run changed. */
  files(runId: string): Promise<FileRow[]>;
}

/** The commands of a build's or a phase's context menu are given its row (rowValue(node, 'build' | 'phase')). */
export function buildsGroup(
  source: BuildsGroupSource,
  fileUri: (rel: string) => vscode.Uri | undefined,
): ExplorerGroup {
  const group = { id: 'builds', label: vscode.l10n.t('Builds'), icon: 'tools', order: 20 };
  return listingGroup(group, source, (listing) => ({
    count: listing.rows.length + listing.more,
    rows: [
      ...listing.rows.map((row) => buildNode(source, row, '')),
      ...(listing.more > 0
        ? [{ kind: 'note' as const, text: vscode.l10n.t('{0} more in .groundwork/builds/', listing.more) }]
        : []),
      ...listing.problems.map((p): GroupChild => ({
        kind: 'error',
        text: vscode.l10n.t('Build {0} cannot be read: {1}', p.id, p.problem),
        file: fileUri(buildFile(p.id, BUILD_FILES.record)),
      })),
    ],
    plans: {
      builds: listing.rows.map((b) => ({ id: b.id, ...(b.plan !== undefined ? { plan: b.plan } : {}) })),
      rowsOf: (ids, via) =>
        ids.flatMap((id) => {
          const row = listing.rows.find((b) => b.id === id);
          return row ? [buildNode(source, row, via)] : [];
        }),
    },
  }));
}

function buildNode(source: BuildsGroupSource, row: BuildRow, via: string): GroupChild {
  return {
    kind: 'row',
    row: {
      type: 'build',
      value: row,
      item: () => rowItem(row, `${via}build:${row.id}`, vscode.TreeItemCollapsibleState.Collapsed),
      children: async () => row.phases.map((phase) => phaseNode(source, phase, via)),
    },
  };
}

function phaseNode(source: BuildsGroupSource, row: PhaseRow, via: string): GroupChild {
  const { Collapsed, None } = vscode.TreeItemCollapsibleState;
  return {
    kind: 'row',
    row: {
      type: 'phase',
      value: row,
      item: () => rowItem(row, `${via}build:${row.buildId}:${row.name}`, row.tried ? Collapsed : None),
      ...(row.tried
        ? {
            children: async () =>
              (await source.attempts(row.buildId, row.name)).map((t): GroupChild =>
                t.kind === 'run'
                  ? runNode(t.row, via, (id) => source.files(id))
                  : { kind: 'note', text: t.text, ...(t.tooltip ? { tooltip: t.tooltip } : {}) },
              ),
          }
        : {}),
    },
  };
}
