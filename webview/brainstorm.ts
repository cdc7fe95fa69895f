// The brainstorm in the panel: what the inquisitors or the coordinator are doing, a round's
// questions as a form grouped by angle, earlier rounds folded away, and the result card. Answer
// drafts and Skip ticks live here across the host's snapshots (keyed by slug, round and the
// question's place in the round) and are saved with the webview's state so a reload keeps them.
import type { BrainstormAngle, BrainstormPanelView, BrainstormRoundView, WebviewMessage } from '../src/shared/protocol';
import { fill, type PanelStrings } from '../src/shared/panelStrings';
import { ANGLE, inquisitors, progress } from './brainstormProgress';
import { h, icon } from './dom';

export interface BrainstormDrafts {
  /** Answers by "slug:round:index". */
  answers: Record<string, string>;
  /** Questions ticked Skip, by the same key. */
  skipped: Record<string, boolean>;
}

type Active = Exclude<BrainstormPanelView, { status: 'none' } | { status: 'complete' }>;
type Running = Extract<BrainstormPanelView, { status: 'running' }>;
type Questions = Extract<BrainstormPanelView, { status: 'questions' }>;
type Failed = Extract<BrainstormPanelView, { status: 'failed' }>;
type Complete = Extract<BrainstormPanelView, { status: 'complete' }>;
type Action = 'more' | 'summarize';
type TextArea = HTMLElement & { value: string; disabled: boolean };
type Checkbox = HTMLElement & { checked: boolean };

/** The angles in the order the form shows them. */
const ANGLES: readonly BrainstormAngle[] = ['ux', 'technical', 'edge-cases'];
export class BrainstormUi {
  readonly element: HTMLElement = h('section', { id: 'brainstorm', 'aria-labelledby': 'brainstorm-heading' });
  private view: BrainstormPanelView = { status: 'none' };
  private stream: HTMLElement | undefined;
  private S!: PanelStrings;
  /** Earlier rounds the person unfolded, so that the next snapshot leaves them open. */
  private readonly openRounds = new Set<string>();

  constructor(
    private readonly drafts: BrainstormDrafts,
    private readonly post: (message: WebviewMessage) => void,
    private readonly saveDrafts: () => void,
  ) {}

  /** Streamed model text; true when it could be shown (a running step is on screen). */
  append(text: string): boolean {
    if (this.view.status !== 'running' || !this.stream) return false;
    this.view = { ...this.view, streamed: this.view.streamed + text };
    this.stream.textContent = this.view.streamed;
    this.stream.scrollTop = this.stream.scrollHeight;
    return true;
  }

  render(view: BrainstormPanelView, S: PanelStrings): void {
    this.view = view;
    this.S = S;
    this.stream = undefined;
    const body: Node[] = [];
    switch (view.status) {
      case 'none':
        this.element.replaceChildren();
        return;
      case 'complete':
        this.forget(view.slug, Infinity);
        body.push(this.completeCard(view));
        break;
      case 'running':
        body.push(this.header(view), ...this.history(view), ...this.running(view));
        break;
      case 'questions':
        // Drafts of this round stay until the next round is asked: a stopped or failed step
        // brings the same questions back, and what was typed is still there.
        this.forget(view.slug, view.round);
        body.push(this.header(view), ...this.history(view));
        if (view.notice) body.push(notice(view.notice, false, 'brainstorm-notice'));
        // An inquisitor that gave nothing is shown with why, so missing angles are not a mystery.
        if (view.round === 1 && view.inquisitors?.some((i) => i.state !== 'success')) body.push(inquisitors(view.inquisitors, this.S));
        body.push(this.questionForm(view));
        break;
      case 'failed':
        body.push(this.header(view), ...this.history(view), ...this.failed(view));
        break;
    }
    this.element.replaceChildren(h('h2', { id: 'brainstorm-heading' }, S.brainstormHeading), ...body);
  }

