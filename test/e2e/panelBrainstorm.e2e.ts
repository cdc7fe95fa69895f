// A brainstorm as a person runs it: "Groundwork: Brainstorm…" from the command palette, the topic
// and the minimum rounds in VS Code's own inputs, the three inquisitors' merged questions answered
// in the panel (one skipped), the panel's page loaded anew in the middle (a window reload reads the
// brainstorm back from its files: test/unit/vscode/brainstorm/brainstormRestore.test.ts, and the
// discovery's e2e reloads the window for real), a follow-up round, the summary, and the artifacts in
// the plan folder. The scripted model server plays the four roles. Runs after model.e2e.ts
// (E2E_ORDER in scripts/vscode/bundleTests.mjs), which stored an API key, and closes the brainstorm
// at the end so that the discovery tests find an idle panel.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { match, reply, type MessagesBody } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { ui } from '../support/e2e/ui';
import { PATIENCE, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

const TOPIC = 'Let customers export their invoices';
const SLUG = 'let-customers-export-their-invoices';
const questions = (angle: string, ...texts: string[]) =>
  JSON.stringify({ questions: texts.map((text, i) => ({ text, angle, priority: i + 1 })) });
const isTask = (task: string) => (body: MessagesBody) =>
  match.system('# Brainstorm coordinator')(body) && match.lastUserText(`TASK: ${task}`)(body);
const SUMMARY = JSON.stringify({
  summary: {
    topic: 'Let account owners and their accountants export a period of invoices',
    key_insights: ['Accountants, not owners, do most exports, at month end'],
    decisions: ['CSV first: the accountants asked use CSV (technical, round 1)'],
    open_questions: ['Which time zone decides the period an invoice belongs to?'],
  },
});

describe('Brainstorm in the panel (UI)', function () {
  this.timeout(120_000);

  let restoreWorkspace = () => undefined as void;
  after(() => restoreWorkspace());

  before(() => {
    restoreWorkspace = keepWorkspaceAsFound();
    const { modelServer } = workbench();
    // Each inquisitor's reply waits until all three have been asked (15 s at most): the three calls
    // overlap however slow the machine is, if Groundwork makes them at once.
    let asked = 0;
    let allAsked!: () => void;
    const together = Promise.race([
      new Promise<void>((resolve) => (allAsked = resolve)),
      new Promise<void>((resolve) => setTimeout(resolve, 15_000).unref()),
    ]);
    const inquisitor = (chunks: string | string[]) => () => {
      if (++asked === 3) allAsked();
      return reply.text(chunks, { hold: { afterDeltas: 0, until: together } });
    };
    modelServer.add(
      {
        name: 'inquisitor ux',
        match: match.system('# UX inquisitor'),
        reply: inquisitor(
          questions(
            'ux',
            'Who exports invoices: the owner, the accountant, or both?',
            'Where would someone look for the export first?',
          ),
        ),
      },
      {
        name: 'inquisitor technical',
        match: match.system('# Technical inquisitor'),
        reply: inquisitor([
          '```json\n',
          questions('technical', 'Which file formats must the export produce?'),
          '\n```',
        ]),
      },
      {
        name: 'inquisitor edge-cases',
        match: match.system('# Edge-cases inquisitor'),
        reply: inquisitor(
          questions('edge-cases', 'What should happen when an export of 50,000 invoices fails halfway?'),
        ),
      },
      {
        name: 'follow-up',
        match: isTask('follow-up'),
        reply: reply.text(questions('ux', 'Should accountants get a login of their own?')),
      },
      {
        name: 'summary',
        match: isTask('summarize'),
        reply: reply.text(SUMMARY.match(/[\s\S]{1,60}/g)!, { chunkDelayMs: 10 }),
      },
    );
  });

  it('asks for a topic and the minimum rounds, then shows the merged questions grouped by angle', async () => {
    const { modelServer } = workbench();
    const { page, palette, panel } = ui();
    await panel.open();
    await palette.runGroundwork('groundwork.brainstorm');
    await palette.submit(TOPIC);
    // the minimum rounds: the default (1) is offered first
    await palette.row('At least 1 round').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await page.keyboard.press('Enter');

    await panel.open();
    const form = panel.locator('#brainstorm-form');
    await form.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#brainstorm-topic').innerText(), /Let customers export their invoices/);
    assert.match(await panel.locator('#brainstorm-round').innerText(), /1\/5/);
    const text = await form.innerText();
    for (const q of ['Who exports invoices', 'Which file formats', 'fails halfway']) assert.match(text, new RegExp(q));
    assert.ok(
      text.indexOf('UX') < text.indexOf('Technical') && text.indexOf('Technical') < text.indexOf('Edge cases'),
      'grouped by angle, in order',
    );

    const inquisitors = modelServer.requests.filter((r) => r.rule?.startsWith('inquisitor'));
    assert.equal(inquisitors.length, 3);
    const start = Math.max(...inquisitors.map((r) => r.receivedAt));
    const end = Math.min(...inquisitors.map((r) => r.finishedAt ?? Infinity));
    assert.ok(start < end, 'the three inquisitor calls were in flight at the same time');

    const round1 = join(workbench().workspace, '.groundwork', 'plans', SLUG, 'rounds', 'round-1.md');
    await until('rounds/round-1.md', () => (existsSync(round1) ? true : undefined));
    await screenshot(page, 'groundwork-brainstorm.png');
  });

  it('keeps the question form when the panel is shown again, its page loaded anew', async () => {
    const { panel } = ui();
    await panel.open();
    const first = panel.locator('#brainstorm-form .question-text', { hasText: 'Who exports invoices' });
    await first.waitFor({ state: 'visible' });
    await panel.reopen();
    await panel.locator('#brainstorm-form').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await first.waitFor({ state: 'visible' });
    assert.match(await panel.locator('#brainstorm-round').innerText(), /1\/5/);
  });

  it('sends the answers with one question skipped, asks a follow-up round, and writes the artifacts on Summarize Now', async () => {
    const { workspace, modelServer } = workbench();
    const { page, panel, explorer, editors } = ui();
    await panel.open();
    const ids = await panel.locator('#brainstorm-form vscode-textarea').evaluateAll((els) => els.map((e) => e.id));
    assert.equal(ids.length, 4);
    // the merged order: priority 1 of each angle (ux, technical, edge-cases), then ux's priority 2
    assert.match(await panel.locator('#bq-3-text').innerText(), /Where would someone look/);
    await panel.locator('#bq-0 textarea').fill('Mostly the accountant, at month end');
    await panel.locator('#bq-1 textarea').fill('CSV first, PDF later');
    await panel.locator('#bq-2 textarea').fill('Email a link when the export is ready');
    await panel.locator('#bq-3-skip').click();
    await panel.locator('#brainstorm-more').click();

    await panel.locator('#brainstorm-round', { hasText: '2/5' }).waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel
      .locator('#brainstorm-form .question-text', { hasText: 'login of their own' })
      .waitFor({ state: 'visible' });
    const followUp = modelServer.requests.find((r) => r.rule === 'follow-up')!;
    const sent = JSON.stringify((followUp.body as MessagesBody).messages);
    assert.match(sent, /untrusted-data/, 'answers are wrapped as data');
    assert.match(sent, /Mostly the accountant/);
    assert.match(sent, /\[skipped by user\]/);

    await panel.locator('#bq-0 textarea').fill('Yes, read-only');
    await panel.locator('#brainstorm-summarize').click();
    const card = panel.locator('#brainstorm-complete');
    await card.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#brainstorm-decisions').innerText(), /CSV first/);

    const dir = join(workspace, '.groundwork', 'plans', SLUG);
    for (const f of [
      'rounds/round-1.md',
      'rounds/round-2.md',
      '00-brainstorming.md',
      '00-brainstorming.context.md',
      '.brainstorm-complete',
    ]) {
      await until(f, () => (existsSync(join(dir, f)) ? true : undefined));
    }
    const context = readFileSync(join(dir, '00-brainstorming.context.md'), 'utf8');
    assert.match(context, /^---\nschema_version: 1\n/);
    assert.match(context, /skipped: true/);
    assert.match(readFileSync(join(dir, '00-brainstorming.md'), 'utf8'), /Accountants, not owners, do most exports/);
    await explorer.shown(SLUG);
    await screenshot(page, 'groundwork-brainstorm-complete.png');

    await panel.locator('#brainstorm-open-doc').click();
    await editors.tab('00-brainstorming.md').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await editors.closeAll();
    await panel.locator('#brainstorm-close').click();
    await panel.locator('#brainstorm').waitFor({ state: 'detached', timeout: PATIENCE.soon });
  });
});
