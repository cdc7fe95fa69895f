// The Discoveries group of the plan explorer (explorerGroups.ts): the cases by status, then by scope
// and impact, then each case (caseRows.ts makes the rows); the unreadable lines an error row that
// opens cases.jsonl where they are. A plan lists the cases its builds reported, as rows of their
// own (`plan:<slug>/` before their ids).
import * as vscode from 'vscode';
import { listingGroup, type ExplorerGroup, type GroupChild, type ListingSource } from '../explorer/explorerGroups';
import { rowItem } from '../explorer/rowItem';
import type { CasesListing, CasesRow } from './caseRows';

/** Where the cases come from (casesContribution.ts: read only once cases.jsonl exists). */
export type CasesGroupSource = ListingSource<CasesListing>;

/** The commands of a case row's context menu are given its CasesRow (rowValue(node, 'case')). */
export function casesGroup(source: CasesGroupSource): ExplorerGroup {
  const group = { id: 'discoveries', label: vscode.l10n.t('Discoveries'), icon: 'lightbulb-sparkle', order: 10 };
  return listingGroup(group, source, (listing) => ({
    count: listing.total,
    tooltip: listing.tooltip,
    rows: listing.rows.map((row) => caseNode(row, '')),
    plans: {
      cases: listing.related,
      rowsOf: (ids, via) => listing.rowsOf(ids).map((row) => caseNode(row, via)),
    },
  }));
}

function caseNode(row: CasesRow, via: string): GroupChild {
  return {
    kind: 'row',
    row: {
      type: 'case',
      value: row,
      item: () => caseItem(row, via),
      ...('children' in row ? { children: async () => row.children.map((child) => caseNode(child, via)) } : {}),
    },
  };
}

/** A row of the Discoveries group (or a case under its plan: `via`); the error row opens cases.jsonl at its first unreadable line. */
function caseItem(row: CasesRow, via: string): vscode.TreeItem {
  const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
  const item = rowItem(row, `${via}${row.treeId}`, 'children' in row ? (row.expanded ? Expanded : Collapsed) : None);
  if (row.kind === 'problem')
    item.command = {
      command: 'groundwork.cases.openFile',
      title: vscode.l10n.t('Open cases.jsonl'),
      arguments: [row.line],
    };
  return item;
}
