// The agent roles for this window: the bundled files, with the workspace's overrides in a trusted
// folder. Read once, and again only after an override changed or the folder became trusted (its
// overrides now apply) — not on any .groundwork/ change, since every session step writes there.
// An override that changes a role's model, turns or prompt is said once per window, when a session
// first uses that role (the loader's 'notice'): a cloned repository must not quietly switch an
// agent to a pricier model or another prompt.
import * as vscode from 'vscode';
import type { Role } from '../core/roles/roleSchema';
import type { LoadedRoles } from '../core/roles/roleLoader';
import type { WorkspaceModel } from './workspaceModel';

export type RoleLookup = (name: string) => Promise<Role>;

export function createRoleCache(
  context: vscode.ExtensionContext,
  model: WorkspaceModel,
  log: vscode.LogOutputChannel,
  /** Shows a notice to the person (the panel's dismissible notice). */
  notify: (text: string) => void,
): RoleLookup {
  let loaded: Promise<LoadedRoles> | undefined;
  /** Notices already shown in this window, by their text (a changed override is said again). */
  const said = new Set<string>();
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
    for (const problem of roles.problems) {
      if (problem.severity === 'notice') log.info(`roles: ${problem.text}`);
      else log.warn(`roles: ${problem.text}`);
    }
    return roles;
  };
  return async (name) => {
    const roles = await (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
    const { requireRole } = await import('../core/roles/roleLoader');
    const found = requireRole(roles, name);
    for (const problem of roles.problems) {
      if (problem.severity !== 'notice' || problem.file !== found.file || said.has(problem.text)) continue;
      said.add(problem.text);
      // "<file> overrides the bundled <role> role: it uses …" (the loader's message, after its file).
      notify(vscode.l10n.t('This workspace changes a Groundwork agent: {0}', `${problem.file} ${problem.message}`));
    }
    return found.role;
  };
}
