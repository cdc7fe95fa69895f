import * as vscode from 'vscode';

/**
 * Every place that starts model work or runs a command calls this first: menus can be
 * bypassed (keybindings, the CLI beside the window, a stale panel), the start of the work cannot.
 * Returns false, after telling the user why and offering the way out, in Restricted Mode.
 */
export function requireTrust(action: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  const manage = vscode.l10n.t('Manage Workspace Trust');
  // The refusal is immediate; the way out is offered without holding the caller.
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t(
        'Groundwork cannot {0} in Restricted Mode: it starts no model session and runs no command in a workspace you have not trusted. Trust this folder to continue.',
        action,
      ),
      manage,
    )
    .then((choice) => (choice === manage ? manageTrust() : undefined));
  return false;
}

export function manageTrust(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.trust.manage');
}
