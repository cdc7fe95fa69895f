// Connecting a model, as a person does it: the panel says how, the key goes into VS Code's own
// input box, a check reaches the (scripted) Anthropic API with that key through the base URL of
// the user's settings, and the key is found nowhere afterwards: not in a file, not in a message to the
// panel. Runs after journal.e2e.ts with no model (agentRun and build cleared theirs); the key stays
// for the panel's files after it (E2E_ORDER in scripts/vscode/bundleTests.mjs).
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { reply, match } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { filesContaining } from '../support/e2e/grep';
import { ui } from '../support/e2e/ui';
import { PATIENCE, screenshot, workbench } from '../support/e2e/workbench';

const canary = `sk-ant-canary-${randomBytes(12).toString('hex')}`;

describe('Connecting a model (UI)', function () {
  this.timeout(120_000);

  it('shows how to connect a model while there is none', async () => {
    const { panel } = ui();
    await panel.open();
    const onboarding = panel.locator('#model-onboarding');
    await onboarding.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await onboarding.innerText(), /add an Anthropic API key, or use a chat model you already have/);
    await panel.locator('#model vscode-button', { hasText: 'Set Anthropic API Key…' }).waitFor({ state: 'visible' });
    await panel.locator('#model vscode-button', { hasText: 'Find a Chat Model' }).waitFor({ state: 'visible' });
  });

  it("stores a key typed into VS Code's password box and shows the models of each tier", async () => {
    const { page, panel, palette } = ui();
    await panel.open();
    await panel.locator('#model vscode-button', { hasText: 'Set Anthropic API Key…' }).click();
    const input = palette.input;
    await input.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
    await input.fill(canary);
    await page.keyboard.press('Enter');
    const ready = panel.locator('#model-ready');
    await ready.waitFor({ state: 'visible', timeout: PATIENCE.work });
    const text = await ready.innerText();
    assert.match(text, /Anthropic API/);
    assert.match(text, /claude-sonnet-4-6/);
    assert.match(text, /claude-haiku-4-5/);
  });

  it("checks the connection with that key, at the base URL of the user settings (not the workspace's)", async () => {
    const { modelServer } = workbench();
    const { page, panel } = ui();
    modelServer.add({
      name: 'connection check',
      match: match.model('claude-haiku-4-5'),
      reply: reply.text(['O', 'K']),
    });
    const before = modelServer.requests.length;
    await panel.open();
    await panel.locator('#model vscode-button', { hasText: 'Check Connection' }).click();
    const check = panel.locator('#model-check.ok');
    await check.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await check.innerText(), /claude-haiku-4-5 answered in \d+\.\d s/);
    const sent = await until('the check to reach the scripted server', () => modelServer.requests[before]);
    assert.equal(sent.apiKey.present, true);
    assert.equal(
      sent.apiKey.sha256,
      createHash('sha256').update(canary).digest('hex').slice(0, 12),
      'the stored key was sent',
    );
    assert.equal((sent.body as { model: string }).model, 'claude-haiku-4-5');
    assert.equal(modelServer.unmatched.length, 0);
    const usage = panel.locator('#model-usage');
    await usage.waitFor({ state: 'visible', timeout: PATIENCE.work });
    const usageText = await usage.innerText();
    assert.match(usageText, /\d+(\.\d+)?[kM]? tokens · (\$|<\$)/, `usage shown: ${JSON.stringify(usageText)}`);
    await screenshot(page, 'groundwork-model.png');
  });

  it("never writes the key to the workspace, the profile, the extension's storage, the logs or the panel", async () => {
    const { page, workspace, userDataDir, logPath } = workbench();
    const { panel } = ui();
    assert.ok(!(await panel.locator('html').innerHTML()).includes(canary), "the key is in the panel's document");
    assert.ok(!(await page.content()).includes(canary), "the key is in the workbench's document");
    assert.deepEqual(filesContaining(workspace, canary), [], 'the key is in a workspace file');
    assert.deepEqual(
      filesContaining(userDataDir, canary),
      [],
      'the key is in a file of the profile (logs, storage, settings)',
    );
    assert.ok(!readFileSync(logPath, 'utf8').includes(canary), 'the key is in the run log (console output)');
  });
});
