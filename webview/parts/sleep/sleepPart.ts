// The sleeping agents: whose countdowns tick here, from when each sleep started and how long it may
// last, not from a message per second; Wake for each (shown disabled, with why, in Restricted Mode).
import type { PanelStrings } from '../../../src/shared/panelStrings';
import { sleeperStatus, type SleeperView, type SleepSlice } from '../../../src/shared/protocol/sleep';
import { h, icon } from '../../dom';
import type { PanelContext, PanelPart } from '../../part';
import { button, disabledButton, part, renderNotice, restrictedNote, sectionOf } from '../panel/controls';

/**
 * `onWake` undefined: Restricted Mode, where Wake is shown disabled with why. `tick` is called with
 * the countdown's text of each sleeper, in order, to draw them again as time passes (sleep.ts).
 */
export function renderSleepers(
  S: PanelStrings,
  sleepers: SleeperView[],
  now: number,
  onWake: ((agent: string) => void) | undefined,
): { section: HTMLElement; tick(now: number): void } {
  const rows = sleepers.map((s) => {
    const status = sleeperStatus(s, now);
    const remaining = h('span', { class: 'muted sleeper-remaining' }, status.text);
    const stateIcon = icon(status.overdue ? 'warning' : 'clock');
    const row = h(
      'li',
      { class: 'sleeper' },
      stateIcon,
      h('span', { class: 'sleeper-agent' }, s.agent),
      remaining,
      onWake
        ? button(S.wake, 'debug-continue', () => onWake(s.agent), true)
        : disabledButton(S.wake, 'debug-continue', S.restrictedWake, { secondary: true }),
    );
    return { s, row, remaining, stateIcon };
  });
  const section = sectionOf(
    'sleepers',
    S.sleepersHeading,
    h('ul', { class: 'plain-list' }, ...rows.map((r) => r.row)),
    onWake ? null : restrictedNote(S, S.restrictedWake, undefined, 'sleepers-restricted'),
  );
  return {
    section,
    tick(at: number) {
      for (const r of rows) {
        const status = sleeperStatus(r.s, at);
        if (r.remaining.textContent !== status.text) r.remaining.textContent = status.text;
        r.stateIcon.setAttribute('name', status.overdue ? 'warning' : 'clock');
      }
    },
  };
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
    const drawn = renderSleepers(
      ctx.S,
      slice.sleepers,
      ctx.now(),
      ctx.trusted ? (agent) => ctx.post({ type: 'sleep.wake', agent }) : undefined,
    );
    this.element.replaceChildren(drawn.section);
    // Only the countdowns change: the rest of the panel (a draft being typed) is left alone.
    this.stop = this.ticker.every(1000, () => drawn.tick(ctx.now()));
  }
}
