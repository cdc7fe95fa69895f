// The discovery feature's own bundle (dist/discovery.js, loaded on first use: esbuild.mjs): the
// conversation's controller with what it needs of VS Code and the workspace, and the core's
// DiscoveryService behind it, made on the first turn.
import * as vscode from 'vscode';
import { systemClock } from '../../core/clock';
import { DiscoveryService } from '../../core/discovery/discoveryService';
import { DEFAULT_TTL_MINUTES, type DiscoveryApi } from '../../core/discovery/discoveryTypes';
import { PANEL_SESSION, PENDING_BRIEF_FILE } from '../../core/plan/layout';
import { displayPath } from '../../core/storage/workspaceStore';
import type { Host } from '../host';
import { DiscoveryController, type DiscoveryGate, type DiscoveryPorts } from './discoveryController';
import { peekDiscovery } from './discoveryPeek';
import { prices } from '../llm/modelService';
import { discoveryLanguage } from '../base/localization';
import { openInGroundwork } from '../base/openFile';
import { readPendingBrief, type PendingRead } from './pendingBrief';
import { isTrusted, requireTrust } from '../base/trust';
import type { WorkspaceModel } from '../base/workspaceModel';
import { sessionTools } from '../../core/session/sessionTools';
import { filesExclude } from '../base/filesExclude';

export function createDiscovery({ workspace, models, roles, log, services }: Host): DiscoveryController {
  let service: Promise<DiscoveryApi> | undefined;
  const ttlMinutes = () => vscode.workspace.getConfiguration('groundwork.discovery').get<number>('ttlMinutes', 30);
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
  const gates: Record<DiscoveryGate, () => string> = {
    start: () => vscode.l10n.t('start a discovery'),
    cancel: () => vscode.l10n.t('cancel the discovery'),
    save: () => vscode.l10n.t('save the brief as a plan'),
    deeper: () => vscode.l10n.t('brainstorm deeper'),
    build: () => vscode.l10n.t('start a build'),
    discard: () => vscode.l10n.t('discard the brief'),
  };
  const ports: DiscoveryPorts = {
    service: async () => {
      const made = await (service ??= Promise.resolve()
        .then(
          () =>
            new DiscoveryService({
              store: workspace.workspaceStore(),
              llm: () => models.client(),
              clock: systemClock,
              role: () => roles('build-discovery'),
              ttlMinutes,
              prices: prices(),
              tools: sessionTools(workspace.workspaceStore(), undefined, filesExclude),
            }),
        )
        .catch((err: unknown) => {
          service = undefined;
          throw err;
        }));
      sweep(made);
      return made;
    },
    pending: pendingBriefFile(workspace, log),
    peek: async () => {
      if (!workspace.hasWorkspace) return { kind: 'none' };
      const minutes = ttlMinutes();
      const ttlMs = (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_TTL_MINUTES) * 60_000;
      return peekDiscovery(workspace.workspaceStore(), PANEL_SESSION, systemClock.now(), ttlMs);
    },
    trusted: isTrusted,
    onTrustGranted: vscode.workspace.onDidGrantWorkspaceTrust,
    window: {
      allows: (action) => requireTrust(gates[action]()),
      setActive: (active) => void vscode.commands.executeCommand('setContext', 'groundwork.discoveryActive', active),
      say: (message) => void vscode.window.setStatusBarMessage(message, 5000),
      couldNotStart: (message) =>
        void vscode.window.showErrorMessage(vscode.l10n.t('Discovery could not start: {0}', message)),
      language: discoveryLanguage,
      noAnswer: () => vscode.l10n.t('(no answer)'),
    },
    log,
    open: (rel) => openInGroundwork(workspace, rel),
    brainstorm: async (plan) => services.brainstormPlan?.(plan),
    build: async (source) => services.buildFrom?.(source),
  };
  return new DiscoveryController(ports);
}

/**
 * The brief on the panel's card until it is saved or discarded, kept in the workspace (replaced
 * atomically) so neither a reload nor a crash loses it. It is only a file: what it holds is checked
 * field by field (pendingBrief.ts), and a file that is not a brief becomes a notice that says why.
 */
function pendingBriefFile(workspace: WorkspaceModel, log: vscode.LogOutputChannel): DiscoveryPorts['pending'] {
  return {
    async read(): Promise<PendingRead> {
      if (!workspace.hasWorkspace) return { kind: 'none' };
      const read = await readPendingBrief(workspace.workspaceStore());
      if (read.kind === 'damaged')
        log.warn(`discovery: ${displayPath(PENDING_BRIEF_FILE)} is not a brief Groundwork can use: ${read.reason}`);
      return read;
    },
    async write(brief): Promise<void> {
      const store = workspace.workspaceStore();
      if (brief) await store.writeText(PENDING_BRIEF_FILE, JSON.stringify(brief, null, 2) + '\n');
      else await store.remove(PENDING_BRIEF_FILE);
    },
  };
}
