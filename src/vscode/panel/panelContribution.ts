// The agent panel as a view of the Groundwork container, and the commands that open it or the way
// out of Restricted Mode.
import * as vscode from 'vscode';
import { AGENT_PANEL_ID } from './agentPanelId';
import type { Contribution } from '../host';
import { DisposableStore } from '../base/lifecycle';
import { manageTrust } from '../base/trust';

export const panelContribution: Contribution = {
  id: 'panel',
  register(host) {
    const store = new DisposableStore();
    store.add(vscode.window.registerWebviewViewProvider(AGENT_PANEL_ID, host.panel));
    store.add(
      vscode.commands.registerCommand('groundwork.openPanel', () =>
        vscode.commands.executeCommand(`${AGENT_PANEL_ID}.focus`),
      ),
    );
    store.add(vscode.commands.registerCommand('groundwork.manageTrust', () => manageTrust()));
    return store;
  },
};
