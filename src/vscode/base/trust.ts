// Restricted Mode: in a folder the person has not trusted, Groundwork reads and shows what the
// workspace holds, and nothing else. Two guards keep it so:
// - requireTrust, called where each action starts (a command, a panel message, a controller
//   method): menus can be bypassed (a keybinding, a stale panel, a crafted message), the start of
//   the work cannot. It tells the person why and offers the way out.
// - writeGuard.ts under the workspace store, so that a path nobody gated still writes nothing.
import * as vscode from 'vscode';

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/**
 * Returns true in a trusted workspace. In Restricted Mode returns false, after telling the user
 * why and offering the way out. `action` completes "Groundwork cannot … in Restricted Mode".
 */
export function requireTrust(action: string): boolean {
  if (isTrusted()) return true;
  const manage = vscode.l10n.t('Manage Workspace Trust');
  // The refusal is immediate; the way out is offered without holding the caller.
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t(
        'Groundwork cannot {0} in Restricted Mode: in a folder you have not trusted it only shows what the workspace holds. It changes no file, starts no model session and runs no command. Trust this folder to continue.',
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
