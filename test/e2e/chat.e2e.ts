// The @groundwork chat participant as a person meets it in VS Code's chat view: `/discover build me
// a CRM` asks the round's questions in chat, an answer typed in chat continues the same session
// (the round file in the workspace has it, and the Groundwork panel shows the same conversation), a
// follow-up button answers the next round, and `/build` on a saved brief opens the build's
// confirmation gate (a modal). The runner's profile turns VS Code's chat off; the scripted chat
// model's extension turns it on for this suite, and off again after. The scripted model server plays
// the build-discovery role (an Anthropic key is set, so Groundwork's own model service serves the
// participant): the key model.e2e.ts left, or one this file stores and clears.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { BRIEF_MD } from '../support/buildScript';
import { match, reply } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { Palette } from '../support/e2e/palette';
import { ui } from '../support/e2e/ui';
import { PATIENCE, commandTitle, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

const KEY = 'sk-ant-chat-e2e-0123456789abcdef';
const PLAN = 'chat-adder';
const QUESTIONS = [
  'DISCOVERY_QUESTIONS',
  'A few questions first:',
  '1. Who will use the CRM day to day?',
  '2. What do you keep about each customer today?',
].join('\n');
const FOLLOW_UP = [
  'DISCOVERY_QUESTIONS',
  '1. How many customers do you have?',
  '2. Should customers see their own orders?',
].join('\n');
const BRIEF = [
  'DISCOVERY_COMPLETE',
  'IDEA_BRIEF:',
  'One-line summary: A customer book for a small bakery',
  'Problem: Orders live on paper.',
  'Users: The owner and two counter staff.',
  'MVP scope: Customers and their standing orders.',
  'Technology: A web app.',
  'Out of scope: Payments.',
  'Key decisions: Staff log in.',
  'Constraints: Under 200 customers.',
].join('\n');
const isDiscovery = match.system('DISCOVERY_QUESTIONS');

function discoveryDir(): string {
  return join(workbench().workspace, '.groundwork', 'discovery');
}

function roundFileText(): string {
  const files = existsSync(discoveryDir()) ? readdirSync(discoveryDir()) : [];
  return files.length === 1 ? readFileSync(join(discoveryDir(), files[0]!), 'utf8') : '';
}

/** Opens the chat view in Ask mode (a third-party participant is addressed there with @). */
async function openChat(page: Page): Promise<void> {
  // Patiently: the chat's commands appear once VS Code has taken the setting that turns chat on.
  await new Palette(page).run('Chat: Open Chat (Ask)');
  await page
    .locator('.interactive-input-part .monaco-editor')
    .first()
    .waitFor({ state: 'visible', timeout: PATIENCE.soon });
}

/** Types a message into the chat input (replacing what is there) and sends it. */
async function ask(page: Page, text: string): Promise<void> {
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  await input.click({ force: true });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text, { delay: 5 });
  await page.keyboard.press('Escape'); // a suggestion list left open would take the Enter
  await page.keyboard.press('Enter');
  // An Enter taken by a suggestion list that opened late: the Send button instead.
  const sent = await until(
    'the chat input to empty',
    async () => !(await input.innerText()).includes(text.slice(-10)),
    3_000,
  ).catch(() => false);
  if (!sent) await page.locator('.interactive-input-part .action-label[aria-label^="Send"]').first().click();
}

/**
 * Opens the chat and waits until a request reaches @groundwork: VS Code refuses a participant's
 * request ("Language model unavailable") until the extension host has the chat model that was just
 * enabled. `/status` is asked until it answers: it only reads.
 */
async function readyChat(page: Page): Promise<void> {
  await openChat(page);
  const deadline = Date.now() + PATIENCE.work;
  for (;;) {
    await ask(page, '@groundwork /status');
    const shown = await responseShowing(page, /Sessions|Language model unavailable/, PATIENCE.soon);
    if (!/Language model unavailable/.test(shown)) return;
    if (Date.now() > deadline) throw new Error(`@groundwork never got a request: ${shown}`);
  }
}

function responses(page: Page): Locator {
  return page.locator('.interactive-item-container.interactive-response');
}

