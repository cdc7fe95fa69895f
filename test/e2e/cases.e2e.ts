// Discovery cases as a person meets them in VS Code: a workspace whose `.groundwork/cases.jsonl`
// holds two cases (written in the store's own line format; one of them hostile: a command link, an
// HTML tag and markdown in its content) shows the Discoveries group of the plan explorer — by
// status, then scope and impact, then the cases, the hostile one drawn as text in its row and its
// tooltip. Mark Validated and Mark Outdated from a case's context menu are recorded in cases.jsonl
// (the case's last line) and in `.groundwork/discoveries.md`, and the row moves to Outdated.
// `Groundwork: Add Discovery…` from the palette (scope, content checked as it is typed, impact) adds
// a case, and adding it again says it is already known. `Check Discoveries for Staleness` says what
// it found, and a commit that changes a file a case names makes it outdated by itself (the folder's
// git is watched). It works in the window that runs the in-host suite (no modal is needed) and
// removes every file it made, the git repository too (groundwork-container.e2e.ts expects no plans).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newCase, serializeCase } from '../../src/core/cases/caseRecord';
import { until } from '../support/until';
import { contextMenu, notifications } from './support/dialogWindow';
import { commandTitle, openGroundwork, runCommand, screenshot, sideBar, treeRow, workbench } from './support/workbench';

const KNOWN = 'Tests run with node --test; jest is not installed here';
const HOSTILE = 'Pasted note [x](command:evil) and <img src=x onerror=alert(1)> with **bold** markup';
const ADDED = 'Release builds need scripts/release.sh to stamp the VERSION file first';
let fixtureNames: string[] = [];
/** How far this file widened the side bar (put back at the end). */
let widened = 0;

const casesFile = () => join(workbench().workspace, '.groundwork', 'cases.jsonl');
const viewFile = () => join(workbench().workspace, '.groundwork', 'discoveries.md');

/** The last line cases.jsonl holds for `id` (the store's: last line wins). */
function lastLine(id: string): Record<string, unknown> | undefined {
  if (!existsSync(casesFile())) return undefined;
  const lines = readFileSync(casesFile(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return lines.filter((l) => l['id'] === id).at(-1);
}

const metadataOf = (line: Record<string, unknown> | undefined) =>
  line?.['metadata'] as Record<string, unknown> | undefined;
const view = () => (existsSync(viewFile()) ? readFileSync(viewFile(), 'utf8') : '');

/** The Discoveries group's row (not the journal's, "Discoveries journal"). */
const group = (page: Page) =>
  sideBar(page)
    .locator('.monaco-list-row', { hasText: /^\s*Discoveries(?! journal)/ })
    .first();

/** The hover a tree row shows, as a person reads it. */
function hover(page: Page) {
  return page.locator('.workbench-hover-container, .monaco-hover:not(.hidden)').first();
}

/**
 * A context-menu action on the case row showing `text`, tried again (up to 3 times) while `done` does
 * not hold within a few seconds: a refresh of the tree while the menu is open closes it.
 */
async function onCase<T>(page: Page, text: string, item: string, what: string, done: () => T | undefined): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await contextMenu(page, treeRow(page, text), item);
    const result = await until(what, done, 5_000).catch(() => undefined);
    if (result !== undefined) return result;
    if (attempt === 3) throw new Error(`${what}: not after 3 tries\nnotifications: ${await notifications(page)}`);
  }
}

/** Drags the side bar's edge to the right, as a person does to read long rows. */
async function widenSideBar(page: Page, by: number): Promise<void> {
  const box = await sideBar(page).boundingBox();
  if (!box) return;
  const [x, y] = [box.x + box.width + 1, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + by, y, { steps: 8 });
  await page.mouse.up();
}

/** `Add Discovery…` from the palette: Global, the content (after checking an empty one is refused), high. */
async function addDiscovery(page: Page, content: string): Promise<void> {
  await runCommand(page, commandTitle('groundwork.cases.add'));
  const widget = page.locator('.quick-input-widget');
  await widget
    .locator('.quick-input-title', { hasText: 'Add Discovery (1/3)' })
    .waitFor({ state: 'visible', timeout: 30_000 });
  await widget
    .locator('.quick-input-list .monaco-list-row', { hasText: /^\s*Global/ })
    .first()
    .click();
  await widget
    .locator('.quick-input-title', { hasText: 'Add Discovery (2/3)' })
    .waitFor({ state: 'visible', timeout: 15_000 });
  const input = widget.locator('input');
  await input.fill('   ');
  await widget
    .locator('.quick-input-message', { hasText: 'Say what was learned.' })
    .waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(content);
  await page.keyboard.press('Enter');
  await widget
    .locator('.quick-input-title', { hasText: 'Add Discovery (3/3)' })
    .waitFor({ state: 'visible', timeout: 15_000 });
  await widget
    .locator('.quick-input-list .monaco-list-row', { hasText: /^\s*high/ })
    .first()
    .click();
  await widget.waitFor({ state: 'hidden', timeout: 15_000 });
}

