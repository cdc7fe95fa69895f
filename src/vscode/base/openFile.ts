// Opening a file of `.groundwork/` in the editor from a panel button.
import * as vscode from 'vscode';
import { displayPath } from '../../core/storage/workspaceStore';
import type { WorkspaceModel } from './workspaceModel';

/**
 * Opens `rel` (relative to `.groundwork/`) only when it is a regular file there: a link planted in a
 * cloned repository must not make a panel button open a file elsewhere on the disk (the store
 * refuses a path that a link leads out of the folder).
 */
export async function openInGroundwork(workspace: WorkspaceModel, rel: string): Promise<void> {
  const store = workspace.workspaceStore();
  const path = await store.resolve(rel);
  const info = await store.info(rel);
  if (info?.kind !== 'file') {
    throw new Error(
      vscode.l10n.t(
        '{0} cannot be opened: it is missing, or not a plain file (a link or a folder). Check the plan folder.',
        displayPath(rel),
      ),
    );
  }
  await vscode.window.showTextDocument(vscode.Uri.file(path));
}
