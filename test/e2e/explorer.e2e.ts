// The plan explorer in a two-folder workspace, as a person sees it: both folders are roots, the
// first the one Groundwork works in; a plan expands to its documents, its build and the case that
// build reported; a discovery waiting for answers shows in Active sessions with its round and time
// left, and the activity bar's badge counts it; a damaged build.yaml is an error node; the specs of
// Spec Kit and Kiro show under Other specs; discarding a plan asks first and moves it to a trash.
// It runs in a window of its own on a `.code-workspace` file (VS Code shows modal dialogs there:
// support/dialogWindow.ts says why the main window cannot).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { serializeBuildRecord } from '../../src/core/build/buildRecord';
import { serializeRoundFile } from '../../src/core/discovery/roundFile';
import { sampleBuild } from '../unit/build/buildFixtures';
import { caseJson } from '../unit/cases/casesHarness';
import { until } from '../support/until';
import { contextMenu, dialog } from './support/dialogWindow';
import { activityBarItem, screenshot, sideBar, treeRow, workbench } from './support/workbench';

const BUILD = '20250102-030405-crm-0a1f';
const BROKEN = '20250102-030406-broken-0b2e';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Two folders: `app` (plans, a build, a case, a waiting discovery, a damaged build, a Kiro spec) and `docs` (a plan, a Spec Kit feature). */
function plant(base: string): string {
  const app = join(base, 'app', '.groundwork');
  write(join(app, 'plans/crm/idea-brief.md'), '# Idea Brief\n\nA CRM for a bakery.\n');
  write(join(app, 'plans/crm/00-brainstorming.md'), '# Brainstorm\n');
  write(join(app, 'plans/crm/.brainstorm-complete'), '');
  write(join(app, 'plans/crm/rounds/round-1.md'), '# Round 1\n');
  write(join(app, 'plans/old-idea/idea-brief.md'), '# Idea Brief\n\nNo longer wanted.\n');
  write(
    join(app, 'builds', BUILD, 'build.yaml'),
    serializeBuildRecord(
      sampleBuild({
        id: BUILD,
        status: 'completed',
        source: { kind: 'brief', path: '.groundwork/plans/crm/idea-brief.md' },
      }),
    ),
  );
  write(join(app, 'builds', BROKEN, 'build.yaml'), 'version: 1\nphases: [\n');
  write(
    join(app, 'cases.jsonl'),
    `${JSON.stringify(caseJson('disc-001', { content: 'Safari needs SameSite=None for the login cookie', parentId: BUILD, metadata: { sourceTaskId: BUILD } }))}\n`,
  );
  const created = Math.floor(Date.now() / 1000);
  write(
    join(app, 'discovery/panel.md'),
    serializeRoundFile({
      createdSec: created,
      round: 1,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: '1. Who will use it?' }],
    }),
  );
  write(join(base, 'app', '.kiro/specs/invoices/requirements.md'), '# Requirements\n\n- Invoices are numbered.\n');
  write(join(base, 'docs', '.groundwork/plans/handbook/idea-brief.md'), '# Idea Brief\n\nA staff handbook.\n');
  write(join(base, 'docs', 'specs/001-todo/spec.md'), '# Todo\n\nA list of things to do.\n');
  const file = join(base, 'two.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: 'app' }, { path: 'docs' }] }, null, 2));
  return file;
}

/** A window of the workbench on a `.code-workspace` file, with the extension under development and no in-host tests. */
async function windowOnWorkspace(main: Page, file: string): Promise<Page> {
  const url = new URL(main.url());
  const payload = (JSON.parse(url.searchParams.get('payload') ?? '[]') as [string, string][]).filter(
    ([name]) => name !== 'extensionTestsPath',
  );
  url.searchParams.delete('folder');
  url.searchParams.set('workspace', file);
  url.searchParams.set('payload', JSON.stringify(payload));
  const page = await main.context().newPage();
  page.on('console', (msg) => {
    if (/groundwork/i.test(msg.text())) workbench().log(`[two-folder window] ${msg.text()}`);
  });
  await page.goto(url.toString(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: 90_000 });
  await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: 60_000 });
  return page;
}

