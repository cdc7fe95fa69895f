// The brainstorm in the panel: what the inquisitors or the coordinator are doing (with their tool
// calls, each in its agent's stream), a round's questions as a form grouped by angle, earlier
// rounds folded away, and the result card. Answer drafts and Skip ticks live here across the
// host's messages (keyed by slug, round and the question's place in the round) and are saved with
// the webview's state so a reload keeps them.
import { fill, type PanelStrings } from '../src/shared/panelStrings';
import { brainstormStreamOf, type BrainstormAngle, type BrainstormPanelView, type BrainstormRoundView } from '../src/shared/protocol/brainstorm';
import type { StreamId } from '../src/shared/protocol/common';
import type { ToolLine } from '../src/shared/protocol/discovery';
import type { WebviewMessage } from '../src/shared/protocol/panel';
import { ANGLE, inquisitors, problemText, progress, type ToolLists } from './brainstormProgress';
import { h, icon } from './dom';
import type { PanelContext, PanelPart } from './part';
import { actionButton, completeCard } from './brainstormCard';
import { fillToolList, upsertLine } from './toolLines';

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
export class BrainstormUi implements PanelPart {
  readonly feature = 'brainstorm';
  readonly element: HTMLElement = h('div', { class: 'part', 'data-part': 'brainstorm' });
  private readonly section: HTMLElement = h('section', { id: 'brainstorm', 'aria-labelledby': 'brainstorm-heading' });
  private view: BrainstormPanelView = { status: 'none', actions: [] };
  private stream: HTMLElement | undefined;
  private readonly toolLists: ToolLists = new Map();
  private S!: PanelStrings;
  private post: (message: WebviewMessage) => void = () => undefined;
  /** Earlier rounds the person unfolded, so that the next redraw leaves them open. */
  private readonly openRounds = new Set<string>();

  constructor(
    private readonly drafts: BrainstormDrafts,
    private readonly saveDrafts: () => void,
  ) {}

  /** The coordinator's text; false when it cannot be shown (not this brainstorm's running step, or text is missing). */
  append(stream: StreamId, at: number, text: string): boolean {
    const running = this.running$(stream);
    if (!running || !this.stream || brainstormStreamOf(stream)?.agent !== 'coordinator') return false;
    const have = running.streamed;
    if (at > have.length) return false;
    const fresh = text.slice(have.length - at);
    if (!fresh) return true;
    this.view = { ...running, streamed: have + fresh };
    this.stream.textContent = this.view.streamed;
    this.stream.scrollTop = this.stream.scrollHeight;
    return true;
  }

  /** A tool call of the coordinator or of one inquisitor: its line in that agent's list. */
  tool(stream: StreamId, line: ToolLine): boolean {
    const running = this.running$(stream);
    const agent = brainstormStreamOf(stream)?.agent;
    const list = agent === undefined ? undefined : this.toolLists.get(agent);
    if (!running || !list || agent === undefined) return false;
    if (agent === 'coordinator') {
      this.view = { ...running, tools: upsertLine(running.tools, line) };
      fillToolList(list, this.S, this.view.tools);
      return true;
    }
    const inquisitor = running.inquisitors?.find((q) => q.angle === agent);
    if (!inquisitor) return false;
    const updated = { ...inquisitor, tools: upsertLine(inquisitor.tools, line) };
    this.view = { ...running, inquisitors: running.inquisitors!.map((q) => (q === inquisitor ? updated : q)) };
    fillToolList(list, this.S, updated.tools);
    return true;
  }

  /** The running step on screen, when `stream` is one of its brainstorm's. */
  private running$(stream: StreamId): Running | undefined {
    const view = this.view;
    return view.status === 'running' && brainstormStreamOf(stream)?.slug === view.slug ? view : undefined;
  }

