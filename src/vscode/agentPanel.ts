// The agent panel's host side: serves the document, waits for the panel's `ready`, then sends
// complete snapshots; every message from the panel is validated before it is acted on.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { parseWebviewMessage, type HostMessage, type ModelView, type PanelState, type WebviewMessage } from '../shared/protocol';
import type { BrainstormController } from './brainstormController';
import { roundSettings } from './brainstormCommands';
import type { DiscoveryController } from './discoveryController';
import type { ModelCheck } from './llm/modelCommands';
import { describeUsage, type ModelService } from './llm/modelService';
import { panelStrings } from './localization';
import { panelHtml, makeNonce } from './panelHtml';
import { toPanelState } from './panelState';
import { manageTrust } from './trust';
import type { WorkspaceModel } from './workspaceModel';

export const AGENT_PANEL_ID = 'groundwork.agentPanel';

export class AgentPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private seq = 0;
  private last: PanelState | undefined;
  private notice: PanelState['notice'];
  private check: ModelCheck | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly readyWaiters: Array<() => void> = [];
  private readonly pongs = new Map<string, (text: string) => void>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly model: WorkspaceModel,
    private readonly models: ModelService,
    private readonly discovery: DiscoveryController,
    private readonly brainstorm: BrainstormController,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(model.onDidChange(() => void this.sendSnapshot()));
    this.disposables.push(models.onDidChange(() => void this.sendSnapshot()));
    this.disposables.push(model.onDidTick(() => this.view?.visible && void this.sendSnapshot()));
    this.disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.sendSnapshot()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    const webview = view.webview;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css')).toString(),
      codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
      lang: vscode.env.language,
    });
    const subscriptions = [
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        this.ready = false;
        for (const d of subscriptions) d.dispose();
      }),
    ];
  }

  /** Resolves once a panel has said `ready` (for tests and commands that need the panel). */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  lastSnapshot(): PanelState | undefined {
    return this.last;
  }

  /** Sends text through the protocol and resolves with the panel's echo. */
  async ping(text: string): Promise<string> {
    await this.whenReady();
    const id = `ping-${Date.now()}-${this.pongs.size}`;
    return new Promise((resolve) => {
      this.pongs.set(id, resolve);
      this.post({ type: 'ping', id, text });
    });
  }

  /** Model text of a discovery turn, numbered in the snapshots' sequence. */
  appendText(text: string): void {
    this.post({ type: 'append', seq: ++this.seq, text });
  }

  /** Sends a snapshot now (the discovery conversation changed). */
  refresh(): void {
    void this.sendSnapshot();
  }

  /** Shows the outcome of "Check Model Connection" beside the model. */
  showCheck(check: ModelCheck): void {
    this.check = check;
    void this.sendSnapshot();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async modelView(): Promise<ModelView> {
    const check = this.check ? { check: this.check } : {};
    const status = await this.models.status().catch((err: unknown) => {
      this.log.warn('agent panel: could not tell which model is in use', err);
      return { kind: 'onboarding' as const, need: 'either' as const };
    });
    if (status.kind === 'onboarding') return { status: 'onboarding', need: status.need, ...check };
    const usage = describeUsage(this.models.ledger);
    return { status: 'ready', provider: status.provider, ...status.models, ...(usage ? { usage } : {}), ...check };
  }

  private post(message: HostMessage): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(message);
  }

  private async sendSnapshot(): Promise<void> {
    if (!this.view || !this.ready) return;
    const [view, model, discovery, brainstorm] = await Promise.all([this.model.read(), this.modelView(), this.discovery.view(), this.brainstorm.view()]);
    const state = toPanelState(view, {
      trusted: vscode.workspace.isTrusted,
      hasWorkspace: this.model.hasWorkspace,
      now: Date.now(),
      model,
      discovery,
      brainstorm,
      notice: this.notice,
    });
    this.last = state;
    this.post({ type: 'snapshot', seq: ++this.seq, state, strings: panelStrings() });
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`agent panel: ignored a message: ${parsed.error}`);
      return;
    }
    this.handle(parsed.message).catch((err: unknown) => {
      this.log.error(`agent panel: ${parsed.message.type} failed`, err);
      this.notice = { kind: 'error', text: err instanceof Error ? err.message : String(err) };
      void this.sendSnapshot();
    });
  }

  private async handle(message: WebviewMessage): Promise<void> {
    // An error notice stays until the user does something else.
    if (message.type !== 'ready' && message.type !== 'pong') this.notice = undefined;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        await this.sendSnapshot();
        for (const resolve of this.readyWaiters.splice(0)) resolve();
        return;
      case 'pong': {
        const resolve = this.pongs.get(message.id);
        this.pongs.delete(message.id);
        resolve?.(message.text);
        return;
      }
      case 'journal.add': {
        let error: string | undefined;
        try {
          await this.model.addJournalEntry(message.title, message.description);
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
          this.log.warn(`agent panel: journal entry not added: ${error}`);
        }
        this.post({ type: 'done', requestId: message.requestId, ...(error ? { error } : {}) });
        return;
      }
      case 'discovery.send':
      case 'discovery.start':
        await this.discovery.send(message.text, message.type === 'discovery.start');
        return;
      case 'discovery.answer':
        await this.discovery.answer(message.answers, message.extra);
        return;
      case 'discovery.cancel':
        await this.discovery.cancel();
        return;
      case 'discovery.retry':
        await this.discovery.retry();
        return;
      case 'brief.save':
        await this.discovery.saveBrief(message.brief);
        return;
      case 'brief.discard':
        await this.discovery.discard();
        return;
      case 'brief.open': {
        const uri = this.model.root && this.discovery.planUri(this.model.root);
        if (uri) await vscode.window.showTextDocument(uri);
        return;
      }
      case 'brainstorm.answer':
        await this.brainstorm.answer(message.answers, message.action);
        return;
      case 'brainstorm.retry':
        await this.brainstorm.retry();
        return;
      case 'brainstorm.stop':
        this.brainstorm.stop();
        return;
      case 'brainstorm.close':
        await this.brainstorm.close();
        return;
      case 'brainstorm.open': {
        const path = this.brainstorm.filePath(message.file);
        if (this.model.root && path) await vscode.window.showTextDocument(vscode.Uri.joinPath(this.model.root, ...path.split('/')));
        return;
      }
      case 'brainstorm.deeper': {
        const plan = await this.discovery.planForBrainstorm();
        if (plan) await this.brainstorm.start(plan.topic, { ...roundSettings(), seedFrom: plan.slug });
        return;
      }
      case 'resync':
        await this.sendSnapshot();
        return;
      case 'sleep.wake':
        await this.model.wake(message.agent, 'woken from the agent panel');
        return;
      case 'command':
        switch (message.command) {
          case 'manageTrust':
            await manageTrust();
            return;
          case 'openJournal':
            await vscode.commands.executeCommand('groundwork.journal.open');
            return;
          case 'openFolder':
            await vscode.commands.executeCommand('workbench.action.files.openFolder');
            return;
          case 'setApiKey':
          case 'selectModel':
          case 'checkModel':
            await vscode.commands.executeCommand(`groundwork.${message.command}`);
            return;
          case 'brainstorm':
            await vscode.commands.executeCommand('groundwork.brainstorm');
            return;
          case 'resumeBrainstorm':
            await vscode.commands.executeCommand('groundwork.brainstorm.resume');
            return;
          case 'findChatModels':
            await vscode.commands.executeCommand('workbench.extensions.search', '@category:"AI" language model');
            return;
        }
    }
  }
}
