// `Open in Discoveries` (groundwork.cases.reveal, the link in an annotation's hover): the case's
// row in the plan explorer's Discoveries group, selected and shown. A case the group does not list
// (it lists the newest of each status) opens at its line of `.groundwork/cases.jsonl` instead.
import * as vscode from 'vscode';
import type { ExplorerGroups } from '../explorer/explorerGroups';
import type { CasesRow } from './caseRows';

export async function revealCase(explorer: ExplorerGroups, id: unknown): Promise<void> {
  if (typeof id !== 'string' || !/^disc-\d{3,9}$/.test(id)) return;
  const shown = await explorer.reveal('discoveries', (row) => {
    const value = row.value as CasesRow;
    return row.type === 'case' && value.kind === 'case' && value.id === id;
  });
  if (shown) return;
  await vscode.commands.executeCommand('groundwork.cases.openFile');
  void vscode.window.showInformationMessage(
    vscode.l10n.t('{0} is not listed in the Discoveries group; cases.jsonl is open instead.', id),
  );
}