describe('Plan explorer in a two-folder workspace (UI)', function () {
  this.timeout(240_000);
  let page: Page;
  let base: string;

  before(async () => {
    base = join(dirname(workbench().workspace), `explorer-e2e-${process.pid}`);
    page = await windowOnWorkspace(workbench().page, plant(base));
    await page.setViewportSize({ width: 1400, height: 1000 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, 'explorer-failure.png').catch(() => undefined);
  });

  it('shows both roots; a plan expands to its documents, its build and the case it reported; a waiting discovery shows its time left and the badge counts it; a damaged build.yaml is an error node', async () => {
    const badge = activityBarItem(page, 'Groundwork').locator('.badge .badge-content');
    await until(
      'the badge to count the waiting discovery',
      async () => ((await badge.textContent().catch(() => ''))?.trim() === '1' ? true : undefined),
      30_000,
    );
    await activityBarItem(page, 'Groundwork').click();
    await treeRow(page, /^\s*app/).waitFor({ state: 'visible', timeout: 30_000 });
    // The Agent view folded, so that the tree has the side bar's height.
    const agent = sideBar(page).locator('.pane-header[aria-expanded="true"]', { hasText: 'Agent' });
    if (await agent.isVisible()) await agent.click();
    await treeRow(page, /^\s*docs/).waitFor({ state: 'visible', timeout: 30_000 });
    const session = treeRow(page, 'build me a CRM');
    await session.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await session.innerText(), /round 1\/3 · (29|30) min left/);

    // A click on a plan opens its document; its twistie expands it.
    await treeRow(page, /^\s*crm\s*$/)
      .locator('.monaco-tl-twistie')
      .click();
    for (const row of ['Idea Brief', 'Brainstorm result', 'Round 1', 'Discoveries'])
      await treeRow(page, row).waitFor({ state: 'visible', timeout: 15_000 });
    // The build row under the plan (the label is its project's name), and the case under Discoveries.
    const discoveries = sideBar(page).locator('.monaco-list-row[aria-level="4"]', { hasText: 'Discoveries' }).first();
    await discoveries.locator('.monaco-tl-twistie').click();
    await treeRow(page, 'Safari needs SameSite=None').waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, `Build ${BROKEN} cannot be read`).waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, 'invoices').waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, '001-todo').waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, 'handbook').waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'explorer-two-folders.png');

    // A click on the error node opens the damaged file.
    await treeRow(page, `Build ${BROKEN} cannot be read`).click();
    await page
      .locator('.tabs-container .tab', { hasText: 'build.yaml' })
      .waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('discarding a plan asks first, and moves it out of plans/ into a trash', async () => {
    const plan = join(base, 'app', '.groundwork/plans/old-idea');
    await contextMenu(page, treeRow(page, /^\s*old-idea\s*$/), 'Discard Plan…');
    await dialog(page).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await dialog(page).innerText(), /Discard the plan "old-idea"\?/);
    await screenshot(page, 'explorer-discard.png');
    await dialog(page).locator('.monaco-button', { hasText: 'Cancel' }).click();
    assert.ok(existsSync(plan), 'Cancel keeps the plan');

    await contextMenu(page, treeRow(page, /^\s*old-idea\s*$/), 'Discard Plan…');
    await dialog(page).locator('.monaco-button', { hasText: 'Move to Trash' }).click();
    await until('the plan folder to leave plans/', () => (existsSync(plan) ? undefined : true), 15_000);
    // code-server's disk has no system trash: Groundwork keeps it in .groundwork/.trash/ (a desktop window uses the system's).
    const trash = join(base, 'app', '.groundwork/.trash');
    const kept = existsSync(trash) ? readdirSync(trash) : [];
    assert.ok(
      kept.some((name) => name.startsWith('old-idea-')),
      `kept in .groundwork/.trash: ${kept.join(', ')}`,
    );
    await treeRow(page, /^\s*old-idea\s*$/).waitFor({ state: 'detached', timeout: 15_000 });
  });
});
