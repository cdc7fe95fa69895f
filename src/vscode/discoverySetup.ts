// Builds the discovery conversation for this window. The core service (and through it the model
// client and the role files) is made on first use, not at activation.
import * as vscode from 'vscode';
import { systemClock } from '../core/clock';
import type { DiscoveryApi } from '../core/discovery/discoveryTypes';
import type { Role } from '../core/roles/roleSchema';
import type { AgentPanel } from './agentPanel';
import { DiscoveryController } from './discoveryController';
import { prices, type ModelService } from './llm/modelService';
import type { WorkspaceModel } from './workspaceModel';

export function createDiscovery(
  context: vscode.ExtensionContext,
  model: WorkspaceModel,
  models: ModelService,
  log: vscode.LogOutputChannel,
  panel: () => AgentPanel | undefined,
): DiscoveryController {
  let service: Promise<DiscoveryApi> | undefined;
  // The roles are read once and again only after .groundwork/ changed (an override may have been
  // edited) or the folder became trusted (its overrides now apply).
  let role: Promise<Role> | undefined;
  const forgetRole = () => (role = undefined);
  context.subscriptions.push(model.onDidChange(forgetRole), vscode.workspace.onDidGrantWorkspaceTrust(forgetRole));
  const make = async (): Promise<DiscoveryApi> => {
    // Loaded here, on first use: the service, the role loader and its YAML parser.
    const [{ DiscoveryService }, { loadRoles, requireRole }, { bundledRoleSource }, { workspaceRoleSource }] = await Promise.all([
      import('../core/discovery/discoveryService'),
      import('../core/roles/roleLoader'),
      import('../core/node/roleFiles'),
      import('../core/roles/workspaceRoleSource'),
    ]);
    const store = model.workspaceStore();
    const created = new DiscoveryService({
      store,
      llm: () => models.client(),
      clock: systemClock,
      role: () =>
        (role ??= (async () => {
          // A workspace's role overrides are its authors' prompt text: used only in a trusted folder.
          const loaded = await loadRoles(bundledRoleSource(context.extensionUri.fsPath), vscode.workspace.isTrusted ? workspaceRoleSource(store) : undefined);
          for (const problem of loaded.problems) log.warn(`roles: ${problem.text}`);
          return requireRole(loaded, 'build-discovery').role;
        })().catch((err: unknown) => {
          role = undefined;
          throw err;
        })),
      ttlMinutes: () => vscode.workspace.getConfiguration('groundwork.discovery').get<number>('ttlMinutes', 30),
      prices: prices(),
    });
    // Round files older than the TTL go when discovery is first used, not at activation.
    void created.cleanupExpired().then(
      (removed) => removed.length && log.info(`discovery: removed ${removed.length} expired session(s)`),
      (err: unknown) => log.warn('discovery: could not clean up expired sessions', err),
    );
    return created;
  };
  return new DiscoveryController({
    memento: context.workspaceState,
    service: () => (service ??= make().catch((err: unknown) => {
      service = undefined;
      throw err;
    })),
    log,
    changed: () => panel()?.refresh(),
    text: (chunk) => panel()?.appendText(chunk),
  });
}
