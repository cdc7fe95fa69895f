// `Open in Discoveries` (groundwork.cases.reveal, the link in an annotation's hover): the case's
// row in the plan explorer's Discoveries group, selected and shown. A case the group does not list
// (it lists the newest of each status) opens at its line of `.groundwork/cases.jsonl` instead.
import * as vscode from 'vscode';
import type { ExplorerNode, PlanExplorer } from './planExplorer';

export async function revealCase(explorer: PlanExplorer, view: vscode.TreeView<ExplorerNode>, id: unknown): Promise<void> {
  if (typeof id !== 'string' || !/^disc-\d{3,9}$/.test(id)) return;
  const group = (await explorer.activeGroups()).find((n) => n.kind === 'group' && n.group === 'discoveries');
  const node = group ? await find(explorer, await explorer.getChildren(group), id, 0) : undefined;
  if (node === undefined) {
    await vscode.commands.executeCommand('groundwork.cases.openFile');
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is not listed in the Discoveries group; cases.jsonl is open instead.', id));
    return;
  }
  await view.reveal(node, { select: true, focus: true, expand: true });
}

async function find(explorer: PlanExplorer, nodes: readonly ExplorerNode[], id: string, depth: number): Promise<ExplorerNode | undefined> {
  for (const node of nodes) {
    if (node.kind !== 'case') continue;
    if (node.row.kind === 'case' && node.row.id === id) return node;
    if ('children' in node.row && depth < 3) {
      const found = await find(explorer, await explorer.getChildren(node), id, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
