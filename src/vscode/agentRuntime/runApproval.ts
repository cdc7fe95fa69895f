// What an agent run asks of the person in VS Code: a modal for each command that is not
// pre-approved (the exact command, its folder, why it is asked), and the user setting
// `groundwork.commands.autoApprove`, read from the user's settings only (a workspace cannot
// pre-approve commands for itself), its problems said once per window.
import * as vscode from 'vscode';
import { parseAutoApprove } from '../../core/commands/commandPolicy';
import type { ApprovalAnswer, CommandApprover } from '../../core/run/commandGate';
import { terminalText } from '../../core/run/runLines';
import { visibleText } from '../../core/visibleText';

export const AUTO_APPROVE_SETTING = 'groundwork.commands.autoApprove';

/** Asks with a modal; dismissing it, or the run stopping meanwhile, is a deny. */
export function modalApprover(): CommandApprover {
  return {
    async ask({ command, folder, why, role }, signal): Promise<ApprovalAnswer> {
      if (signal.aborted) return 'deny';
      const once: vscode.MessageItem = { title: vscode.l10n.t('Allow Once') };
      const forRun: vscode.MessageItem = { title: vscode.l10n.t('Allow This Command for This Run') };
      // Deny is the modal's Cancel: Escape or closing it denies, and no fourth button is added.
      const deny: vscode.MessageItem = { title: vscode.l10n.t('Deny'), isCloseAffordance: true };
      const detail = vscode.l10n.t(
        '{0}\n\nFolder: {1}\nAsked because: {2}\nAgent: {3}',
        terminalText(command),
        visibleText(folder),
        visibleText(why),
        visibleText(role),
      );
      const asked = vscode.window.showWarningMessage(
        vscode.l10n.t('Run this command?'),
        { modal: true, detail },
        once,
        forRun,
        deny,
      );
      const stopped = new Promise<undefined>((resolve) =>
        signal.addEventListener('abort', () => resolve(undefined), { once: true }),
      );
      const choice = await Promise.race([asked, stopped]);
      return choice === once ? 'once' : choice === forRun ? 'run' : 'deny';
    },
  };
}

/**
 * The patterns of `groundwork.commands.autoApprove`, read each time a command is checked (a change
 * applies to the next command). Only the user's own value counts: the setting is application-scoped,
 * and a workspace or folder value is ignored even if an older VS Code would apply it.
 */
export function autoApproveSetting(warn: (text: string) => void): () => readonly string[] {
  const said = new Set<string>();
  return () => {
    const value = vscode.workspace.getConfiguration().inspect<unknown>(AUTO_APPROVE_SETTING)?.globalValue;
    const { patterns, problems } = parseAutoApprove(value);
    for (const problem of problems) {
      if (said.has(problem)) continue;
      said.add(problem);
      warn(vscode.l10n.t('The setting {0} has a problem: {1}', AUTO_APPROVE_SETTING, visibleText(problem)));
    }
    return patterns;
  };
}
