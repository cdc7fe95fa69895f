// The brainstorm feature's own bundle (dist/brainstorm.js, loaded on first use: esbuild.mjs): the
// controller with what it needs of VS Code and the workspace, the core's BrainstormService behind
// it (made on the first step), and the palette's flows (brainstormCommands.ts).
import * as vscode from 'vscode';
import { BrainstormService } from '../../core/brainstorm/brainstormService';
import type { BrainstormApi } from '../../core/brainstorm/brainstormTypes';
import { systemClock } from '../../core/clock';
import { isSlug } from '../../core/storage/safeNames';
import { AGENT_PANEL_ID } from '../panel/agentPanelId';
import { BrainstormController, type BrainstormGate } from './brainstormController';
import type { Host } from '../host';
import { prices } from '../llm/modelService';
import { openInGroundwork } from '../base/openFile';
import { isTrusted, requireTrust } from '../base/trust';
import { sessionTools } from '../../core/session/sessionTools';
import { filesExclude } from '../base/filesExclude';

export { brainstormPlan, newBrainstorm, resumeBrainstorm, roundSettings } from './brainstormCommands';

/** Which brainstorm the panel shows, kept in the workspace so a reload shows it again. */
const CURRENT = 'panel/brainstorm.json';

export function createBrainstorm({ workspace, models, roles, log, services }: Host): BrainstormController {
  let service: Promise<BrainstormApi> | undefined;
  const settings = () => vscode.workspace.getConfiguration('groundwork.brainstorm');
  const gates: Record<BrainstormGate, () => string> = {
    start: () => vscode.l10n.t('start a brainstorm'),
    resume: () => vscode.l10n.t('resume a brainstorm'),
    answer: () => vscode.l10n.t('answer a brainstorm'),
    close: () => vscode.l10n.t('close the brainstorm'),
  };
  return new BrainstormController({
    service: () =>
      (service ??= Promise.resolve()
        .then(
          () =>
            new BrainstormService({
              store: workspace.workspaceStore(),
              llm: () => models.client(),
              clock: systemClock,
              role: roles,
              concurrency: () => settings().get<number>('concurrency', 3),
              inquisitorTimeoutMs: () => settings().get<number>('inquisitorTimeoutSeconds', 120) * 1000,
              prices: prices(),
              tools: sessionTools(workspace.workspaceStore(), undefined, filesExclude),
            }),
        )
        .catch((err: unknown) => {
          service = undefined;
          throw err;
        })),
    current: {
      async read() {
        if (!workspace.hasWorkspace) return undefined;
        const text = await workspace.workspaceStore().readText(CURRENT);
        if (text === undefined) return undefined;
        try {
          const slug = (JSON.parse(text) as { slug?: unknown }).slug;
          return typeof slug === 'string' && isSlug(slug) ? slug : undefined;
        } catch {
          log.warn(`brainstorm: ignored .groundwork/${CURRENT}: not valid JSON`);
          return undefined;
        }
      },
      async write(slug) {
        const store = workspace.workspaceStore();
        if (slug) await store.writeText(CURRENT, `${JSON.stringify({ slug })}\n`);
        else await store.remove(CURRENT);
      },
    },
    trusted: isTrusted,
    onTrustGranted: vscode.workspace.onDidGrantWorkspaceTrust,
    window: {
      allows: (action) => requireTrust(gates[action]()),
      setRunning: (running) =>
        void vscode.commands.executeCommand('setContext', 'groundwork.brainstormRunning', running),
      busy: () =>
        void vscode.window.showInformationMessage(
          vscode.l10n.t('A brainstorm step is running. Wait for it, or stop it in the Groundwork panel.'),
        ),
      completed: (slug) =>
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Brainstorm complete: {0}', slug), 5000),
      couldNotStart: (message) =>
        void vscode.window.showErrorMessage(vscode.l10n.t('The brainstorm could not start: {0}', message)),
      reveal: () => Promise.resolve(vscode.commands.executeCommand(`${AGENT_PANEL_ID}.focus`)),
      run: (command) =>
        Promise.resolve(
          vscode.commands.executeCommand(command === 'new' ? 'groundwork.brainstorm' : 'groundwork.brainstorm.resume'),
        ),
    },
    log,
    open: async (path) => {
      // The view names a path inside the workspace, e.g. `.groundwork/plans/x/00-brainstorming.md`.
      const prefix = '.groundwork/';
      if (path.startsWith(prefix)) await openInGroundwork(workspace, path.slice(prefix.length));
    },
    build: async (slug) => services.buildFrom?.({ kind: 'brainstorm', slug }),
  });
}
