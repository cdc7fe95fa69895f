// Spec annotations as a person sees them: a spec whose requirements carry a green (implemented) and
// a blue (planned) region, with two discovery notes after the first (one case active, one
// outdated). The editor shows the notes yellow and the regions green and blue (read from the
// colours the editor paints), the hover shows the case with its review links (Open in Discoveries
// selects its row in the explorer; Mark Outdated is recorded in cases.jsonl and strikes the note
// through), the markdown preview shows the same highlights, and `Annotate with Discovery…` on the second region inserts a note
// that Undo takes out again. Screenshots in test-artifacts/vscode/annotations-*.png. It removes
// every file it made.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newCase, serializeCase } from '../../src/core/cases/caseRecord';
import { until } from '../support/until';
import { lastCaseLine } from '../support/e2e/files';
import { ui } from '../support/e2e/ui';
import { PATIENCE, keepWorkspaceAsFound, screenshot, sideBar, workbench } from '../support/e2e/workbench';

const ACTIVE = 'Safari requires SameSite=None for the session cookie';
const OUTDATED = 'Passwords were hashed with bcrypt cost 10';
const SPEC = [
  '# Requirements',
  '',
  'What the first release must do. Each requirement is a task of the build.',
  '',
  '- <!--@ax:0-45:green:task-001-->[task-001] Users log in with email and password.<!--/@ax-->',
  `<!--@ax-discovery:task-001:disc-001-->${ACTIVE}<!--/@ax-->`,
  `<!--@ax-discovery:task-001:disc-002-->${OUTDATED}<!--/@ax-->`,
  '- <!--@ax:46-90:blue:task-002-->[task-002] Users reset a forgotten password by email.<!--/@ax-->',
  '',
  'Everything else waits for the second release.',
  '',
].join('\n');

/** The colours the editor paints behind text (decorations' backgrounds), as rgb triples. */
async function paintedColours(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Set<string>();
    for (const el of Array.from(
      document.querySelectorAll('.editor-instance .view-overlays .cdr, .editor-instance .view-lines span'),
    )) {
      const bg = getComputedStyle(el).backgroundColor;
      const m = /rgba?\((\d+), (\d+), (\d+)/.exec(bg);
      if (m && bg !== 'rgba(0, 0, 0, 0)') seen.add(`${m[1]},${m[2]},${m[3]}`);
    }
    return [...seen];
  });
}

