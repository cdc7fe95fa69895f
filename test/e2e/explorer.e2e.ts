// The plan explorer in a two-folder workspace, as a person sees it: both folders are roots, the
// first the one Groundwork works in; a plan expands to its documents, its build and the case that
// build reported; a discovery waiting for answers shows in Active sessions with its round and time
// left, and the activity bar's badge counts it; a damaged build.yaml is an error node; the specs of
// Spec Kit and Kiro show under Other specs; discarding a plan asks first and moves it to a trash.
// The workspace also holds a hostile panel/brief.json, as a cloned repository can plant it: the
// panel, read when the window opens, says what is wrong with it and offers Discard, and the rest
// keeps working. It runs in a window of its own on a `.code-workspace` file, which it closes.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { serializeBuildRecord } from '../../src/core/build/buildRecord';
import { serializeRoundFile } from '../../src/core/discovery/roundFile';
import { sampleBuild } from '../unit/build/buildFixtures';
import { caseJson } from '../unit/cases/casesHarness';
import { until } from '../support/until';
import { ui, type Ui } from '../support/e2e/ui';
import { PATIENCE, activityBarItem, screenshot, workbench } from '../support/e2e/workbench';

const BUILD = '20250102-030405-crm-0a1f';
const BROKEN = '20250102-030406-broken-0b2e';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** What a cloned repository can plant as the panel's brief: a list that is not one, a savedAt that climbs out. */
const HOSTILE_BRIEF = {
  request: 'build me a CRM',
  brief: {
    summary: 'A CRM',
    problem: 'p',
    users: 'u',
    mvpScope: 'm',
    technology: 't',
    outOfScope: 'o',
    keyDecisions: 'k',
    constraints: 'c',
  },
  transcript: [{ round: 1, questions: 'not-an-array' }],
  message: '',
  savedAt: '.groundwork/../../../../etc/passwd',
};

