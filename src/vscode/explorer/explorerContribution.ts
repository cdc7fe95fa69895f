// The plan explorer: for each folder with a `.groundwork/`, the sessions waiting, the plans and
// other specs; for the folder Groundwork works in also the journal, sleeping agents, discovery
// cases, builds and agent runs, as a tree beside the agent panel. The cases, the runs and the
// builds are groups their features register (Host.explorer: explorerGroups.ts), before or after this
// one; the folders come from explorerFolders.ts, the commands on its nodes from explorerCommands.ts.
import * as vscode from 'vscode';
import type { Contribution } from '../host';
import { registerExplorerCommands } from './explorerCommands';
import { ExplorerFolders } from './explorerFolders';
import { DisposableStore } from '../base/lifecycle';
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
    const { workspace } = host;
    const store = new DisposableStore();
    const active =
      workspace.folder && workspace.hasWorkspace
        ? { folder: workspace.folder, store: workspace.workspaceStore() }
        : undefined;
    const folders = store.add(new ExplorerFolders(active, (folder) => host.storeFor?.(folder), ttlMs));
    const explorer = store.add(new PlanExplorer(workspace, folders, host.explorer));
    const view = store.add(
      vscode.window.createTreeView(PLAN_EXPLORER_ID, { treeDataProvider: explorer, showCollapseAll: true }),
    );
    explorer.attach(view);
    // The badge counts the sessions waiting before the view is first shown: read once the window has settled.
    const badge = setTimeout(() => void explorer.updateBadge(), 3000);
    badge.unref?.();
    store.add({ dispose: () => clearTimeout(badge) });
    store.add(registerExplorerCommands(host, folders));
    host.explorer.setRevealer(async (groupId, match) => {
      const node = await explorer.findRow(groupId, match);
      if (node) await view.reveal(node, { select: true, focus: true, expand: true });
      return node !== undefined;
    });
    store.add({ dispose: () => host.explorer.setRevealer(undefined) });
    store.add(
      vscode.commands.registerCommand('groundwork.refreshExplorer', () => {
        workspace.refresh();
        folders.refresh();
        for (const group of host.explorer.list()) group.refresh();
        explorer.redrawAll();
      }),
    );
    return store;
  },
};
