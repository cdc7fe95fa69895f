// The command palette and VS Code's quick inputs (the boxes and lists a command asks with), as a
// person uses them: F1, the command's title, Enter; a value typed into a box; a row picked.
import type { Locator, Page } from 'playwright-core';
import { PATIENCE, commandTitle, screenshot } from './workbench';

export class Palette {
  constructor(readonly page: Page) {}

  /** The quick input widget (the palette, an input box or a quick pick). */
  get widget(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  get input(): Locator {
    return this.widget.locator('input').first();
  }

  /** A row of the list the widget shows, by its text. */
  row(text: string | RegExp): Locator {
    return this.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  }

  /** The widget's title (a multi-step input says its step there). */
  title(text: string | RegExp): Locator {
    return this.widget.locator('.quick-input-title', { hasText: text });
  }

  /** The widget's message (what a box says of the value typed). */
  message(text: string | RegExp): Locator {
    return this.widget.locator('.quick-input-message', { hasText: text });
  }

  /**
   * Runs a command by the title the palette shows. While the palette does not open (the keyboard is
   * held by a webview) or does not list the command yet (a window that has just opened, a setting
   * just taken), it is tried again, for up to a minute.
   */
  async run(title: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await this.page.keyboard.press('F1');
      const opened = await this.input.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      // A webview that takes the keyboard back as it opens closes the widget under the keys: asked again.
      const filled =
        opened &&
        (await this.input.fill(`>${title}`, { timeout: 5_000 }).then(
          () => true,
          () => false,
        ));
      if (filled) {
        const row = this.row(title);
        const listed = await row.waitFor({ state: 'visible', timeout: 5_000 }).then(
          () => true,
          () => false,
        );
        if (listed) {
          // Enter on the row the palette focused when it is the one (a click can land on a row the
          // list moves under the mouse as it filters); else a click on it. A row that something
          // covers (a hover, a toast) is tried again rather than waited on.
          const focused = this.page.locator('.quick-input-list .monaco-list-row.focused').first();
          const first = (await focused.textContent({ timeout: 1_000 }).catch(() => '')) ?? '';
          if (first.includes(title)) return this.page.keyboard.press('Enter');
          if (
            await row.click({ timeout: 5_000 }).then(
              () => true,
              () => false,
            )
          )
            return;
        }
      }
      if (Date.now() > deadline) {
        await screenshot(this.page, 'palette-not-ready.png');
        throw new Error(`the command palette did not ${opened ? 'list' : 'open for'} "${title}" within 60 s`);
      }
      // The keyboard back to the workbench from a webview that may hold it, and the widget closed.
      await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await this.page.keyboard.press('Escape');
    }
  }

  /** Runs one of Groundwork's commands by its id (its title read from package.json). */
  runGroundwork(command: string): Promise<void> {
    return this.run(commandTitle(command));
  }

  /** Types `value` into the box the widget shows and presses Enter. */
  async submit(value: string): Promise<void> {
    await this.input.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await this.input.fill(value);
    await this.page.keyboard.press('Enter');
  }

  /** Picks the row showing `text` with a click. */
  async pick(text: string | RegExp): Promise<void> {
    const row = this.row(text);
    await row.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await row.click();
  }

  async closed(): Promise<void> {
    await this.widget.waitFor({ state: 'hidden', timeout: PATIENCE.soon });
  }

  /** `Groundwork: Set Anthropic API Key…` with `key` typed into VS Code's password box. */
  async setApiKey(key: string): Promise<void> {
    await this.runGroundwork('groundwork.setApiKey');
    await this.submit(key);
    await this.input.waitFor({ state: 'hidden', timeout: PATIENCE.soon });
  }
}