/**
 * Two folders: `app` (plans, a build, a case, a discovery the CLI left waiting, a damaged build, a
 * Kiro spec, a hostile panel/brief.json) and `docs` (a plan, a Spec Kit feature).
 */
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
  write(join(app, 'panel/brief.json'), JSON.stringify(HOSTILE_BRIEF));
  write(
    join(app, 'discovery/cli.md'),
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

describe('Plan explorer in a two-folder workspace (UI)', function () {
  this.timeout(240_000);
  let page: Page;
  let base: string;
  /** The page objects of the two-folder window. */
  let w: Ui;

  before(async () => {
    base = join(dirname(workbench().workspace), `explorer-e2e-${process.pid}`);
    page = await workbench().openWindow({ workspace: plant(base), label: 'two-folder' });
    await page.setViewportSize({ width: 1400, height: 1000 });
    w = ui(page);
    // Both folders in VS Code's own Explorer first. A web window reads the .code-workspace over its
    // remote connection, and on a loaded machine one came up with no folder at all ("No Folder
    // Opened"): it is loaded again once, as a person would.
    const roots = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^\s*docs/i });
    await w.palette.run('View: Show Explorer');
    if (
      !(await roots.waitFor({ state: 'visible', timeout: PATIENCE.soon }).then(
        () => true,
        () => false,
      ))
    ) {
      workbench().log('explorer e2e: the two-folder window opened with no folder; reloading it');
      await workbench().reload(page);
      await w.palette.run('View: Show Explorer');
      await roots.waitFor({ state: 'visible', timeout: PATIENCE.work });
    }
    await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: PATIENCE.work });
  });

  after(async () => {
    if (page) await workbench().closeWindow(page);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, 'explorer-failure.png').catch(() => undefined);
  });

  it('shows both roots; a plan expands to its documents, its build and the case it reported; a waiting discovery shows its time left and the badge counts it; a damaged build.yaml is an error node', async () => {
    const { explorer, panel, editors } = w;
    await until(
      'the badge to count the waiting discovery',
      async () => ((await explorer.badge()) === '1' ? true : undefined),
      PATIENCE.work,
    );
    await activityBarItem(page, 'Groundwork').click();
    await explorer.shown(/^\s*app/);
    // The Agent view folded, so that the tree has the side bar's height.
    await panel.setViewExpanded('Agent', false);
    await explorer.shown(/^\s*docs/);
    const session = await explorer.shown('build me a CRM');
    assert.match(await session.innerText(), /round 1\/3 · (29|30) min left/);

    // A click on a plan opens its document; its twistie expands it.
    await explorer.toggle(explorer.row(/^\s*crm\s*$/));
    for (const row of ['Idea Brief', 'Brainstorm result', 'Round 1', 'Discoveries']) await explorer.shown(row);
    // The build row under the plan (the label is its project's name), and the case under Discoveries.
    await explorer.toggle(explorer.rowAt(4, 'Discoveries'));
    for (const row of [
      'Safari needs SameSite=None',
      `Build ${BROKEN} cannot be read`,
      'invoices',
      '001-todo',
      'handbook',
    ])
      await explorer.shown(row);
    await screenshot(page, 'explorer-two-folders.png');

    // A click on the error node opens the damaged file.
    await explorer.row(`Build ${BROKEN} cannot be read`).click();
    await editors.tab('build.yaml').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });

  it('discarding a plan asks first, and moves it out of plans/ into a trash', async () => {
    const { explorer, modal } = w;
    const plan = join(base, 'app', '.groundwork/plans/old-idea');
    await explorer.contextMenu(explorer.row(/^\s*old-idea\s*$/), 'Discard Plan…');
    assert.match(await modal.shown(), /Discard the plan "old-idea"\?/);
    await screenshot(page, 'explorer-discard.png');
    await modal.choose('Cancel');
    assert.ok(existsSync(plan), 'Cancel keeps the plan');

    await explorer.contextMenu(explorer.row(/^\s*old-idea\s*$/), 'Discard Plan…');
    await modal.shown();
    await modal.choose('Move to Trash');
    await until('the plan folder to leave plans/', () => (existsSync(plan) ? undefined : true), PATIENCE.work);
    // code-server's disk has no system trash: Groundwork keeps it in .groundwork/.trash/ (a desktop window uses the system's).
    const trash = join(base, 'app', '.groundwork/.trash');
    const kept = existsSync(trash) ? readdirSync(trash) : [];
    assert.ok(
      kept.some((name) => name.startsWith('old-idea-')),
      `kept in .groundwork/.trash: ${kept.join(', ')}`,
    );
    await explorer.gone(/^\s*old-idea\s*$/);
  });

  it('shows what is wrong with a hostile brief.json, keeps the rest working, and discards it', async () => {
    const { panel } = w;
    const file = join(base, 'app', '.groundwork', 'panel', 'brief.json');
    await panel.setViewExpanded('Agent', true);
    await panel.open();
    const notice = panel.locator('#brief-damaged');
    await notice.waitFor({ state: 'visible', timeout: PATIENCE.work });
    const text = await notice.innerText();
    assert.match(text, /\.groundwork\/panel\/brief\.json cannot be shown: transcript\[0\]\.questions must be a list/);
    assert.equal(await panel.locator('#brief-card').count(), 0, 'nothing of the file is shown as a brief');
    assert.equal(await panel.locator('#brief-open').count(), 0, 'no Open Plan to follow its savedAt');
    await notice.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'groundwork-damaged-brief.png');

    // The rest of the panel works: the composer is there, and the journal takes an entry.
    await panel.locator('#composer').waitFor({ state: 'visible' });
    await panel.locator('#journal-title input').fill('Planted files are read with care');
    await panel.locator('#journal-description textarea').fill('A damaged brief.json is a notice, not a blank panel.');
    await panel.locator('#journal-add').click();
    await panel
      .locator('#journal-entries .entry', { hasText: 'Planted files are read with care' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });

    await panel.locator('#brief-discard').click();
    await notice.waitFor({ state: 'detached', timeout: PATIENCE.soon });
    await until('the file to be removed', () => (existsSync(file) ? undefined : true), PATIENCE.work);
  });
});
