// Command handlers. Each says what went wrong and what to do; none fails silently.
import * as vscode from 'vscode';
import { TITLE_MAX_CHARS } from '../core/journal/journalEntry';
import { AGENT_PANEL_ID } from './agentPanel';
import type { DiscoveryController } from './discoveryController';
import type { ExplorerNode } from './planExplorer';
import { manageTrust, requireTrust } from './trust';
import type { WorkspaceModel } from './workspaceModel';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function registerCommands(model: WorkspaceModel, discovery: DiscoveryController): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('groundwork.discover', async () => {
      if (!model.hasWorkspace) {
        return void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: Groundwork keeps the conversation and the brief in the workspace.'));
      }
      // Before the idea is asked for, not after it was typed.
      if (!requireTrust(vscode.l10n.t('start a discovery'))) return;
      const idea = await vscode.window.showInputBox({
        title: vscode.l10n.t('Discover Idea'),
        prompt: vscode.l10n.t('What do you want to build? A sentence is enough: Groundwork asks what it needs to know.'),
        placeHolder: vscode.l10n.t('e.g. A CRM for a small bakery'),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the idea in a few words.')),
      });
      if (!idea?.trim()) return;
      await vscode.commands.executeCommand(`${AGENT_PANEL_ID}.focus`);
      await discovery.send(idea.trim(), true);
    }),
    vscode.commands.registerCommand('groundwork.discovery.cancel', () => discovery.cancel()),
    vscode.commands.registerCommand('groundwork.openPanel', () =>
      vscode.commands.executeCommand(`${AGENT_PANEL_ID}.focus`),
    ),
    vscode.commands.registerCommand('groundwork.refreshExplorer', () => model.refresh()),
    vscode.commands.registerCommand('groundwork.manageTrust', () => manageTrust()),
    vscode.commands.registerCommand('groundwork.journal.open', async () => {
      const uri = model.journalUri;
      if (!uri) return void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder first: the journal lives in the workspace.'));
      try {
        await vscode.window.showTextDocument(uri);
      } catch {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The journal is empty: add a discovery first with "Groundwork: Add Discovery to Journal…".'),
        );
      }
    }),
    vscode.commands.registerCommand('groundwork.journal.add', async () => {
      if (!model.hasWorkspace) {
        return void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: the journal lives in the workspace.'));
      }
      if (!requireTrust(vscode.l10n.t('add to the journal'))) return;
      const title = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Discovery (1/2)'),
        prompt: vscode.l10n.t('A short title for what was learned'),
        validateInput: (v) =>
          !v.trim()
            ? vscode.l10n.t('Give the discovery a title.')
            : v.length > TITLE_MAX_CHARS
              ? vscode.l10n.t('Keep the title under {0} characters.', TITLE_MAX_CHARS)
              : undefined,
        ignoreFocusOut: true,
      });
      if (title === undefined) return;
      const description = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Discovery (2/2)'),
        prompt: vscode.l10n.t('Describe it so a later agent can use it'),
        validateInput: (v) => (!v.trim() ? vscode.l10n.t('Describe what was learned.') : undefined),
        ignoreFocusOut: true,
      });
      if (description === undefined) return;
      try {
        await model.addJournalEntry(title.trim(), description.trim());
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Added "{0}" to the discoveries journal', title.trim()), 4000);
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('The discovery was not added: {0}', message(err)));
      }
    }),
    vscode.commands.registerCommand('groundwork.sleep.wake', async (node?: ExplorerNode) => {
      const agent = node?.kind === 'sleeper' ? node.sleeper.state.agent : undefined;
      if (!agent || !requireTrust(vscode.l10n.t('wake an agent'))) return;
      try {
        await model.wake(agent, 'woken from the plan explorer');
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not wake {0}: {1}', agent, message(err)));
      }
    }),
  ];
}
