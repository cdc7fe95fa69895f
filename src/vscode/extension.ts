// The composition root: every adapter is made here, once (the workspace's file system and store,
// the model clients, the bundled roles), and handed to the features, which register themselves
// (contributions.ts). Activation only registers: no file reads, no secrets, no SDK, and the
// discovery and brainstorm code is not even loaded until first used.
import * as vscode from 'vscode';
import { bundledRoleSource } from '../core/node/roleFiles';
import { NodeWorkspaceFs } from '../core/node/nodeWorkspaceFs';
import { WorkspaceStore } from '../core/storage/workspaceStore';
import { AgentPanel } from './panel/agentPanel';
import { CONTRIBUTIONS } from './contributions';
import type { Host } from './host';
import { LanguageModelClient } from './llm/languageModelClient';
import { ModelService } from './llm/modelService';
import { RoleCache } from './base/roleCache';
import { isTrusted } from './base/trust';
import { chosenFolder } from './base/folderChoice';
import { WorkspaceModel } from './base/workspaceModel';
import { ExplorerGroups } from './explorer/explorerGroups';
import { writeGuardedFs } from './base/writeGuard';

export { MAIN_MODULES as __mainModules } from './bundles';

/** What `activate` returns: a handle for the in-VS Code tests, nothing a user relies on. */
export interface GroundworkApi {
  panel: Pick<AgentPanel, 'whenReady' | 'lastSnapshot' | 'ping'>;
  model: Pick<WorkspaceModel, 'refresh' | 'read'>;
  models: Pick<ModelService, 'status' | 'client'>;
  /** VS Code's markdown preview calls this (package.json: markdown.markdownItPlugins): the spec annotations' plugin. */
  extendMarkdownIt<T>(md: T): T;
  /** What Groundwork last drew in an editor's spec annotations, for the in-VS Code tests. */
  annotationsDrawn(editor: vscode.TextEditor): unknown;
}

export function activate(context: vscode.ExtensionContext): GroundworkApi {
  const log = vscode.window.createOutputChannel('Groundwork', { log: true });
  context.subscriptions.push(log);
  // The folder Groundwork works in: the one chosen for this workspace, else the first (folderChoice.ts).
  const folder = chosenFolder(context.workspaceState);
  // The window's stores refuse every write while the folder is not trusted (writeGuard.ts).
  const fs = writeGuardedFs(new NodeWorkspaceFs(), isTrusted);
  const storeFor = (f: vscode.WorkspaceFolder) =>
    f.uri.scheme === 'file' ? new WorkspaceStore(fs, f.uri.fsPath) : undefined;
  const store = folder && storeFor(folder);
  const workspace = own(context, new WorkspaceModel(folder, store));
  const models = own(
    context,
    new ModelService(context.secrets, {
      // The SDK and the client around it load on the first call.
      anthropic: async (options) => new (await import('../core/node/anthropicClient')).AnthropicClient(options),
      languageModel: (options) => new LanguageModelClient(vscode, options),
    }),
  );
  const panel = own(context, new AgentPanel(context.extensionUri, store !== undefined, log));
  const roles = own(
    context,
    new RoleCache({
      bundled: bundledRoleSource(context.extensionUri.fsPath),
      workspace,
      log,
      notify: (text) => panel.showNotice(text),
    }),
  );
  const explorer = own(context, new ExplorerGroups());
  const host: Host = { context, log, workspace, storeFor, models, roles: roles.lookup, panel, explorer, services: {} };
  for (const contribution of CONTRIBUTIONS)
    context.subscriptions.push(contribution.register(host) as vscode.Disposable);
  return {
    panel: { whenReady: () => panel.whenReady(), lastSnapshot: () => panel.lastSnapshot(), ping: (t) => panel.ping(t) },
    model: { refresh: () => workspace.refresh(), read: () => workspace.read() },
    models: { status: () => models.status(), client: () => models.client() },
    extendMarkdownIt: (md) => host.services.extendMarkdownIt?.(md) ?? md,
    annotationsDrawn: (editor) => host.services.annotationsDrawn?.(editor),
  };
}

export function deactivate(): void {}

function own<T extends vscode.Disposable | { dispose(): unknown }>(context: vscode.ExtensionContext, item: T): T {
  context.subscriptions.push(item as vscode.Disposable);
  return item;
}
