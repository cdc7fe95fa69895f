// Restricted Mode, as a person meets it: the workspace is not trusted, Groundwork still shows what
// it holds, says why it will not start work, and offers the way to trust the folder.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ui } from '../../support/e2e/ui';
import { PATIENCE, screenshot, workbench } from '../../support/e2e/workbench';

/** The refusal is a notification (listed in the notification center: the smoke-test driver hides toasts). */
async function seeRefusal(text: string): Promise<void> {
  const { notifications } = ui();
  await notifications.waitFor(text);
  await notifications.hide();
}

describe('Restricted Mode (UI)', function () {
  this.timeout(180_000);

  before(() => {
    // what an earlier, trusted session left in the workspace
    const dir = join(workbench().workspace, '.groundwork');
    mkdirSync(dir, { recursive: true });
    const entry = {
      timestamp: '2026-11-20T10:00:00.000Z',
      title: 'Retry the flaky upload',
      description: 'The upload fails once in ten; retry once.',
    };
    writeFileSync(join(dir, 'discoveries.jsonl'), JSON.stringify(entry) + '\n');
  });

  it('runs in Restricted Mode', async () => {
    const { page } = workbench();
    await page
      .locator('.statusbar-item', { hasText: 'Restricted Mode' })
      .first()
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });

  it('shows what the workspace holds and says why no work starts', async () => {
    const { page, panel, explorer } = ui();
    await panel.open();
    const banner = panel.locator('#restricted-banner');
    await banner.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await banner.innerText(), /changes no file, starts no model session and runs no command/);
    await panel.locator('#journal-entries .entry', { hasText: 'Retry the flaky upload' }).waitFor({ state: 'visible' });
    await explorer.shown('Retry the flaky upload');
    await screenshot(page, 'groundwork-restricted.png');
  });

  it('opens the workspace trust editor from the banner', async () => {
    const { page, panel } = ui();
    await panel.open();
    await panel.locator('#restricted-banner vscode-button').click();
    // VS Code's trust editor (a modal editor in recent versions, a tab in older ones)
    await page.getByText('You are in Restricted Mode').first().waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await page.keyboard.press('Escape');
  });
});

describe('Restricted Mode refuses model work where it starts (UI)', function () {
  this.timeout(180_000);

  it('does not call a model from the palette, and says why', async () => {
    const { modelServer } = workbench();
    const { palette, panel } = ui();
    const before = modelServer.requests.length;
    await palette.runGroundwork('groundwork.checkModel');
    await panel.open();
    const check = panel.locator('#model-check.failed');
    await check.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await check.innerText(), /Restricted Mode/);
    assert.equal(modelServer.requests.length, before, 'no request reached the model server');
  });

  it('refuses "Groundwork: Brainstorm…" before asking for a topic, and writes no plan', async () => {
    const { modelServer, workspace } = workbench();
    const { palette } = ui();
    const before = modelServer.requests.length;
    await palette.runGroundwork('groundwork.brainstorm');
    await seeRefusal('cannot start a brainstorm in Restricted Mode');
    assert.equal(await palette.title('Brainstorm (1/2)').count(), 0, 'no topic box');
    assert.equal(modelServer.requests.length, before, 'no request reached the model server');
    assert.ok(!existsSync(join(workspace, '.groundwork', 'plans')), 'no plan folder');
  });

  it('refuses "Groundwork: Run Agent…" before asking for a role, calls no model and makes no run', async () => {
    const { modelServer, workspace } = workbench();
    const { page, palette } = ui();
    const before = modelServer.requests.length;
    await palette.runGroundwork('groundwork.runAgent');
    await seeRefusal('cannot run an agent in Restricted Mode');
    assert.equal(
      await page.locator('.quick-input-widget', { hasText: 'Pick the role the agent plays' }).count(),
      0,
      'no role picker',
    );
    assert.equal(modelServer.requests.length, before, 'no request reached the model server');
    assert.ok(!existsSync(join(workspace, '.groundwork', 'runs')), 'no run folder');
  });

  it('refuses "Groundwork: Build from Brief…" before asking for a brief, calls no model and makes no build', async () => {
    const { modelServer, workspace } = workbench();
    const { page, palette, modal } = ui();
    const before = modelServer.requests.length;
    await palette.runGroundwork('groundwork.buildFromBrief');
    await seeRefusal('cannot start a build in Restricted Mode');
    assert.equal(
      await page.locator('.quick-input-widget', { hasText: 'Pick the Idea Brief or finished brainstorm' }).count(),
      0,
      'no brief picker',
    );
    assert.equal(await modal.box.count(), 0, 'no gate');
    assert.equal(modelServer.requests.length, before, 'no request reached the model server');
    assert.ok(!existsSync(join(workspace, '.groundwork', 'builds')), 'no build folder');
  });
});
