// VS Code's modal dialogs (Groundwork's approvals, gates and confirmations) and its notifications.
// The smoke-test driver (which the runner turns on) hides notification toasts: a person reads them
// in the notification center, which these open and keep open while a test waits on them.
import type { Locator, Page } from 'playwright-core';
import { until } from '../until';
import { Palette } from './palette';
import { PATIENCE } from './workbench';

export class Modal {
  constructor(readonly page: Page) {}

  get box(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  /** The modal's text once it shows (what `filter` says, when given). */
  async shown(filter?: string | RegExp, timeout: number = PATIENCE.work): Promise<string> {
    const box = filter === undefined ? this.box : this.box.filter({ hasText: filter });
    await box.waitFor({ state: 'visible', timeout });
    return box.innerText();
  }

  button(name: string): Locator {
    return this.box.getByRole('button', { name, exact: true });
  }

  /** Clicks the modal's button `name`; resolves once the modal is gone. */
  async choose(name: string): Promise<void> {
    await this.button(name).click();
    await this.box.waitFor({ state: 'hidden', timeout: PATIENCE.soon });
  }

  /**
   * Waits for `probe`, answering Allow Once to each command of Groundwork's own checks the modal
   * asks about meanwhile (QA's VERIFY, the final verification's TEST); how many it answered.
   */
  async allowingChecks<T>(
    what: string,
    probe: () => T | undefined | false,
    timeout: number = 2 * PATIENCE.work,
  ): Promise<{ value: T; allowed: number }> {
    const check = this.box.filter({ hasText: 'Agent: Groundwork (build check)' });
    let allowed = 0;
    const value = await until(
      what,
      async () => {
        if (await check.isVisible()) {
          await this.choose('Allow Once');
          allowed++;
        }
        return probe();
      },
      timeout,
    );
    return { value, allowed };
  }
}

export class Notifications {
  constructor(readonly page: Page) {}

  get center(): Locator {
    return this.page.locator('.notifications-center');
  }

  /**
   * Opens the notification center (it stays open until Escape or hide()). Asked again when it does
   * not open: a webview that takes the keyboard back as it opens can close the palette under the keys.
   */
  async show(): Promise<void> {
    for (let attempt = 1; !(await this.center.isVisible()); attempt++) {
      await new Palette(this.page).run('Notifications: Show Notifications');
      const shown = this.center.waitFor({ state: 'visible', timeout: attempt < 3 ? 5_000 : PATIENCE.soon });
      if (attempt === 3) return shown;
      await shown.catch(() => undefined);
    }
  }

  async hide(): Promise<void> {
    if (!(await this.center.isVisible())) return;
    await new Palette(this.page).run('Notifications: Hide Notifications');
    await this.center.waitFor({ state: 'hidden', timeout: PATIENCE.soon });
  }

  /** Waits until a notification saying `text` is listed; the center is left open. */
  async waitFor(text: string | RegExp, timeout: number = PATIENCE.work): Promise<void> {
    await this.show();
    await this.center.getByText(text).first().waitFor({ state: 'visible', timeout });
  }

  /**
   * The notification saying `text`, in the center (left open), expanded so that its buttons show
   * (the center folds all but its newest).
   */
  async item(text: string | RegExp, timeout: number = PATIENCE.work): Promise<Locator> {
    await this.waitFor(text, timeout);
    const item = this.center.locator('.notification-list-item', { hasText: text }).first();
    const buttons = item.locator('.notification-list-item-buttons-container');
    if (!(await buttons.isVisible())) {
      await item.locator('.action-label[aria-label^="Expand"]').click();
      await buttons.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    }
    return item;
  }

  /** The button `name` of a notification `item`. */
  button(item: Locator, name: string): Locator {
    return item.getByRole('button', { name, exact: true });
  }

  /** Every notification's text (what went wrong, when a step fails); the center is closed again. */
  async text(): Promise<string> {
    await this.show().catch(() => undefined);
    const text = await this.center.innerText().catch(() => '');
    await this.hide().catch(() => undefined);
    return text;
  }

  /** Clears every notification (the center stays as it was). */
  async clear(): Promise<void> {
    await new Palette(this.page).run('Notifications: Clear All Notifications');
    await this.center
      .locator('.notification-list-item')
      .first()
      .waitFor({ state: 'hidden', timeout: PATIENCE.soon })
      .catch(() => undefined);
  }
}
