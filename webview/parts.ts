// The panel's smaller parts, one per feature: the panel's own notices (trust, no folder, what went
// wrong), the model, the sleeping agents (whose countdowns tick here, from when each sleep started
// and how long it may last, not from a message per second) and the discoveries journal.
import type { SleepSlice } from '../src/shared/protocol/sleep';
import { h } from './dom';
import type { JournalForm } from './journalForm';
import type { PanelContext, PanelPart } from './part';
import { renderDismissible, renderJournal, renderModel, renderNoWorkspace, renderNotice, renderRestricted, renderSleepers, restrictedNote } from './render';

function part(feature: string): HTMLElement {
  return h('div', { class: 'part', 'data-part': feature });
}

export class NoticesPart implements PanelPart {
  readonly feature = 'panel';
  readonly element = part('panel');

  render(ctx: PanelContext): void {
    const { S, post } = ctx;
    const panel = ctx.slices.panel!;
    const manageTrust = () => post({ type: 'panel.command', command: 'manageTrust' });
    this.element.replaceChildren(
      ...[
        panel.notice ? renderNotice(panel.notice, 'panel-notice') : null,
        renderDismissible(S, panel.notices, (id) => post({ type: 'notice.dismiss', id })),
        ctx.trusted ? null : renderRestricted(S, manageTrust),
        panel.hasWorkspace === true ? null : renderNoWorkspace(S, () => post({ type: 'panel.command', command: 'openFolder' })),
      ].filter((n): n is HTMLElement => n !== null),
    );
  }
}

export class ModelPart implements PanelPart {
  readonly feature = 'model';
  readonly element = part('model');

  render(ctx: PanelContext): void {
    this.element.replaceChildren(renderModel(ctx.S, ctx.slices.model!, (command) => ctx.post({ type: 'model.command', command })));
  }
}

/** setInterval and clearInterval, or a test's stand-in. */
export interface Ticker {
  every(ms: number, fn: () => void): () => void;
}

export const realTicker: Ticker = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
};

export class SleepPart implements PanelPart {
  readonly feature = 'sleep';
  readonly element = part('sleep');
  private stop: (() => void) | undefined;

  constructor(private readonly ticker: Ticker = realTicker) {}

  render(ctx: PanelContext): void {
    this.stop?.();
    this.stop = undefined;
    const slice: SleepSlice = ctx.slices.sleep!;
    if (slice.error) {
      this.element.replaceChildren(
        h(
          'section',
          { id: 'sleepers', 'aria-labelledby': 'sleepers-heading' },
          h('h2', { id: 'sleepers-heading' }, ctx.S.sleepersHeading),
          renderNotice({ kind: 'error', text: slice.error }),
        ),
      );
      return;
    }
    if (slice.sleepers.length === 0) {
      this.element.replaceChildren();
      return;
    }
    const drawn = renderSleepers(ctx.S, slice.sleepers, ctx.now(), ctx.trusted ? (agent) => ctx.post({ type: 'sleep.wake', agent }) : undefined);
    this.element.replaceChildren(drawn.section);
    // Only the countdowns change: the rest of the panel (a draft being typed) is left alone.
    this.stop = this.ticker.every(1000, () => drawn.tick(ctx.now()));
  }
}

export class JournalPart implements PanelPart {
  readonly feature = 'journal';
  readonly element = part('journal');

  constructor(private readonly form: JournalForm) {}

  render(ctx: PanelContext): void {
    const { S, post } = ctx;
    this.form.label(S);
    const form = ctx.trusted ? this.form.element : restrictedNote(S, S.restrictedJournal, () => post({ type: 'panel.command', command: 'manageTrust' }), 'journal-restricted');
    this.element.replaceChildren(renderJournal(S, ctx.slices.journal!, form, () => post({ type: 'journal.open' }), ctx.trusted));
  }
}
