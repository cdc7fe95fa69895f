// The plan explorer (Groundwork's Plans view, a tree in the side bar) as a person uses it: rows by
// what they show or what a screen reader says of them, their context menus and inline actions, the
// decorations VS Code draws after them, and the activity bar's badge.
import type { Locator, Page } from 'playwright-core';
import { until } from '../until';
import { PATIENCE, activityBarItem, clearHover, sideBar } from './workbench';

export class PlanExplorer {
  constructor(readonly page: Page) {}

  /** A row of the side bar's trees, by the text it shows. */
  row(text: string | RegExp): Locator {
    return sideBar(this.page).locator('.monaco-list-row', { hasText: text }).first();
  }

  /** A row by the start of what a screen reader says of it ("qa, passed · 2 tries · …"), at a depth when given (1: a root). */
  labelled(ariaLabel: string, level?: number): Locator {
    const depth = level === undefined ? '' : `[aria-level="${level}"]`;
    return sideBar(this.page).locator(`.monaco-list-row${depth}[aria-label^="${ariaLabel}"]`).first();
  }

  /** The rows at a depth, by the text they show. */
  rowAt(level: number, text: string | RegExp): Locator {
    return sideBar(this.page).locator(`.monaco-list-row[aria-level="${level}"]`, { hasText: text }).first();
  }

  /** Waits for the row showing `text`, and returns it. */
  async shown(text: string | RegExp, timeout: number = PATIENCE.work): Promise<Locator> {
    const row = this.row(text);
    await row.waitFor({ state: 'visible', timeout });
    return row;
  }

  async gone(text: string | RegExp): Promise<void> {
    await this.row(text).waitFor({ state: 'detached', timeout: PATIENCE.work });
  }

  /** Expands or folds a row with its twistie (a click on the row itself may open its document). */
  async toggle(row: Locator): Promise<void> {
    await row.locator('.monaco-tl-twistie').click();
  }

  /** Right-click on `row`, then the menu's `item`. */
  async contextMenu(row: Locator, item: string): Promise<void> {
    await clearHover(this.page);
    await row.click({ button: 'right' });
    const entry = this.page.locator('.context-view .action-menu-item', { hasText: item }).first();
    await entry.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await entry.hover();
    await entry.click();
    await entry.waitFor({ state: 'detached', timeout: PATIENCE.soon });
  }

  /** A row's inline action (shown on hover), by its label. */
  async inlineAction(row: Locator, label: string): Promise<void> {
    await clearHover(this.page);
    await row.hover();
    await row.locator(`.actions .action-label[aria-label="${label}"]`).click();
  }

  /**
   * The tooltip `row` shows when the mouse rests on it, as a person reads it. The mouse goes there
   * again while none shows (a redraw of the tree under the mouse takes the hover away).
   */
  async tooltip(row: Locator): Promise<Locator> {
    const tip = this.page.locator('.workbench-hover-container, .monaco-hover:not(.hidden)').first();
    await until(
      'the row to show its tooltip',
      async () => {
        await clearHover(this.page);
        await row.hover();
        return tip.waitFor({ state: 'visible', timeout: 3_000 }).then(
          () => true,
          () => undefined,
        );
      },
      PATIENCE.soon,
    );
    return tip;
  }

  /** The text drawn after each element of `row` by CSS (`::after`): where VS Code draws a file decoration's badge. */
  badges(row: Locator): Promise<string[]> {
    return row.evaluate((el) =>
      [el, ...Array.from(el.querySelectorAll('*'))]
        .map((e) => getComputedStyle(e, '::after').content)
        .filter((c) => c && c !== 'none' && c !== 'normal' && c !== '""'),
    );
  }

  /** The number on Groundwork's activity-bar entry (sessions waiting), '' when none. */
  async badge(): Promise<string> {
    const texts = await activityBarItem(this.page, 'Groundwork').locator('.badge .badge-content').allTextContents();
    return (texts[0] ?? '').trim();
  }
}
