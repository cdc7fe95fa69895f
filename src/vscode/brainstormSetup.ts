// Builds the brainstorm for this window. The core service (and through it the model client and the
// role files) is made on first use, not at activation.
import * as vscode from 'vscode';
import type { BrainstormApi } from '../core/brainstorm/brainstormTypes';
import { systemClock } from '../core/clock';
import { isSlug } from '../core/storage/safeNames';
import type { AgentPanel } from './agentPanel';
import { AGENT_PANEL_ID } from './agentPanel';
import { BrainstormController } from './brainstormController';
import { prices, type ModelService } from './llm/modelService';
import type { RoleLookup } from './roleCache';
import type { WorkspaceModel } from './workspaceModel';

/** Which brainstorm the panel shows, kept in the workspace so a reload shows it again. */
const CURRENT = 'panel/brainstorm.json';

export function createBrainstorm(roles: RoleLookup, model: WorkspaceModel, models: ModelService, log: vscode.LogOutputChannel, panel: () => AgentPanel | undefined): BrainstormController {
  let service: Promise<BrainstormApi> | undefined;
  const settings = () => vscode.workspace.getConfiguration('groundwork.brainstorm');
  const make = async (): Promise<BrainstormApi> => {
    const { BrainstormService } = await import('../core/brainstorm/brainstormService');
    return new BrainstormService({
      store: model.workspaceStore(),
      llm: () => models.client(),
      clock: systemClock,
      role: roles,
      concurrency: () => settings().get<number>('concurrency', 3),
      inquisitorTimeoutMs: () => settings().get<number>('inquisitorTimeoutSeconds', 120) * 1000,
      prices: prices(),
    });
  };
  return new BrainstormController({
    service: () => (service ??= make().catch((err: unknown) => {
      service = undefined;
      throw err;
    })),
    current: {
      async read() {
        if (!model.hasWorkspace) return undefined;
        const text = await model.workspaceStore().readText(CURRENT);
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
        const store = model.workspaceStore();
        if (slug) await store.writeText(CURRENT, `${JSON.stringify({ slug })}\n`);
        else await store.remove(CURRENT);
      },
    },
    log,
    changed: () => panel()?.refresh(),
    text: (chunk) => panel()?.appendText(chunk),
    reveal: () => vscode.commands.executeCommand(`${AGENT_PANEL_ID}.focus`),
  });
}
