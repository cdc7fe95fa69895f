// The discovery conversation in the panel: a composer, the model's streamed reply with the agent's
// tool calls, the questions as a form, and the Idea Brief card (briefCard.ts). Drafts (what is
// typed, brief edits) live here across the host's messages and are saved with the webview's state
// so a reload keeps them.
import { fill, type PanelStrings } from '../../../src/shared/panelStrings';
import { sliceProblem } from '../../../src/shared/panelShape';
import type { StreamId } from '../../../src/shared/protocol/common';
import type { DiscoveryPanelView, RoundTranscript, ToolLine } from '../../../src/shared/protocol/discovery';
import type { WebviewMessage } from '../../../src/shared/protocol/panel';
import { briefCard, damagedBrief, type BriefDrafts } from './briefCard';
import { h, icon } from '../../dom';
import type { PanelContext, PanelPart } from '../../part';
import { restrictedNote } from '../panel/controls';
import { fillToolList, toolList, upsertLine } from '../panel/toolLines';

export interface DiscoveryDrafts extends BriefDrafts {
  composer: string;
  /** Answers by "round:index". */
  answers: Record<string, string>;
  extra: string;
  lastSent?: string;
}

type ValueElement = HTMLElement & { value: string };
type Running = Extract<DiscoveryPanelView, { status: 'running' }>;

export class DiscoveryUi implements PanelPart {
  readonly feature = 'discovery';
  /** The idle composer offers the brainstorm's ways in while no brainstorm is shown. */
  readonly reads = ['brainstorm'] as const;
  readonly element: HTMLElement = h('div', { class: 'part', 'data-part': 'discovery' });
  private readonly section: HTMLElement = h('section', { id: 'discovery', 'aria-labelledby': 'discovery-heading' });
  private view: DiscoveryPanelView = { status: 'idle', actions: [] };
  private stream: HTMLElement | undefined;
  private tools: HTMLElement | undefined;
  private S!: PanelStrings;
  /** False in Restricted Mode: the conversation and the brief are shown, nothing can be changed. */
  private trusted = true;
  private post: (message: WebviewMessage) => void = () => undefined;

  constructor(
    private readonly drafts: DiscoveryDrafts,
    private readonly saveDrafts: () => void,
    /** The brainstorm's ways in, shown beside Send in the idle composer. */
    private readonly composerExtras: (ctx: PanelContext) => Node[] = () => [],
  ) {}

  /** Streamed model text; false when it cannot be shown (no running turn on screen, or text is missing). */
  append(stream: StreamId, at: number, text: string): boolean {
    if (this.view.status !== 'running' || !this.stream || !stream.startsWith('discovery:')) return false;
    const have = this.view.streamed;
    if (at > have.length) return false;
    const fresh = text.slice(have.length - at);
    if (!fresh) return true;
    this.view = { ...this.view, streamed: have + fresh };
    this.stream.textContent = this.view.streamed;
    this.stream.scrollTop = this.stream.scrollHeight;
    return true;
  }

  /** A tool call of the running turn: its line added, or updated in place. */
  tool(stream: StreamId, line: ToolLine): boolean {
    if (this.view.status !== 'running' || !this.tools || !stream.startsWith('discovery:')) return false;
    this.view = { ...this.view, tools: upsertLine(this.view.tools, line) };
    fillToolList(this.tools, this.S, this.view.tools);
    return true;
  }

  render(ctx: PanelContext): void {
    const view = ctx.slices.discovery!;
    // A turn started from the palette begins where the person may not be looking: bring it into view.
    const started = view.status === 'running' && this.view.status !== 'running';
    this.view = view;
    this.S = ctx.S;
    this.trusted = ctx.trusted;
    this.post = ctx.post;
    this.stream = undefined;
    this.tools = undefined;
    if (view.status !== 'brief') {
      this.drafts.editing = undefined;
      this.drafts.edited = undefined;
    }
    // Restricted Mode has no composer: an idle conversation has nothing to show.
    if (!this.trusted && view.status === 'idle') {
      this.element.replaceChildren();
      return;
    }
    const bs = ctx.slices.brainstorm;
    const brainstormIdle = !ctx.trusted ? false : sliceProblem('brainstorm', bs) !== undefined || bs?.status === 'none';
    const extras = this.trusted && brainstormIdle && view.status === 'idle' ? this.composerExtras(ctx) : [];
    this.section.replaceChildren(
      h('h2', { id: 'discovery-heading' }, view.status === 'brief' ? this.S.briefHeading : this.S.ideaHeading),
      ...this.body(view, extras),
    );
    if (this.section.parentNode !== this.element) this.element.replaceChildren(this.section);
    if (started) (this.section as Partial<Pick<HTMLElement, 'scrollIntoView'>>).scrollIntoView?.({ block: 'nearest' });
  }

