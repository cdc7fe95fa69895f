import * as vscode from 'vscode';

/**
 * Every place that starts model work or runs a command calls this first: menus can be
 * bypassed (keybindings, the CLI beside the window, a stale panel), the start of the work cannot.
 * Returns false, after telling the user why and offering the way out, in Restricted Mode.
 */
export async function requireTrust(action: string): Promise<boolean> {
  if (vscode.workspace.isTrusted) return true;
  const manage = vscode.l10n.t('Manage Workspace Trust');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Groundwork cannot {0} in Restricted Mode: it starts no model session and runs no command in a workspace you have not trusted. Trust this folder to continue.',
      action,
    ),
    manage,
  );
  if (choice === manage) await manageTrust();
  return false;
}

export function manageTrust(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.trust.manage');
}
