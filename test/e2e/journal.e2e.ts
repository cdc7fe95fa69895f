// A person adds a discovery from the Agent panel and sees it in the panel, in the Plans tree and
// in the workspace's journal file; an agent's sleep written to the workspace shows up with a Wake
// button that works. Runs after groundwork-container.e2e.ts (files run in name order), which needs
// the workspace empty.
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../support/until';
import { openGroundwork, screenshot, treeRow, workbench } from './support/workbench';

function journalLines(): unknown[] {
  const file = join(workbench().workspace, '.groundwork', 'discoveries.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('Discoveries journal (UI)', function () {
  this.timeout(60_000);

  it('adds a discovery typed into the panel to the panel, the tree and the journal file', async () => {
    const { page } = workbench();
    const panel = await openGroundwork(page);
    await panel.locator('#journal-empty').waitFor({ state: 'visible' });
    await panel.locator('#journal-title input').fill('Cache keys need the path');
    await panel
      .locator('#journal-description textarea')
      .fill('Two files with one name collided.\nKey the cache by full path.');
    await panel.locator('#journal-add').click();

    const entry = panel.locator('#journal-entries .entry', { hasText: 'Cache keys need the path' });
    await entry.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await entry.innerText(), /Key the cache by full path\./);
    await panel.locator('.form-status', { hasText: 'Added to the journal.' }).waitFor({ state: 'visible' });
    assert.equal(await panel.locator('#journal-title input').inputValue(), '', 'the title box is cleared after adding');

    await treeRow(page, 'Discoveries journal').waitFor({ state: 'visible', timeout: 15_000 });
    await treeRow(page, 'Cache keys need the path').waitFor({ state: 'visible', timeout: 15_000 });

    const records = await until('the record in discoveries.jsonl', () => {
      const lines = journalLines();
      return lines.length ? lines : undefined;
    });
    assert.equal(records.length, 1);
    const [record] = records as Array<{ timestamp: string; title: string; description: string }>;
    assert.equal(record?.title, 'Cache keys need the path');
    assert.equal(record?.description, 'Two files with one name collided.\nKey the cache by full path.');
    assert.ok(!Number.isNaN(Date.parse(record?.timestamp ?? '')), 'the record has an ISO timestamp');
  });

  it('refuses an empty title in the panel and says why, writing nothing', async () => {
    const { page } = workbench();
    const panel = await openGroundwork(page);
    await panel.locator('#journal-description textarea').fill('A description without a title');
    await panel.locator('#journal-add').click();
    await panel.locator('.form-status.error', { hasText: 'Give the discovery a title.' }).waitFor({ state: 'visible' });
    assert.equal(journalLines().length, 1);
    await panel.locator('#journal-description textarea').fill('');
  });

  it('shows markup in a discovery as text, never as HTML', async () => {
    const { page } = workbench();
    const file = join(workbench().workspace, '.groundwork', 'discoveries.jsonl');
    const evil = '<img src=x onerror="document.body.dataset.pwned=1">';
    appendFileSync(
      file,
      JSON.stringify({ timestamp: new Date().toISOString(), title: evil, description: '<b>bold?</b>' }) + '\n',
    );
    const panel = await openGroundwork(page);
    await panel.locator('#journal-entries .entry', { hasText: evil }).waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await panel.locator('#journal-entries img, #journal-entries b').count(), 0);
    assert.equal(await panel.locator('body[data-pwned]').count(), 0);
  });

  it('lists a sleeping agent from the workspace and wakes it on request', async () => {
    const { page } = workbench();
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

    const panel = await openGroundwork(page);
    const sleeper = panel.locator('#sleepers .sleeper', { hasText: 'build-qa' });
    await sleeper.waitFor({ state: 'visible', timeout: 15_000 });
    const first = await sleeper.innerText();
    assert.match(first, /\d+m \d\ds/);
    // the countdown moves on its own, without anything else happening
    await until('the countdown to tick', async () => ((await sleeper.innerText()) !== first ? true : undefined), 5_000);
    await treeRow(page, 'Sleeping agents').waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'groundwork-journal.png');

    await sleeper.locator('vscode-button').click();
    await sleeper.waitFor({ state: 'detached', timeout: 15_000 });
    const lines = readFileSync(join(dir, 'sleep.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.equal(lines.at(-1).event, 'woken');
    assert.equal(lines.at(-1).agent, 'build-qa');
    await treeRow(page, 'Sleeping agents').waitFor({ state: 'detached', timeout: 15_000 });
  });
});
