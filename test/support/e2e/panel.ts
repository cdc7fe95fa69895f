// Groundwork's Agent panel (a webview view: its document is two frames deep) as a person uses it:
// opened from the activity bar, the composer, the answer boxes, the brief card, the model section.
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { Palette } from './palette';
import { PATIENCE, activityBarItem, sideBar, sideBarTitle } from './workbench';

/** The content document of the (first) webview: two frames deep. */
export function webviewContent(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').first().frameLocator('iframe#active-frame');
}

export class AgentPanel {
  constructor(readonly page: Page) {}

  /** The panel's document (whether or not it is drawn yet). */
  get frame(): FrameLocator {
    return webviewContent(this.page);
  }

  locator(selector: string, options?: { hasText?: string | RegExp }): Locator {
    return this.frame.locator(selector, options);
  }

  /** A button of the panel (a vscode-button), by its label. */
  button(within: string, label: string | RegExp): Locator {
    return this.frame.locator(`${within} vscode-button`, { hasText: label });
  }

  /**
   * Opens the Groundwork container from the activity bar and waits for the panel to draw. It
   * retries rather than deciding once: right after a reload the workbench restores its layout, so
   * what is visible one moment may not be the next.
   */
  async open(): Promise<FrameLocator> {
    const title = sideBarTitle(this.page, /groundwork/i);
    const deadline = Date.now() + PATIENCE.soon;
    while (!(await title.isVisible())) {
      if (Date.now() > deadline) throw new Error(`the Groundwork container did not open within ${PATIENCE.soon} ms`);
      // A click opens the container (or shows a hidden side bar); should it land while the layout
      // is still being restored and close it instead, the next turn of the loop opens it again.
      await activityBarItem(this.page, 'Groundwork').click();
      await title.waitFor({ state: 'visible', timeout: 1_000 }).catch(() => undefined);
    }
    await this.frame.locator('#app[aria-busy="false"]').waitFor({ state: 'attached', timeout: PATIENCE.work });
    return this.frame;
  }

  /**
   * Shows another container, then the panel again: VS Code drops a hidden webview's document and
   * loads it anew when it is shown, so the panel starts over from the host's snapshot.
   */
  async reopen(): Promise<FrameLocator> {
    await new Palette(this.page).run('View: Show Explorer');
    await sideBarTitle(this.page, /explorer/i).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await this.frame.locator('#app').waitFor({ state: 'detached', timeout: PATIENCE.soon });
    return this.open();
  }

  /** Folds or unfolds one of the container's views (by a click on its twistie: the header's middle holds its actions). */
  async setViewExpanded(view: 'Agent' | 'Plans', expanded: boolean): Promise<void> {
    const header = sideBar(this.page)
      .locator('.pane-header', { hasText: new RegExp(`^\\s*${view}`) })
      .first();
    await header.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    if ((await header.getAttribute('aria-expanded')) === String(expanded)) return;
    await header.click({ position: { x: 12, y: 10 } });
    await sideBar(this.page)
      .locator(`.pane-header[aria-expanded="${expanded}"]`, { hasText: new RegExp(`^\\s*${view}`) })
      .first()
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
  }

  /** Types `text` into the composer and sends it. */
  async send(text: string): Promise<void> {
    await this.frame.locator('#composer textarea').fill(text);
    await this.frame.locator('#composer-send').click();
  }

  /** The discovery's questions once a round shows them. */
  async questions(): Promise<string[]> {
    await this.frame.locator('#discovery-questions').waitFor({ state: 'visible', timeout: PATIENCE.work });
    return this.frame.locator('#discovery-questions .question-text').allInnerTexts();
  }

  /** Cancels the discovery under way; the composer is back. */
  async cancelDiscovery(): Promise<void> {
    await this.frame.locator('#discovery-cancel').click();
    await this.frame.locator('#composer').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  }

  /** An idle discovery: a brief or a conversation an earlier file left is put away. */
  async idleDiscovery(): Promise<void> {
    await this.frame.locator('#discovery').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const discard = this.frame.locator('#brief-discard');
    if (await discard.count()) await discard.click();
    const cancel = this.frame.locator('#discovery-cancel');
    if (await cancel.count()) await cancel.click();
    await this.frame.locator('#composer').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  }

  /** An idle panel: besides the discovery, a brainstorm an earlier (failed) test left open is closed. */
  async idle(): Promise<void> {
    await this.frame.locator('#discovery').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const close = this.frame.locator('#brainstorm-close');
    if (await close.count()) await close.click();
    await this.frame.locator('#brainstorm').waitFor({ state: 'detached', timeout: PATIENCE.soon });
    await this.idleDiscovery();
  }

  /**
   * A model for the scripted server: `key` is stored unless one is (an earlier file's), with VS
   * Code's password box. Resolves true when this call stored it (the caller clears it after).
   */
  async ensureKey(key: string): Promise<boolean> {
    await this.open();
    await this.frame
      .locator('#model-ready, #model-onboarding')
      .first()
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    if (await this.frame.locator('#model-ready').count()) return false;
    await new Palette(this.page).setApiKey(key);
    await this.frame.locator('#model-ready').waitFor({ state: 'visible', timeout: PATIENCE.work });
    return true;
  }

  /**
   * Posts `message` to the extension host as the panel's page would: what a stale panel (one still
   * showing a button), or a compromised one, can send whatever the panel now draws.
   */
  async post(message: unknown): Promise<void> {
    const frame = await (await this.page.locator('iframe.webview').first().elementHandle())?.contentFrame();
    if (!frame) throw new Error('the panel frame is not there');
    await frame.evaluate(
      (m) =>
        (window as unknown as { __vscode_post_message__(c: string, d: unknown): void }).__vscode_post_message__(
          'onmessage',
          { message: m },
        ),
      message,
    );
  }
}