  /** The idle panel's ways in, shown beside the composer: start a brainstorm, or resume one. */
  entryActions(S: PanelStrings): Node[] {
    const start = this.button(S.brainstormStart, 'comment-discussion', () => this.post({ type: 'command', command: 'brainstorm' }), {
      secondary: true,
      id: 'brainstorm-start',
      title: S.brainstormStartTitle,
    });
    const resume = h('button', { type: 'button', class: 'link-button', id: 'brainstorm-resume' }, S.resumeBrainstorm);
    resume.addEventListener('click', () => this.post({ type: 'command', command: 'resumeBrainstorm' }));
    return [start, resume];
  }

  private header(view: Active): HTMLElement {
    const S = this.S;
    return h(
      'div',
      { class: 'bs-header' },
      h('h3', { class: 'bs-topic', id: 'brainstorm-topic' }, icon('lightbulb'), h('span', {}, view.topic)),
      h(
        'div',
        { class: 'bs-meta', id: 'brainstorm-round' },
        h('vscode-badge', {}, fill(S.roundOf, view.round, view.maxRounds)),
        view.round < view.minRounds ? h('span', { class: 'muted', id: 'brainstorm-min-rounds' }, fill(S.brainstormMinRounds, view.minRounds)) : null,
        view.status === 'questions' && view.round >= view.maxRounds
          ? h('span', { class: 'muted', id: 'brainstorm-last-round' }, fill(S.brainstormMaxRounds, view.maxRounds))
          : null,
      ),
    );
  }

  private running(view: Running): Node[] {
    const S = this.S;
    const nodes = progress(view, S);
    // Not a live region: a screen reader would read every streamed token. The status row says what runs.
    this.stream = h('div', { class: 'stream', id: 'brainstorm-stream', 'aria-label': S.brainstormStreamLabel }, view.streamed);
    nodes.push(
      this.stream,
      h('div', { class: 'actions' }, this.button(S.stop, 'debug-stop', () => this.post({ type: 'brainstorm.stop' }), { secondary: true, id: 'brainstorm-stop', once: true })),
    );
    return nodes;
  }

  private failed(view: Failed): Node[] {
    const S = this.S;
    return [
      view.inquisitors?.length ? inquisitors(view.inquisitors, this.S) : null,
      notice(view.error, true, 'brainstorm-error'),
      view.rounds.length ? h('p', { class: 'muted' }, S.answersKept) : null,
      h(
        'div',
        { class: 'actions' },
        this.button(S.retry, 'refresh', () => this.post({ type: 'brainstorm.retry' }), { id: 'brainstorm-retry', once: true }),
        this.button(S.close, 'close', () => this.post({ type: 'brainstorm.close' }), { secondary: true, id: 'brainstorm-close', once: true }),
      ),
    ].filter((n): n is HTMLElement => n !== null);
  }

  /** Earlier rounds, each question with its answer or "Skipped", folded away. */
  private history(view: Active): HTMLElement[] {
    const S = this.S;
    return view.rounds.map((r: BrainstormRoundView) => {
      const key = `${view.slug}:${r.round}`;
      const answered = r.answers.filter((a) => typeof a === 'string' && a.trim() !== '').length;
      const items = r.questions.map((q, i) => {
        const a = r.answers[i];
        const answer =
          a === null ? h('div', { class: 'transcript-a muted' }, icon('debug-step-over'), h('span', {}, S.skippedAnswer))
          : a?.trim() ? h('div', { class: 'transcript-a' }, h('span', { class: 'transcript-text' }, a))
          : h('div', { class: 'transcript-a muted' }, h('span', {}, S.noAnswer));
        return h(
          'li',
          {},
          h('div', { class: 'transcript-q' }, icon(ANGLE[q.angle]?.icon ?? 'question'), h('span', {}, q.text)),
          answer,
        );
      });
      const details = h(
        'details',
        { class: 'past-round', id: `brainstorm-round-${r.round}`, open: this.openRounds.has(key) },
        h('summary', {}, fill(S.pastRound, r.round, answered, r.questions.length)),
        h('ol', { class: 'plain-list transcript' }, ...items),
      );
      details.addEventListener('toggle', () => (details.open ? this.openRounds.add(key) : this.openRounds.delete(key)));
      return details;
    });
  }

