// Activation only registers: no file reads, no secrets, no SDK. Views read the workspace when
// they are first shown.
import * as vscode from 'vscode';
import { AgentPanel, AGENT_PANEL_ID } from './agentPanel';
import { registerCommands } from './commands';
import { registerBrainstormCommands } from './brainstormCommands';
import { createBrainstorm } from './brainstormSetup';
import { createDiscovery } from './discoverySetup';
import { registerModelCommands } from './llm/modelCommands';
import { ModelService } from './llm/modelService';
import { PlanExplorer, PLAN_EXPLORER_ID } from './planExplorer';
import { createRoleCache } from './roleCache';
import { WorkspaceModel } from './workspaceModel';

/** What `activate` returns: a handle for the in-VS Code tests, nothing a user relies on. */
export interface GroundworkApi {
  panel: Pick<AgentPanel, 'whenReady' | 'lastSnapshot' | 'ping'>;
  model: Pick<WorkspaceModel, 'refresh' | 'read'>;
  models: Pick<ModelService, 'status' | 'client'>;
}

export function activate(context: vscode.ExtensionContext): GroundworkApi {
  const log = vscode.window.createOutputChannel('Groundwork', { log: true });
  context.subscriptions.push(log);
  const model = new WorkspaceModel(vscode.workspace.workspaceFolders?.[0]);
  context.subscriptions.push(model);
  const models = new ModelService(context.secrets);
  context.subscriptions.push(models);
  let panel: AgentPanel | undefined;
  const roles = createRoleCache(context, model, log, (text) => panel?.showNotice(text));
  const discovery = createDiscovery(roles, model, models, log, () => panel);
  context.subscriptions.push(discovery);
  const brainstorm = createBrainstorm(roles, model, models, log, () => panel);
  context.subscriptions.push(brainstorm);
  panel = new AgentPanel(context.extensionUri, model, models, discovery, brainstorm, log);
  context.subscriptions.push(panel);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(AGENT_PANEL_ID, panel));
  const explorer = new PlanExplorer(model);
  context.subscriptions.push(explorer);
  context.subscriptions.push(vscode.window.createTreeView(PLAN_EXPLORER_ID, { treeDataProvider: explorer, showCollapseAll: true }));
  context.subscriptions.push(...registerCommands(model, discovery));
  context.subscriptions.push(...registerBrainstormCommands(model, brainstorm));
  context.subscriptions.push(...registerModelCommands(models, (check) => panel.showCheck(check)));
  return {
    panel: { whenReady: () => panel.whenReady(), lastSnapshot: () => panel.lastSnapshot(), ping: (t) => panel.ping(t) },
    model: { refresh: () => model.refresh(), read: () => model.read() },
    models: { status: () => models.status(), client: () => models.client() },
  };
}

export function deactivate(): void {}