describe('Spec annotations (UI)', function () {
  this.timeout(120_000);
  const root = () => workbench().workspace;
  const state = () => join(root(), '.groundwork');
  const specDir = () => join(root(), 'specs');
  let restoreWorkspace = () => undefined as void;

  before(() => {
    restoreWorkspace = keepWorkspaceAsFound();
    assert.ok(!existsSync(join(state(), 'cases.jsonl')), 'another suite left cases.jsonl behind');
    mkdirSync(state(), { recursive: true });
    const at = new Date().toISOString();
    const active = newCase(
      'disc-001',
      {
        content: ACTIVE,
        scope: 'global',
        impact: 'high',
        category: 'Frontend',
        sourceTaskId: 'task-001',
        sourceAgentId: 'build-developer',
      },
      at,
    );
    const old = newCase(
      'disc-002',
      { content: OUTDATED, scope: 'local', impact: 'medium', category: 'Conventions' },
      at,
    );
    const outdated = {
      ...old,
      status: 'outdated' as const,
      metadata: { ...old.metadata, outdatedAt: at, outdatedReason: 'marked by user' as const },
    };
    writeFileSync(join(state(), 'cases.jsonl'), serializeCase(active) + serializeCase(outdated));
    mkdirSync(specDir(), { recursive: true });
    writeFileSync(join(specDir(), 'requirements.md'), SPEC);
  });

  after(async () => {
    const { palette } = ui();
    await palette.run('View: Revert and Close Editor').catch(() => undefined);
    await palette.run('View: Close All Editors').catch(() => undefined);
    restoreWorkspace();
  });

  it('highlights the notes yellow and the regions green and blue, with a hover that shows the case', async () => {
    const { page, editors } = ui();
    await editors.open('specs/requirements.md', 'Users log in');
    let last: string[] = [];
    const colours = await until(
      'the yellow, green and blue highlights',
      async () => {
        last = await paintedColours(page);
        // Yellow, green and blue, in the dark or the light theme's defaults (package.json's colors).
        const wanted = [['255,214,0'], ['63,185,80', '45,164,78'], ['56,139,253', '9,105,218']];
        return wanted.every((either) => either.some((c) => last.includes(c))) && last;
      },
      PATIENCE.work,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; painted: ${last.join(' | ')}`);
    });
    workbench().log(`painted: ${colours.join(' | ')}`);
    await screenshot(page, 'annotations-editor.png');
    const hover = await editors.hover('SameSite', 'disc-001');
    let text = '';
    await until('the hover with the case and its links', async () =>
      (text = await hover.innerText()).includes('Open in Discoveries'),
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the hover reads: ${text}`);
    });
    const read = text.replace(/\s+/g, ' '); // the hover's spaces may be no-break ones
    for (const part of [ACTIVE, 'Mark Outdated', 'Open in Discoveries', 'build-developer'])
      assert.ok(read.includes(part), `the hover shows ${part}: ${read}`);
    await screenshot(page, 'annotations-hover.png', { keepHover: true });
    // Open in Discoveries: the case's row in the plan explorer, selected.
    await hover.locator('a', { hasText: 'Open in Discoveries' }).click();
    const row = sideBar(page).locator('.monaco-list-row.selected', { hasText: ACTIVE.slice(0, 30) });
    await row.waitFor({ state: 'visible', timeout: PATIENCE.work });
    await screenshot(page, 'annotations-revealed.png');
  });

  it('Mark Outdated from the hover: cases.jsonl records it and the note is drawn struck through', async () => {
    const { page, editors } = ui();
    const struck = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('.editor-instance .view-lines span'))
          .filter((el) => (el.textContent ?? '').includes('SameSite'))
          .some((el) => getComputedStyle(el).textDecorationLine.includes('line-through')),
      );
    assert.equal(await struck(), false, 'an active note is not struck through');
    const hover = await editors.hover('SameSite', 'disc-001');
    await hover.locator('a', { hasText: 'Mark Outdated' }).click({ timeout: PATIENCE.soon });
    await until(
      'cases.jsonl records disc-001 outdated',
      () => lastCaseLine('disc-001')?.['status'] === 'outdated',
      PATIENCE.work,
    );
    await until('the note struck through', struck, PATIENCE.work);
    await page.keyboard.press('Escape'); // the hover still shows the case as it was
    await page
      .locator('.codelens-decoration', { hasText: '(2 not active)' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    await screenshot(page, 'annotations-outdated.png');
  });

  it('the markdown preview shows the same highlights', async () => {
    const { page, palette, editors } = ui();
    await palette.run('View: Show Explorer');
    await editors.line('Users log in').click();
    await palette.run('Markdown: Open Preview to the Side');
    const frame = await editors.webviewShowing('h1', 'Requirements');
    // disc-001 was marked outdated from the hover; disc-002 was outdated already.
    await frame
      .locator('span.groundwork-discovery.groundwork-status-outdated')
      .nth(1)
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.equal(await frame.locator('span.groundwork-discovery.groundwork-status-active').count(), 0);
    assert.equal(await frame.locator('span.groundwork-region.groundwork-color-green').count(), 1);
    assert.ok(!(await frame.locator('body').innerText()).includes('@ax'), 'no marker shows as text');
    await screenshot(page, 'annotations-preview.png');
    await palette.run('View: Close Editor');
  });

  it('Annotate with Discovery… inserts a note after the region, and Undo takes it out', async () => {
    const { page, palette, editors } = ui();
    await page.locator('.editor-instance .view-line span', { hasText: 'forgotten password' }).first().click();
    await palette.runGroundwork('groundwork.annotations.annotate');
    await palette.row('disc-001').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await page.keyboard.type('disc-001');
    await palette.pick('disc-001');
    await until('the note in the editor', async () => (await editors.text()).includes('task-002:disc-001'));
    // Drawn after the pause: the count above the region says so.
    await page
      .locator('.codelens-decoration', { hasText: '1 discovery for task-002' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    await screenshot(page, 'annotations-annotated.png');
    await page.keyboard.press('Control+Z');
    await until('the note undone', async () => !(await editors.text()).includes('task-002:disc-001'));
  });
});
