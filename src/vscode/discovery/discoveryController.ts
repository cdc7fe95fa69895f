// The panel's discovery conversation: routes the panel's messages and the commands to the core's
// DiscoveryService, keeps the core's data (the session of the round file, or the brief it left)
// and what only a running window knows (the text streaming in, the tool calls, the last failure),
// and derives its slice from both with the core's discoveryView. Everything a reload needs is in
// the workspace: the conversation in its round file (one fixed session id for the panel), a brief
// not yet saved in .groundwork/panel/brief.json. What it asks of VS Code goes through `ports`
// (discoveryFeature.ts): no vscode import, unit-tested (test/unit/vscode/discovery/discoveryController.test.ts).
import type * as vscode from 'vscode';
import type {
  BriefFields,
  DiscoveryApi,
  DiscoveryLanguage,
  TurnOptions,
  TurnResult,
} from '../../core/discovery/discoveryTypes';
import {
  discoveryView,
  transcriptOf,
  type DiscoveryLive,
  type DiscoverySource,
} from '../../core/discovery/discoveryView';
import { PANEL_SESSION, PENDING_BRIEF_FILE } from '../../core/plan/layout';
import { displayPath } from '../../core/storage/workspaceStore';
import { toolLine } from '../../core/tools/toolLines';
import { discoveryStream, type DiscoveryMessage, type DiscoveryPanelView } from '../../shared/protocol/discovery';
import type { DiscoveryPeek } from './discoveryPeek';
import { Disposable, Emitter } from '../base/lifecycle';
import type { FeatureController, StreamChunk } from '../panel/panelParts';
import { planFileOf, type PendingBrief, type PendingRead } from './pendingBrief';

/** The actions refused in Restricted Mode, where each starts (the window says why). */
export type DiscoveryGate = 'start' | 'cancel' | 'save' | 'deeper' | 'build' | 'discard';

/** What the conversation asks of the window. */
export interface DiscoveryWindow {
  /** False in Restricted Mode, after telling the person why. */
  allows(action: DiscoveryGate): boolean;
  /** The `groundwork.discoveryActive` context key (Cancel in the palette). */
  setActive(active: boolean): void;
  /** A passing word (the status bar). */
  say(message: string): void;
  /** A first message that could not be sent: nothing was saved, so nothing to retry. */
  couldNotStart(message: string): void;
  language(): DiscoveryLanguage;
  /** "(no answer)", for a question left empty. */
  noAnswer(): string;
}

export interface DiscoveryPorts {
  service(): Promise<DiscoveryApi>;
  /** The brief shown on the card until it is saved as a plan or discarded. */
  pending: { read(): Promise<PendingRead>; write(brief: PendingBrief | undefined): Promise<void> };
  /** The panel's session as the workspace holds it, read without writing anything (Restricted Mode). */
  peek(): Promise<DiscoveryPeek>;
  trusted(): boolean;
  /** Fires when the folder becomes trusted. */
  onTrustGranted: vscode.Event<void>;
  window: DiscoveryWindow;
  log: { info(message: string): void; warn(message: string, err?: unknown): void };
  /** Opens a file of `.groundwork/` (relative to it) in the editor. */
  open(rel: string): Promise<void>;
  /** Brainstorms a saved plan (the brainstorm's business, offered through the host's services). */
  brainstorm(plan: { slug: string; topic: string }): Promise<void>;
  /** Builds from a saved brief, behind the build's confirmation gate (the build's business, through the host's services). */
  build(brief: { kind: 'brief'; path: string }): Promise<void>;
}

export class DiscoveryController extends Disposable implements FeatureController<DiscoveryPanelView, DiscoveryMessage> {
  private source: DiscoverySource = { kind: 'none' };
  private live: DiscoveryLive = {};
  private view: DiscoveryPanelView = discoveryView(this.source);
  private running: AbortController | undefined;
  private restored: Promise<void> | undefined;
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly streamed = this._register(new Emitter<StreamChunk>());
  readonly onDidStream = this.streamed.event;

