// What crosses from the host to the panel while sessions run, seen in the panel itself: how many
// state messages one discovery turn costs, and two sessions streaming at once (a brainstorm's
// coordinator and a discovery turn), each to its own part of the panel. Runs after
// panelHostileFiles.e2e.ts (files run in name order), which leaves the discovery idle; sets an API
// key itself when none is stored (a --grep run of this file alone).
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { match, reply, type MessagesBody } from '../support/scriptedModelServer';
import { commandTitle, openGroundwork, runCommand, screenshot, workbench } from './support/workbench';

interface Seen {
  type: string;
  at: number;
  /** The message's size as JSON, in characters. */
  size: number;
}

/** Starts recording every message the host posts to the panel, in the panel's own window. */
async function record(panel: FrameLocator): Promise<void> {
  await panel.locator('#app').evaluate(() => {
    const w = window as unknown as { __gwSeen?: Seen[] };
    if (w.__gwSeen) {
      w.__gwSeen.length = 0;
      return;
    }
    const seen: Seen[] = [];
    w.__gwSeen = seen;
    window.addEventListener('message', (e: MessageEvent<unknown>) => {
      const d = e.data as { type?: unknown; feature?: unknown } | null;
      if (d && typeof d.type === 'string')
        seen.push({
          type: typeof d.feature === 'string' ? `${d.type}:${d.feature}` : d.type,
          at: Date.now(),
          size: JSON.stringify(d).length,
        });
    });
  });
}

async function recorded(panel: FrameLocator): Promise<Seen[]> {
  return panel.locator('#app').evaluate(() => [...((window as unknown as { __gwSeen?: Seen[] }).__gwSeen ?? [])]);
}

function count(seen: Seen[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of seen) out[s.type] = (out[s.type] ?? 0) + 1;
  return out;
}

async function ensureKey(panel: FrameLocator): Promise<void> {
  const { page } = workbench();
  await panel.locator('#model-ready, #model-onboarding').first().waitFor({ state: 'visible', timeout: 15_000 });
  if (await panel.locator('#model-ready').count()) return;
  await runCommand(page, commandTitle('groundwork.setApiKey'));
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('sk-ant-streams-test-key');
  await page.keyboard.press('Enter');
  await panel.locator('#model-ready').waitFor({ state: 'visible', timeout: 15_000 });
}

/** An idle discovery: a brief or a conversation left by an earlier file is put away. */
async function idleDiscovery(panel: FrameLocator): Promise<void> {
  const discard = panel.locator('#brief-discard');
  if (await discard.count()) await discard.click();
  const cancel = panel.locator('#discovery-cancel');
  if (await cancel.count()) await cancel.click();
  await panel.locator('#composer').waitFor({ state: 'visible', timeout: 15_000 });
}

/** An idle panel: besides the discovery, a brainstorm an earlier (failed) test left running is closed. */
async function idlePanel(panel: FrameLocator): Promise<void> {
  await panel.locator('#discovery').waitFor({ state: 'visible', timeout: 30_000 });
  const close = panel.locator('#brainstorm-close');
  if (await close.count()) await close.click();
  await idleDiscovery(panel);
}

const isDiscovery = match.system('DISCOVERY_QUESTIONS');

