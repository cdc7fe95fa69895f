// The brainstorm in the panel: what the inquisitors or the coordinator are doing (with their tool
// calls, each in its agent's stream), a round's questions as a form grouped by angle, earlier
// rounds folded away, and the result card. Answer drafts and Skip ticks (brainstormForm.ts) live
// here across the host's messages and are saved with the webview's state so a reload keeps them.
import { fill, type PanelStrings } from '../../../src/shared/panelStrings';
import {
  brainstormStreamOf,
  type BrainstormPanelView,
  type BrainstormRoundView,
} from '../../../src/shared/protocol/brainstorm';
import type { StreamId } from '../../../src/shared/protocol/common';
import type { ToolLine } from '../../../src/shared/protocol/discovery';
import type { WebviewMessage } from '../../../src/shared/protocol/panel';
import { ANGLE, inquisitors, problemText, progress, type ToolLists } from './brainstormProgress';
import { h, icon } from '../../dom';
import type { PanelContext, PanelPart } from '../../part';
import { completeCard } from './brainstormCard';
import { actionButton } from '../panel/controls';
import { fillToolList, upsertLine } from '../panel/toolLines';
import { questionForm, type BrainstormDrafts } from './brainstormForm';

type Active = Exclude<BrainstormPanelView, { status: 'none' } | { status: 'complete' }>;
type Running = Extract<BrainstormPanelView, { status: 'running' }>;
type Failed = Extract<BrainstormPanelView, { status: 'failed' }>;

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
        if (view.round === 1 && view.inquisitors?.some((i) => i.state !== 'success'))
          body.push(inquisitors(view.inquisitors, this.S));
        body.push(questionForm(view, this.S, this.drafts, () => this.saveDrafts(), this.post));
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
        view.round < view.minRounds
          ? h('span', { class: 'muted', id: 'brainstorm-min-rounds' }, fill(S.brainstormMinRounds, view.minRounds))
          : null,
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
    this.stream = h(
      'div',
      { class: 'stream', id: 'brainstorm-stream', 'aria-label': S.brainstormStreamLabel },
      view.streamed,
    );
    nodes.push(
      this.stream,
      h(
        'div',
        { class: 'actions' },
        actionButton(S.stop, 'debug-stop', () => this.post({ type: 'brainstorm.stop' }), {
          secondary: true,
          id: 'brainstorm-stop',
          once: true,
        }),
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
        actionButton(S.retry, 'refresh', () => this.post({ type: 'brainstorm.retry' }), {
          id: 'brainstorm-retry',
          once: true,
        }),
        actionButton(S.close, 'close', () => this.post({ type: 'brainstorm.close' }), {
          secondary: true,
          id: 'brainstorm-close',
          once: true,
        }),
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
  return h(
    'div',
    { class: `notice ${error ? 'error' : 'info'}`, role: error ? 'alert' : 'status', id },
    icon(error ? 'error' : 'info'),
    h('span', {}, text),
  );
}
