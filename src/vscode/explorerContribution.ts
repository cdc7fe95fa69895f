// The plan explorer: plans, the journal, sleeping agents, discovery cases, builds and agent runs as a
// tree beside the agent panel. The cases, the runs and the builds come from their features
// (Host.services.cases, .runs, .builds), registered before this one.
import * as vscode from 'vscode';
import { revealCase } from './caseReveal';
import type { Contribution } from './contributions';
import { DisposableStore } from './lifecycle';
import { PlanExplorer, PLAN_EXPLORER_ID } from './planExplorer';

export const explorerContribution: Contribution = {
  id: 'explorer',
  register({ workspace, services }) {
    const store = new DisposableStore();
    const explorer = store.add(new PlanExplorer(workspace, services.runs, services.builds, services.cases));
    const view = store.add(vscode.window.createTreeView(PLAN_EXPLORER_ID, { treeDataProvider: explorer, showCollapseAll: true }));
    explorer.attach(view);
    store.add(vscode.commands.registerCommand('groundwork.cases.reveal', (id: unknown) => revealCase(explorer, view, id)));
    store.add(
      vscode.commands.registerCommand('groundwork.refreshExplorer', () => {
        workspace.refresh();
        services.runs?.refresh();
        services.builds?.refresh();
        services.cases?.refresh();
        explorer.redrawAll();
      }),
    );
    return store;
  },
};
