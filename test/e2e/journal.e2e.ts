// A person adds a discovery from the Agent panel and sees it in the panel, in the Plans tree and
// in the workspace's journal file; an agent's sleep written to the workspace shows up with a Wake
// button that works. Runs after build.e2e.ts (E2E_ORDER in scripts/vscode/bundleTests.mjs), which
// leaves the workspace as it found it: no journal.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../support/until';
import { jsonLines } from '../support/e2e/files';
import { ui } from '../support/e2e/ui';
import { PATIENCE, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

describe('Discoveries journal (UI)', function () {
  this.timeout(120_000);
  let restoreWorkspace = () => undefined as void;
  before(() => (restoreWorkspace = keepWorkspaceAsFound()));
  after(() => restoreWorkspace());

  it('adds a discovery typed into the panel to the panel, the tree and the journal file', async () => {
    const { panel, explorer } = ui();
    await panel.open();
    await panel.locator('#journal-empty').waitFor({ state: 'visible' });
    await panel.locator('#journal-title input').fill('Cache keys need the path');
    await panel
      .locator('#journal-description textarea')
      .fill('Two files with one name collided.\nKey the cache by full path.');
    await panel.locator('#journal-add').click();

    const entry = panel.locator('#journal-entries .entry', { hasText: 'Cache keys need the path' });
    await entry.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await entry.innerText(), /Key the cache by full path\./);
    await panel.locator('.form-status', { hasText: 'Added to the journal.' }).waitFor({ state: 'visible' });
    assert.equal(await panel.locator('#journal-title input').inputValue(), '', 'the title box is cleared after adding');

    await explorer.shown('Discoveries journal');
    await explorer.shown('Cache keys need the path');

    const records = await until('the record in discoveries.jsonl', () => {
      const lines = jsonLines('discoveries.jsonl');
      return lines.length ? lines : undefined;
    });
    assert.equal(records.length, 1);
    const [record] = records as Array<{ timestamp: string; title: string; description: string }>;
    assert.equal(record?.title, 'Cache keys need the path');
    assert.equal(record?.description, 'Two files with one name collided.\nKey the cache by full path.');
    assert.ok(!Number.isNaN(Date.parse(record?.timestamp ?? '')), 'the record has an ISO timestamp');
  });

  it('refuses an empty title in the panel and says why, writing nothing', async () => {
    const { panel } = ui();
    await panel.open();
    await panel.locator('#journal-description textarea').fill('A description without a title');
    await panel.locator('#journal-add').click();
    await panel.locator('.form-status.error', { hasText: 'Give the discovery a title.' }).waitFor({ state: 'visible' });
    assert.equal(jsonLines('discoveries.jsonl').length, 1);
    await panel.locator('#journal-description textarea').fill('');
  });

  it('shows markup in a discovery as text, never as HTML', async () => {
    const { panel } = ui();
    const file = join(workbench().workspace, '.groundwork', 'discoveries.jsonl');
    const evil = '<img src=x onerror="document.body.dataset.pwned=1">';
    appendFileSync(
      file,
      JSON.stringify({ timestamp: new Date().toISOString(), title: evil, description: '<b>bold?</b>' }) + '\n',
    );
    await panel.open();
    await panel
      .locator('#journal-entries .entry', { hasText: evil })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.equal(await panel.locator('#journal-entries img, #journal-entries b').count(), 0);
    assert.equal(await panel.locator('body[data-pwned]').count(), 0);
  });

  it('lists a sleeping agent from the workspace and wakes it on request', async () => {
    const { page, panel, explorer } = ui();
    const dir = join(workbench().workspace, '.groundwork');
    mkdirSync(dir, { recursive: true });
    const started = {
      event: 'started',
      agent: 'build-qa',
      mode: { kind: 'timer', durationMs: 600_000 },
      startedAt: Date.now(),
      maxDurationMs: 600_000,
    };
    appendFileSync(join(dir, 'sleep.jsonl'), JSON.stringify(started) + '\n');

    await panel.open();
    const sleeper = panel.locator('#sleepers .sleeper', { hasText: 'build-qa' });
    await sleeper.waitFor({ state: 'visible', timeout: PATIENCE.work });
    const first = await sleeper.innerText();
    assert.match(first, /\d+m \d\ds/);
    // the countdown moves on its own, without anything else happening
    await until(
      'the countdown to tick',
      async () => ((await sleeper.innerText()) !== first ? true : undefined),
      PATIENCE.soon,
    );
    await explorer.shown('Sleeping agents');
    await screenshot(page, 'groundwork-journal.png');

    await sleeper.locator('vscode-button').click();
    await sleeper.waitFor({ state: 'detached', timeout: PATIENCE.work });
    const lines = jsonLines('sleep.jsonl');
    assert.equal(lines.at(-1)?.['event'], 'woken');
    assert.equal(lines.at(-1)?.['agent'], 'build-qa');
    await explorer.gone('Sleeping agents');
  });
});
