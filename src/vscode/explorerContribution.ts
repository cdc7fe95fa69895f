// The plan explorer: for each folder with a `.groundwork/`, the sessions waiting, the plans and
// other specs; for the folder Groundwork works in also the journal, sleeping agents, discovery
// cases, builds and agent runs, as a tree beside the agent panel. The cases, the runs and the
// builds come from their features (Host.services.cases, .runs, .builds), registered before this
// one; the folders from folderChoice.ts; the commands on its nodes from explorerCommands.ts.
import * as vscode from 'vscode';
import { revealCase } from './caseReveal';
import type { Contribution } from './contributions';
import { registerExplorerCommands } from './explorerCommands';
import { ExplorerFolders } from './folderChoice';
import { DisposableStore } from './lifecycle';
import { PlanExplorer, PLAN_EXPLORER_ID } from './planExplorer';

/** The setting's default (package.json; core/discovery's DEFAULT_TTL_MINUTES), for a value that is no number of minutes. */
const DEFAULT_TTL_MINUTES = 30;

/** Minutes a discovery session waits for its answers (`groundwork.discovery.ttlMinutes`). */
function ttlMs(): number {
  const value = vscode.workspace.getConfiguration('groundwork').get<unknown>('discovery.ttlMinutes');
  return (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_TTL_MINUTES) * 60_000;
}

export const explorerContribution: Contribution = {
  id: 'explorer',
  register(host) {
    const { workspace, services } = host;
    const store = new DisposableStore();
    const active = workspace.folder && workspace.hasWorkspace ? { folder: workspace.folder, store: workspace.workspaceStore() } : undefined;
    const folders = store.add(new ExplorerFolders(active, (folder) => host.storeFor?.(folder), ttlMs));
    const explorer = store.add(new PlanExplorer(workspace, folders, services.runs, services.builds, services.cases));
    const view = store.add(vscode.window.createTreeView(PLAN_EXPLORER_ID, { treeDataProvider: explorer, showCollapseAll: true }));
    explorer.attach(view);
    // The badge counts the sessions waiting before the view is first shown: read once the window has settled.
    const badge = setTimeout(() => void explorer.updateBadge(), 3000);
    badge.unref?.();
    store.add({ dispose: () => clearTimeout(badge) });
    store.add(registerExplorerCommands(host, folders));
    store.add(vscode.commands.registerCommand('groundwork.cases.reveal', (id: unknown) => revealCase(explorer, view, id)));
    store.add(
      vscode.commands.registerCommand('groundwork.refreshExplorer', () => {
        workspace.refresh();
        folders.refresh();
        services.runs?.refresh();
        services.builds?.refresh();
        services.cases?.refresh();
        explorer.redrawAll();
      }),
    );
    return store;
  },
};
