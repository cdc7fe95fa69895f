// Discovery cases as a person meets them in VS Code: a workspace whose `.groundwork/cases.jsonl`
// holds two cases (written in the store's own line format; one of them hostile: a command link, an
// HTML tag and markdown in its content) shows the Discoveries group of the plan explorer — by
// status, then scope and impact, then the cases, the hostile one drawn as text in its row and its
// tooltip. Mark Validated and Mark Outdated from a case's context menu are recorded in cases.jsonl
// (the case's last line) and in `.groundwork/discoveries.md`, and the row moves to Outdated.
// `Groundwork: Add Discovery…` from the palette (scope, content checked as it is typed, impact) adds
// a case, and adding it again says it is already known. `Check Discoveries for Staleness` says what
// it found, and a commit that changes a file a case names makes it outdated by itself (the folder's
// git is watched). It removes every file it made, the git repository too, and puts the side bar
// back as it found it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newCase, serializeCase } from '../../src/core/cases/caseRecord';
import { until } from '../support/until';
import { lastCaseLine } from '../support/e2e/files';
import { ui } from '../support/e2e/ui';
import { PATIENCE, keepWorkspaceAsFound, screenshot, widenSideBar, workbench } from '../support/e2e/workbench';

const KNOWN = 'Tests run with node --test; jest is not installed here';
const HOSTILE = 'Pasted note [x](command:evil) and <img src=x onerror=alert(1)> with **bold** markup';
const ADDED = 'Release builds need scripts/release.sh to stamp the VERSION file first';
/** How far this file widened the side bar (put back at the end). */
let widened = 0;
let restoreWorkspace = () => undefined as void;

const casesFile = () => join(workbench().workspace, '.groundwork', 'cases.jsonl');
const viewFile = () => join(workbench().workspace, '.groundwork', 'discoveries.md');

const metadataOf = (line: Record<string, unknown> | undefined) =>
  line?.['metadata'] as Record<string, unknown> | undefined;
const view = () => (existsSync(viewFile()) ? readFileSync(viewFile(), 'utf8') : '');

/** The Discoveries group's row (not the journal's, "Discoveries journal"). */
const group = () => ui().explorer.row(/^\s*Discoveries(?! journal)/);

/**
 * A context-menu action on the case row showing `text`, tried again (up to 3 times) while `done` does
 * not hold within a few seconds: a refresh of the tree while the menu is open closes it.
 */
async function onCase<T>(text: string, item: string, what: string, done: () => T | undefined): Promise<T> {
  const { explorer, notifications } = ui();
  for (let attempt = 1; ; attempt++) {
    await explorer.contextMenu(explorer.row(text), item);
    const result = await until(what, done, 5_000).catch(() => undefined);
    if (result !== undefined) return result;
    if (attempt === 3) throw new Error(`${what}: not after 3 tries\nnotifications: ${await notifications.text()}`);
  }
}

/** `Add Discovery…` from the palette: Global, the content (after checking an empty one is refused), high. */
async function addDiscovery(content: string): Promise<void> {
  const { page, palette } = ui();
  await palette.runGroundwork('groundwork.cases.add');
  await palette.title('Add Discovery (1/3)').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  await palette.pick(/^\s*Global/);
  await palette.title('Add Discovery (2/3)').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  await palette.input.fill('   ');
  await palette.message('Say what was learned.').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  await palette.input.fill(content);
  await page.keyboard.press('Enter');
  await palette.title('Add Discovery (3/3)').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  await palette.pick(/^\s*high/);
  await palette.closed();
}

