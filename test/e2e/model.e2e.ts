// Connecting a model, as a person does it: the panel says how, the key goes into VS Code's own
// input box, a check reaches the (scripted) Anthropic API with that key through the base URL of
// the user's settings, and the key is found nowhere afterwards. Runs after journal.e2e.ts.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { reply, match } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { filesContaining } from './support/grep';
import { openGroundwork, screenshot, webviewContent, workbench } from './support/workbench';

const canary = `sk-ant-canary-${randomBytes(12).toString('hex')}`;

describe('Connecting a model (UI)', function () {
  this.timeout(60_000);

  it('shows how to connect a model while there is none', async () => {
    const panel = await openGroundwork(workbench().page);
    const onboarding = panel.locator('#model-onboarding');
    await onboarding.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await onboarding.innerText(), /add an Anthropic API key, or use a chat model you already have/);
    await panel.locator('#model vscode-button', { hasText: 'Set Anthropic API Key…' }).waitFor({ state: 'visible' });
    await panel.locator('#model vscode-button', { hasText: 'Find a Chat Model' }).waitFor({ state: 'visible' });
  });

  it("stores a key typed into VS Code's password box and shows the models of each tier", async () => {
    const { page } = workbench();
    const panel = await openGroundwork(page);
    await panel.locator('#model vscode-button', { hasText: 'Set Anthropic API Key…' }).click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
    await input.fill(canary);
    await page.keyboard.press('Enter');
    const ready = panel.locator('#model-ready');
    await ready.waitFor({ state: 'visible', timeout: 15_000 });
    const text = await ready.innerText();
    assert.match(text, /Anthropic API/);
    assert.match(text, /claude-sonnet-4-6/);
    assert.match(text, /claude-haiku-4-5/);
  });

  it("checks the connection with that key, at the base URL of the user settings (not the workspace's)", async () => {
    const { page, modelServer } = workbench();
    modelServer.add({
      name: 'connection check',
      match: match.model('claude-haiku-4-5'),
      reply: reply.text(['O', 'K']),
    });
    const before = modelServer.requests.length;
    const panel = await openGroundwork(page);
    await panel.locator('#model vscode-button', { hasText: 'Check Connection' }).click();
    const check = panel.locator('#model-check.ok');
    await check.waitFor({ state: 'visible', timeout: 30_000 });
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
    await usage.waitFor({ state: 'visible', timeout: 15_000 });
    const usageText = await usage.innerText();
    assert.match(usageText, /\d+ tokens · (\$|<\$)/, `usage shown: ${JSON.stringify(usageText)}`);
    await screenshot(page, 'groundwork-model.png');
  });

  it("never writes the key to the workspace, the profile, the extension's storage, the logs or the panel", async () => {
    const { page, workspace, userDataDir, logPath } = workbench();
    const panel = webviewContent(page);
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
