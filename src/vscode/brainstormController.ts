// The brainstorm in the agent panel: runs steps through the core's BrainstormService and turns the
// session into the panel's view. Which brainstorm the panel shows is kept in the workspace
// (.groundwork/panel/brainstorm.json), and the brainstorm itself in its plan folder, so a reload
// shows the same form with nothing lost.
import * as vscode from 'vscode';
import { nextTask } from '../core/brainstorm/brainstormMachine';
import { BrainstormError } from '../core/brainstorm/brainstormTypes';
import type { Answer, BrainstormApi, BrainstormProgress, BrainstormSession, RoundAction, StartOptions } from '../core/brainstorm/brainstormTypes';
import { LlmError } from '../core/llm/llmClient';
import type { BrainstormInquisitorState, BrainstormPanelView, BrainstormRoundView } from '../shared/protocol';
import { isTrusted, requireTrust } from './trust';
import { PLAN_FILES, planDisplayPath } from '../core/plan/layout';

export interface BrainstormHost {
  service(): Promise<BrainstormApi>;
  /** The slug the panel shows, kept in the workspace. */
  current: { read(): Promise<string | undefined>; write(slug: string | undefined): Promise<void> };
  log: vscode.LogOutputChannel;
  /** The state changed: send the panel a snapshot. */
  changed(): void;
  /** Model text as it streams. */
  text(chunk: string): void;
  /** Shows the panel. */
  reveal(): Thenable<unknown>;
}

type Running = Extract<BrainstormPanelView, { status: 'running' }>;
type Header = Omit<Running, 'status' | 'step' | 'streamed'>;

export class BrainstormController implements vscode.Disposable {
  private state: BrainstormPanelView = { status: 'none' };
  private running: AbortController | undefined;
  private restored: Promise<void> | undefined;
  private notice: string | undefined;

  constructor(private readonly host: BrainstormHost) {}

  async view(): Promise<BrainstormPanelView> {
    this.restored ??= this.restore();
    await this.restored;
    return this.state;
  }

  /** The folder was trusted: show the panel's brainstorm, which Restricted Mode left unread. */
  trustGranted(): void {
    if (this.busy) return;
    this.restored = undefined;
    this.state = { status: 'none' };
  }

