// Builds the discovery conversation for this window. The core service (and through it the model
// client and the role files) is made on first use, not at activation.
import * as vscode from 'vscode';
import { systemClock } from '../core/clock';
import type { DiscoveryApi } from '../core/discovery/discoveryTypes';
import { BRIEF_FIELDS } from '../shared/protocol';
import type { AgentPanel } from './agentPanel';
import { DiscoveryController, type PendingBrief } from './discoveryController';
import { prices, type ModelService } from './llm/modelService';
import type { RoleLookup } from './roleCache';
import type { WorkspaceModel } from './workspaceModel';

export function createDiscovery(
  roles: RoleLookup,
  model: WorkspaceModel,
  models: ModelService,
  log: vscode.LogOutputChannel,
  panel: () => AgentPanel | undefined,
): DiscoveryController {
  let service: Promise<DiscoveryApi> | undefined;
  const make = async (): Promise<DiscoveryApi> => {
    // Loaded here, on first use.
    const { DiscoveryService } = await import('../core/discovery/discoveryService');
    const created = new DiscoveryService({
      store: model.workspaceStore(),
      llm: () => models.client(),
      clock: systemClock,
      role: () => roles('build-discovery'),
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
    pending: pendingBriefFile(model, log),
    service: () => (service ??= make().catch((err: unknown) => {
      service = undefined;
      throw err;
    })),
    log,
    changed: () => panel()?.refresh(),
    text: (chunk) => panel()?.appendText(chunk),
  });
}

const PENDING_BRIEF = 'panel/brief.json';

/**
 * The brief on the panel's card until it is saved or discarded, kept in the workspace (replaced
 * atomically) so neither a reload nor a crash loses it. The file is read back with care: it is
 * only a file, and a hand-edited or damaged one is ignored, not trusted.
 */
function pendingBriefFile(model: WorkspaceModel, log: vscode.LogOutputChannel) {
  return {
    async read(): Promise<PendingBrief | undefined> {
      if (!model.hasWorkspace) return undefined;
      const text = await model.workspaceStore().readText(PENDING_BRIEF);
      if (text === undefined) return undefined;
      try {
        const value = JSON.parse(text) as PendingBrief;
        const strings = (o: unknown, keys: readonly string[]) =>
          typeof o === 'object' && o !== null && keys.every((k) => typeof (o as Record<string, unknown>)[k] === 'string');
        if (!strings(value, ['request', 'message']) || !strings(value.brief, BRIEF_FIELDS) || !Array.isArray(value.transcript)) {
          throw new Error('not a brief');
        }
        return value;
      } catch (err) {
        log.warn(`discovery: ignored .groundwork/${PENDING_BRIEF}: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    },
    async write(brief: PendingBrief | undefined): Promise<void> {
      const store = model.workspaceStore();
      if (brief) await store.writeText(PENDING_BRIEF, JSON.stringify(brief, null, 2) + '\n');
      else await store.remove(PENDING_BRIEF);
    },
  };
}
