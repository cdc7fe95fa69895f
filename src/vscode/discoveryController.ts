// The discovery conversation of the panel: runs turns through the core's DiscoveryService and
// streams the model's text to the panel. Everything a reload needs is in the workspace: the
// conversation in its round file (one fixed session id for the panel), a brief not yet saved in
// .groundwork/panel/brief.json. (VS Code's mementos are flushed lazily; a reload could lose them.)
import * as vscode from 'vscode';
import { LlmError } from '../core/llm/llmClient';
import type { DiscoveryApi, DiscoveryView, RoundView, TurnOptions, TurnResult } from '../core/discovery/discoveryTypes';
import { displayPath } from '../core/storage/workspaceStore';
import type { BriefFields, DiscoveryPanelView, RoundTranscript } from '../shared/protocol';
import type { DiscoveryPeek } from './discoveryPeek';
import { discoveryLanguage } from './localization';
import { planFileOf, type PendingBrief, type PendingRead } from './pendingBrief';
import { isTrusted, requireTrust } from './trust';
import { PENDING_BRIEF_FILE } from '../core/plan/layout';

/** The panel's conversation; the CLI's default is 'cli', so the two do not meet. */
export const PANEL_SESSION = 'panel';

export interface DiscoveryHost {
  /** The brief shown on the card until it is saved as a plan or discarded. */
  pending: { read(): Promise<PendingRead>; write(brief: PendingBrief | undefined): Promise<void> };
  service(): Promise<DiscoveryApi>;
  /** The panel's session as the workspace holds it, read without writing anything (Restricted Mode). */
  peek(): Promise<DiscoveryPeek>;
  log: vscode.LogOutputChannel;
  /** The state changed: send the panel a snapshot. */
  changed(): void;
  /** Model text as it streams. */
  text(chunk: string): void;
}

export class DiscoveryController implements vscode.Disposable {
  private state: DiscoveryPanelView = { status: 'idle' };
  private running: AbortController | undefined;
  private restored: Promise<void> | undefined;

  constructor(private readonly host: DiscoveryHost) {}

  /** What the panel shows now; the first call also restores a conversation left by a reload. */
  async view(): Promise<DiscoveryPanelView> {
    this.restored ??= this.restore();
    await this.restored;
    return this.state;
  }

  /** The folder was trusted: read it again as a trusted window does (expired sessions go now). */
  trustGranted(): void {
    if (this.running) return;
    this.restored = undefined;
    this.state = { status: 'idle' };
  }

  dispose(): void {
    this.running?.abort();
  }

  /** Text typed in the panel or given to "Discover Idea…". */
  async send(text: string, force: boolean): Promise<void> {
    if (this.state.status === 'running') return;
    if (!requireTrust(vscode.l10n.t('start a discovery'))) return;
    if (this.state.status === 'questions' || this.state.status === 'failed') {
      return this.turn((service, options) => service.handle(this.session(), text, options), text);
    }
    // A new conversation (a brief still on the card is replaced only when this one completes).
    const session = PANEL_SESSION;
    this.state = { status: 'running', request: text, round: 1, maxRounds: 3, rounds: [], streamed: '' };
    this.host.changed();
    await this.turn((service, options) => service.handle(session, text, { ...options, force }), text);
  }

  async answer(answers: string[], extra: string): Promise<void> {
    const lines = answers.map((a, i) => `${i + 1}. ${a.trim() || vscode.l10n.t('(no answer)')}`);
    const message = [...lines, ...(extra.trim() ? ['', extra.trim()] : [])].join('\n');
    await this.send(message, true);
  }

  async retry(): Promise<void> {
    const session = this.session();
    if (this.state.status === 'running') return;
    if (!requireTrust(vscode.l10n.t('start a discovery'))) return;
    await this.turn((service, options) => service.retry(session, options));
  }

  async cancel(): Promise<void> {
    if (!requireTrust(vscode.l10n.t('cancel the discovery'))) return;
    this.running?.abort();
    const service = await this.host.service();
    const result = await service.cancel(this.session(), discoveryLanguage());
    if (result) void vscode.window.setStatusBarMessage(result.message, 5000);
    await this.setContext(false);
    this.state = { status: 'idle' };
    this.host.changed();
  }