/** The newest response once it shows `text`. */
async function responseShowing(page: Page, text: string | RegExp, ms: number = PATIENCE.work): Promise<string> {
  const last = responses(page).last();
  return until(
    `a chat response showing ${text}`,
    async () => {
      const shown = await last.innerText().catch(() => '');
      return (typeof text === 'string' ? shown.includes(text) : text.test(shown)) ? shown : undefined;
    },
    ms,
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}; the chat shows:\n${(await responses(page).allInnerTexts()).join('\n---\n')}`);
  });
}

describe('Chat participant @groundwork (UI)', function () {
  this.timeout(180_000);
  /** Whether this file stored the key (and so clears it). */
  let storedKey = false;
  let restoreWorkspace = () => undefined as void;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      workbench().log(
        `chat e2e: notifications after the failure:\n${await ui()
          .notifications.text()
          .catch(() => '')}`,
      );
  });

  before(async () => {
    const { modelServer, workspace } = workbench();
    const { palette, panel } = ui();
    restoreWorkspace = keepWorkspaceAsFound();
    modelServer.add(
      {
        name: 'chat round 1',
        match: isDiscovery,
        reply: reply.text(QUESTIONS.match(/[\s\S]{1,24}/g)!, { chunkDelayMs: 10 }),
      },
      {
        name: 'chat round 2',
        match: isDiscovery,
        reply: reply.text(FOLLOW_UP.match(/[\s\S]{1,24}/g)!, { chunkDelayMs: 10 }),
      },
      {
        name: 'chat brief',
        match: isDiscovery,
        reply: reply.text(BRIEF.match(/[\s\S]{1,40}/g)!, { chunkDelayMs: 10 }),
      },
    );
    mkdirSync(join(workspace, '.groundwork', 'plans', PLAN), { recursive: true });
    writeFileSync(join(workspace, '.groundwork', 'plans', PLAN, 'idea-brief.md'), BRIEF_MD);
    storedKey = await panel.ensureKey(KEY);
    await palette.run("Turn VS Code's chat on for the tests");
    await palette.run('Enable the scripted chat model');
  });

  after(async () => {
    const { log } = workbench();
    const { page, palette, panel } = ui();
    // What the next suites expect: no discovery, no card, the key as it was, no chat model, and a
    // quiet window with VS Code's chat off.
    await page.keyboard.press('Escape');
    await palette
      .runGroundwork('groundwork.discovery.cancel')
      .catch((err: Error) => log(`chat cleanup: cancel: ${err.message}`));
    await panel.open().catch(() => undefined);
    const discard = panel.locator('#brief-discard');
    if (await discard.isVisible().catch(() => false)) await discard.click();
    const titles = [
      ...(storedKey ? [commandTitle('groundwork.clearApiKey')] : []),
      'Disable the scripted chat model',
      'View: Close Secondary Side Bar',
      "Turn VS Code's chat off for the tests",
    ];
    for (const title of titles) {
      await page.keyboard.press('Escape');
      await palette.run(title).catch((err: Error) => log(`chat cleanup: ${title}: ${err.message}`));
    }
    restoreWorkspace();
  });

  it('asks the round\'s questions of "/discover build me a CRM" in chat, from the same round file as the panel', async () => {
    const { page } = workbench();
    await readyChat(page);
    await screenshot(page, 'chat-status.png');
    await ask(page, '@groundwork /discover build me a CRM');
    const shown = await responseShowing(page, 'What do you keep about each customer today?');
    assert.match(shown, /Discovery · round 1\/3/);
    assert.match(shown, /Who will use the CRM day to day\?/);
    await page
      .locator('.interactive-session-followups', { hasText: 'No preference' })
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
    const round = roundFileText();
    assert.match(round, /build me a CRM/, 'the round file holds the request');
    assert.match(round, /Who will use the CRM day to day\?/, 'and the questions');
    await screenshot(page, 'chat-discover.png');
  });

  it('continues the same session with an answer typed in chat; the panel shows the same conversation', async () => {
    const { page, panel } = ui();
    await ask(page, '@groundwork The owner and two counter staff');
    const shown = await responseShowing(page, 'How many customers do you have?');
    assert.match(shown, /round 2\/3/);
    await until(
      'the answer in the round file',
      () => /The owner and two counter staff/.test(roundFileText()),
      PATIENCE.work,
    );
    await panel.open();
    await panel.locator('#discovery-round', { hasText: '2/3' }).waitFor({ state: 'visible', timeout: PATIENCE.work });
    const questions = await panel.locator('#discovery-questions .question-text').allInnerTexts();
    assert.deepEqual(questions, ['How many customers do you have?', 'Should customers see their own orders?']);
    assert.match(await panel.locator('#discovery-request').innerText(), /build me a CRM/);
    await screenshot(page, 'chat-panel.png');
  });

  it('answers with a follow-up button, and shows the Idea Brief with Build This', async () => {
    const { page } = workbench();
    await page.locator('.interactive-session-followups .monaco-button', { hasText: 'No preference' }).last().click();
    const shown = await responseShowing(page, 'A customer book for a small bakery');
    assert.match(shown, /Idea Brief/);
    await page
      .locator('.interactive-session-followups', { hasText: 'Build This' })
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
    assert.equal(roundFileText(), '', 'the round file is gone once the brief is written');
    await screenshot(page, 'chat-brief.png');
  });

  it('opens the confirmation gate of a build with "/build" on a saved brief', async () => {
    const { page, modal } = ui();
    await readyChat(page);
    await ask(page, `@groundwork /build ${PLAN}`);
    await responseShowing(page, /confirmation gate is open/);
    const text = await modal.shown();
    assert.ok(text.includes(`Build a project from .groundwork/plans/${PLAN}/idea-brief.md?`), text);
    await screenshot(page, 'chat-build-gate.png');
    await modal.choose('Cancel');
  });

  it('uses the model picked in the chat view when groundwork.provider is vscode-lm', async () => {
    const { modelServer } = workbench();
    const { page, palette, panel } = ui();
    await readyChat(page);
    const calls = modelServer.requests.length;
    await palette.run("Set Groundwork's provider to vscode-lm for the tests");
    try {
      // Once the panel's model section says so, Groundwork has the setting.
      await panel.open();
      await panel
        .locator('#model', { hasText: 'VS Code language model' })
        .waitFor({ state: 'visible', timeout: PATIENCE.work });
      await ask(page, '@groundwork /discover CHAT_MODEL_DISCOVERY a to-do list');
      const shown = await responseShowing(page, 'Which chat model asked this?');
      assert.match(shown, /round 1\/3/);
      assert.equal(modelServer.requests.length, calls, "Groundwork's own model service was not called");
      assert.match(roundFileText(), /Which chat model asked this\?/);
      await screenshot(page, 'chat-model.png');
    } finally {
      await palette
        .run("Reset Groundwork's provider for the tests")
        .catch((err: Error) => workbench().log(`chat: reset provider: ${err.message}`));
    }
  });
});
