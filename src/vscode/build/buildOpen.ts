// What a person opens of a build: its report in the markdown preview, its project folder in the
// Explorer or a window of its own. A build that has neither yet says why.
import * as vscode from 'vscode';
import { BuildStore } from '../../core/build/buildStore';
import { BUILD_FILES, buildFile } from '../../core/plan/layout';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { visibleText } from '../../core/visibleText';
import type { WorkspaceModel } from '../base/workspaceModel';

export async function openReport(store: WorkspaceStore, workspace: WorkspaceModel, id: string): Promise<void> {
  const rel = buildFile(id, BUILD_FILES.report);
  const info = await store.info(rel).catch(() => undefined);
  const uri = workspace.fileUri(rel);
  if (info?.kind !== 'file' || !uri)
    return void vscode.window.showInformationMessage(
      vscode.l10n.t('Build {0} has no report yet: it is written when the build ends.', id),
    );
  await vscode.commands.executeCommand('markdown.showPreview', uri);
}

/** The project folder: revealed in the Explorer, or opened in a new window. */
export async function openFolder(
  store: WorkspaceStore,
  workspace: WorkspaceModel,
  id: string,
  newWindow: boolean,
): Promise<void> {
  const read = await new BuildStore(store).read(id);
  if (!read.ok) return void vscode.window.showErrorMessage(visibleText(read.problem));
  const dir = read.build.projectDir;
  const root = workspace.root;
  if (dir === undefined || !root)
    return void vscode.window.showInformationMessage(
      vscode.l10n.t('Build {0} has no project folder yet: the analyst names it first.', id),
    );
  const uri = dir === '.' ? root : vscode.Uri.joinPath(root, ...dir.split('/'));
  if (newWindow) await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
  else await vscode.commands.executeCommand('revealInExplorer', uri);
}
