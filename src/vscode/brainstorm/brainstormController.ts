// The brainstorm in the agent panel: routes the panel's messages and the commands to the core's
// BrainstormService, keeps the session as the core saved it and what only a running window knows
// (the step under way and what its agents report, how the last step ended), and derives its slice
// from both with the core's brainstormView. Which brainstorm the panel shows is kept in the
// workspace (.groundwork/panel/brainstorm.json) and the brainstorm itself in its plan folder, so a
// reload shows the same form with nothing lost. What it asks of VS Code goes through `ports`
// (brainstormFeature.ts): no vscode import, unit-tested (test/unit/vscode/brainstorm/brainstormController.test.ts).
import type * as vscode from 'vscode';
import { BrainstormError } from '../../core/brainstorm/brainstormTypes';
import type {
  Answer,
  BrainstormApi,
  BrainstormProgress,
  BrainstormSession,
  RoundAction,
  StartOptions,
  StepOptions,
} from '../../core/brainstorm/brainstormTypes';
import {
  brainstormView,
  newStep,
  type BrainstormLive,
  type BrainstormStepLive,
} from '../../core/brainstorm/brainstormView';
import { LlmError } from '../../core/llm/llmClient';
import { toolLine } from '../../core/tools/toolLines';
import { brainstormStream, type BrainstormMessage, type BrainstormPanelView } from '../../shared/protocol/brainstorm';
import { Disposable, Emitter } from '../base/lifecycle';
import type { FeatureController, StreamChunk } from '../panel/panelParts';

/** The actions refused in Restricted Mode, where each starts (the window says why). */
export type BrainstormGate = 'start' | 'resume' | 'answer' | 'close';

/** What the brainstorm asks of the window. */
export interface BrainstormWindow {
  /** False in Restricted Mode, after telling the person why. */
  allows(action: BrainstormGate): boolean;
  /** The `groundwork.brainstormRunning` context key (Stop in the palette). */
  setRunning(running: boolean): void;
  /** A step runs already: say so. */
  busy(): void;
  completed(slug: string): void;
  couldNotStart(message: string): void;
  /** Shows the panel. */
  reveal(): Promise<unknown>;
  /** The palette's "Brainstorm…" and "Resume Brainstorm…", from the panel's buttons. */
  run(command: 'new' | 'resume'): Promise<unknown>;
}

export interface BrainstormPorts {
  service(): Promise<BrainstormApi>;
  /** The slug the panel shows, kept in the workspace. */
  current: { read(): Promise<string | undefined>; write(slug: string | undefined): Promise<void> };
  trusted(): boolean;
  onTrustGranted: vscode.Event<void>;
  window: BrainstormWindow;
  log: { warn(message: string, err?: unknown): void };
  /** Opens a workspace-relative file (`.groundwork/plans/…`) in the editor. */
  open(path: string): Promise<void>;
  /** Builds from a finished brainstorm, behind the build's confirmation gate (the build's business, through the host's services). */
  build(slug: string): Promise<void>;
}

type Run = (service: BrainstormApi, options: StepOptions) => Promise<BrainstormSession>;

