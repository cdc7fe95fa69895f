// Where a build's project goes, asked in a modal once the analyst has named it (core/build/
// projectPlace.ts decides when): its folder exists and holds files (a proposed free name, or another
// typed into an input box checked as the person types), or the analyst reads the brief as a feature
// on the workspace's existing code (the workspace itself, or a new folder). Cancel stops the build;
// Resume runs the analyst and asks again.
import * as vscode from 'vscode';
import type { PlaceAnswer, PlaceQuestion } from '../../core/build/projectPlace';
import { visibleText } from '../../core/visibleText';

export async function askPlace(q: PlaceQuestion): Promise<PlaceAnswer> {
  const free = visibleText(q.free);
  const stops = vscode.l10n.t('Cancel stops the build; Resume runs the analyst again and asks again.');
  if (q.existing) {
    const workspace = vscode.l10n.t('Build in the Workspace');
    const folder = vscode.l10n.t('New Folder {0}/', free);
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('The analyst reads this brief as a feature on the existing code of the workspace.'),
      {
        modal: true,
        detail: [
          vscode.l10n.t(
            'Build it in the workspace itself? Its phases will change files there; each try’s changes can be reverted from the Runs group.',
          ),
          vscode.l10n.t('Or build it as a new project in {0}/.', free),
          stops,
        ].join('\n\n'),
      },
      workspace,
      folder,
    );
    if (choice === workspace) return { kind: 'workspace' };
    if (choice !== folder) return { kind: 'stop' };
    if (q.taken === undefined) return { kind: 'folder', name: q.free };
  }
  const taken = visibleText(q.taken ?? q.projectName);
  const use = vscode.l10n.t('Use {0}', free);
  const other = vscode.l10n.t('Another Name…');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('The folder {0} already exists and holds files.', taken),
    {
      modal: true,
      detail: [
        vscode.l10n.t(
          'Groundwork never writes into it. Build the project in {0}/, or give its folder another name.',
          free,
        ),
        stops,
      ].join('\n\n'),
    },
    use,
    other,
  );
  if (choice === use) return { kind: 'folder', name: q.free };
  if (choice !== other) return { kind: 'stop' };
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Project folder'),
    prompt: vscode.l10n.t(
      'A new folder in the workspace for the project: words of a-z and 0-9 joined by hyphens. Escape stops the build.',
    ),
    value: q.free,
    ignoreFocusOut: true,
    validateInput: async (value) => {
      const problem = await q.check(value);
      return problem === undefined ? undefined : visibleText(problem);
    },
  });
  return name === undefined ? { kind: 'stop' } : { kind: 'folder', name: name.trim() };
}