  private body(view: DiscoveryPanelView, extras: Node[]): Node[] {
    const S = this.S;
    const readOnly = this.trusted ? null : restrictedNote(S, S.restrictedDiscovery, undefined, 'discovery-restricted');
    const cancel = () => this.button(S.cancel, 'close', () => this.post({ type: 'discovery.cancel' }), true);
    const card = {
      S,
      trusted: this.trusted,
      drafts: this.drafts,
      post: this.post,
      saveDrafts: this.saveDrafts,
      redraw: () =>
        this.section.replaceChildren(h('h2', { id: 'discovery-heading' }, S.briefHeading), ...this.body(view, [])),
    };
    switch (view.status) {
      case 'idle':
        return [
          this.trusted ? this.composer(extras) : null,
          view.hint ? this.hint(view.actions.includes('discover-this')) : null,
        ].filter((n): n is HTMLElement => n !== null);
      case 'running':
        return [
          ...this.conversation(view, view.rounds),
          ...this.running(view),
          readOnly ?? h('div', { class: 'actions' }, cancel()),
        ];
      case 'questions': {
        const nodes = this.conversation(
          view,
          view.rounds.filter((r) => r.round < view.round),
        );
        if (view.notice) nodes.push(notice(view.notice));
        nodes.push(
          readOnly
            ? h(
                'ol',
                { class: 'questions', id: 'discovery-questions-readonly' },
                ...view.questions.map((q) => h('li', { class: 'question-text' }, q)),
              )
            : this.answerForm(view.round, view.maxRounds, view.questions),
        );
        if (readOnly) nodes.push(readOnly);
        return nodes;
      }
      case 'failed': {
        const why = view.failure.reason === 'interrupted' ? S.discoveryInterrupted : view.failure.error;
        const retry = this.button(S.retry, 'refresh', () => this.post({ type: 'discovery.retry' }));
        return [
          ...this.conversation(view, view.rounds),
          notice(`${S.modelFailed} ${why}`, true),
          readOnly ?? h('div', { class: 'actions' }, retry, cancel()),
        ];
      }
      case 'brief':
        return [briefCard(card, view)];
      case 'damaged':
        return [damagedBrief(card, view), ...(this.trusted ? [this.composer(extras)] : [])];
    }
  }

  /** The request, the earlier rounds folded away, and the round's badge. */
  private conversation(
    view: { request: string; round: number; maxRounds: number },
    rounds: RoundTranscript[],
  ): HTMLElement[] {
    const S = this.S;
    return [
      h(
        'div',
        { class: 'bubble user', id: 'discovery-request' },
        h('div', { class: 'bubble-label' }, S.yourRequest),
        h('div', { class: 'bubble-text' }, view.request),
      ),
      ...this.history(rounds),
      h(
        'div',
        { class: 'round', id: 'discovery-round' },
        h('vscode-badge', {}, fill(S.roundOf, view.round, view.maxRounds)),
      ),
    ];
  }

  /** What the model is doing: the status row, its tool calls, its reply as it streams. */
  private running(view: Running): HTMLElement[] {
    const S = this.S;
    this.tools = toolList(S, view.tools, 'discovery-tools');
    this.stream = h('div', { class: 'stream', id: 'discovery-stream', 'aria-live': 'polite' }, view.streamed);
    return [
      h(
        'div',
        { class: 'thinking', id: 'discovery-progress', role: 'status' },
        h('vscode-progress-ring', { 'aria-hidden': 'true' }),
        h(
          'span',
          { class: 'muted' },
          view.retry ? fill(S.waitingRetry, view.retry.attempt, view.retry.of) : S.thinking,
        ),
      ),
      this.tools,
      this.stream,
    ];
  }

  private button(label: string, iconName: string, onClick: () => void, secondary = false, id?: string): HTMLElement {
    const el = h('vscode-button', { icon: iconName, secondary, id }, label);
    el.addEventListener('click', onClick);
    return el;
  }

