// Helpers for the UI-driven tests in test/e2e. These run in the runner's Node process
// (scripts/vscode/runTests.mjs), not in VS Code: they drive the workbench page with Playwright,
// the way a person would, while the extension under test runs in code-server.
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedModelServer } from '../../support/scriptedModelServer';

export interface Workbench {
  page: Page;
  /** test-artifacts/vscode: screenshots go here */
  artifactsDir: string;
  /** the temporary workspace folder the workbench has open */
  workspace: string;
  /** the code-server profile (user-data-dir): settings, logs, extension storage */
  userDataDir: string;
  /** the run's log file (everything the workbench printed so far) */
  logPath: string;
  /** the scripted Anthropic-compatible server that user settings point the extension at */
  modelServer: ScriptedModelServer;
  /** the folder of the extension under test (its package.json) */
  extensionPath: string;
  /** writes a line to the run's log and stdout */
  log(message: string): void;
  /** reloads the window (or `page`, another window on the same server); its extension host restarts (the runner expects it) */
  reload(page?: Page): Promise<void>;
}

/** The workbench the runner opened (set on globalThis before the e2e suite loads). */
export function workbench(): Workbench {
  const wb = (globalThis as { __groundworkWorkbench?: Workbench }).__groundworkWorkbench;
  if (!wb) throw new Error('no workbench: run the e2e tests with `npm run test:vscode`');
  return wb;
}

/** Runs a command from the command palette (F1), by its title as the palette shows it. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
}

/**
 * The activity-bar entry of a view container, by its title: the whole item, so that a click lands
 * on it even where its badge (the sessions waiting, in Groundwork's) covers the icon.
 */
export function activityBarItem(page: Page, title: string): Locator {
  return page.locator(`.part.activitybar .action-item:has(> a.action-label[aria-label^="${title}"])`).first();
}

/** The side bar, once it shows the named container (its title is upper-cased by CSS only). */
export function sideBar(page: Page): Locator {
  return page.locator('.part.sidebar');
}

/** The content document of the (first) webview: two frames deep. */
export function webviewContent(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').first().frameLocator('iframe#active-frame');
}

/** Saves a screenshot in test-artifacts/vscode, with no hover tooltip covering the picture. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(workbench().artifactsDir, name);
  const size = page.viewportSize() ?? { width: 1400, height: 900 };
  await page.mouse.move(size.width - 20, size.height - 60); // an empty spot of the editor area
  await page
    .locator('.workbench-hover-container, .monaco-hover:not(.hidden)')
    .first()
    .waitFor({ state: 'hidden', timeout: 3_000 })
    .catch(() => undefined);
  await page.screenshot({ path });
  workbench().log(`screenshot: ${path}`);
  return path;
}

/**
 * A command's title as the command palette shows it ("Category: Title"), read from the
 * extension's package.json and package.nls.json, so the tests follow renames.
 */
export function commandTitle(command: string): string {
  const dir = workbench().extensionPath;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    contributes?: { commands?: { command: string; title: string; category?: string }[] };
  };
  const nlsFile = join(dir, 'package.nls.json');
  const nls = existsSync(nlsFile) ? (JSON.parse(readFileSync(nlsFile, 'utf8')) as Record<string, string>) : {};
  const text = (s: string) => s.replace(/^%(.+)%$/, (whole, key: string) => nls[key] ?? whole);
  const c = pkg.contributes?.commands?.find((x) => x.command === command);
  if (!c) throw new Error(`${command} is not contributed by ${dir}/package.json`);
  return c.category ? `${text(c.category)}: ${text(c.title)}` : text(c.title);
}

/** A row of the Plans tree, by the text it shows. */
export function treeRow(page: Page, text: string | RegExp): Locator {
  return sideBar(page).locator('.monaco-list-row', { hasText: text }).first();
}

/**
 * Opens the Groundwork container from the activity bar and waits for its panel to draw. It
 * retries rather than deciding once: right after a reload the workbench restores its layout, so
 * what is visible one moment may not be the next.
 */
export async function openGroundwork(page: Page): Promise<FrameLocator> {
  const title = sideBar(page).locator('.composite.title', { hasText: /groundwork/i });
  const deadline = Date.now() + 30_000;
  while (!(await title.isVisible())) {
    if (Date.now() > deadline) throw new Error('the Groundwork container did not open within 30 s');
    // A click opens the container (or shows a hidden side bar); should it land while the layout
    // is still being restored and close it instead, the next turn of the loop opens it again.
    await activityBarItem(page, 'Groundwork').click();
    await title.waitFor({ state: 'visible', timeout: 1_000 }).catch(() => undefined);
  }
  const panel = webviewContent(page);
  await panel.locator('#app[aria-busy="false"]').waitFor({ state: 'attached', timeout: 30_000 });
  return panel;
}