  private questionForm(view: Questions): HTMLElement {
    const S = this.S;
    const key = (i: number) => `${view.slug}:${view.round}:${i}`;
    const canMore = view.round < view.maxRounds;
    const canSummarize = view.round >= view.minRounds;
    const primary: Action = canSummarize || !canMore ? 'summarize' : 'more';
    const status = h('div', { class: 'form-status error', id: 'brainstorm-form-status', role: 'status', 'aria-live': 'polite' });
    const boxes: TextArea[] = [];

    const question = (i: number): HTMLElement => {
      const q = view.questions[i]!;
      const k = key(i);
      const id = `bq-${i}`;
      const priority = Math.min(5, Math.max(1, Math.round(q.priority) || 5));
      const box = h('vscode-textarea', { id, rows: '2', resize: 'vertical', placeholder: S.yourAnswer, label: q.text }) as TextArea;
      box.value = this.drafts.answers[k] ?? '';
      boxes[i] = box;
      box.addEventListener('input', () => {
        this.drafts.answers[k] = box.value;
        status.textContent = '';
        this.saveDrafts();
      });
      const skip = h('vscode-checkbox', { id: `${id}-skip`, label: S.skip, class: 'bq-skip' }) as Checkbox;
      skip.checked = this.drafts.skipped[k] === true;
      const note = h('div', { class: 'bq-skipped muted', id: `${id}-skipped` }, icon('debug-step-over'), h('span', {}, S.willBeSkipped));
      const item = h(
        'div',
        { class: 'bq', role: 'group', 'aria-labelledby': `${id}-text` },
        h(
          'div',
          { class: 'bq-head' },
          h('span', { class: `prio prio-${priority}`, title: fill(S.priorityTitle, priority) }, fill(S.priorityBadge, priority)),
          h('label', { for: id, id: `${id}-text`, class: 'question-text' }, q.text),
        ),
        box,
        h('div', { class: 'bq-foot' }, skip, note),
      );
      const show = () => {
        const skipped = this.drafts.skipped[k] === true;
        box.disabled = skipped;
        item.classList.toggle('skipped', skipped);
        note.hidden = !skipped;
      };
      skip.addEventListener('change', () => {
        if (skip.checked) this.drafts.skipped[k] = true;
        else delete this.drafts.skipped[k];
        status.textContent = '';
        this.saveDrafts();
        show();
      });
      show();
      return item;
    };

    const groups = ANGLES.map((angle) => {
      const order = view.questions
        .map((q, i) => ({ q, i }))
        .filter(({ q }) => q.angle === angle)
        .sort((a, b) => a.q.priority - b.q.priority || a.i - b.i);
      if (!order.length) return null;
      const headingId = `brainstorm-angle-${angle}`;
      return h(
        'div',
        { class: 'angle-group', role: 'group', 'aria-labelledby': headingId },
        h('h4', { class: 'angle-heading', id: headingId }, icon(ANGLE[angle].icon), h('span', {}, S[ANGLE[angle].label])),
        ...order.map(({ i }) => question(i)),
      );
    });

    const buttons: HTMLElement[] = [];
    /** Set once the answers are posted: the next snapshot draws the next step. */
    let sent = false;
    const submit = (action: Action) => {
      if (sent || (action === 'more' ? !canMore : !canSummarize)) return;
      const answers = view.questions.map((_, i) => (this.drafts.skipped[key(i)] ? null : (this.drafts.answers[key(i)] ?? '').trim()));
      if (answers.length && answers.every((a) => a === '')) {
        status.textContent = S.answerOrSkip;
        boxes.find(Boolean)?.focus();
        return;
      }
      sent = true;
      for (const b of buttons) b.setAttribute('disabled', '');
      this.post({ type: 'brainstorm.answer', answers, action });
    };
    const more = this.button(S.keepGrilling, 'comment-discussion', () => submit('more'), {
      secondary: primary !== 'more',
      id: 'brainstorm-more',
      disabledBecause: canMore ? undefined : fill(S.brainstormMaxRounds, view.maxRounds),
    });
    const summarize = this.button(S.summarizeNow, 'check-all', () => submit('summarize'), {
      secondary: primary !== 'summarize',
      id: 'brainstorm-summarize',
      disabledBecause: canSummarize ? undefined : fill(S.brainstormMinRounds, view.minRounds),
    });
    const close = this.button(S.close, 'close', () => this.post({ type: 'brainstorm.close' }), { secondary: true, id: 'brainstorm-close' });
    buttons.push(more, summarize, close);

    const form = h(
      'form',
      { class: 'answers bs-form', id: 'brainstorm-form', 'aria-label': fill(S.brainstormQuestions, view.round) },
      ...groups,
      h('div', { class: 'actions bs-actions' }, ...(primary === 'more' ? [more, summarize] : [summarize, more]), close),
      status,
    );
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        submit(primary);
      }
    });
    return form;
  }

  private completeCard(view: Complete): HTMLElement {
    const S = this.S;
    const list = (id: string, heading: string, items: string[]) =>
      h(
        'div',
        { class: 'bs-list', id },
        h('h4', {}, heading),
        items.length ? h('ul', {}, ...items.map((t) => h('li', {}, t))) : h('p', { class: 'muted' }, S.none),
      );
    return h(
      'div',
      { class: 'bs-card', id: 'brainstorm-complete' },
      h(
        'div',
        { class: 'bs-card-title check ok', role: 'status' },
        icon('pass'),
        h('strong', {}, view.rounds === 1 ? S.brainstormCompleteOne : fill(S.brainstormComplete, view.rounds)),
      ),
      h('h3', { class: 'bs-topic', id: 'brainstorm-topic' }, icon('lightbulb'), h('span', {}, view.topic)),
      list('brainstorm-insights', S.keyInsights, view.keyInsights),
      list('brainstorm-decisions', S.decisions, view.decisions),
      list('brainstorm-open-questions', S.openQuestions, view.openQuestions),
      h(
        'div',
        { class: 'actions' },
        this.button(S.openDocument, 'go-to-file', () => this.post({ type: 'brainstorm.open', file: 'document' }), { id: 'brainstorm-open-doc', title: view.documentPath }),
        this.button(S.openContextFile, 'file-code', () => this.post({ type: 'brainstorm.open', file: 'context' }), {
          secondary: true,
          id: 'brainstorm-open-context',
          title: view.contextPath,
        }),
        this.button(S.close, 'close', () => this.post({ type: 'brainstorm.close' }), { secondary: true, id: 'brainstorm-close', once: true }),
      ),
    );
  }

  /** Drops the drafts of the slug's rounds before `round`: they have been answered. */
  private forget(slug: string, round: number): void {
    let changed = false;
    for (const table of [this.drafts.answers, this.drafts.skipped]) {
      for (const k of Object.keys(table)) {
        const [s, r] = k.split(':');
        if (s === slug && Number(r) < round) {
          delete table[k];
          changed = true;
        }
      }
    }
    if (changed) this.saveDrafts();
  }

  /**
   * A codicon button. `once` disables it after a click until the next snapshot redraws it, so a
   * double click posts once. A disabled button takes no pointer events, so the reason it is
   * disabled is the tooltip of a wrapper around it.
   */
  private button(
    label: string,
    iconName: string,
    onClick: () => void,
    opts: { secondary?: boolean; id?: string; title?: string; once?: boolean; disabledBecause?: string } = {},
  ): HTMLElement {
    const el = h('vscode-button', { icon: iconName, secondary: opts.secondary, id: opts.id, title: opts.title, disabled: opts.disabledBecause !== undefined }, label);
    el.addEventListener('click', () => {
      if (el.hasAttribute('disabled')) return;
      if (opts.once) el.setAttribute('disabled', '');
      onClick();
    });
    if (opts.disabledBecause === undefined) return el;
    return h('span', { class: 'disabled-reason', title: opts.disabledBecause }, el);
  }
}

function notice(text: string, error: boolean, id?: string): HTMLElement {
  return h('div', { class: `notice ${error ? 'error' : 'info'}`, role: error ? 'alert' : 'status', id }, icon(error ? 'error' : 'info'), h('span', {}, text));
}
