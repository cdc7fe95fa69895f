// The agent panel's host side: serves the document, waits for the panel's `ready`, sends the string
// table once and a snapshot of every feature, then each feature's slice when (and only when) it
// changed, and the streams of the sessions that run. Features register themselves (panelParts.ts);
// every message from the panel is validated by its feature's parser before that feature acts on it.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { PendingRequests, parseInbound, type FeatureId, type InboundSet } from '../../shared/protocol/common';
import {
  PANEL_INBOUND,
  type DismissibleNotice,
  type HostMessage,
  type Notice,
  type PanelMessage,
  type PanelSlice,
  type PanelSlices,
} from '../../shared/protocol/panel';
import { Disposable, DisposableStore, toDisposable, type DisposableLike } from '../base/lifecycle';
import { panelStrings } from '../base/localization';
import { panelHtml, makeNonce } from './panelHtml';
import type { PanelFeature, StreamChunk } from './panelParts';
import { manageTrust } from '../base/trust';

type AnyFeature = PanelFeature<FeatureId, { type: string }>;

export class AgentPanel extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /** The current view's subscriptions: gone with the view, or with the panel. */
  private viewStore: DisposableStore | undefined;
  /** True once the snapshot after `ready` is posted: until then nothing else is. */
  private live = false;
  private seq = 0;
  private readonly features = new Map<FeatureId, AnyFeature>();
  /** What the panel was last sent of each slice, as JSON: a change that changes nothing is not sent. */
  private readonly sent = new Map<FeatureId, string>();
  private last: Partial<PanelSlices> = {};
  private notice: Notice | undefined;
  /** Said once per window, until dismissed (a workspace role override in use). */
  private readonly notices: DismissibleNotice[] = [];
  private noticeCount = 0;
  private readonly readyWaiters: Array<() => void> = [];
  private readonly requests = new PendingRequests('host');

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hasWorkspace: boolean,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.postSlice('panel')));
    this._register(toDisposable(() => this.viewStore?.dispose()));
  }

  /** A feature's part of the panel; unregistered when the returned disposable is. */
  register<K extends FeatureId, M extends { type: string }>(feature: PanelFeature<K, M>): DisposableLike {
    const f = feature as unknown as AnyFeature;
    if (this.features.has(f.id) || f.id === 'panel') throw new Error(`the panel has a ${f.id} part already`);
    this.features.set(f.id, f);
    const subscriptions = new DisposableStore();
    subscriptions.add(f.onDidChange(() => this.postSlice(f.id)));
    if (f.onDidStream) subscriptions.add(f.onDidStream((chunk) => this.postChunk(chunk)));
    return this._register(
      toDisposable(() => {
        subscriptions.dispose();
        this.features.delete(f.id);
        this.sent.delete(f.id);
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.viewStore?.dispose();
    const store = (this.viewStore = new DisposableStore());
    this.view = view;
    this.live = false;
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
    store.add(webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    store.add(
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.live = false;
        }
        store.dispose();
      }),
    );
  }

  /** Resolves once a panel has said `ready` and has its snapshot (for tests and commands that need the panel). */
  whenReady(): Promise<void> {
    if (this.live) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Every slice as last sent to the panel. */
  lastSnapshot(): PanelSlices | undefined {
    return this.last.panel ? ({ ...this.last } as PanelSlices) : undefined;
  }

  /** Sends text through the protocol and resolves with the panel's echo. */
  async ping(text: string): Promise<string> {
    await this.whenReady();
    const { requestId, settled } = this.requests.open();
    this.post({ type: 'request', requestId, request: { kind: 'ping', text } });
    const outcome = await settled;
    return outcome.result ?? '';
  }

  /** An info notice the person closes; it stays until then. */
  showNotice(text: string): void {
    this.notices.push({ id: `notice-${++this.noticeCount}`, text });
    this.postSlice('panel');
  }

  private panelSlice(): PanelSlice {
    return {
      trusted: vscode.workspace.isTrusted,
      hasWorkspace: this.hasWorkspace,
      ...(this.notice ? { notice: this.notice } : {}),
      notices: [...this.notices],
    };
  }

  private slice(id: FeatureId): unknown {
    return id === 'panel' ? this.panelSlice() : this.features.get(id)?.current();
  }

  private post(message: HostMessage): void {
    if (!this.view) return;
    void this.view.webview.postMessage(message);
  }

  /** The feature's slice, when the panel has not got it yet. */
  private postSlice(id: FeatureId): void {
    if (!this.live) return;
    const state = this.slice(id);
    if (state === undefined) return;
    const json = JSON.stringify(state);
    if (this.sent.get(id) === json) return;
    this.sent.set(id, json);
    (this.last as Record<string, unknown>)[id] = state;
    this.post({ type: 'state', seq: ++this.seq, now: Date.now(), feature: id, state } as HostMessage);
  }

  private postChunk(chunk: StreamChunk): void {
    if (!this.live) return;
    if (chunk.kind === 'text')
      this.post({ type: 'append', seq: ++this.seq, stream: chunk.stream, at: chunk.at, text: chunk.text });
    else this.post({ type: 'tool', seq: ++this.seq, stream: chunk.stream, line: chunk.line });
  }

  /** Every slice at once: after `ready`, and when the panel missed something. */
  private async sendSnapshot(): Promise<void> {
    const view = this.view;
    await Promise.all(
      [...this.features.values()].map((f) =>
        f.load().catch((err: unknown) => this.log.error(`agent panel: the ${f.id} part could not load`, err)),
      ),
    );
    if (!view || this.view !== view) return;
    // Taken in one go, after every await: what changes from here on is sent after the snapshot.
    const slices = Object.fromEntries(
      (['panel', ...this.features.keys()] as FeatureId[]).map((id) => [id, this.slice(id)]),
    ) as unknown as PanelSlices;
    this.sent.clear();
    for (const [id, state] of Object.entries(slices))
      if (state !== undefined) this.sent.set(id as FeatureId, JSON.stringify(state));
    this.last = { ...slices };
    this.post({ type: 'snapshot', seq: ++this.seq, now: Date.now(), slices });
    this.live = true;
  }

  private receive(raw: unknown): void {
    const sets = [PANEL_INBOUND, ...[...this.features.values()].map((f) => f.inbound)] as InboundSet<{
      type: string;
    }>[];
    const parsed = parseInbound(sets, raw);
    if (!parsed.ok) {
      this.log.warn(`agent panel: ignored a message: ${parsed.error}`);
      return;
    }
    const message = parsed.message as { type: string; requestId?: string };
    // An error notice stays until the person does something else.
    if (!['ready', 'resync', 'response', 'notice.dismiss'].includes(message.type) && this.notice) {
      this.notice = undefined;
      this.postSlice('panel');
    }
    const feature =
      parsed.feature === 'panel' || parsed.feature === undefined ? undefined : this.features.get(parsed.feature);
    const done = feature ? feature.handle(message) : this.handle(message as PanelMessage);
    done.then(
      () => {
        if (message.requestId !== undefined && message.type !== 'response')
          this.post({ type: 'response', requestId: message.requestId });
      },
      (err: unknown) => {
        const text = err instanceof Error ? err.message : String(err);
        this.log.warn(`agent panel: ${message.type} failed: ${text}`);
        // A request says what went wrong in its answer; anything else, in the panel's notice.
        if (message.requestId !== undefined)
          return this.post({ type: 'response', requestId: message.requestId, error: text });
        this.notice = { kind: 'error', text };
        this.postSlice('panel');
      },
    );
  }

  private async handle(message: PanelMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.live = false;
        this.post({ type: 'strings', strings: panelStrings() });
        await this.sendSnapshot();
        for (const resolve of this.readyWaiters.splice(0)) resolve();
        return;
      case 'resync':
        if (this.live) await this.sendSnapshot();
        return;
      case 'response':
        this.requests.settle(message.requestId, message);
        return;
      case 'notice.dismiss': {
        const i = this.notices.findIndex((n) => n.id === message.id);
        if (i >= 0) this.notices.splice(i, 1);
        this.postSlice('panel');
        return;
      }
      case 'panel.command':
        if (message.command === 'manageTrust') await manageTrust();
        else await vscode.commands.executeCommand('workbench.action.files.openFolder');
        return;
    }
  }
}
