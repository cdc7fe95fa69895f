// What the UI tests (test/e2e) are given by the runner (scripts/vscode/runTests.mjs): the workbench
// page they drive, the workspace it has open, the scripted model server, and the windows. These run
// in the runner's Node process, not in VS Code: they drive the page with Playwright, the way a
// person would, while the extension under test runs in code-server. docs/vscode-testing.md says how.
import type { Locator, Page } from 'playwright-core';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedModelServer } from '../scriptedModelServer';

/**
 * How long a wait may take before it fails: a safety net for a loaded machine, not a budget (a wait
 * returns as soon as what it waits for is there). `soon` is for what follows a click in the window;
 * `work` for what follows a model call, a file watcher or a process.
 */
export const PATIENCE = { soon: 30_000, work: 90_000 } as const;

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
  /** reloads the window (or `page`, another window); its extension host restarts (the runner expects it) */
  reload(page?: Page): Promise<void>;
  /** opens another window of the same server on a folder or a .code-workspace file, with the extension under development */
  openWindow(where: { folder?: string; workspace?: string; label?: string }): Promise<Page>;
  /** closes a window openWindow opened; its extension host stops (the runner expects it) */
  closeWindow(page: Page): Promise<void>;
}

/** The workbench the runner opened (set on globalThis before the e2e suite loads). */
export function workbench(): Workbench {
  const wb = (globalThis as { __groundworkWorkbench?: Workbench }).__groundworkWorkbench;
  if (!wb) throw new Error('no workbench: run the e2e tests with `npm run test:vscode`');
  return wb;
}

/**
 * Notes what the workspace folder holds now (its top and its `.groundwork/`), and returns what
 * removes everything added since: for a file's `before` and `after`, so that each UI file leaves the
 * workspace as it found it (in the shared window, the next file starts from what the fixture holds).
 * `.groundwork/` itself is emptied rather than removed: the window keeps the plan explorer's root for
 * the folder instead of dropping it and making another. (Once, in a loaded run, the explorer's plans
 * stayed as they were after the whole folder went, and plans made later did not show.)
 */
export function keepWorkspaceAsFound(): () => void {
  const { workspace } = workbench();
  const state = join(workspace, '.groundwork');
  const list = () => [
    ...readdirSync(workspace).filter((n) => n !== '.groundwork'),
    ...(existsSync(state) ? readdirSync(state).map((n) => `.groundwork/${n}`) : []),
  ];
  const found = new Set(list());
  return () => {
    for (const name of list()) if (!found.has(name)) rmSync(join(workspace, name), { recursive: true, force: true });
  };
}

/**
 * The activity-bar entry of a view container, by its title: the whole item, so that a click lands
 * on it even where its badge (the sessions waiting, in Groundwork's) covers the icon.
 */
export function activityBarItem(page: Page, title: string): Locator {
  return page.locator(`.part.activitybar .action-item:has(> a.action-label[aria-label^="${title}"])`).first();
}

/** The side bar. */
export function sideBar(page: Page): Locator {
  return page.locator('.part.sidebar');
}

/** The side bar's title while it shows the container named `name` (upper-cased by CSS only). */
export function sideBarTitle(page: Page, name: RegExp): Locator {
  return sideBar(page).locator('.composite.title', { hasText: name });
}

/** Drags the side bar's edge by `by` pixels (to the right when positive), as a person does to read long rows. */
export async function widenSideBar(page: Page, by: number): Promise<void> {
  const box = await sideBar(page).boundingBox();
  if (!box) return;
  const [x, y] = [box.x + box.width + 1, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + by, y, { steps: 8 });
  await page.mouse.up();
  // Away from the edge: its highlight goes once the mouse has left it.
  await page.mouse.move(x + by + 300, y);
  await page
    .locator('.monaco-sash.hover, .monaco-sash.active')
    .first()
    .waitFor({ state: 'detached', timeout: PATIENCE.soon })
    .catch(() => undefined);
}

/**
 * The mouse moved to an empty spot of the editor area, and no hover tooltip left: one that a row
 * showed where the mouse rested would cover the next thing clicked (or pictured).
 */
export async function clearHover(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 1400, height: 900 };
  await page.mouse.move(size.width - 20, size.height - 60);
  await page
    .locator('.workbench-hover-container, .monaco-hover:not(.hidden)')
    .first()
    .waitFor({ state: 'hidden', timeout: 3_000 })
    .catch(() => undefined);
}

/** Saves a screenshot in test-artifacts/vscode, with no hover tooltip covering the picture. */
export async function screenshot(page: Page, name: string, options: { keepHover?: boolean } = {}): Promise<string> {
  const path = join(workbench().artifactsDir, name);
  if (!options.keepHover) await clearHover(page);
  // The finite animations done (a hover fading in), within two seconds; a cursor's blink never ends.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
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
