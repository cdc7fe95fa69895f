// The agent roles for this window: the bundled files, with the workspace's overrides in a trusted
// folder. Read once, and again only after an override changed or the folder became trusted (its
// overrides now apply) — not on any .groundwork/ change, since every session step writes there.
// An override that changes a role's model, turns or prompt is said once per window, when a session
// first uses that role (the loader's 'notice'): a cloned repository must not quietly switch an
// agent to a pricier model or another prompt. The bundled roles' source is made by the
// composition root (extension.ts); this module opens no file itself.
import * as vscode from 'vscode';
import type { LoadedRoles, RoleSource } from '../../core/roles/roleLoader';
import type { Role } from '../../core/roles/roleSchema';
import { Disposable } from './lifecycle';
import type { WorkspaceModel } from './workspaceModel';

export type RoleLookup = (name: string) => Promise<Role>;

export interface RoleCacheDeps {
  /** The roles shipped with the extension. */
  bundled: RoleSource;
  workspace: WorkspaceModel;
  log: vscode.LogOutputChannel;
  /** Shows a notice to the person (the panel's dismissible notice). */
  notify(text: string): void;
}

export class RoleCache extends Disposable {
  private loaded: Promise<LoadedRoles> | undefined;
  /** Notices already shown in this window, by their text (a changed override is said again). */
  private readonly said = new Set<string>();
  private watching = false;

  constructor(private readonly deps: RoleCacheDeps) {
    super();
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.forget()));
  }

  /** A role by name, for the sessions. */
  readonly lookup: RoleLookup = async (name) => {
    const roles = await (this.loaded ??= this.load().catch((err: unknown) => {
      this.loaded = undefined;
      throw err;
    }));
    const { requireRole } = await import('../../core/roles/roleLoader');
    const found = requireRole(roles, name);
    for (const problem of roles.problems) {
      if (problem.severity !== 'notice' || problem.file !== found.file || this.said.has(problem.text)) continue;
      this.said.add(problem.text);
      // "<file> overrides the bundled <role> role: it uses …" (the loader's message, after its file).
      this.deps.notify(
        vscode.l10n.t('This workspace changes a Groundwork agent: {0}', `${problem.file} ${problem.message}`),
      );
    }
    return found.role;
  };

  private forget(): void {
    this.loaded = undefined;
  }

  private watch(): void {
    const root = this.deps.workspace.root;
    if (this.watching || !root) return;
    this.watching = true;
    const watcher = this._register(
      vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '.groundwork/roles/**')),
    );
    for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete])
      this._register(event(() => this.forget()));
  }

  private async load(): Promise<LoadedRoles> {
    // Loaded here, on first use: the role loader and its YAML parser.
    const [{ loadRoles }, { workspaceRoleSource }] = await Promise.all([
      import('../../core/roles/roleLoader'),
      import('../../core/roles/workspaceRoleSource'),
    ]);
    this.watch();
    // A workspace's role overrides are its authors' prompt text: used only in a trusted folder.
    const { workspace, log } = this.deps;
    const overrides =
      vscode.workspace.isTrusted && workspace.hasWorkspace
        ? workspaceRoleSource(workspace.workspaceStore())
        : undefined;
    const roles = await loadRoles(this.deps.bundled, overrides);
    for (const problem of roles.problems) {
      if (problem.severity === 'notice') log.info(`roles: ${problem.text}`);
      else log.warn(`roles: ${problem.text}`);
    }
    return roles;
  }
}
