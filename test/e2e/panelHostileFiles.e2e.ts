// Files a cloned repository can plant in .groundwork, as the panel meets them: a hostile
// panel/brief.json (the panel says what is wrong with it and offers Discard, and the rest keeps
// working), and a role override that switches an agent's model (said once, dismissible). Runs
// after panelDiscovery.e2e.ts (files run in name order), whose brief this file replaces.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { match, reply } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { openGroundwork, screenshot, workbench } from './support/workbench';

describe('Files a workspace plants, in the panel (UI)', function () {
  this.timeout(120_000);

  it('shows what is wrong with a hostile brief.json, keeps the rest working, and discards it', async () => {
    const { page, workspace } = workbench();
    const file = join(workspace, '.groundwork', 'panel', 'brief.json');
    mkdirSync(join(workspace, '.groundwork', 'panel'), { recursive: true });
    const hostile = {
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
    writeFileSync(file, JSON.stringify(hostile));
    // The panel reads the file when a window restores it.
    await workbench().reload();
    const panel = await openGroundwork(page);
    const notice = panel.locator('#brief-damaged');
    await notice.waitFor({ state: 'visible', timeout: 30_000 });
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
      .waitFor({ state: 'visible', timeout: 15_000 });

    await panel.locator('#brief-discard').click();
    await notice.waitFor({ state: 'detached', timeout: 15_000 });
    await until('the file to be removed', () => (existsSync(file) ? undefined : true));
  });

  it('says once, in a notice the person can dismiss, that a workspace role override switches the model', async () => {
    const { page, workspace, modelServer, extensionPath } = workbench();
    const roles = join(workspace, '.groundwork', 'roles');
    mkdirSync(roles, { recursive: true });
    const bundled = readFileSync(join(extensionPath, 'roles', 'build-discovery.md'), 'utf8');
    writeFileSync(join(roles, 'build-discovery.md'), bundled.replace(/^model: .*$/m, 'model: claude-opus-4-1'));
    try {
      modelServer.add({
        name: 'override questions',
        match: match.system('DISCOVERY_QUESTIONS'),
        reply: reply.text(['DISCOVERY_QUESTIONS\n1. Who will use it?']),
      });
      const panel = await openGroundwork(page);
      await panel.locator('#composer textarea').fill('build me a time tracker');
      await panel.locator('#composer-send').click();
      const notice = panel.locator('#notices .notice');
      await notice.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(
        await notice.innerText(),
        /This workspace changes a Groundwork agent: \.groundwork\/roles\/build-discovery\.md overrides the bundled build-discovery role: it uses model claude-opus-4-1 instead of the complex tier/,
      );
      await panel.locator('#discovery-questions').waitFor({ state: 'visible', timeout: 30_000 });
      const sent = modelServer.requests.find((r) => r.rule === 'override questions')?.body as
        { model?: string } | undefined;
      assert.equal(sent?.model, 'claude-opus-4-1', 'the override is used, not refused');
      await panel.locator('#notices').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page, 'groundwork-role-notice.png');
      await notice.locator('.notice-dismiss').click();
      await panel.locator('#notices').waitFor({ state: 'detached', timeout: 15_000 });
      await panel.locator('#discovery-cancel').click();
      await panel.locator('#composer').waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await panel.locator('#notices').count(), 0, 'dismissed for this window');
    } finally {
      rmSync(roles, { recursive: true, force: true });
    }
  });
});
