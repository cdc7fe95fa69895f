// The discoveries journal: its part of the agent panel (the newest entries, the form that adds one)
// and its commands. Each command says what went wrong and what to do; none fails silently.
import * as vscode from 'vscode';
import { TITLE_MAX_CHARS } from '../../core/journal/journalEntry';
import { JOURNAL_INBOUND, type JournalMessage } from '../../shared/protocol/journal';
import type { Contribution } from '../host';
import { DisposableStore } from '../base/lifecycle';
import { ComputedFeature } from '../panel/panelParts';
import { journalSlice } from './journalSlice';
import { requireTrust } from '../base/trust';
import type { WorkspaceModel } from '../base/workspaceModel';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const journalContribution: Contribution = {
  id: 'journal',
  register({ workspace, panel, log }) {
    const store = new DisposableStore();
    const feature = store.add(
      new ComputedFeature(
        'journal',
        JOURNAL_INBOUND,
        async () => journalSlice((await workspace.read()).journal),
        [workspace.onDidChange],
        (m: JournalMessage) => handle(workspace, m),
        (err) => log.warn('journal: could not be read for the panel', err),
      ),
    );
    store.add(panel.register(feature));
    store.add(vscode.commands.registerCommand('groundwork.journal.open', () => openJournal(workspace)));
    store.add(vscode.commands.registerCommand('groundwork.journal.add', () => addFromPalette(workspace)));
    return store;
  },
};

async function handle(workspace: WorkspaceModel, m: JournalMessage): Promise<void> {
  switch (m.type) {
    case 'journal.add':
      // A request: what is thrown here is the panel's answer.
      if (!requireTrust(vscode.l10n.t('add to the journal')))
        throw new Error(vscode.l10n.t('Not added: this folder is in Restricted Mode. Trust it to add discoveries.'));
      await workspace.addJournalEntry(m.title, m.description);
      return;
    case 'journal.open':
      await vscode.commands.executeCommand('groundwork.journal.open');
      return;
  }
}

async function openJournal(workspace: WorkspaceModel): Promise<void> {
  const uri = workspace.journalUri;
  if (!uri)
    return void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a folder first: the journal lives in the workspace.'),
    );
  try {
    await vscode.window.showTextDocument(uri);
  } catch {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The journal is empty: add a discovery first with "Groundwork: Add Discovery to Journal…".'),
    );
  }
}

async function addFromPalette(workspace: WorkspaceModel): Promise<void> {
  if (!workspace.hasWorkspace) {
    return void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a folder first: the journal lives in the workspace.'),
    );
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
    await workspace.addJournalEntry(title.trim(), description.trim());
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Added "{0}" to the discoveries journal', title.trim()), 4000);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The discovery was not added: {0}', message(err)));
  }
}
