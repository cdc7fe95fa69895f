// The editor area as a person uses it: a file opened with Go to File, the tabs, the text shown, the
// markdown preview (a webview of its own).
import type { Frame, Locator, Page } from 'playwright-core';
import { until } from '../until';
import { Palette } from './palette';
import { PATIENCE, clearHover } from './workbench';

export class Editors {
  constructor(readonly page: Page) {}

  tab(text: string | RegExp): Locator {
    return this.page.locator('.tabs-container .tab', { hasText: text }).first();
  }

  /** The active editor's visible text, as the person reads it (no-break spaces as spaces). */
  async text(): Promise<string> {
    return (await this.page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  }

  /** A line of the editor, by its text. */
  line(text: string | RegExp): Locator {
    return this.page.locator('.editor-instance .view-line', { hasText: text }).first();
  }

  /**
   * The hover the editor shows when the mouse rests on the text `on`, once it says `saying`. The
   * mouse goes there again while none shows (a redraw of the decorations under the mouse takes the
   * hover away).
   */
  async hover(on: string, saying: string): Promise<Locator> {
    // The innermost span (a token): a line's outer span holds all of it, and its middle may be elsewhere.
    const target = this.page.locator('.editor-instance .view-line span:not(:has(span))', { hasText: on }).first();
    const hover = this.page.locator('.monaco-hover:not(.hidden)', { hasText: saying }).first();
    await until(
      `the editor's hover over "${on}"`,
      async () => {
        await clearHover(this.page);
        await target.hover();
        return hover.waitFor({ state: 'visible', timeout: 3_000 }).then(
          () => true,
          () => undefined,
        );
      },
      PATIENCE.soon,
    );
    return hover;
  }

  /** Opens a workspace file with Go to File (Ctrl+P), as a person does; resolves once its line `showing` is drawn. */
  async open(path: string, showing: string | RegExp): Promise<void> {
    const palette = new Palette(this.page);
    await palette.run('Go to File...');
    await this.page.keyboard.type(path);
    await palette.row(path.split('/').pop()!).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await this.page.keyboard.press('Enter');
    await this.line(showing).waitFor({ state: 'visible', timeout: PATIENCE.soon });
  }

  /**
   * Closes the tab showing `text` with the mouse, if it is there: a webview's (the report's preview)
   * takes the keyboard back when it likes, closing the palette under the keys.
   */
  async closeTab(text: string | RegExp): Promise<void> {
    const tab = this.tab(text);
    if (!(await tab.isVisible())) return;
    await tab.hover();
    await tab.locator('.tab-actions .action-label[aria-label^="Close"]').click({ timeout: PATIENCE.soon });
    await tab.waitFor({ state: 'detached', timeout: PATIENCE.soon });
  }

  async closeAll(): Promise<void> {
    if ((await this.page.locator('.tabs-container .tab').count()) === 0) return;
    await new Palette(this.page).run('View: Close All Editors');
    await this.page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: PATIENCE.soon });
  }

  /**
   * The frame of a webview editor (the markdown preview) once its document shows `selector`
   * (with `text`): drawn, and so ready for a picture.
   */
  async webviewShowing(selector: string, text?: string | RegExp): Promise<Frame> {
    return until(
      `a webview showing ${selector}${text ? ` with ${text}` : ''}`,
      async () => {
        for (const frame of this.page.frames()) {
          const found = await frame
            .locator(selector, text === undefined ? undefined : { hasText: text })
            .count()
            .catch(() => 0);
          if (found > 0) return frame;
        }
        return undefined;
      },
      PATIENCE.work,
    );
  }
}