export class BrainstormController
  extends Disposable
  implements FeatureController<BrainstormPanelView, BrainstormMessage>
{
  private session: BrainstormSession | undefined;
  private live: BrainstormLive = {};
  private view: BrainstormPanelView = brainstormView(undefined);
  private running: AbortController | undefined;
  private restored: Promise<void> | undefined;
  /** What the core said during the running step (shown with the next questions). */
  private notice: string | undefined;
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly streamed = this._register(new Emitter<StreamChunk>());
  readonly onDidStream = this.streamed.event;

  constructor(private readonly ports: BrainstormPorts) {
    super();
    this._register(ports.onTrustGranted(() => this.trustGranted()));
    this._register({ dispose: () => this.running?.abort() });
  }

  get state(): BrainstormPanelView {
    return this.view;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  service(): Promise<BrainstormApi> {
    return this.ports.service();
  }

  restore(): Promise<void> {
    return (this.restored ??= this.readBack().then(() => this.update()));
  }

  async handle(message: BrainstormMessage): Promise<void> {
    switch (message.type) {
      case 'brainstorm.answer':
        return this.answer(message.answers, message.action);
      case 'brainstorm.retry':
        return this.retry();
      case 'brainstorm.stop':
        return this.stop();
      case 'brainstorm.close':
        return this.close();
      case 'brainstorm.open': {
        const view = this.view;
        if (view.status === 'complete')
          await this.ports.open(message.file === 'document' ? view.documentPath : view.contextPath);
        return;
      }
      case 'brainstorm.new':
        await this.ports.window.run('new');
        return;
      case 'brainstorm.resume':
        await this.ports.window.run('resume');
        return;
      case 'brainstorm.build':
        if (this.view.status === 'complete') await this.ports.build(this.view.slug);
        return;
    }
  }

  async start(topic: string, options: StartOptions): Promise<void> {
    if (this.busy) return this.ports.window.busy();
    if (!this.ports.window.allows('start')) return;
    await this.ports.window.reveal();
    this.session = undefined;
    const start = { topic, minRounds: options.minRounds ?? 1, maxRounds: options.maxRounds ?? 5 };
    await this.step(newStep('start', { start }), (s, run) => s.start(topic, options, run));
  }

  /** Shows `slug` in the panel and runs what is due (a failed or interrupted step), or restarts it. */
  async open(slug: string, how: 'resume' | 'restart'): Promise<void> {
    if (this.busy) return this.ports.window.busy();
    if (!this.ports.window.allows('resume')) return;
    const service = await this.ports.service();
    const session = await service.load(slug);
    await this.ports.current.write(slug);
    await this.ports.window.reveal();
    this.session = session;
    if (how === 'restart') return this.step(newStep('restart'), (s, run) => s.restart(slug, run));
    if (session.phase.kind === 'answering' || session.phase.kind === 'complete') return this.update({});
    await this.step(newStep('resume'), (s, run) => s.resume(slug, run));
  }

  async answer(answers: (string | null)[], action: RoundAction): Promise<void> {
    if (this.view.status !== 'questions' || this.busy || !this.session) return;
    if (!this.ports.window.allows('answer')) return;
    const slug = this.session.slug;
    const given: Answer[] = answers.map((a) =>
      a === null || a.trim() === '' ? { kind: 'skipped' } : { kind: 'answered', text: a },
    );
    await this.step(newStep('answer', { answers: given, action }), (s, run) => s.answer(slug, given, action, run));
  }

  async retry(): Promise<void> {
    if (this.view.status !== 'failed' || this.busy || !this.session) return;
    if (!this.ports.window.allows('resume')) return;
    const slug = this.session.slug;
    this.session = await (await this.ports.service()).load(slug);
    await this.step(newStep('resume'), (s, run) => s.resume(slug, run));
  }

  stop(): void {
    this.running?.abort();
  }

  async close(): Promise<void> {
    if (!this.ports.window.allows('close')) return;
    const running = this.running;
    if (running) {
      this.running = undefined;
      running.abort();
      this.ports.window.setRunning(false);
    }
    await this.ports.current.write(undefined);
    this.session = undefined;
    this.update({});
  }

  /** The folder was trusted: show the panel's brainstorm, which Restricted Mode left unread. */
  trustGranted(): void {
    if (this.busy) return;
    this.restored = undefined;
    this.session = undefined;
    this.live = {};
    void this.restore();
  }

  private update(live?: BrainstormLive, quiet = false): void {
    if (live) this.live = live;
    this.view = brainstormView(this.session, this.live);
    if (!quiet) this.changed.fire();
  }

  private async readBack(): Promise<void> {
    // Restricted Mode shows no brainstorm (the panel offers no model work there), and forgetting a
    // broken one below would write.
    if (!this.ports.trusted()) return;
    try {
      const slug = await this.ports.current.read();
      if (!slug) return;
      const session = await (await this.ports.service()).load(slug);
      this.session = session;
      const waiting =
        session.phase.kind === 'inquiring' ||
        session.phase.kind === 'following-up' ||
        session.phase.kind === 'summarizing';
      this.live = waiting ? { failure: { kind: 'interrupted' } } : {};
    } catch (err) {
      this.ports.log.warn('brainstorm: could not restore the panel’s brainstorm', err);
      await this.ports.current.write(undefined).catch(() => undefined);
    }
  }

  /** The slug of the brainstorm the running step is about ('' before its folder exists). */
  private slug(): string {
    return this.live.step?.start?.slug ?? this.session?.slug ?? '';
  }

  private async step(step: BrainstormStepLive, run: Run): Promise<void> {
    const abort = new AbortController();
    this.running = abort;
    this.notice = undefined;
    this.ports.window.setRunning(true);
    this.update({ step });
    let outcome: { session: BrainstormSession } | { err: unknown };
    try {
      const service = await this.ports.service();
      outcome = {
        session: await run(service, {
          signal: abort.signal,
          onProgress: (p) => this.running === abort && this.progress(p),
        }),
      };
    } catch (err) {
      outcome = { err };
    }
    // Closed meanwhile: the panel has moved on, and what the step left is not shown.
    if (this.running !== abort) return;
    try {
      if ('session' in outcome) await this.finished(outcome.session);
      else await this.failed(outcome.err);
    } finally {
      this.running = undefined;
      this.ports.window.setRunning(false);
      this.update();
    }
  }

  private async finished(session: BrainstormSession): Promise<void> {
    await this.ports.current.write(session.slug);
    this.session = session;
    this.live = this.notice ? { notice: this.notice } : {};
    if (session.phase.kind === 'complete') this.ports.window.completed(session.slug);
  }

  private async failed(err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const stopped = err instanceof BrainstormError && err.kind === 'stopped';
    if (!stopped) this.ports.log.warn(`brainstorm: ${message}`);
    const slug = this.slug();
    const session = slug ? await (await this.ports.service()).load(slug).catch(() => undefined) : undefined;
    this.session = session;
    if (session === undefined) {
      // Nothing was kept (a bad topic, or round 1 stopped before the folder existed).
      this.live = {};
      if (!stopped) this.ports.window.couldNotStart(message);
      return;
    }
    const known = err instanceof LlmError || err instanceof BrainstormError;
    this.live = {
      failure: stopped
        ? { kind: 'stopped' }
        : known
          ? { kind: 'error', text: message }
          : { kind: 'unexpected', text: message },
    };
  }

  private progress(p: BrainstormProgress): void {
    const step = this.live.step;
    if (!step) return;
    const set = (next: Partial<BrainstormStepLive>, quiet = false) =>
      this.update({ ...this.live, step: { ...step, ...next } }, quiet);
    switch (p.kind) {
      case 'started':
        set({ start: { ...(step.start ?? { topic: '', minRounds: 1, maxRounds: 5 }), slug: p.slug } });
        void this.ports.current
          .write(p.slug)
          .catch((err: unknown) => this.ports.log.warn('brainstorm: could not remember the panel’s brainstorm', err));
        return;
      case 'inquisitor': {
        // A finished inquisitor is no longer waiting for its model.
        const retry = step.retry && (step.retry.who !== p.angle || p.state === 'running') ? step.retry : undefined;
        const { retry: _earlier, ...rest } = step;
        this.update({
          ...this.live,
          step: {
            ...rest,
            ...(retry ? { retry } : {}),
            inquisitors: {
              ...step.inquisitors,
              [p.angle]: { state: p.state, ...(p.detail ? { detail: p.detail } : {}) },
            },
          },
        });
        return;
      }
      case 'coordinator': {
        const { retry: _earlier, ...rest } = step;
        this.update({ ...this.live, step: { ...rest, task: p.task, streamed: '' } });
        return;
      }
      case 'text': {
        const { retry, ...rest } = step;
        // Quiet: the text goes as a stream; a retry line it ends is redrawn once.
        this.update({ ...this.live, step: { ...rest, streamed: step.streamed + p.text } }, retry === undefined);
        this.streamed.fire({
          stream: brainstormStream(this.slug(), 'coordinator'),
          kind: 'text',
          at: step.streamed.length,
          text: p.text,
        });
        return;
      }
      case 'retry':
        set({ retry: { who: p.who, attempt: p.attempt, of: p.of } });
        return;
      case 'notice':
        this.notice = this.notice ? `${this.notice} ${p.text}` : p.text;
        return;
      case 'tool':
        set({ tools: [...step.tools, { who: p.who, activity: p.activity }] }, true);
        this.streamed.fire({ stream: brainstormStream(this.slug(), p.who), kind: 'tool', line: toolLine(p.activity) });
        return;
    }
  }
}