describe('Discovery cases (UI)', function () {
  this.timeout(120_000);
  let failures = 0;

  before(() => {
    const { workspace } = workbench();
    fixtureNames = readdirSync(workspace);
    mkdirSync(join(workspace, '.groundwork'), { recursive: true });
    const at = new Date(Date.now() - 60_000).toISOString();
    const known = newCase(
      'disc-001',
      {
        content: KNOWN,
        scope: 'global',
        impact: 'high',
        category: 'Testing',
        sourceTaskId: 'build-7',
        sourceAgentId: 'build-qa',
      },
      at,
    );
    const hostile = newCase(
      'disc-002',
      { content: HOSTILE, scope: 'global', impact: 'medium', category: 'Conventions' },
      at,
    );
    writeFileSync(casesFile(), serializeCase(known) + serializeCase(hostile));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await screenshot(workbench().page, `cases-failure-${++failures}.png`).catch(() => undefined);
  });

  after(async () => {
    const { page, workspace } = workbench();
    await page.keyboard.press('Escape');
    for (const name of readdirSync(workspace))
      if (!fixtureNames.includes(name)) rmSync(join(workspace, name), { recursive: true, force: true });
    await group(page)
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => workbench().log('cleanup: the Discoveries group is still shown'));
    await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
    // The window as the next file expects it: the side bar at its width, on the Explorer (a click on
    // Groundwork's activity-bar entry then opens the container rather than closing it).
    if (widened) await widenSideBar(page, -widened);
    await runCommand(page, 'View: Show Explorer').catch((err: Error) =>
      workbench().log(`cleanup: View: Show Explorer: ${err.message}`),
    );
  });

  it('shows the cases by status, scope and impact; a hostile case is text in its row and its tooltip', async () => {
    const { page } = workbench();
    await openGroundwork(page);
    await group(page).waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await group(page).innerText(), /Discoveries\s*2/, 'the group counts its cases');
    await treeRow(page, /^\s*Active\s*2/).waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, /^\s*Global · high\s*1/).waitFor({ state: 'visible', timeout: 15_000 });
    const known = treeRow(page, KNOWN);
    await known.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await known.innerText(), /disc-001/, 'the id beside the content');
    assert.equal(await known.locator('.codicon-lightbulb').count(), 1, 'an active case shows the lightbulb');
    const hostile = treeRow(page, 'Pasted note');
    await hostile.waitFor({ state: 'visible', timeout: 15_000 });
    assert.ok(
      (await hostile.innerText()).includes('[x](command:evil) and <img src=x onerror=alert(1)> with **bold**'),
      'the row shows the content as it is',
    );

    await hostile.hover();
    const tip = hover(page);
    await tip.waitFor({ state: 'visible', timeout: 15_000 });
    await until('the tooltip to show the case', async () =>
      (await tip.innerText()).includes('disc-002') ? true : undefined,
    );
    const text = (await tip.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(text.includes('[x](command:evil)'), `the link is text: ${text}`);
    assert.ok(text.includes('<img src=x onerror=alert(1)>'), `the tag is text: ${text}`);
    assert.ok(text.includes('**bold**'), `the markup is text: ${text}`);
    assert.match(text, /Impact: medium · Category: Conventions · Global/);
    assert.match(text, /Added by a person/);
    assert.equal(await tip.locator('img').count(), 0, 'no image in the tooltip');
    assert.equal(await tip.locator('a').count(), 0, 'no link in the tooltip');
    await page.screenshot({ path: join(workbench().artifactsDir, 'groundwork-discoveries-tooltip.png') });
    await page.mouse.move(10, 10);
  });

  it('Mark Validated and Mark Outdated from the context menu are recorded in cases.jsonl and discoveries.md', async () => {
    const { page } = workbench();
    const validated = await onCase(page, KNOWN, 'Mark Validated', 'cases.jsonl to record the validation', () =>
      metadataOf(lastLine('disc-001'))?.['validated'] === true ? lastLine('disc-001') : undefined,
    );
    assert.equal(validated['status'], 'active');
    assert.equal(typeof validated['validatedAt'], 'string');
    await treeRow(page, KNOWN).locator('.codicon-verified-filled').waitFor({ state: 'visible', timeout: 15_000 });
    await until('discoveries.md to list the case', () => (view().includes(`[disc-001] ${KNOWN}`) ? true : undefined));

    const outdated = await onCase(page, KNOWN, 'Mark Outdated', 'cases.jsonl to record it outdated', () =>
      lastLine('disc-001')?.['status'] === 'outdated' ? lastLine('disc-001') : undefined,
    );
    assert.equal(metadataOf(outdated)?.['outdatedReason'], 'marked by user');
    await until('discoveries.md to mark it outdated', () =>
      view().includes(`[disc-001] (outdated: marked outdated) ${KNOWN}`) ? true : undefined,
    );

    // It moved from Active to Outdated (closed, as the statuses other than Active are).
    const outdatedGroup = treeRow(page, /^\s*Outdated\s*1/);
    await outdatedGroup.waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, /^\s*Active\s*1/).waitFor({ state: 'visible', timeout: 15_000 });
    await outdatedGroup.click();
    await treeRow(page, /^\s*Global · high\s*1/).click();
    const moved = treeRow(page, KNOWN);
    await moved.locator('.codicon-warning').waitFor({ state: 'visible', timeout: 15_000 });
    await widenSideBar(page, 260);
    widened = 260;
    // Away from the sash, and long enough for its highlight to fade.
    await page.mouse.move(900, 400);
    await page.waitForTimeout(800);
    await screenshot(page, 'groundwork-discoveries.png');
  });

  it('Add Discovery… adds a case from the palette, checked as it is typed, and says when it is already known', async () => {
    const { page } = workbench();
    await addDiscovery(page, ADDED);
    const added = await until('cases.jsonl to hold the new case', () => lastLine('disc-003'));
    assert.deepEqual(
      [added['content'], added['status'], metadataOf(added)?.['scope'], metadataOf(added)?.['impact']],
      [ADDED, 'active', 'global', 'high'],
    );
    await treeRow(page, ADDED).waitFor({ state: 'visible', timeout: 15_000 });
    await until('discoveries.md to list the new case', () =>
      view().includes(`[disc-003] ${ADDED}`) ? true : undefined,
    );

    await addDiscovery(page, ADDED);
    await until(
      'the duplicate to be reported',
      async () => ((await notifications(page)).includes('Already known as disc-003') ? true : undefined),
      20_000,
    );
    assert.equal(lastLine('disc-004'), undefined, 'nothing new was stored');
  });

  it('Check Discoveries for Staleness says what it found', async () => {
    const { page } = workbench();
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, commandTitle('groundwork.cases.checkStaleness'));
    const shown = await until('the check to report', async () => {
      const text = await notifications(page);
      return text.includes('Discoveries checked') ? text : undefined;
    });
    assert.match(shown, /Discoveries checked: every active one still holds\./);
    assert.match(shown, /Not checked against commits: .*not a git repository/);
    assert.equal(lastLine('disc-002')?.['status'], 'active', 'the hostile case still holds');
  });

  it('a commit that changes a file a case names marks the case outdated, with no command run', async () => {
    const { workspace } = workbench();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.invalid', ...args], {
        cwd: workspace,
        encoding: 'utf8',
      }).trim();
    git('init', '-q');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src', 'config.ts'), 'export const retries = 3;\n');
    git('add', 'src/config.ts');
    git('commit', '-q', '-m', 'config');
    // A case about that file, made after that commit and before the next (git dates are in whole seconds).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const at = new Date();
    const about = newCase(
      'disc-010',
      { content: 'Retries are set in src/config.ts', scope: 'global', impact: 'medium', category: 'Architecture' },
      at.toISOString(),
    );
    appendFileSync(casesFile(), serializeCase(about));
    await treeRow(workbench().page, 'Retries are set in src/config.ts').waitFor({ state: 'visible', timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() + 1_100 - Date.now())));
    writeFileSync(join(workspace, 'src', 'config.ts'), 'export const retries = 5;\n');
    git('commit', '-q', '-am', 'more retries');
    const head = git('rev-parse', 'HEAD');
    // .git/logs/HEAD changed: the check runs after its debounce.
    const outdated = await until(
      'the commit to mark the case outdated',
      () => (lastLine('disc-010')?.['status'] === 'outdated' ? lastLine('disc-010') : undefined),
      30_000,
    );
    assert.deepEqual(
      [metadataOf(outdated)?.['outdatedReason'], metadataOf(outdated)?.['outdatedCommit']],
      ['affected files modified', head],
    );
  });
});