  service(): Promise<BrainstormApi> {
    return this.host.service();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  dispose(): void {
    this.running?.abort();
  }

  async start(topic: string, options: StartOptions): Promise<void> {
    if (this.busy) return void vscode.window.showInformationMessage(vscode.l10n.t('A brainstorm step is running. Wait for it, or stop it in the Groundwork panel.'));
    if (!requireTrust(vscode.l10n.t('start a brainstorm'))) return;
    await this.host.reveal();
    const header: Header = { slug: '', topic, round: 1, minRounds: options.minRounds ?? 1, maxRounds: options.maxRounds ?? 5, rounds: [] };
    await this.step(header, 'inquisitors', (service, run) => service.start(topic, options, run));
  }

  /** Shows `slug` in the panel and runs what is due (a failed or interrupted step), or restarts it. */
  async open(slug: string, how: 'resume' | 'restart'): Promise<void> {
    if (this.busy) return void vscode.window.showInformationMessage(vscode.l10n.t('A brainstorm step is running. Wait for it, or stop it in the Groundwork panel.'));
    if (!requireTrust(vscode.l10n.t('resume a brainstorm'))) return;
    const service = await this.host.service();
    const session = await service.load(slug);
    await this.host.current.write(slug);
    await this.host.reveal();
    if (how === 'restart') return this.step(header(session, 1), 'inquisitors', (s, run) => s.restart(slug, run));
    if (session.phase.kind === 'answering' || session.phase.kind === 'complete') {
      this.state = this.toView(session);
      this.host.changed();
      return;
    }
    await this.step(header(session), stepOf(session), (s, run) => s.resume(slug, run));
  }

  async answer(answers: (string | null)[], action: RoundAction): Promise<void> {
    if (this.state.status !== 'questions' || this.busy) return;
    if (!requireTrust(vscode.l10n.t('answer a brainstorm'))) return;
    const slug = this.state.slug;
    const given: Answer[] = answers.map((a) => (a === null || a.trim() === '' ? { kind: 'skipped' } : { kind: 'answered', text: a }));
    const current = this.state;
    const done: BrainstormRoundView = { round: current.round, questions: current.questions, answers: given.map((a) => (a.kind === 'answered' ? a.text : null)) };
    const next: Header = { ...pick(current), rounds: [...current.rounds, done] };
    await this.step(next, nextTask(current.round, current, action) === 'follow-up' ? 'follow-up' : 'summary', (s, run) => s.answer(slug, given, action, run));
  }

  async retry(): Promise<void> {
    if (this.state.status !== 'failed' || this.busy) return;
    if (!requireTrust(vscode.l10n.t('resume a brainstorm'))) return;
    const slug = this.state.slug;
    const session = await (await this.host.service()).load(slug);
    await this.step(header(session), stepOf(session), (s, run) => s.resume(slug, run));
  }

  stop(): void {
    this.running?.abort();
  }

  async close(): Promise<void> {
    if (!requireTrust(vscode.l10n.t('close the brainstorm'))) return;
    this.running?.abort();
    await this.host.current.write(undefined);
    this.state = { status: 'none' };
    this.host.changed();
  }

  /** A file of the brainstorm shown, as a workspace-relative path for the editor. */
  filePath(file: 'document' | 'context'): string | undefined {
    if (this.state.status !== 'complete') return undefined;
    return file === 'document' ? this.state.documentPath : this.state.contextPath;
  }

  private async restore(): Promise<void> {
    // Restricted Mode shows no brainstorm (the panel offers no model work there), and forgetting a
    // broken one below would write.
    if (!isTrusted()) return;
    try {
      const slug = await this.host.current.read();
      if (!slug) return;
      const session = await (await this.host.service()).load(slug);
      const waiting = session.phase.kind === 'inquiring' || session.phase.kind === 'following-up' || session.phase.kind === 'summarizing';
      this.state = waiting
        ? { ...header(session), status: 'failed', error: vscode.l10n.t('The window closed before the model answered. Your answers are kept: Retry asks again.') }
        : this.toView(session);
    } catch (err) {
      this.host.log.warn('brainstorm: could not restore the panel’s brainstorm', err);
      await this.host.current.write(undefined).catch(() => undefined);
    }
  }

  private async step(base: Header, stepName: Running['step'], run: (service: BrainstormApi, options: { signal: AbortSignal; onProgress: (p: BrainstormProgress) => void }) => Promise<BrainstormSession>): Promise<void> {
    const abort = new AbortController();
    this.running = abort;
    this.notice = undefined;
    void vscode.commands.executeCommand('setContext', 'groundwork.brainstormRunning', true);
    this.state = { ...base, status: 'running', step: stepName, streamed: '' };
    this.host.changed();
    try {
      const service = await this.host.service();
      const session = await run(service, { signal: abort.signal, onProgress: (p) => this.progress(p) });
      await this.host.current.write(session.slug);
      this.state = this.toView(session);
      if (session.phase.kind === 'complete') {
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Brainstorm complete: {0}', session.slug), 5000);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const stopped = err instanceof BrainstormError && err.kind === 'stopped';
      if (!stopped) this.host.log.warn(`brainstorm: ${message}`);
      const slug = this.state.status === 'running' ? this.state.slug : base.slug;
      const session = slug ? await (await this.host.service()).load(slug).catch(() => undefined) : undefined;
      if (session === undefined) {
        // Nothing was kept (a bad topic, or round 1 stopped before the folder existed).
        this.state = { status: 'none' };
        if (!stopped) void vscode.window.showErrorMessage(vscode.l10n.t('The brainstorm could not start: {0}', message));
      } else if (session.phase.kind === 'answering') {
        this.state = { ...this.toView(session), ...(stopped ? {} : { notice: message }) } as BrainstormPanelView;
      } else {
        const shown = stopped ? vscode.l10n.t('Stopped. Nothing is lost: Retry runs the step again.') : err instanceof LlmError || err instanceof BrainstormError ? message : vscode.l10n.t('Something went wrong: {0}', message);
        this.state = { ...header(session), status: 'failed', error: shown };
      }
    } finally {
      if (this.running === abort) {
        this.running = undefined;
        void vscode.commands.executeCommand('setContext', 'groundwork.brainstormRunning', false);
      }
      this.host.changed();
    }
  }

  private progress(p: BrainstormProgress): void {
    const s = this.state;
    if (s.status !== 'running') return;
    switch (p.kind) {
      case 'started':
        this.state = { ...s, slug: p.slug };
        void this.host.current.write(p.slug).catch((err: unknown) => this.host.log.warn('brainstorm: could not remember the panel’s brainstorm', err));
        return;
      case 'inquisitor': {
        const list = s.inquisitors ?? [];
        const rest = list.filter((i) => i.angle !== p.angle);
        const state: BrainstormInquisitorState = p.state;
        const order = ['ux', 'technical', 'edge-cases'];
        const inquisitors = [...rest, { angle: p.angle, state, ...(p.detail ? { detail: p.detail } : {}) }].sort((a, b) => order.indexOf(a.angle) - order.indexOf(b.angle));
        // A finished inquisitor is no longer waiting for its model.
        const { retry, ...running } = s;
        this.state = { ...running, inquisitors, ...(retry !== undefined && (retry.who !== p.angle || p.state === 'running') ? { retry } : {}) };
        this.host.changed();
        return;
      }
      case 'coordinator': {
        const { retry: _earlier, ...running } = s;
        this.state = { ...running, step: p.task === 'follow-up' ? 'follow-up' : 'summary', streamed: '' };
        this.host.changed();
        return;
      }
      case 'text': {
        const { retry: _waited, ...running } = s;
        this.state = { ...running, streamed: s.streamed + p.text };
        this.host.text(p.text);
        return;
      }
      case 'retry':
        this.state = { ...s, retry: { who: p.who, attempt: p.attempt, of: p.of } };
        this.host.changed();
        return;
      case 'notice':
        this.notice = this.notice ? `${this.notice} ${p.text}` : p.text;
        return;
    }
  }

  private toView(session: BrainstormSession): BrainstormPanelView {
    const phase = session.phase;
    switch (phase.kind) {
      case 'complete': {
        const summary = session.summary ?? { topic: session.topic, keyInsights: [], decisions: [], openQuestions: [] };
        return {
          status: 'complete',
          slug: session.slug,
          topic: session.topic,
          rounds: session.rounds.length,
          keyInsights: summary.keyInsights,
          decisions: summary.decisions,
          openQuestions: summary.openQuestions,
          documentPath: planDisplayPath(session.slug, PLAN_FILES.document),
          contextPath: planDisplayPath(session.slug, PLAN_FILES.context),
        };
      }
      case 'answering': {
        const last = session.rounds.at(-1)!;
        return { ...header(session), status: 'questions', questions: last.questions, ...(this.notice ? { notice: this.notice } : {}) };
      }
      case 'inquiry-failed':
      case 'failed':
        return { ...header(session), status: 'failed', error: phase.error };
      default:
        return { ...header(session), status: 'failed', error: vscode.l10n.t('The step did not finish. Retry runs it again.') };
    }
  }
}

/** The panel's header of a session: its answered rounds and round 1's inquisitors. */
function header(session: BrainstormSession, round?: number): Header {
  const answered = session.rounds.filter((r) => r.answers !== undefined);
  const current = round ?? Math.max(1, session.rounds.at(-1)?.answers === undefined ? (session.rounds.at(-1)?.round ?? 1) : (session.rounds.at(-1)?.round ?? 0) + 1);
  const view: Header = {
    slug: session.slug,
    topic: session.topic,
    round: Math.min(current, session.maxRounds),
    minRounds: session.minRounds,
    maxRounds: session.maxRounds,
    rounds: round === 1 ? [] : answered.map((r) => ({ round: r.round, questions: r.questions, answers: r.answers!.map((a) => (a.kind === 'answered' ? a.text : null)) })),
  };
  if (session.inquisitors && round !== 1) {
    view.inquisitors = (['ux', 'technical', 'edge-cases'] as const).map((angle) => {
      const o = session.inquisitors![angle];
      return { angle, state: o.status, ...(o.detail ? { detail: o.detail } : {}) };
    });
  }
  return view;
}

function pick(v: Extract<BrainstormPanelView, { status: 'questions' }>): Header {
  return { slug: v.slug, topic: v.topic, round: Math.min(v.round + 1, v.maxRounds), minRounds: v.minRounds, maxRounds: v.maxRounds, rounds: v.rounds, ...(v.inquisitors ? { inquisitors: v.inquisitors } : {}) };
}

function stepOf(session: BrainstormSession): Running['step'] {
  const phase = session.phase;
  if (phase.kind === 'inquiring' || phase.kind === 'inquiry-failed') return 'inquisitors';
  if (phase.kind === 'following-up' || (phase.kind === 'failed' && phase.during === 'follow-up')) return 'follow-up';
  return 'summary';
}
