// Activation only registers: no file reads, no secrets, no SDK. Views read the workspace when
// they are first shown.
import * as vscode from 'vscode';
import { AgentPanel, AGENT_PANEL_ID } from './agentPanel';
import { registerCommands } from './commands';
import { PlanExplorer, PLAN_EXPLORER_ID } from './planExplorer';
import { WorkspaceModel } from './workspaceModel';

/** What `activate` returns: a handle for the in-VS Code tests, nothing a user relies on. */
export interface GroundworkApi {
  panel: Pick<AgentPanel, 'whenReady' | 'lastSnapshot' | 'ping'>;
  model: Pick<WorkspaceModel, 'refresh' | 'read'>;
}

export function activate(context: vscode.ExtensionContext): GroundworkApi {
  const log = vscode.window.createOutputChannel('Groundwork', { log: true });
  context.subscriptions.push(log);
  const model = new WorkspaceModel(vscode.workspace.workspaceFolders?.[0]);
  context.subscriptions.push(model);
  const panel = new AgentPanel(context.extensionUri, model, log);
  context.subscriptions.push(panel);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(AGENT_PANEL_ID, panel));
  const explorer = new PlanExplorer(model);
  context.subscriptions.push(explorer);
  context.subscriptions.push(vscode.window.createTreeView(PLAN_EXPLORER_ID, { treeDataProvider: explorer, showCollapseAll: true }));
  context.subscriptions.push(...registerCommands(model));
  return {
    panel: { whenReady: () => panel.whenReady(), lastSnapshot: () => panel.lastSnapshot(), ping: (t) => panel.ping(t) },
    model: { refresh: () => model.refresh(), read: () => model.read() },
  };
}

export function deactivate(): void {}
