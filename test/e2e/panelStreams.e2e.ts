// What crosses from the host to the panel while sessions run, seen in the panel itself: how many
// state messages one discovery turn costs, and two sessions streaming at once (a brainstorm's
// coordinator and a discovery turn), each to its own part of the panel. Runs after
// panelHostileFiles.e2e.ts (E2E_ORDER in scripts/vscode/bundleTests.mjs), which leaves the discovery
// idle; sets an API key itself when none is stored (a --grep run of this file alone).
import * as assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { match, reply, type MessagesBody } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { ui } from '../support/e2e/ui';
import { PATIENCE, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

const KEY = 'sk-ant-streams-test-key';

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

/**
 * Resolves once no message has reached the panel for `ms` (what the host sends after a step, the
 * file watcher's echo of what it wrote and the model's usage, has come), `ms` after the last one.
 */
async function quiet(panel: FrameLocator, ms = 1_500): Promise<void> {
  await until(
    `the panel's messages to stop for ${ms} ms`,
    async () => {
      const seen = await recorded(panel);
      const last = seen.at(-1)?.at ?? 0;
      return Date.now() - last >= ms ? true : undefined;
    },
    PATIENCE.work,
  );
}

const isDiscovery = match.system('DISCOVERY_QUESTIONS');

describe('Messages to the panel (UI)', function () {
  this.timeout(120_000);
  let restoreWorkspace = () => undefined as void;
  before(() => (restoreWorkspace = keepWorkspaceAsFound()));
  after(() => restoreWorkspace());

  it('one discovery turn costs a state message per change of what is shown, not a whole snapshot per step', async () => {
    const { modelServer } = workbench();
    const { panel: gw } = ui();
    await gw.ensureKey(KEY);
    const panel = await gw.open();
    await gw.idleDiscovery();
    const QUESTIONS = 'DISCOVERY_QUESTIONS\n1. Who counts the stock?\n2. How often is it counted?';
    modelServer.add({
      name: 'count turn',
      match: isDiscovery,
      reply: reply.text(QUESTIONS.match(/[\s\S]{1,12}/g)!, { chunkDelayMs: 10 }),
    });
    // The file events of what the files before changed (the journal they restored) have reached the
    // panel before the count starts: a journal line written now shows only after them (file events
    // arrive in order). Under load such an echo came seconds late, in the middle of the turn.
    const mark = `Written before the counted turn ${Date.now()}`;
    appendFileSync(
      join(workbench().workspace, '.groundwork', 'discoveries.jsonl'),
      `${JSON.stringify({ timestamp: new Date().toISOString(), title: mark, description: 'a mark' })}\n`,
    );
    await panel
      .locator('#journal-entries .entry', { hasText: mark })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    // What putting the discovery away sent is over before the count starts.
    await record(panel);
    await quiet(panel);
    await record(panel);
    await gw.send('build me a stock counter');
    await gw.questions();
    // The model's usage comes after the questions; then the file watcher's echo would, if it sent anything.
    await until('the usage after the turn', async () =>
      (await recorded(panel)).some((s) => s.type === 'state:model') ? true : undefined,
    );
    await quiet(panel);
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
    await gw.cancelDiscovery();
  });

  it('a discovery whose model reads README.md first: the read shows in the panel, and the file reaches the model as a fenced tool_result', async () => {
    const { modelServer } = workbench();
    const { page, panel } = ui();
    await panel.ensureKey(KEY);
    await panel.idleDiscovery();
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
    await panel.send('build a test dashboard for this project');
    const line = panel.locator('#discovery-tools .tool-text', { hasText: 'README.md' });
    await line.waitFor({ state: 'visible', timeout: PATIENCE.work });
    // "Reading README.md" while the read runs (longer on a loaded machine), then this:
    await panel
      .locator('#discovery-tools .tool-text', { hasText: /^Read README\.md$/ })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    await screenshot(page, 'groundwork-tool-read-discovery.png');
    await panel.questions();
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
    await panel.cancelDiscovery();
  });

  it('streams a brainstorm’s coordinator and a discovery turn at once, each into its own part', async () => {
    const { modelServer } = workbench();
    const { page, palette, panel } = ui();
    await panel.ensureKey(KEY);
    await panel.idleDiscovery();
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
    await palette.runGroundwork('groundwork.brainstorm');
    await palette.submit('Count the bakery stock every night');
    await palette.row('At least 1 round').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await page.keyboard.press('Enter');
    await panel.locator('#brainstorm-form').waitFor({ state: 'visible', timeout: PATIENCE.work });

    // Both replies trickle in for a few seconds; the coordinator's waits after a few pieces until the
    // discovery's request has come, so the two overlap however slow the machine is.
    const coordinatorText = questions('ux', 'COORDINATOR-MARK: should night staff count alone?');
    const discoveryText =
      'DISCOVERY_QUESTIONS\nA few questions first:\n1. DISCOVERY-MARK: which items are counted?\n2. Who reads the counts?';
    let discoveryAsked!: () => void;
    const asked = new Promise<void>((resolve) => (discoveryAsked = resolve));
    modelServer.add(
      {
        name: 'streams follow-up',
        match: isCoordinator('follow-up'),
        reply: reply.text(coordinatorText.match(/[\s\S]{1,3}/g)!, {
          chunkDelayMs: 200,
          hold: { afterDeltas: 6, until: asked },
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
    await panel.locator('#brainstorm-stream').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel.send('build me a stock counter for the night shift');

    const brainstormStream = panel.locator('#brainstorm-stream');
    const discoveryStream = panel.locator('#discovery-stream');
    // Both running and streaming at the same moment.
    await until(
      'the two sessions to stream at the same time',
      async () => {
        const [b, d, bRunning, dRunning] = await Promise.all([
          brainstormStream.innerText().catch(() => ''),
          discoveryStream.innerText().catch(() => ''),
          panel.locator('#brainstorm-progress').count(),
          panel.locator('#discovery-progress').count(),
        ]);
        return b.length > 10 && d.length > 10 && bRunning > 0 && dRunning > 0 ? true : undefined;
      },
      PATIENCE.work,
    );
    await panel.locator('#discovery').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'groundwork-two-streams.png');

    await panel
      .locator('#discovery-stream', { hasText: 'DISCOVERY-MARK' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work })
      .catch(() => undefined);
    const midBrainstorm = await panel.locator('#brainstorm').innerText();
    const midDiscovery = await panel.locator('#discovery').innerText();
    assert.ok(!midBrainstorm.includes('DISCOVERY-MARK'), 'no discovery text in the brainstorm');
    assert.ok(!midDiscovery.includes('COORDINATOR-MARK'), 'no brainstorm text in the discovery card');

    await panel
      .locator('#discovery-questions .question-text', { hasText: 'DISCOVERY-MARK' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel
      .locator('#brainstorm-form .question-text', { hasText: 'COORDINATOR-MARK' })
      .waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#brainstorm-round').innerText(), /2\/5/);
    assert.ok(!(await panel.locator('#discovery').innerText()).includes('COORDINATOR-MARK'));
    assert.ok(!(await panel.locator('#brainstorm').innerText()).includes('DISCOVERY-MARK'));

    await panel.locator('#discovery-cancel').click();
    await panel.locator('#brainstorm-close').click();
    await panel.locator('#brainstorm').waitFor({ state: 'detached', timeout: PATIENCE.soon });
    await panel.locator('#composer').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });

  // The core reports tool calls before any engine makes them: until one does, the lines are drawn
  // from slices posted into the panel here, to see them in a real webview with the theme's colours
  // and the codicon font. A numbered message from far ahead keeps the host's out; the panel's page
  // loaded anew (hidden and shown again) mends it.
  it('draws tool calls as small codicon lines, each in its agent’s part (a look at the real webview)', async () => {
    const { page, panel: gw } = ui();
    const panel = await gw.open();
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
    await panel.locator('#discovery-tools .tool-line').nth(4).waitFor({ state: 'visible', timeout: PATIENCE.soon });
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
    await gw.reopen();
    await gw.idle();
  });
});
