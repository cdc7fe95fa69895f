// Files a cloned repository can plant in .groundwork, as the panel meets them: a role override that
// switches an agent's model (said once, dismissible). A hostile panel/brief.json is read when a
// window opens: explorer.e2e.ts plants one in the workspace its own window opens. Runs after
// panelDiscovery.e2e.ts (E2E_ORDER in scripts/vscode/bundleTests.mjs), which leaves the panel idle.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { match, reply } from '../support/scriptedModelServer';
import { ui } from '../support/e2e/ui';
import { PATIENCE, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

describe('Files a workspace plants, in the panel (UI)', function () {
  this.timeout(120_000);
  let restoreWorkspace = () => undefined as void;
  before(() => (restoreWorkspace = keepWorkspaceAsFound()));
  after(() => restoreWorkspace());

  it('says once, in a notice the person can dismiss, that a workspace role override switches the model', async () => {
    const { workspace, modelServer, extensionPath } = workbench();
    const { page, panel } = ui();
    const roles = join(workspace, '.groundwork', 'roles');
    mkdirSync(roles, { recursive: true });
    const bundled = readFileSync(join(extensionPath, 'roles', 'build-discovery.md'), 'utf8');
    writeFileSync(join(roles, 'build-discovery.md'), bundled.replace(/^model: .*$/m, 'model: claude-opus-4-1'));
    modelServer.add({
      name: 'override questions',
      match: match.system('DISCOVERY_QUESTIONS'),
      reply: reply.text(['DISCOVERY_QUESTIONS\n1. Who will use it?']),
    });
    await panel.open();
    await panel.idle();
    // A journal line written after the override: once the panel shows it, the window has had the
    // override's file event too (file events arrive in order), and its role cache let go of the
    // bundled role it read for the discoveries before.
    const mark = `Planted after the role override ${Date.now()}`;
    appendFileSync(
      join(workspace, '.groundwork', 'discoveries.jsonl'),
      `${JSON.stringify({ timestamp: new Date().toISOString(), title: mark, description: 'a mark' })}\n`,
    );
    await panel
      .locator('#journal-entries .entry', { hasText: mark })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel.send('build me a time tracker');
    const notice = panel.locator('#notices .notice');
    await notice.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(
      await notice.innerText(),
      /This workspace changes a Groundwork agent: \.groundwork\/roles\/build-discovery\.md overrides the bundled build-discovery role: it uses model claude-opus-4-1 instead of the complex tier/,
    );
    await panel.questions();
    const sent = modelServer.requests.find((r) => r.rule === 'override questions')?.body as
      { model?: string } | undefined;
    assert.equal(sent?.model, 'claude-opus-4-1', 'the override is used, not refused');
    await panel.locator('#notices').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'groundwork-role-notice.png');
    await notice.locator('.notice-dismiss').click();
    await panel.locator('#notices').waitFor({ state: 'detached', timeout: PATIENCE.soon });
    await panel.cancelDiscovery();
    assert.equal(await panel.locator('#notices').count(), 0, 'dismissed for this window');
  });
});