  render(ctx: PanelContext): void {
    const view = ctx.slices.brainstorm!;
    this.view = view;
    this.S = ctx.S;
    this.post = ctx.post;
    this.stream = undefined;
    this.toolLists.clear();
    const S = this.S;
    const body: Node[] = [];
    // Restricted Mode shows no brainstorm: the panel offers no model work there.
    if (!ctx.trusted) {
      this.element.replaceChildren();
      return;
    }
    switch (view.status) {
      case 'none':
        this.element.replaceChildren();
        return;
      case 'complete':
        this.forget(view.slug, Infinity);
        body.push(completeCard(view, S, this.post));
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
    this.section.replaceChildren(h('h2', { id: 'brainstorm-heading' }, S.brainstormHeading), ...body);
    if (this.section.parentNode !== this.element) {
      this.element.replaceChildren(this.section);
      // A brainstorm started from the palette or the brief card appears above where the person
      // may have scrolled to: bring it into view.
      (this.section as Partial<Pick<HTMLElement, 'scrollIntoView'>>).scrollIntoView?.({ block: 'start' });
    }
  }

  /** The idle panel's ways in, shown beside the composer: start a brainstorm, or resume one. */
  entryActions(ctx: PanelContext): Node[] {
    const S = ctx.S;
    const start = actionButton(S.brainstormStart, 'comment-discussion', () => ctx.post({ type: 'brainstorm.new' }), {
      secondary: true,
      id: 'brainstorm-start',
      title: S.brainstormStartTitle,
    });
    const resume = h('button', { type: 'button', class: 'link-button', id: 'brainstorm-resume' }, S.resumeBrainstorm);
    resume.addEventListener('click', () => ctx.post({ type: 'brainstorm.resume' }));
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
    const nodes = progress(view, S, this.toolLists);
    // Not a live region: a screen reader would read every streamed token. The status row says what runs.
    this.stream = h('div', { class: 'stream', id: 'brainstorm-stream', 'aria-label': S.brainstormStreamLabel }, view.streamed);
    nodes.push(
      this.stream,
      h(
        'div',
        { class: 'actions' },
        actionButton(S.stop, 'debug-stop', () => this.post({ type: 'brainstorm.stop' }), { secondary: true, id: 'brainstorm-stop', once: true }),
      ),
    );
    return nodes;
  }

  private failed(view: Failed): Node[] {
    const S = this.S;
    return [
      view.inquisitors?.length ? inquisitors(view.inquisitors, this.S) : null,
      notice(problemText(S, view.problem), true, 'brainstorm-error'),
      view.rounds.length ? h('p', { class: 'muted' }, S.answersKept) : null,
      h(
        'div',
        { class: 'actions' },
        actionButton(S.retry, 'refresh', () => this.post({ type: 'brainstorm.retry' }), { id: 'brainstorm-retry', once: true }),
        actionButton(S.close, 'close', () => this.post({ type: 'brainstorm.close' }), { secondary: true, id: 'brainstorm-close', once: true }),
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
          a === null
            ? h('div', { class: 'transcript-a muted' }, icon('debug-step-over'), h('span', {}, S.skippedAnswer))
            : a?.trim()
              ? h('div', { class: 'transcript-a' }, h('span', { class: 'transcript-text' }, a))
              : h('div', { class: 'transcript-a muted' }, h('span', {}, S.noAnswer));
        return h('li', {}, h('div', { class: 'transcript-q' }, icon(ANGLE[q.angle]?.icon ?? 'question'), h('span', {}, q.text)), answer);
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
    const canMore = view.actions.includes('more');
    const canSummarize = view.actions.includes('summarize');
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
    const more = actionButton(S.keepGrilling, 'comment-discussion', () => submit('more'), {
      secondary: primary !== 'more',
      id: 'brainstorm-more',
      disabledBecause: canMore ? undefined : fill(S.brainstormMaxRounds, view.maxRounds),
    });
    const summarize = actionButton(S.summarizeNow, 'check-all', () => submit('summarize'), {
      secondary: primary !== 'summarize',
      id: 'brainstorm-summarize',
      disabledBecause: canSummarize ? undefined : fill(S.brainstormMinRounds, view.minRounds),
    });
    const close = actionButton(S.close, 'close', () => this.post({ type: 'brainstorm.close' }), { secondary: true, id: 'brainstorm-close' });
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
}

function notice(text: string, error: boolean, id?: string): HTMLElement {
  return h('div', { class: `notice ${error ? 'error' : 'info'}`, role: error ? 'alert' : 'status', id }, icon(error ? 'error' : 'info'), h('span', {}, text));
}