  constructor(private readonly ports: DiscoveryPorts) {
    super();
    this._register(ports.onTrustGranted(() => this.trustGranted()));
    this._register({ dispose: () => this.running?.abort() });
  }

  get state(): DiscoveryPanelView {
    return this.view;
  }

  /** What a reload left, read once (again after the folder is trusted). */
  restore(): Promise<void> {
    return (this.restored ??= this.readBack().then(() => this.update({})));
  }

  async handle(message: DiscoveryMessage): Promise<void> {
    switch (message.type) {
      case 'discovery.send':
        return this.send(message.text, false);
      case 'discovery.start':
        return this.send(message.text, true);
      case 'discovery.answer':
        return this.answer(message.answers, message.extra);
      case 'discovery.cancel':
        return this.cancel();
      case 'discovery.retry':
        return this.retry();
      case 'brief.save':
        return this.saveBrief(message.brief);
      case 'brief.discard':
        return this.discard();
      case 'brief.open': {
        const rel = this.planFile();
        if (rel) await this.ports.open(rel);
        return;
      }
      case 'brief.brainstorm': {
        const plan = await this.planForBrainstorm();
        if (plan) await this.ports.brainstorm(plan);
        return;
      }
      case 'brief.build': {
        const card = await this.savedCard('build');
        if (card?.savedAt) await this.ports.build({ kind: 'brief', path: card.savedAt });
        return;
      }
    }
  }

  /** Text typed in the panel or given to "Discover Idea…": answers the questions shown, or starts a conversation. */
  async send(text: string, force: boolean): Promise<void> {
    if (this.view.status === 'running' || !this.ports.window.allows('start')) return;
    const session = PANEL_SESSION;
    // With questions (or a failed answer) on screen, the text answers them; else it is a new request
    // (a brief still on the card is replaced only when this one completes).
    const answering = this.view.status === 'questions' || this.view.status === 'failed';
    await this.turn(
      (service, options) => service.handle(session, text, answering ? options : { ...options, force }),
      text,
    );
  }

  async answer(answers: string[], extra: string): Promise<void> {
    const lines = answers.map((a, i) => `${i + 1}. ${a.trim() || this.ports.window.noAnswer()}`);
    await this.send([...lines, ...(extra.trim() ? ['', extra.trim()] : [])].join('\n'), true);
  }

  async retry(): Promise<void> {
    if (this.view.status === 'running' || !this.ports.window.allows('start')) return;
    await this.turn((service, options) => service.retry(PANEL_SESSION, options));
  }

  async cancel(): Promise<void> {
    if (!this.ports.window.allows('cancel')) return;
    this.running?.abort();
    const service = await this.ports.service();
    const result = await service.cancel(PANEL_SESSION, this.ports.window.language());
    if (result) this.ports.window.say(result.message);
    this.ports.window.setActive(false);
    this.update({ source: { kind: 'none' }, live: {} });
  }

  async saveBrief(brief: BriefFields): Promise<void> {
    if (!this.ports.window.allows('save')) return;
    const read = await this.ports.pending.read();
    if (read.kind !== 'ok') {
      // The file changed or broke since the card was drawn: show what it holds now.
      return this.update({ source: pendingSource(read), live: {} });
    }
    const pending = read.brief;
    const service = await this.ports.service();
    // A brief with no fields (the model ignored the format) is saved as the model wrote it.
    const text = Object.values(brief).every((v) => !v.trim()) && pending.raw ? pending.raw : briefText(brief);
    const { path } = await service.saveBrief({
      brief: { ...brief, text },
      originalRequest: pending.request,
      transcript: pending.transcript.map((r) => ({
        round: r.round,
        questionsText: r.questions.join('\n'),
        intro: '',
        questions: r.questions,
        ...(r.answer !== undefined ? { answer: r.answer } : {}),
      })),
    });
    const saved: PendingBrief = { ...pending, brief, savedAt: path };
    await this.ports.pending.write(saved);
    this.update({ source: { kind: 'brief', card: saved }, live: {} });
  }

