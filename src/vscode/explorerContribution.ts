// The plan explorer: plans, the journal and sleeping agents as a tree beside the agent panel.
import * as vscode from 'vscode';
import type { Contribution } from './contributions';
import { DisposableStore } from './lifecycle';
import { PlanExplorer, PLAN_EXPLORER_ID } from './planExplorer';

export const explorerContribution: Contribution = {
  id: 'explorer',
  register({ workspace }) {
    const store = new DisposableStore();
    const explorer = store.add(new PlanExplorer(workspace));
    const view = store.add(vscode.window.createTreeView(PLAN_EXPLORER_ID, { treeDataProvider: explorer, showCollapseAll: true }));
    explorer.attach(view);
    store.add(vscode.commands.registerCommand('groundwork.refreshExplorer', () => workspace.refresh()));
    return store;
  },
};
