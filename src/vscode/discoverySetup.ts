// Builds the discovery conversation for this window. The core service (and through it the model
// client and the role files) is made on first use, not at activation.
import * as vscode from 'vscode';
import { systemClock } from '../core/clock';
import { DEFAULT_TTL_MINUTES, type DiscoveryApi } from '../core/discovery/discoveryTypes';
import { displayPath } from '../core/storage/workspaceStore';
import type { AgentPanel } from './agentPanel';
import { DiscoveryController, PANEL_SESSION, type DiscoveryHost } from './discoveryController';
import { peekDiscovery } from './discoveryPeek';
import { prices, type ModelService } from './llm/modelService';
import { readPendingBrief, type PendingBrief, type PendingRead } from './pendingBrief';
import type { RoleLookup } from './roleCache';
import { isTrusted } from './trust';
import type { WorkspaceModel } from './workspaceModel';
import { PENDING_BRIEF_FILE } from '../core/plan/layout';

export function createDiscovery(
  roles: RoleLookup,
  model: WorkspaceModel,
  models: ModelService,
  log: vscode.LogOutputChannel,
  panel: () => AgentPanel | undefined,
): DiscoveryController {
  let service: Promise<DiscoveryApi> | undefined;
  const ttlMinutes = () => vscode.workspace.getConfiguration('groundwork.discovery').get<number>('ttlMinutes', 30);
  const make = async (): Promise<DiscoveryApi> => {
    // Loaded here, on first use.
    const { DiscoveryService } = await import('../core/discovery/discoveryService');
    return new DiscoveryService({
      store: model.workspaceStore(),
      llm: () => models.client(),
      clock: systemClock,
      role: () => roles('build-discovery'),
      ttlMinutes,
      prices: prices(),
    });
  };
  // Round files older than the TTL go when discovery is first used in a trusted folder, not at
  // activation, and never in Restricted Mode (where the panel only reads: discoveryPeek.ts).
  let swept = false;
  const sweep = (created: DiscoveryApi) => {
    if (swept || !isTrusted()) return;
    swept = true;
    void created.cleanupExpired().then(
      (removed) => removed.length && log.info(`discovery: removed ${removed.length} expired session(s)`),
      (err: unknown) => log.warn('discovery: could not clean up expired sessions', err),
    );
  };
  return new DiscoveryController({
    pending: pendingBriefFile(model, log),
    service: async () => {
      const created = await (service ??= make().catch((err: unknown) => {
        service = undefined;
        throw err;
      }));
      sweep(created);
      return created;
    },
    peek: async () => {
      if (!model.hasWorkspace) return { kind: 'none' };
      const minutes = ttlMinutes();
      const ttlMs = (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_TTL_MINUTES) * 60_000;
      return peekDiscovery(model.workspaceStore(), PANEL_SESSION, systemClock.now(), ttlMs);
    },
    log,
    changed: () => panel()?.refresh(),
    text: (chunk) => panel()?.appendText(chunk),
  });
}

/**
 * The brief on the panel's card until it is saved or discarded, kept in the workspace (replaced
 * atomically) so neither a reload nor a crash loses it. It is only a file: what it holds is checked
 * field by field (pendingBrief.ts), and a file that is not a brief becomes a notice that says why.
 */
function pendingBriefFile(model: WorkspaceModel, log: vscode.LogOutputChannel): DiscoveryHost['pending'] {
  return {
    async read(): Promise<PendingRead> {
      if (!model.hasWorkspace) return { kind: 'none' };
      const read = await readPendingBrief(model.workspaceStore());
      if (read.kind === 'damaged') log.warn(`discovery: ${displayPath(PENDING_BRIEF_FILE)} is not a brief Groundwork can use: ${read.reason}`);
      return read;
    },
    async write(brief: PendingBrief | undefined): Promise<void> {
      const store = model.workspaceStore();
      if (brief) await store.writeText(PENDING_BRIEF_FILE, JSON.stringify(brief, null, 2) + '\n');
      else await store.remove(PENDING_BRIEF_FILE);
    },
  };
}