  private composer(extras: Node[]): HTMLElement {
    const S = this.S;
    const box = h('vscode-textarea', {
      id: 'composer',
      rows: '3',
      resize: 'vertical',
      placeholder: S.composerPlaceholder,
      'aria-label': S.composerLabel,
    }) as ValueElement;
    box.value = this.drafts.composer;
    box.addEventListener('input', () => {
      this.drafts.composer = box.value;
      this.saveDrafts();
    });
    const send = () => {
      const text = box.value.trim();
      if (!text) return box.focus();
      this.drafts.lastSent = text;
      this.drafts.composer = '';
      this.saveDrafts();
      this.post({ type: 'discovery.send', text });
    };
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        send();
      }
    });
    return h(
      'div',
      { class: 'composer' },
      box,
      h('div', { class: 'actions' }, this.button(S.send, 'send', send, false, 'composer-send'), ...extras),
    );
  }

  private hint(offerStart: boolean): HTMLElement {
    const S = this.S;
    const last = this.drafts.lastSent;
    return h(
      'div',
      { class: 'notice', id: 'discovery-hint', role: 'status' },
      icon('info'),
      h(
        'div',
        {},
        h('p', {}, S.notABuild),
        offerStart && last
          ? this.button(
              S.discoverThis,
              'lightbulb-sparkle',
              () => this.post({ type: 'discovery.start', text: last }),
              true,
              'discover-this',
            )
          : null,
      ),
    );
  }

  /** Earlier rounds, questions and answers, folded away. */
  private history(rounds: RoundTranscript[]): HTMLElement[] {
    return rounds
      .filter((r) => r.answer !== undefined)
      .map((r) =>
        h(
          'details',
          { class: 'past-round' },
          h('summary', {}, fill(this.S.roundOf, r.round, Math.max(r.round, 3))),
          h('ol', {}, ...r.questions.map((q) => h('li', {}, q))),
          h(
            'div',
            { class: 'bubble user' },
            h('div', { class: 'bubble-label' }, this.S.yourAnswer),
            h('div', { class: 'bubble-text' }, r.answer ?? ''),
          ),
        ),
      );
  }

  private answerForm(round: number, maxRounds: number, questions: string[]): HTMLElement {
    const S = this.S;
    const boxes = questions.map((q, i) => {
      const key = `${round}:${i}`;
      const box = h('vscode-textarea', {
        rows: '2',
        resize: 'vertical',
        placeholder: S.answerPlaceholder,
        'aria-label': q,
        id: `answer-${i}`,
      }) as ValueElement;
      box.value = this.drafts.answers[key] ?? '';
      box.addEventListener('input', () => {
        this.drafts.answers[key] = box.value;
        this.saveDrafts();
      });
      return h('li', { class: 'question' }, h('label', { for: `answer-${i}`, class: 'question-text' }, q), box);
    });
    const extra = h('vscode-textarea', {
      rows: '2',
      resize: 'vertical',
      placeholder: S.extraPlaceholder,
      id: 'answer-extra',
    }) as ValueElement;
    extra.value = this.drafts.extra;
    extra.addEventListener('input', () => {
      this.drafts.extra = extra.value;
      this.saveDrafts();
    });
    const status = h('div', { class: 'form-status error', role: 'status', 'aria-live': 'polite' });
    const send = () => {
      const answers = questions.map((_, i) => this.drafts.answers[`${round}:${i}`] ?? '');
      if (answers.every((a) => !a.trim()) && !this.drafts.extra.trim()) {
        status.textContent = S.answerSomething;
        return;
      }
      this.post({ type: 'discovery.answer', answers, extra: this.drafts.extra });
      this.drafts.answers = {};
      this.drafts.extra = '';
      this.saveDrafts();
    };
    const form = h(
      'form',
      { class: 'answers', id: 'discovery-questions', 'aria-label': fill(S.roundOf, round, maxRounds) },
      h('ol', { class: 'questions' }, ...boxes),
      h('label', { for: 'answer-extra', class: 'field-label' }, S.extraLabel),
      extra,
      h(
        'div',
        { class: 'actions' },
        this.button(S.sendAnswers, 'send', send, false, 'answers-send'),
        this.button(S.cancel, 'close', () => this.post({ type: 'discovery.cancel' }), true, 'discovery-cancel'),
        status,
      ),
    );
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        send();
      }
    });
    return form;
  }
}

function notice(text: string, error = false): HTMLElement {
  return h(
    'div',
    { class: `notice ${error ? 'error' : 'info'}`, role: error ? 'alert' : 'status' },
    icon(error ? 'error' : 'info'),
    h('span', {}, text),
  );
}