  async saveBrief(brief: BriefFields): Promise<void> {
    if (!requireTrust(vscode.l10n.t('save the brief as a plan'))) return;
    const read = await this.host.pending.read();
    if (read.kind !== 'ok') {
      // The file changed or broke since the card was drawn: show what it holds now.
      this.showPending(read);
      this.host.changed();
      return;
    }
    const pending = read.brief;
    const service = await this.host.service();
    // A brief with no fields (the model ignored the format) is saved as the model wrote it.
    const text = Object.values(brief).every((v) => !v.trim()) && pending.raw ? pending.raw : briefText(brief);
    const { path } = await service.saveBrief({
      brief: { ...brief, text },
      originalRequest: pending.request,
      transcript: pending.transcript.map((r) => ({ round: r.round, questionsText: r.questions.join('\n'), intro: '', questions: r.questions, ...(r.answer !== undefined ? { answer: r.answer } : {}) })),
    });
    const saved: PendingBrief = { ...pending, brief, savedAt: path };
    await this.host.pending.write(saved);
    this.state = { status: 'brief', ...saved, savedAt: path };
    this.host.changed();
  }

  /** The brief on the card as a saved plan (saved now if it was not yet), for "Brainstorm deeper". */
  async planForBrainstorm(): Promise<{ slug: string; topic: string } | undefined> {
    // Saving the brief writes: refused here, before saveBrief, in Restricted Mode.
    if (!requireTrust(vscode.l10n.t('brainstorm deeper'))) return undefined;
    if (this.state.status !== 'brief') return undefined;
    if (!this.state.savedAt) await this.saveBrief(this.state.brief);
    if (this.state.status !== 'brief' || !this.state.savedAt) return undefined;
    const plan = planFileOf(this.state.savedAt);
    const raw = this.state.raw?.split('\n').find((l) => l.trim()) ?? '';
    return plan ? { slug: plan.slug, topic: this.state.brief.summary.trim() || raw.trim() || this.state.request } : undefined;
  }

  async discard(): Promise<void> {
    if (!requireTrust(vscode.l10n.t('discard the brief'))) return;
    await this.host.pending.write(undefined);
    this.state = { status: 'idle' };
    this.host.changed();
  }

  /** The saved plan's brief, relative to `.groundwork/`, when the card shows one. */
  planFile(): string | undefined {
    const saved = this.state.status === 'brief' ? this.state.savedAt : undefined;
    return saved === undefined ? undefined : planFileOf(saved)?.rel;
  }

  private session(): string {
    return PANEL_SESSION;
  }

  private async restore(): Promise<void> {
    try {
      if (!isTrusted()) return await this.restoreReadOnly();
      // Making the service also removes round files older than the TTL, soon after the panel opens;
      // view() removes this one if it has expired.
      const service = await this.host.service();
      const view = await service.view(this.session());
      if (!view) {
        this.showPending(await this.host.pending.read());
        return;
      }
      this.state = conversation(view);
      await this.setContext(true);
    } catch (err) {
      this.host.log.warn('discovery: could not restore the conversation', err);
    }
  }

  /** Restricted Mode: what the workspace holds, read only; an expired session is left on disk. */
  private async restoreReadOnly(): Promise<void> {
    const peek = await this.host.peek();
    if (peek.kind === 'live') {
      this.state = conversation(peek.view);
      return;
    }
    if (peek.kind === 'unreadable') this.host.log.warn(`discovery: the panel's session could not be read: ${peek.reason}`);
    if (peek.kind === 'expired') this.host.log.info('discovery: the panel\'s session has expired; it is removed once the folder is trusted');
    this.showPending(await this.host.pending.read());
  }

  private showPending(read: PendingRead): void {
    if (read.kind === 'ok') this.state = { status: 'brief', ...read.brief };
    else if (read.kind === 'damaged') this.state = { status: 'damaged', file: displayPath(PENDING_BRIEF_FILE), reason: read.reason };
    else this.state = { status: 'idle' };
  }