  /** The brief on the card as a saved plan (saved now if it was not yet), for "Brainstorm Deeper". */
  async planForBrainstorm(): Promise<{ slug: string; topic: string } | undefined> {
    const card = await this.savedCard('deeper');
    if (!card?.savedAt) return undefined;
    const plan = planFileOf(card.savedAt);
    const raw = card.raw?.split('\n').find((l) => l.trim()) ?? '';
    return plan ? { slug: plan.slug, topic: card.brief.summary.trim() || raw.trim() || card.request } : undefined;
  }

  /** The brief on the card, saved as a plan first when it is not yet (refused, before saveBrief writes, in Restricted Mode). */
  private async savedCard(gate: 'deeper' | 'build'): Promise<PendingBrief | undefined> {
    if (!this.ports.window.allows(gate) || this.source.kind !== 'brief') return undefined;
    if (!this.source.card.savedAt) await this.saveBrief(this.source.card.brief);
    return this.source.kind === 'brief' && this.source.card.savedAt ? this.source.card : undefined;
  }

  async discard(): Promise<void> {
    if (!this.ports.window.allows('discard')) return;
    await this.ports.pending.write(undefined);
    this.update({ source: { kind: 'none' }, live: {} });
  }

  /** The saved plan's brief, relative to `.groundwork/`, when the card shows one. */
  planFile(): string | undefined {
    const saved = this.source.kind === 'brief' ? this.source.card.savedAt : undefined;
    return saved === undefined ? undefined : planFileOf(saved)?.rel;
  }

  /** The folder was trusted: read it again as a trusted window does (expired sessions go now). */
  trustGranted(): void {
    if (this.running) return;
    this.restored = undefined;
    this.source = { kind: 'none' };
    this.live = {};
    void this.restore();
  }

  private update(next: { source?: DiscoverySource; live?: DiscoveryLive }, quiet = false): void {
    if (next.source) this.source = next.source;
    if (next.live) this.live = next.live;
    this.view = discoveryView(this.source, this.live);
    if (!quiet) this.changed.fire();
  }

  private async readBack(): Promise<void> {
    try {
      if (!this.ports.trusted()) return await this.readBackReadOnly();
      // Making the service also removes round files older than the TTL, soon after the panel opens;
      // view() removes this one if it has expired.
      const service = await this.ports.service();
      const view = await service.view(PANEL_SESSION);
      if (!view) {
        this.source = pendingSource(await this.ports.pending.read());
        return;
      }
      this.source = { kind: 'session', view };
      this.ports.window.setActive(true);
    } catch (err) {
      this.ports.log.warn('discovery: could not restore the conversation', err);
    }
  }

  /** Restricted Mode: what the workspace holds, read only; an expired session is left on disk. */
  private async readBackReadOnly(): Promise<void> {
    const peek = await this.ports.peek();
    if (peek.kind === 'live') {
      this.source = { kind: 'session', view: peek.view };
      return;
    }
    if (peek.kind === 'unreadable')
      this.ports.log.warn(`discovery: the panel's session could not be read: ${peek.reason}`);
    if (peek.kind === 'expired')
      this.ports.log.info("discovery: the panel's session has expired; it is removed once the folder is trusted");
    this.source = pendingSource(await this.ports.pending.read());
  }

