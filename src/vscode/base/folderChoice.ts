// Which folder of a multi-root window Groundwork works in (the folders the plan explorer shows:
// explorer/explorerFolders.ts). Groundwork keeps its state in one folder's `.groundwork/`: the one
// the person chose ("Work in This Folder" in the explorer, "Groundwork: Choose Workspace Folder…"),
// remembered for the workspace; else the first folder. The choice is read at activation without touching the disk;
// changing it reloads the window, so every feature starts again in the chosen folder.
import * as vscode from 'vscode';

const CHOICE_KEY = 'groundwork.folder';

/** The folder Groundwork works in: the remembered choice while it is still open, else the first. */
export function chosenFolder(state: vscode.Memento): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const chosen = state.get<unknown>(CHOICE_KEY);
  return folders.find((f) => typeof chosen === 'string' && f.uri.toString() === chosen) ?? folders[0];
}

/** Remembers `folder` and offers the reload that makes every feature work in it. */
export async function chooseFolder(
  state: vscode.Memento,
  current: vscode.WorkspaceFolder | undefined,
  folder?: vscode.WorkspaceFolder,
): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folder === undefined) {
    if (folders.length < 2)
      return void vscode.window.showInformationMessage(
        vscode.l10n.t('This window has one folder: Groundwork works in it.'),
      );
    const picked = await vscode.window.showQuickPick(
      folders.map((f) => ({
        label: f.name,
        description:
          f.uri.toString() === current?.uri.toString() ? vscode.l10n.t('Groundwork works here now') : undefined,
        detail: f.uri.fsPath,
        folder: f,
      })),
      {
        title: vscode.l10n.t('Choose the Folder Groundwork Works In'),
        placeHolder: vscode.l10n.t('Its .groundwork/ holds the plans, builds and discoveries'),
      },
    );
    if (!picked) return;
    folder = picked.folder;
  }
  if (folder.uri.toString() === current?.uri.toString()) return;
  await state.update(CHOICE_KEY, folder.uri.toString());
  const reload = vscode.l10n.t('Reload Window');
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t('Groundwork will work in "{0}" after the window reloads.', folder.name),
    {
      modal: true,
      detail: vscode.l10n.t(
        'A discovery, brainstorm or build under way in "{0}" stays on disk and can be resumed there.',
        current?.name ?? '',
      ),
    },
    reload,
  );
  if (answer === reload) await vscode.commands.executeCommand('workbench.action.reloadWindow');
}
