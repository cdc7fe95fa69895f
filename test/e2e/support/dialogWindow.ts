// What the UI tests that meet VS Code's modal dialogs share: a second workbench window on the same
// folder, opened without the in-host test suite (VS Code refuses every modal dialog in a window that
// runs extension tests: "DialogService: refused to show dialog in tests"), the modal itself, the
// integrated terminal's text as the smoke-test driver reads it, a tree row's context menu and the
// notifications (whose toasts the smoke-test driver hides).
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { until } from '../../support/until';
import { activityBarItem, runCommand, screenshot, workbench } from './workbench';

/**
 * A second window of the workbench on the same folder, with the extension under development but no
 * in-host tests: there, VS Code shows modal dialogs. `label` prefixes its console lines in the log.
 * Leave it open when done: a window that closes ends its extension host, which the runner would
 * take for a crash of the extension under test.
 */
export async function windowWithDialogs(main: Page, label: string): Promise<Page> {
  const url = new URL(main.url());
  const payload = (JSON.parse(url.searchParams.get('payload') ?? '[]') as [string, string][]).filter(
    ([name]) => name !== 'extensionTestsPath',
  );
  assert.ok(
    payload.some(([name]) => name === 'extensionDevelopmentPath'),
    `the workbench URL names the extension under test: ${main.url()}`,
  );
  url.searchParams.set('payload', JSON.stringify(payload));
  const page = await main.context().newPage();
  page.on('console', (msg) => {
    if (/groundwork|runs:|build:/i.test(msg.text())) workbench().log(`[${label} window] ${msg.text()}`);
  });
  await page.goto(url.toString(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: 90_000 });
  // The extension's contributions are there once its activity-bar entry is.
  await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: 60_000 });
  return page;
}

/**
 * Reloads a window made by windowWithDialogs, as a person would; its extension host restarts (the
 * runner does not take that for a crash). Returns once the extension's contributions are back.
 */
export async function reloadWindowWithDialogs(page: Page): Promise<void> {
  await workbench().reload(page);
  await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: 60_000 });
}

export function dialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box');
}

/**
 * The lines of the terminal that is shown, as the smoke-test driver reads them off xterm's buffer:
 * the visible one (`.active`) when several are open, else the first.
 */
export async function terminalText(page: Page): Promise<string> {
  const lines = await page.evaluate(async () => {
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

export async function untilTerminalShows(page: Page, pattern: RegExp, ms = 30_000): Promise<string> {
  let last = '';
  try {
    return await until(
      `the terminal to show ${pattern}`,
      async () => {
        last = await terminalText(page);
        return pattern.test(last) ? last : undefined;
      },
      ms,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; it shows:\n${last}`);
  }
}

/** Right-click on `row`, then the menu's `item`. */
export async function contextMenu(page: Page, row: Locator, item: string): Promise<void> {
  await row.click({ button: 'right' });
  const entry = page.locator('.context-view .action-menu-item', { hasText: item }).first();
  await entry.waitFor({ state: 'visible', timeout: 10_000 });
  await entry.hover();
  await entry.click();
  await entry.waitFor({ state: 'detached', timeout: 5_000 });
}

/** The notifications' text (the smoke-test driver hides the toasts): what went wrong, when a step fails. */
export async function notifications(page: Page): Promise<string> {
  await runCommand(page, 'Notifications: Show Notifications');
  const center = page.locator('.notifications-center');
  await center.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
  const text = await center.innerText().catch(() => '');
  await page.keyboard.press('Escape');
  return text;
}

/** runCommand, tried again while a fresh window does not list the extension's commands yet (up to a minute). */
export async function runCommandPatiently(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    if (
      await row.waitFor({ state: 'visible', timeout: 3_000 }).then(
        () => true,
        () => false,
      )
    )
      return row.click();
    await page.keyboard.press('Escape');
    if (Date.now() > deadline) {
      await screenshot(page, 'palette-not-ready.png');
      throw new Error(`the command palette did not list "${title}" within 60 s`);
    }
  }
}
