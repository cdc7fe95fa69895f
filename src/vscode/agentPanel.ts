// The agent panel's host side: serves the document, waits for the panel's `ready`, then sends
// complete snapshots; every message from the panel is validated before it is acted on.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { displayPath } from '../core/storage/workspaceStore';
import { parseWebviewMessage, type DismissibleNotice, type HostMessage, type ModelView, type PanelState, type WebviewMessage } from '../shared/protocol';
import type { BrainstormController } from './brainstormController';
import { roundSettings } from './brainstormCommands';
import type { DiscoveryController } from './discoveryController';
import type { ModelCheck } from './llm/modelCommands';
import { describeUsage, type ModelService } from './llm/modelService';
import { panelStrings } from './localization';
import { panelHtml, makeNonce } from './panelHtml';
import { toPanelState } from './panelState';
import { manageTrust, requireTrust } from './trust';
import type { WorkspaceModel } from './workspaceModel';

export const AGENT_PANEL_ID = 'groundwork.agentPanel';

export class AgentPanel implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private seq = 0;
  private last: PanelState | undefined;
  private notice: PanelState['notice'];
  private check: ModelCheck | undefined;
  /** Said once per window, until dismissed (a workspace role override in use). */
  private readonly notices: DismissibleNotice[] = [];
  private noticeCount = 0;
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
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        // What Restricted Mode only read (or left unread) is restored as a trusted window does.
        discovery.trustGranted();
        brainstorm.trustGranted();
        void this.sendSnapshot();
      }),
    );
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

  /** An info notice the person closes; it stays (across snapshots) until then. */
  showNotice(text: string): void {
    this.notices.push({ id: `notice-${++this.noticeCount}`, text });
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
      notices: [...this.notices],
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
    if (message.type !== 'ready' && message.type !== 'pong' && message.type !== 'notice.dismiss') this.notice = undefined;
    // Each action that changes the workspace is refused where it starts in Restricted Mode: here
    // for the journal and sleepers, in the controllers for the rest (which commands reach too).
    // Whatever slips through is refused by the store (writeGuard.ts).
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
        if (!requireTrust(vscode.l10n.t('add to the journal'))) {
          this.post({ type: 'done', requestId: message.requestId, error: vscode.l10n.t('Not added: this folder is in Restricted Mode. Trust it to add discoveries.') });
          return;
        }
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
        const rel = this.discovery.planFile();
        if (rel) await this.openInside(rel);
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
        const prefix = displayPath('');
        if (path?.startsWith(prefix)) await this.openInside(path.slice(prefix.length));
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
        if (!requireTrust(vscode.l10n.t('wake an agent'))) return;
        await this.model.wake(message.agent, 'woken from the agent panel');
        return;
      case 'notice.dismiss': {
        const i = this.notices.findIndex((n) => n.id === message.id);
        if (i >= 0) this.notices.splice(i, 1);
        await this.sendSnapshot();
        return;
      }
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

  /**
   * Opens a file of `.groundwork/` (`rel` inside it) in the editor, only when it is a regular file
   * there: a link planted in a cloned repository must not make a panel button open a file elsewhere
   * on the disk (the store refuses a path that a link leads out of the folder).
   */
  private async openInside(rel: string): Promise<void> {
    const store = this.model.workspaceStore();
    const path = await store.resolve(rel);
    const info = await store.info(rel);
    if (info?.kind !== 'file') {
      throw new Error(vscode.l10n.t('{0} cannot be opened: it is missing, or not a plain file (a link or a folder). Check the plan folder.', displayPath(rel)));
    }
    await vscode.window.showTextDocument(vscode.Uri.file(path));
  }
}
