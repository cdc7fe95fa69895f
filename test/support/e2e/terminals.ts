// The integrated terminals a run or a build writes to, as a person reads them: their text is drawn
// on a canvas, so it is read off xterm's buffer through the smoke-test driver.
import type { Locator, Page } from 'playwright-core';
import { until } from '../until';
import { Palette } from './palette';
import { PATIENCE } from './workbench';

export class Terminals {
  constructor(readonly page: Page) {}

  /** The terminal shown (the first when several are open). */
  get shown(): Locator {
    return this.page.locator('.terminal-wrapper').first();
  }

  /**
   * The lines of the terminal that is shown, as the smoke-test driver reads them off xterm's buffer:
   * the visible one (`.active`) when several are open, else the first.
   */
  async text(): Promise<string> {
    const lines = await this.page.evaluate(async () => {
      const driver = (window as unknown as { driver?: { getTerminalBuffer(selector: string): Promise<string[]> } })
        .driver;
      if (!driver) throw new Error('no smoke-test driver in the workbench');
      const selector = document.querySelector('.terminal-wrapper.active')
        ? '.terminal-wrapper.active'
        : '.terminal-wrapper';
      return driver.getTerminalBuffer(selector).catch(() => [] as string[]);
    });
    return lines.join('\n');
  }

  /** The shown terminal's text once it matches `pattern`. */
  async untilShows(pattern: RegExp, ms: number = PATIENCE.work): Promise<string> {
    let last = '';
    try {
      return await until(
        `the terminal to show ${pattern}`,
        async () => {
          last = await this.text();
          return pattern.test(last) ? last : undefined;
        },
        ms,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}; it shows:\n${last}`);
    }
  }

  /** Shows the terminal named `name` from the list beside the terminals, as a person picks it; its text once it shows `shows`. */
  async pick(name: string, shows: RegExp): Promise<string> {
    await this.page.locator('.terminal-tabs-entry', { hasText: name }).first().click();
    return this.untilShows(shows, PATIENCE.soon);
  }

  /** A key pressed in the terminal of a run that has ended closes it. */
  async closeEnded(): Promise<void> {
    const terminal = this.shown;
    await terminal.click();
    await this.page.keyboard.press('Enter');
    await terminal.waitFor({ state: 'detached', timeout: PATIENCE.soon });
  }

  /** The person closes the shown terminal (its trash can) while what runs in it goes on. */
  async killShown(): Promise<void> {
    const active = this.page.locator('.terminal-wrapper.active');
    await ((await active.count()) ? active : this.shown).first().click();
    await new Palette(this.page).run('Terminal: Kill the Active Terminal Instance');
  }
}