describe('Messages to the panel (UI)', function () {
  this.timeout(120_000);

  it('one discovery turn costs a state message per change of what is shown, not a whole snapshot per step', async () => {
    const { page, modelServer } = workbench();
    const panel = await openGroundwork(page);
    await ensureKey(panel);
    await idleDiscovery(panel);
    const QUESTIONS = 'DISCOVERY_QUESTIONS\n1. Who counts the stock?\n2. How often is it counted?';
    modelServer.add({
      name: 'count turn',
      match: isDiscovery,
      reply: reply.text(QUESTIONS.match(/[\s\S]{1,12}/g)!, { chunkDelayMs: 10 }),
    });
    await page.waitForTimeout(1_500);
    await record(panel);
    await panel.locator('#composer textarea').fill('build me a stock counter');
    await panel.locator('#composer-send').click();
    await panel.locator('#discovery-questions').waitFor({ state: 'visible', timeout: 30_000 });
    // the file watcher's debounce and the usage update settle within this
    await page.waitForTimeout(2_000);
    const seen = await recorded(panel);
    const states = seen.filter((s) => s.type === 'snapshot' || s.type.startsWith('state')).length;
    const chars = seen.reduce((n, s) => n + s.size, 0);
    workbench().log(`messages of one discovery turn: ${JSON.stringify(count(seen))}`);
    workbench().log(
      `whole-state messages of one discovery turn: ${seen.filter((s) => s.type === 'snapshot').length}; state messages: ${states} (all messages: ${seen.length}, ${chars} characters)`,
    );
    assert.equal(
      seen.filter((s) => s.type === 'snapshot' || s.type === 'strings').length,
      0,
      'no whole snapshot and no string table during a turn',
    );
    assert.ok(states <= 3, `running, the questions, and the model's usage at most: ${JSON.stringify(count(seen))}`);
    assert.ok(seen.filter((s) => s.type === 'state:discovery').length <= 2);
    await panel.locator('#discovery-cancel').click();
    await panel.locator('#composer').waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('a discovery whose model reads README.md first: the read shows in the panel, and the file reaches the model as a fenced tool_result', async () => {
    const { page, modelServer } = workbench();
    const panel = await openGroundwork(page);
    await ensureKey(panel);
    await idleDiscovery(panel);
    const QUESTIONS = 'DISCOVERY_QUESTIONS\n1. Which tests matter most?\n2. Who runs them?';
    const toolResult = match.toolResult('toolu_e2e_readme');
    modelServer.add(
      {
        name: 'reads README',
        match: (b) => isDiscovery(b) && !toolResult(b),
        reply: reply.toolUse('read_file', { path: 'README.md' }, { id: 'toolu_e2e_readme', text: ['Let me look.'] }),
      },
      // slow enough to see the read line while the questions stream
      {
        name: 'asks after reading',
        match: (b) => isDiscovery(b) && toolResult(b),
        reply: reply.text(QUESTIONS.match(/[\s\S]{1,4}/g)!, { chunkDelayMs: 150 }),
      },
    );
    await panel.locator('#composer textarea').fill('build a test dashboard for this project');
    await panel.locator('#composer-send').click();
    const line = panel.locator('#discovery-tools .tool-text', { hasText: 'README.md' });
    await line.waitFor({ state: 'visible', timeout: 30_000 });
    // "Reading README.md" while the read runs (longer on a loaded machine), then this:
    await panel
      .locator('#discovery-tools .tool-text', { hasText: /^Read README\.md$/ })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'groundwork-tool-read-discovery.png');
    await panel.locator('#discovery-questions').waitFor({ state: 'visible', timeout: 30_000 });
    const second = modelServer.requests
      .map((r) => r.body as MessagesBody)
      .find((b) => isDiscovery(b) && toolResult(b))!;
    const result = (second.messages.at(-1)!.content as Record<string, unknown>[]).find(
      (b) => b['type'] === 'tool_result',
    )!;
    assert.notEqual(result['is_error'], true);
    assert.match(
      String(result['content']),
      /<untrusted-data boundary="[0-9a-f]+" source="[^"]*README\.md[^"]*">[\s\S]*Groundwork test workspace/,
    );
    await panel.locator('#discovery-cancel').click();
    await panel.locator('#composer').waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('streams a brainstorm’s coordinator and a discovery turn at once, each into its own part', async () => {
    const { page, modelServer } = workbench();
    const panel = await openGroundwork(page);
    await ensureKey(panel);
    await idleDiscovery(panel);
    const questions = (angle: string, text: string) => JSON.stringify({ questions: [{ text, angle, priority: 1 }] });
    const isCoordinator = (task: string) => (body: MessagesBody) =>
      match.system('# Brainstorm coordinator')(body) && match.lastUserText(`TASK: ${task}`)(body);
    modelServer.add(
      {
        name: 'streams ux',
        match: match.system('# UX inquisitor'),
        reply: reply.text(questions('ux', 'Who counts the stock at night?')),
      },
      {
        name: 'streams technical',
        match: match.system('# Technical inquisitor'),
        reply: reply.text(questions('technical', 'Where are the counts kept?')),
      },
      {
        name: 'streams edge-cases',
        match: match.system('# Edge-cases inquisitor'),
        reply: reply.text(questions('edge-cases', 'What if a count is missed?')),
      },
    );
    await runCommand(page, commandTitle('groundwork.brainstorm'));
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('Count the bakery stock every night');
    await page.keyboard.press('Enter');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'At least 1 round' })
      .first()
      .waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await panel.locator('#brainstorm-form').waitFor({ state: 'visible', timeout: 30_000 });

    // Both replies trickle in for a few seconds; the coordinator's waits after a few pieces until the
    // discovery's request has come, so the two overlap however slow the machine is.
    const coordinatorText = questions('ux', 'COORDINATOR-MARK: should night staff count alone?');
    const discoveryText =
      'DISCOVERY_QUESTIONS\nA few questions first:\n1. DISCOVERY-MARK: which items are counted?\n2. Who reads the counts?';
    let discoveryAsked!: () => void;
    const until = new Promise<void>((resolve) => (discoveryAsked = resolve));
    modelServer.add(
      {
        name: 'streams follow-up',
        match: isCoordinator('follow-up'),
        reply: reply.text(coordinatorText.match(/[\s\S]{1,3}/g)!, {
          chunkDelayMs: 200,
          hold: { afterDeltas: 6, until },
        }),
      },
      {
        name: 'streams discovery',
        match: isDiscovery,
        reply: () => {
          discoveryAsked();
          return reply.text(discoveryText.match(/[\s\S]{1,3}/g)!, { chunkDelayMs: 120 });
        },
      },
    );
    await panel.locator('#bq-0 textarea').fill('The closing baker');
    await panel.locator('#brainstorm-more').click();
    await panel.locator('#brainstorm-stream').waitFor({ state: 'visible', timeout: 30_000 });
    await panel.locator('#composer textarea').fill('build me a stock counter for the night shift');
    await panel.locator('#composer-send').click();

    const brainstormStream = panel.locator('#brainstorm-stream');
    const discoveryStream = panel.locator('#discovery-stream');
    // Both running and streaming at the same moment.
    const deadline = Date.now() + 30_000;
    let both = false;
    while (!both && Date.now() < deadline) {
      const [b, d, bRunning, dRunning] = await Promise.all([
        brainstormStream.innerText().catch(() => ''),
        discoveryStream.innerText().catch(() => ''),
        panel.locator('#brainstorm-progress').count(),
        panel.locator('#discovery-progress').count(),
      ]);
      both = b.length > 10 && d.length > 10 && bRunning > 0 && dRunning > 0;
      if (!both) await page.waitForTimeout(100);
    }
    assert.ok(both, 'the two sessions streamed at the same time');
    await panel.locator('#discovery').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'groundwork-two-streams.png');

    await panel
      .locator('#discovery-stream', { hasText: 'DISCOVERY-MARK' })
      .waitFor({ state: 'visible', timeout: 30_000 })
      .catch(() => undefined);
    const midBrainstorm = await panel.locator('#brainstorm').innerText();
    const midDiscovery = await panel.locator('#discovery').innerText();
    assert.ok(!midBrainstorm.includes('DISCOVERY-MARK'), 'no discovery text in the brainstorm');
    assert.ok(!midDiscovery.includes('COORDINATOR-MARK'), 'no brainstorm text in the discovery card');

    await panel
      .locator('#discovery-questions .question-text', { hasText: 'DISCOVERY-MARK' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await panel
      .locator('#brainstorm-form .question-text', { hasText: 'COORDINATOR-MARK' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await panel.locator('#brainstorm-round').innerText(), /2\/5/);
    assert.ok(!(await panel.locator('#discovery').innerText()).includes('COORDINATOR-MARK'));
    assert.ok(!(await panel.locator('#brainstorm').innerText()).includes('DISCOVERY-MARK'));

    await panel.locator('#discovery-cancel').click();
    await panel.locator('#brainstorm-close').click();
    await panel.locator('#brainstorm').waitFor({ state: 'detached', timeout: 15_000 });
    await panel.locator('#composer').waitFor({ state: 'visible', timeout: 15_000 });
  });

  // The core reports tool calls before any engine makes them: until one does, the lines are drawn
  // from slices posted into the panel here, to see them in a real webview with the theme's colours
  // and the codicon font. A numbered message from far ahead keeps the host's out; a reload mends it.
  it('draws tool calls as small codicon lines, each in its agent’s part (a look at the real webview)', async () => {
    const { page } = workbench();
    const panel = await openGroundwork(page);
    const line = (id: string, kind: string, tool: string, target: string, status: string, error?: string) => ({
      id,
      kind,
      tool,
      target,
      status,
      ...(error ? { error } : {}),
    });
    const discovery = {
      status: 'running',
      request: 'build me a stock counter',
      round: 1,
      maxRounds: 3,
      rounds: [],
      streamed: 'A few questions first:',
      tools: [
        line('1', 'read', 'read_file', 'README.md', 'done'),
        line('2', 'list', 'list_files', 'src', 'done'),
        line('3', 'search', 'search', 'auth', 'done'),
        line('4', 'read', 'read_file', 'docs/missing.md', 'error', 'no such file in the workspace'),
        line('5', 'read', 'read_file', '<img src=x onerror=alert(1)>.md', 'running'),
      ],
      actions: ['cancel'],
    };
    const brainstorm = {
      status: 'running',
      slug: 'stock',
      topic: 'Count the bakery stock every night',
      round: 1,
      minRounds: 1,
      maxRounds: 5,
      rounds: [],
      step: 'inquisitors',
      streamed: '',
      tools: [],
      inquisitors: [
        { angle: 'ux', state: 'running', tools: [line('u1', 'read', 'read_file', 'docs/screens.md', 'running')] },
        { angle: 'technical', state: 'success', tools: [line('t1', 'search', 'search', 'inventory', 'done')] },
        { angle: 'edge-cases', state: 'running', tools: [] },
      ],
      actions: ['stop'],
    };
    await panel.locator('#app').evaluate(
      (_el, slices) => {
        window.postMessage(
          { type: 'state', seq: 1e9, now: Date.now(), feature: 'discovery', state: slices.discovery },
          '*',
        );
        window.postMessage(
          { type: 'state', seq: 1e9 + 1, now: Date.now(), feature: 'brainstorm', state: slices.brainstorm },
          '*',
        );
      },
      { discovery, brainstorm },
    );
    await panel.locator('#discovery-tools .tool-line').nth(4).waitFor({ state: 'visible', timeout: 15_000 });
    assert.deepEqual(await panel.locator('#discovery-tools .tool-text').allInnerTexts(), [
      'Read README.md',
      'Listed src',
      "Searched 'auth'",
      'Could not read docs/missing.md',
      'Reading <img src=x onerror=alert(1)>.md',
    ]);
    assert.equal(await panel.locator('#discovery-tools img').count(), 0, 'a target is text');
    assert.equal(await panel.locator('#brainstorm-tools-technical .tool-text').innerText(), "Searched 'inventory'");
    await screenshot(page, 'groundwork-tool-calls-brainstorm.png');
    await panel.locator('#discovery-tools').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'groundwork-tool-calls-discovery.png');
    await workbench().reload();
    await idlePanel(await openGroundwork(page));
  });
});