  private async turn(
    run: (service: DiscoveryApi, options: TurnOptions) => Promise<TurnResult>,
    typed?: string,
  ): Promise<void> {
    const abort = new AbortController();
    this.running = abort;
    const stream = discoveryStream(PANEL_SESSION);
    this.update({ live: { turn: { request: typed ?? '', streamed: '', tools: [] } } });
    let service: DiscoveryApi | undefined;
    try {
      service = await this.ports.service();
      const result = await run(service, {
        lang: this.ports.window.language(),
        signal: abort.signal,
        onText: (text) => {
          const turn = this.live.turn;
          if (!turn || this.running !== abort) return;
          const { retry, ...rest } = turn;
          this.update(
            { live: { ...this.live, turn: { ...rest, streamed: turn.streamed + text } } },
            retry === undefined,
          );
          this.streamed.fire({ stream, kind: 'text', at: turn.streamed.length, text });
        },
        onRetry: (retry) => {
          const turn = this.live.turn;
          if (!turn || this.running !== abort) return;
          this.update({ live: { ...this.live, turn: { ...turn, retry: { attempt: retry.attempt, of: retry.of } } } });
        },
        onTool: (activity) => {
          const turn = this.live.turn;
          if (!turn || this.running !== abort) return;
          this.update({ live: { ...this.live, turn: { ...turn, tools: [...turn.tools, activity] } } }, true);
          this.streamed.fire({ stream, kind: 'tool', line: toolLine(activity) });
        },
      });
      await this.apply(result, typed);
    } catch (err) {
      if (abort.signal.aborted) return;
      const message = err instanceof Error ? err.message : String(err);
      this.ports.log.warn(`discovery: the model call failed: ${message}`);
      const view = await service?.view(PANEL_SESSION).catch(() => undefined);
      if (!view) {
        // Nothing was saved (the first round of a new request): nothing to retry, start again.
        this.ports.window.couldNotStart(message);
        this.update({ source: { kind: 'none' }, live: {} });
      } else {
        this.update({ source: { kind: 'session', view }, live: { failure: { reason: 'error', error: message } } });
      }
    } finally {
      if (this.running === abort) this.running = undefined;
      // A turn that ended any other way (a stop) shows no longer as running.
      if (this.live.turn) this.update({ live: {} });
    }
  }

  private async apply(result: TurnResult, typed: string | undefined): Promise<void> {
    const notices = [result.expiredMessage, result.capped?.message].filter((n): n is string => Boolean(n));
    const outcome = result.outcome;
    switch (outcome.kind) {
      case 'not-a-build':
        return this.update({ source: { kind: 'none' }, live: { hint: true } });
      case 'cancelled':
      case 'expired':
        this.ports.window.setActive(false);
        this.ports.window.say(outcome.message);
        return this.update({ source: { kind: 'none' }, live: {} });
      case 'stopped':
        // The person pressed Cancel while the model ran; cancel() ends the session.
        return;
      case 'questions':
        this.ports.window.setActive(true);
        return this.update({
          source: { kind: 'session', view: outcome.view, message: outcome.message },
          live: notices.length ? { notice: notices.join(' ') } : {},
        });
      case 'complete': {
        const { text, ...fields } = outcome.brief;
        const card: PendingBrief = {
          request: outcome.originalRequest || typed || '',
          brief: fields,
          ...(Object.values(fields).every((v) => !v.trim()) ? { raw: text } : {}),
          transcript: transcriptOf({ rounds: outcome.transcript }),
          message: outcome.message,
        };
        await this.ports.pending.write(card);
        this.ports.window.setActive(false);
        return this.update({ source: { kind: 'brief', card }, live: {} });
      }
    }
  }
}

function pendingSource(read: PendingRead): DiscoverySource {
  if (read.kind === 'ok') return { kind: 'brief', card: read.brief };
  if (read.kind === 'damaged') return { kind: 'damaged', file: displayPath(PENDING_BRIEF_FILE), reason: read.reason };
  return { kind: 'none' };
}

/** The brief as markdown, as the user edited it, in the order the brief lists its fields. */
function briefText(b: BriefFields): string {
  return [
    `One-line summary: ${b.summary}`,
    `Problem: ${b.problem}`,
    `Users: ${b.users}`,
    `MVP scope: ${b.mvpScope}`,
    `Technology: ${b.technology}`,
    `Out of scope: ${b.outOfScope}`,
    `Key decisions: ${b.keyDecisions}`,
    `Constraints: ${b.constraints}`,
  ].join('\n');
}