  private async turn(run: (service: DiscoveryApi, options: TurnOptions) => Promise<TurnResult>, typed?: string): Promise<void> {
    const before = this.state;
    const abort = new AbortController();
    this.running = abort;
    const base =
      before.status === 'running' || before.status === 'questions' || before.status === 'failed'
        ? { request: before.request, round: before.round, maxRounds: before.maxRounds, rounds: before.rounds }
        : { request: typed ?? '', round: 1, maxRounds: 3, rounds: [] as RoundTranscript[] };
    // Answers to round N are being read: the next questions (or the brief) are round N+1's.
    const round = before.status === 'questions' ? Math.min(before.round + 1, base.maxRounds) : base.round;
    this.state = { status: 'running', request: base.request, round, maxRounds: base.maxRounds, rounds: base.rounds, streamed: '' };
    this.host.changed();
    try {
      const service = await this.host.service();
      const result = await run(service, {
        lang: discoveryLanguage(),
        signal: abort.signal,
        onText: (chunk) => {
          if (this.state.status === 'running') {
            const { retry: _waited, ...running } = this.state;
            this.state = { ...running, streamed: this.state.streamed + chunk };
          }
          this.host.text(chunk);
        },
        onRetry: (retry) => {
          if (this.state.status !== 'running') return;
          this.state = { ...this.state, retry: { attempt: retry.attempt, of: retry.of } };
          this.host.changed();
        },
      });
      await this.apply(result, typed);
    } catch (err) {
      if (abort.signal.aborted) return;
      const message = err instanceof LlmError ? err.message : err instanceof Error ? err.message : String(err);
      this.host.log.warn(`discovery: the model call failed: ${message}`);
      const view = await (await this.host.service()).view(this.session()).catch(() => undefined);
      if (!view) {
        // Nothing was saved (the first round of a new request): nothing to retry, start again.
        this.state = { status: 'idle' };
        void vscode.window.showErrorMessage(vscode.l10n.t('Discovery could not start: {0}', message));
      } else {
        const rounds = transcript(view.rounds);
        this.state = { status: 'failed', request: view.originalRequest, round: view.round, maxRounds: view.maxRounds, rounds, error: message };
      }
    } finally {
      if (this.running === abort) this.running = undefined;
      this.host.changed();
    }
  }

  private async apply(result: TurnResult, typed?: string): Promise<void> {
    const notices: string[] = [];
    if (result.expiredMessage) notices.push(result.expiredMessage);
    if (result.capped) notices.push(result.capped.message);
    const notice = notices.length ? { notice: notices.join(' ') } : {};
    const outcome = result.outcome;
    switch (outcome.kind) {
      case 'not-a-build':
        this.state = { status: 'idle', hint: true };
        return;
      case 'cancelled':
        await this.setContext(false);
        this.state = { status: 'idle' };
        void vscode.window.setStatusBarMessage(outcome.message, 5000);
        return;
      case 'stopped':
        // The person pressed Cancel while the model ran; cancel() has already ended the session.
        return;
      case 'questions': {
        const v = outcome.view;
        const rounds = transcript(v.rounds);
        this.state = { status: 'questions', request: v.originalRequest, round: v.round, maxRounds: v.maxRounds, rounds, questions: outcome.questions, message: outcome.message, ...notice };
        await this.setContext(true);
        return;
      }
      case 'complete': {
        const { text, ...fields } = outcome.brief;
        const pending: PendingBrief = {
          request: outcome.originalRequest || typed || '',
          brief: fields,
          ...(Object.values(fields).every((v) => !v.trim()) ? { raw: text } : {}),
          transcript: transcript(outcome.transcript),
          message: outcome.message,
        };
        await this.host.pending.write(pending);
        await this.setContext(false);
        this.state = { status: 'brief', ...pending };
        return;
      }
    }
  }

  private setContext(active: boolean): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', 'groundwork.discoveryActive', active);
  }
}

/** A session the round file holds, as the panel shows it after a reload. */
function conversation(view: DiscoveryView): DiscoveryPanelView {
  const rounds = transcript(view.rounds);
  const current = rounds.find((r) => r.round === view.round);
  return view.state === 'answer-pending'
    ? { status: 'failed', request: view.originalRequest, round: view.round, maxRounds: view.maxRounds, rounds, error: vscode.l10n.t('The window closed before the model answered.') }
    : { status: 'questions', request: view.originalRequest, round: view.round, maxRounds: view.maxRounds, rounds, questions: current?.questions ?? [], message: '' };
}

function transcript(rounds: RoundView[]): RoundTranscript[] {
  return rounds.map((r) => ({ round: r.round, questions: r.questions, ...(r.answer !== undefined ? { answer: r.answer } : {}) }));
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
