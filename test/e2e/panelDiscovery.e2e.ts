// Discovery as a person meets it: "build me a CRM" typed in the panel, questions answered in the
// form, the window reloaded in the middle (one of the run's two real reloads: the panel and the
// session read back by a fresh window), the conversation continued, the Idea Brief card, the plan
// saved. The scripted model server plays the build-discovery role. Runs after model.e2e.ts (E2E_ORDER
// in scripts/vscode/bundleTests.mjs), which stored an API key.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { match, reply } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { ui } from '../support/e2e/ui';
import { PATIENCE, activityBarItem, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

const REQUEST = 'build me a CRM';
const QUESTIONS = [
  'DISCOVERY_QUESTIONS',
  'A few questions before anything is built:',
  '1. Who will use the CRM day to day?',
  '2. What do you keep about each customer today?',
  '3. Must it work on a phone at the counter?',
].join('\n');
const FOLLOW_UP = [
  'DISCOVERY_QUESTIONS',
  '1. How many customers do you have?',
  '2. Should customers see their own orders?',
].join('\n');
const BRIEF = [
  'DISCOVERY_COMPLETE',
  'IDEA_BRIEF:',
  'One-line summary: A customer and order book for a small bakery',
  'Problem: Orders and allergies live on paper and get lost.',
  'Users: The owner and two counter staff.',
  'MVP scope: Customers, their allergies, standing orders, a daily pick list.',
  'Technology: A web app usable on a phone.',
  'Out of scope: Payments and a customer portal.',
  'Key decisions: Staff log in; customers do not.',
  'Constraints: Under 200 customers; must work offline for a morning.',
].join('\n');

const isDiscovery = match.system('DISCOVERY_QUESTIONS');

describe('Discovery in the panel (UI)', function () {
  this.timeout(150_000);

  let restoreWorkspace = () => undefined as void;
  after(() => restoreWorkspace());

  before(() => {
    restoreWorkspace = keepWorkspaceAsFound();
    const { modelServer } = workbench();
    // chunks with small delays, so the reply visibly streams
    modelServer.add(
      {
        name: 'round 1 questions',
        match: isDiscovery,
        reply: reply.text(QUESTIONS.match(/[\s\S]{1,24}/g)!, { chunkDelayMs: 15 }),
      },
      {
        name: 'round 2 questions',
        match: isDiscovery,
        reply: reply.text(FOLLOW_UP.match(/[\s\S]{1,24}/g)!, { chunkDelayMs: 15 }),
      },
      { name: 'the brief', match: isDiscovery, reply: reply.text(BRIEF.match(/[\s\S]{1,40}/g)!, { chunkDelayMs: 10 }) },
    );
  });

  it('asks questions about "build me a CRM", each with its own answer box, in round 1/3', async () => {
    const { modelServer } = workbench();
    const { panel } = ui();
    await panel.open();
    // text that is not a build request gets a short answer about what Groundwork does, and a way in
    const before = modelServer.requests.length;
    await panel.send('hello, what is this?');
    const hint = panel.locator('#discovery-hint');
    await hint.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await hint.innerText(), /Idea Brief/);
    await panel.locator('#discover-this').waitFor({ state: 'visible' });
    assert.equal(modelServer.requests.length, before, 'no model call for a greeting');
    await panel.send(REQUEST);
    const questions = await panel.questions();
    assert.match(await panel.locator('#discovery-round').innerText(), /1\/3/);
    assert.deepEqual(questions, [
      'Who will use the CRM day to day?',
      'What do you keep about each customer today?',
      'Must it work on a phone at the counter?',
    ]);
    assert.match(await panel.locator('#discovery-request').innerText(), /build me a CRM/);
    const files = readdirSync(join(workbench().workspace, '.groundwork', 'discovery'));
    assert.equal(files.length, 1, 'one round file');
  });

  it('keeps the conversation through a window reload and continues it', async () => {
    const { page, panel, editors } = ui();
    await panel.open();
    await panel.locator('#answer-0 textarea').fill('The owner and two counter staff');
    await panel.locator('#answer-1 textarea').fill('Names, phone numbers and allergies, on paper');
    // question 3 left empty: skipped
    await panel.locator('#answers-send').click();
    await panel.locator('#discovery-round', { hasText: '2/3' }).waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel
      .locator('#discovery-questions .question-text', { hasText: 'How many customers' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });

    await workbench().reload();
    await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: PATIENCE.work });
    // A web window saves its layout now and then, not as it unloads: an editor closed since may come back.
    await editors.closeAll();
    await panel.open();
    await panel
      .locator('#discovery-questions .question-text', { hasText: 'How many customers' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#discovery-round').innerText(), /2\/3/);
    assert.match(await panel.locator('#discovery-request').innerText(), /build me a CRM/);
  });

  it('writes the Idea Brief card from the answers, and saves it as a plan with the request verbatim', async () => {
    const { workspace, modelServer } = workbench();
    const { page, panel, explorer } = ui();
    await panel.open();
    await panel.locator('#answer-0 textarea').fill('About 150');
    await panel.locator('#answer-1 textarea').fill('No, staff only');
    await panel.locator('#answers-send').click();
    const card = panel.locator('#brief-card');
    await card.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.equal(await panel.locator('#brief-summary').innerText(), 'A customer and order book for a small bakery');
    assert.equal(await panel.locator('#brief-outOfScope').innerText(), 'Payments and a customer portal.');
    assert.equal(
      readdirSync(join(workspace, '.groundwork', 'discovery')).length,
      0,
      'the round file is gone once the brief is written',
    );

    const discoveryCalls = modelServer.requests.filter((r) => r.rule?.startsWith('round') || r.rule === 'the brief');
    assert.equal(discoveryCalls.length, 3, 'one model call per round');
    const body = discoveryCalls[2]!.body as { messages: Array<{ content: unknown }> };
    assert.match(JSON.stringify(body.messages), /About 150/, 'the last answers reached the model');
    assert.match(JSON.stringify(body.messages), /untrusted-data/, 'answers are wrapped as data');

    await panel.locator('#brief-save').click();
    await panel.locator('#brief-saved').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const saved = (await panel.locator('#brief-saved').innerText()).match(
      /\.groundwork\/plans\/[a-z0-9-]+\/idea-brief\.md/,
    )?.[0];
    assert.ok(saved, 'the card says where the plan was saved');
    const file = join(workspace, saved);
    await until('the saved brief', () => (existsSync(file) ? true : undefined));
    const text = readFileSync(file, 'utf8');
    assert.match(text, /build me a CRM/, 'the original request is kept verbatim');
    assert.match(text, /A customer and order book for a small bakery/);
    assert.match(text, /Who will use the CRM day to day\?/, 'the questions are kept');
    assert.match(text, /About 150/, 'the answers are kept');

    const slug = saved.split('/')[2]!;
    await explorer.shown(slug);
    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'groundwork-brief.png');
  });

  it('brainstorms the saved brief deeper: a new plan seeded from it, each folder pointing at the other', async () => {
    const { workspace, modelServer } = workbench();
    const { panel } = ui();
    const questions = (angle: string, text: string) =>
      reply.text(JSON.stringify({ questions: [{ text, angle, priority: 1 }] }));
    modelServer.add(
      {
        name: 'deeper ux',
        match: match.system('# UX inquisitor'),
        reply: questions('ux', 'Do counter staff need to see allergies at a glance?'),
      },
      {
        name: 'deeper technical',
        match: match.system('# Technical inquisitor'),
        reply: questions('technical', 'Which offline store keeps a morning of orders?'),
      },
      {
        name: 'deeper edge-cases',
        match: match.system('# Edge-cases inquisitor'),
        reply: questions('edge-cases', 'What happens to an order taken offline that conflicts?'),
      },
    );
    await panel.open();
    const saved = (await panel.locator('#brief-saved').innerText()).match(
      /\.groundwork\/plans\/([a-z0-9-]+)\/idea-brief\.md/,
    )!;
    await panel.locator('#brief-brainstorm').click();
    await panel.locator('#brainstorm-form').waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#brainstorm-topic').innerText(), /A customer and order book for a small bakery/);
    const sent = JSON.stringify(modelServer.requests.find((r) => r.rule === 'deeper ux')!.body);
    assert.match(sent, new RegExp(`plan ${saved[1]}/idea-brief.md`), 'the brief reaches the inquisitors as data');
    const plans = join(workspace, '.groundwork', 'plans');
    const pointer = join(plans, saved[1]!, 'brainstorms.md');
    await until("the pointer in the brief's plan", () => (existsSync(pointer) ? true : undefined));
    const deeper = readFileSync(pointer, 'utf8').match(/\.\.\/([a-z0-9-]+)\/00-brainstorming\.md/)![1]!;
    assert.match(
      readFileSync(join(plans, deeper, 'seeded-from.md'), 'utf8'),
      new RegExp(`\\.\\./${saved[1]}/idea-brief\\.md`),
    );
    assert.ok(!existsSync(join(plans, deeper, 'idea-brief.md')), 'nothing is copied between the plans');
    await panel.locator('#brainstorm-close').click();
    await panel.locator('#brainstorm').waitFor({ state: 'detached', timeout: PATIENCE.soon });
    await panel.locator('#brief-card').waitFor({ state: 'visible' });
  });

  it('caps a 100 KB paste with a notice, keeps it whole, survives a model error with Retry, and takes a reply without markers as the brief', async () => {
    const { workspace, modelServer } = workbench();
    const { panel } = ui();
    await panel.open();
    await panel.locator('#brief-discard').click();
    await panel.locator('#composer').waitFor({ state: 'visible', timeout: PATIENCE.soon });

    const paste = `build me an inventory tool for the bakery. ${'flour sugar butter eggs '.repeat(4300)}END-OF-PASTE`;
    assert.ok(paste.length > 100_000);
    modelServer.add(
      {
        name: 'paste questions',
        match: isDiscovery,
        reply: reply.text(['DISCOVERY_QUESTIONS\n1. Which items run out most often?\n2. Who orders supplies?']),
      },
      { name: 'refused', match: isDiscovery, reply: reply.error(400, { message: 'scripted refusal' }) },
      {
        name: 'no markers',
        match: isDiscovery,
        reply: reply.text(['A stock list for the bakery with low-stock warnings,', ' kept by the owner.']),
      },
    );
    await panel.send(paste);
    await panel.questions();
    const notice = panel.locator('#discovery .notice');
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.innerText(), /KB|kB|truncat|cap/i, 'the person is told their text was cut for the model');
    const roundFiles = readdirSync(join(workspace, '.groundwork', 'discovery'));
    assert.equal(roundFiles.length, 1);
    const roundFile = readFileSync(join(workspace, '.groundwork', 'discovery', roundFiles[0]!), 'utf8');
    assert.ok(roundFile.includes('END-OF-PASTE'), 'the whole paste is kept in the round file');
    const sentFirst = modelServer.requests.find((r) => r.rule === 'paste questions')!;
    assert.ok(!JSON.stringify(sentFirst.body).includes('END-OF-PASTE'), 'the model got the capped text');

    await panel.locator('#answer-0 textarea').fill('Flour, every week');
    await panel.locator('#answers-send').click();
    const retry = panel.locator('#discovery vscode-button', { hasText: 'Retry' });
    await retry.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#discovery .notice.error').innerText(), /scripted refusal/);
    const kept = readFileSync(join(workspace, '.groundwork', 'discovery', roundFiles[0]!), 'utf8');
    assert.ok(kept.includes('Flour, every week'), 'the answer is kept after the model error');

    await retry.click();
    const raw = panel.locator('#brief-raw');
    await raw.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.equal(await raw.innerText(), 'A stock list for the bakery with low-stock warnings, kept by the owner.');
    const retried = modelServer.requests.filter((r) => r.rule === 'no markers')[0]!;
    assert.equal(
      JSON.stringify(retried.body).split('Flour, every week').length - 1,
      1,
      'the retry sent the answer once, not twice',
    );
  });
});