describe('Discovery cases (UI)', function () {
  this.timeout(120_000);
  let failures = 0;

  before(() => {
    const { workspace } = workbench();
    restoreWorkspace = keepWorkspaceAsFound();
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
    const { log } = workbench();
    const { page, notifications } = ui();
    await page.keyboard.press('Escape');
    restoreWorkspace();
    await group()
      .waitFor({ state: 'detached', timeout: PATIENCE.soon })
      .catch(() => log('cleanup: the Discoveries group is still shown'));
    await notifications.hide().catch(() => undefined);
    await notifications.clear().catch(() => undefined);
    // The side bar at its width again, for the next file's pictures.
    if (widened) await widenSideBar(page, -widened);
  });

  it('shows the cases by status, scope and impact; a hostile case is text in its row and its tooltip', async () => {
    const { page, panel, explorer } = ui();
    await panel.open();
    await group().waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await group().innerText(), /Discoveries\s*2/, 'the group counts its cases');
    await explorer.shown(/^\s*Active\s*2/);
    await explorer.shown(/^\s*Global · high\s*1/);
    const known = await explorer.shown(KNOWN);
    assert.match(await known.innerText(), /disc-001/, 'the id beside the content');
    assert.equal(await known.locator('.codicon-lightbulb').count(), 1, 'an active case shows the lightbulb');
    const hostile = await explorer.shown('Pasted note');
    assert.ok(
      (await hostile.innerText()).includes('[x](command:evil) and <img src=x onerror=alert(1)> with **bold**'),
      'the row shows the content as it is',
    );

    const tip = await explorer.tooltip(hostile);
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
    await screenshot(page, 'groundwork-discoveries-tooltip.png', { keepHover: true });
    await page.mouse.move(10, 10);
  });

  it('Mark Validated and Mark Outdated from the context menu are recorded in cases.jsonl and discoveries.md', async () => {
    const { page, explorer } = ui();
    const validated = await onCase(KNOWN, 'Mark Validated', 'cases.jsonl to record the validation', () =>
      metadataOf(lastCaseLine('disc-001'))?.['validated'] === true ? lastCaseLine('disc-001') : undefined,
    );
    assert.equal(validated['status'], 'active');
    assert.equal(typeof validated['validatedAt'], 'string');
    await explorer.row(KNOWN).locator('.codicon-verified-filled').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await until(
      'discoveries.md to list the case',
      () => (view().includes(`[disc-001] ${KNOWN}`) ? true : undefined),
      PATIENCE.work,
    );

    const outdated = await onCase(KNOWN, 'Mark Outdated', 'cases.jsonl to record it outdated', () =>
      lastCaseLine('disc-001')?.['status'] === 'outdated' ? lastCaseLine('disc-001') : undefined,
    );
    assert.equal(metadataOf(outdated)?.['outdatedReason'], 'marked by user');
    await until(
      'discoveries.md to mark it outdated',
      () => (view().includes(`[disc-001] (outdated: marked outdated) ${KNOWN}`) ? true : undefined),
      PATIENCE.work,
    );

    // It moved from Active to Outdated (closed, as the statuses other than Active are).
    const outdatedGroup = await explorer.shown(/^\s*Outdated\s*1/);
    await explorer.shown(/^\s*Active\s*1/);
    await outdatedGroup.click();
    await explorer.row(/^\s*Global · high\s*1/).click();
    const moved = explorer.row(KNOWN);
    await moved.locator('.codicon-warning').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await widenSideBar(page, 260);
    widened = 260;
    await screenshot(page, 'groundwork-discoveries.png');
  });

  it('Add Discovery… adds a case from the palette, checked as it is typed, and says when it is already known', async () => {
    const { explorer, notifications } = ui();
    await addDiscovery(ADDED);
    const added = await until('cases.jsonl to hold the new case', () => lastCaseLine('disc-003'), PATIENCE.work);
    assert.deepEqual(
      [added['content'], added['status'], metadataOf(added)?.['scope'], metadataOf(added)?.['impact']],
      [ADDED, 'active', 'global', 'high'],
    );
    await explorer.shown(ADDED);
    await until(
      'discoveries.md to list the new case',
      () => (view().includes(`[disc-003] ${ADDED}`) ? true : undefined),
      PATIENCE.work,
    );

    await addDiscovery(ADDED);
    await notifications.waitFor('Already known as disc-003');
    await notifications.hide();
    assert.equal(lastCaseLine('disc-004'), undefined, 'nothing new was stored');
  });

  it('Check Discoveries for Staleness says what it found', async () => {
    const { palette, notifications } = ui();
    await notifications.clear();
    await palette.runGroundwork('groundwork.cases.checkStaleness');
    await notifications.waitFor('Discoveries checked');
    await notifications.waitFor('Not checked against commits');
    const shown = await notifications.center.innerText();
    await notifications.hide();
    assert.match(shown, /Discoveries checked: every active one still holds\./);
    assert.match(shown, /Not checked against commits: .*not a git repository/);
    assert.equal(lastCaseLine('disc-002')?.['status'], 'active', 'the hostile case still holds');
  });

  it('a commit that changes a file a case names marks the case outdated, with no command run', async () => {
    const { workspace } = workbench();
    // Git dates are whole seconds: the first commit ten seconds ago, the case five, the next one now.
    const now = Date.now();
    const git = (at: number, ...args: string[]) => {
      const date = `${Math.floor(at / 1000)} +0000`;
      return execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.invalid', ...args], {
        cwd: workspace,
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      }).trim();
    };
    git(now, 'init', '-q');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src', 'config.ts'), 'export const retries = 3;\n');
    git(now, 'add', 'src/config.ts');
    git(now - 10_000, 'commit', '-q', '-m', 'config');
    // A case about that file, made after that commit and before the next.
    const about = newCase(
      'disc-010',
      { content: 'Retries are set in src/config.ts', scope: 'global', impact: 'medium', category: 'Architecture' },
      new Date(now - 5_000).toISOString(),
    );
    appendFileSync(casesFile(), serializeCase(about));
    await ui().explorer.shown('Retries are set in src/config.ts');
    writeFileSync(join(workspace, 'src', 'config.ts'), 'export const retries = 5;\n');
    git(now, 'commit', '-q', '-am', 'more retries');
    const head = git(now, 'rev-parse', 'HEAD');
    // .git/logs/HEAD changed: the check runs after its debounce.
    const outdated = await until(
      'the commit to mark the case outdated',
      () => (lastCaseLine('disc-010')?.['status'] === 'outdated' ? lastCaseLine('disc-010') : undefined),
      PATIENCE.work,
    );
    assert.deepEqual(
      [metadataOf(outdated)?.['outdatedReason'], metadataOf(outdated)?.['outdatedCommit']],
      ['affected files modified', head],
    );
  });
});
