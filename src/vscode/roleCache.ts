// The agent roles for this window: the bundled files, with the workspace's overrides in a trusted
// folder. Read once, and again only after an override changed or the folder became trusted (its
// overrides now apply) — not on any .groundwork/ change, since every session step writes there.
import * as vscode from 'vscode';
import type { Role } from '../core/roles/roleSchema';
import type { LoadedRoles } from '../core/roles/roleLoader';
import type { WorkspaceModel } from './workspaceModel';

export type RoleLookup = (name: string) => Promise<Role>;

export function createRoleCache(context: vscode.ExtensionContext, model: WorkspaceModel, log: vscode.LogOutputChannel): RoleLookup {
  let loaded: Promise<LoadedRoles> | undefined;
  const forget = () => (loaded = undefined);
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(forget));
  let watching = false;
  const watch = () => {
    const root = model.root;
    if (watching || !root) return;
    watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '.groundwork/roles/**'));
    context.subscriptions.push(watcher, watcher.onDidCreate(forget), watcher.onDidChange(forget), watcher.onDidDelete(forget));
  };
  const load = async (): Promise<LoadedRoles> => {
    // Loaded here, on first use: the role loader and its YAML parser.
    const [{ loadRoles }, { bundledRoleSource }, { workspaceRoleSource }] = await Promise.all([
      import('../core/roles/roleLoader'),
      import('../core/node/roleFiles'),
      import('../core/roles/workspaceRoleSource'),
    ]);
    watch();
    // A workspace's role overrides are its authors' prompt text: used only in a trusted folder.
    const store = model.workspaceStore();
    const roles = await loadRoles(bundledRoleSource(context.extensionUri.fsPath), vscode.workspace.isTrusted ? workspaceRoleSource(store) : undefined);
    for (const problem of roles.problems) log.warn(`roles: ${problem.text}`);
    return roles;
  };
  return async (name) => {
    const roles = await (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
    const { requireRole } = await import('../core/roles/roleLoader');
    return requireRole(roles, name).role;
  };
}
