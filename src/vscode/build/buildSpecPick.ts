// `Groundwork: Build from Spec…`: which spec written with another tool to build from — a Spec Kit
// feature folder (`specs/<feature>/spec.md`…) or a Kiro spec (`.kiro/specs/<feature>/requirements.md`…)
// found in the workspace, or the command's argument (a folder or one of its files, relative to the
// workspace). The build itself starts like any other (buildStart.ts: the gate, then the build).
import * as vscode from 'vscode';
import { findExternalSpecs } from '../../core/build/externalSpec';
import type { SpecFormat } from '../../core/build/externalSpec';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { visibleText } from '../../core/visibleText';

const PATH_MAX_CHARS = 1000;

/** The spec folder a `groundwork.buildFromSpec` argument names (a string, or `{path}`); undefined: ask. A string result of kind error: why not. */
export function specArgument(arg: unknown): { path: string } | { error: string } | undefined {
  if (arg === undefined || arg === null) return undefined;
  // A string, a URI, `{path}`, or the explorer's node of a spec (`{kind: 'spec', spec: {path}}`).
  const node =
    (arg as { kind?: unknown; spec?: { path?: unknown } }).kind === 'spec'
      ? (arg as { spec?: { path?: unknown } }).spec
      : undefined;
  const path =
    typeof arg === 'string'
      ? arg
      : arg instanceof vscode.Uri
        ? vscode.workspace.asRelativePath(arg, false)
        : node
          ? node.path
          : (arg as { path?: unknown }).path;
  if (typeof path !== 'string' || path.trim() === '' || path.length > PATH_MAX_CHARS)
    return { error: vscode.l10n.t('No spec folder was given to build from.') };
  return { path: path.trim() };
}

function formatName(kind: SpecFormat): string {
  return kind === 'kiro' ? vscode.l10n.t('Kiro spec') : vscode.l10n.t('Spec Kit feature');
}

/** A quick pick of the specs the workspace holds; undefined when the person closed it or there is none (said). */
export async function pickSpec(store: WorkspaceStore): Promise<{ path: string } | undefined> {
  const found = await findExternalSpecs(store.files, store.folder).catch(() => []);
  if (found.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No spec to build from in this workspace: Groundwork looks for Spec Kit features (specs/<feature>/spec.md) and Kiro specs (.kiro/specs/<feature>/requirements.md).',
      ),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    found.map((s) => ({
      // `$(` in a quick pick draws an icon: a folder's name must not.
      label: visibleText(s.feature).replace(/\$\(/g, '$\u200b('),
      description: formatName(s.kind),
      detail: visibleText(s.path),
      iconPath: new vscode.ThemeIcon(s.kind === 'kiro' ? 'notebook' : 'checklist'),
      path: s.path,
    })),
    {
      title: vscode.l10n.t('Build from Spec'),
      placeHolder: vscode.l10n.t('Pick the spec to build'),
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return picked ? { path: picked.path } : undefined;
}
