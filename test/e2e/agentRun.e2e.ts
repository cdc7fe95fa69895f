// An agent run as a person meets it in VS Code: `Groundwork: Run Agent…` from the palette, a role
// picked, the task typed; the (scripted) model has the agent look around, write two files and ask
// to run `node --test`; VS Code's modal shows the exact command and "Allow Once" lets it run; the
// run's own terminal shows the writes, the command, its output and exit code, the sleep, what it
// learned and the run's end. The Runs group of the plan explorer lists the run with its files; a
// file row and Open Changes open diffs; Revert Run (after its modal) takes the files back. A second
// run asks again and is denied, and the denial reaches the model as the tool's result. A third is
// stopped by closing its terminal mid-command (no process left) and resumed from the Runs group.
//
// It works in a second workbench window on the same folder, opened without the in-host test suite:
// VS Code refuses every modal dialog in a window that runs extension tests ("DialogService: refused
// to show dialog in tests"), and a person's approval in that modal is what is tested here. That
// window is left open (see `after`). It runs first of the UI files (name order) in the shared
// workspace: it stores an API key for the scripted server and removes it afterwards, and removes
// every file it made (groundwork-container.e2e.ts expects no plans, model.e2e.ts no key).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { match, reply } from '../support/scriptedModelServer';
import type { MessagesBody } from '../support/scriptedModelServer';
import { until } from '../support/until';
import {
  contextMenu,
  dialog,
  notifications,
  runCommandPatiently,
  untilTerminalShows,
  windowWithDialogs,
} from './support/dialogWindow';
import { commandTitle, openGroundwork, runCommand, screenshot, sideBar, treeRow, workbench } from './support/workbench';

const KEY = 'sk-ant-agentrun-e2e-0123456789abcdef';
const TASK = 'Write sum() with a test, and run the tests';
const DENY_TASK = 'Check the node version';
const SUM = 'function sum(a, b) {\n  return a + b;\n}\nmodule.exports = { sum };\n';
const TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('../src/sum.js');\ntest('sum adds', () => assert.equal(sum(1, 2), 3));\n";
const STOP_TASK = 'Run the slow script';
/** A command that would run for a minute, with a child of its own: both must be gone once the run is stopped. */
const HANG =
  "const { spawn } = require('node:child_process');\nconst fs = require('node:fs');\nconst c = spawn('sleep', ['60'], { stdio: 'ignore' });\nfs.writeFileSync('pids.txt', process.pid + ' ' + c.pid);\nsetInterval(() => {}, 1000);\n";
/** What the workspace fixture holds at the top: everything else this file makes is removed at the end. */
let fixtureNames: string[] = [];

const isDeveloper = match.system('# Build developer');
const forTask = (task: string) => (body: MessagesBody) =>
  isDeveloper(body) && JSON.stringify(body.messages[0]?.content ?? '').includes(task);

/** `Run Agent…` from the palette, as a person would: F1, the role, the task. */
async function runAgent(page: Page, role: string, task: string): Promise<void> {
  await runCommand(page, commandTitle('groundwork.runAgent'));
  const input = page.locator('.quick-input-widget input');
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'Run Agent' })
    .waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(role);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: role }).first();
  await row.waitFor({ state: 'visible' });
  assert.match(await row.innerText(), /implements the project module by module/, "the role's description is shown");
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: `Run Agent: ${role}` })
    .waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(task);
  await page.keyboard.press('Enter');
}

function runIds(): string[] {
  const dir = join(workbench().workspace, '.groundwork', 'runs');
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\d{8}-\d{6}-/.test(n)) : [];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runJson(id: string): { status: string; reason?: string; task: string } {
  return JSON.parse(readFileSync(join(workbench().workspace, '.groundwork', 'runs', id, 'run.json'), 'utf8')) as {
    status: string;
    reason?: string;
    task: string;
  };
}

function jsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The Runs group, with the run's row (its task) under it. */
async function runRow(page: Page, task: string) {
  await treeRow(page, /^\s*Runs/).waitFor({ state: 'visible', timeout: 30_000 });
  const row = treeRow(page, task);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  return row;
}

/** Drags the side bar's edge to the right, as a person does to read long rows. */
async function widenSideBar(page: Page, by = 180): Promise<void> {
  const box = await sideBar(page).boundingBox();
  if (!box) return;
  const [x, y] = [box.x + box.width + 1, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + by, y, { steps: 8 });
  await page.mouse.up();
}

/** A key pressed in the terminal of a run that has ended closes it. */
async function closeEndedTerminal(page: Page): Promise<void> {
  const terminal = page.locator('.terminal-wrapper').first();
  await terminal.click();
  await page.keyboard.press('Enter');
  await terminal.waitFor({ state: 'detached', timeout: 10_000 });
}

/** The text drawn after each element of `row` by CSS (`::after`): where VS Code draws a file decoration's badge. */
function badges(row: ReturnType<typeof treeRow>): Promise<string[]> {
  return row.evaluate((el) =>
    [el, ...Array.from(el.querySelectorAll('*'))]
      .map((e) => getComputedStyle(e, '::after').content)
      .filter((c) => c && c !== 'none' && c !== 'normal' && c !== '""'),
  );
}

describe('Agent runs (UI)', function () {
  this.timeout(120_000);
  let page: Page;
  let failures = 0;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page)
      await screenshot(page, `agent-run-failure-${++failures}.png`).catch(() => undefined);
  });

  before(async () => {
    const { workspace, modelServer } = workbench();
    fixtureNames = readdirSync(workspace);
    page = await windowWithDialogs(workbench().page, 'agent-run');
    modelServer.add(
      {
        name: 'run: list',
        match: forTask(TASK),
        reply: reply.toolUse('list_files', { path: '.' }, { text: ['Let me look ', 'at the folder first.'] }),
      },
      {
        name: 'run: write sum',
        match: forTask(TASK),
        reply: reply.toolUse('write_file', { path: 'src/sum.js', content: SUM }),
      },
      {
        name: 'run: write test',
        match: forTask(TASK),
        reply: reply.toolUse('write_file', { path: 'test/sum.test.js', content: TEST }),
      },
      {
        name: 'run: node --test',
        match: forTask(TASK),
        reply: reply.toolUse('run_command', { command: 'node --test' }, { text: ['Now the tests.'] }),
      },
      {
        name: 'run: sleep',
        match: forTask(TASK),
        reply: reply.toolUse('sleep', { mode: 'timer', seconds: 1, reason: 'let the file system settle' }),
      },
      {
        name: 'run: discovery',
        match: forTask(TASK),
        reply: reply.toolUse('report_discovery', { scope: 'local', content: 'Tests run with node --test.' }),
      },
      { name: 'run: summary', match: forTask(TASK), reply: reply.text(['sum() is written ', 'and its test passes.']) },
    );
  });

  after(async () => {
    const { workspace } = workbench();
    if (!page) return;
    // Whatever happened above: no modal, no quick input, no agent terminal, no diff editor, no key, no run left behind.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    for (const title of [
      'Terminal: Kill All Terminals',
      'View: Close All Editors',
      commandTitle('groundwork.clearApiKey'),
    ]) {
      await runCommand(page, title).catch((err: Error) => workbench().log(`cleanup: ${title}: ${err.message}`));
    }
    for (const name of readdirSync(workspace))
      if (!fixtureNames.includes(name)) rmSync(join(workspace, name), { recursive: true, force: true });
    // The Runs group goes with its folder (the explorer's welcome text is what the next file expects).
    await treeRow(page, /^\s*Runs/)
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => workbench().log('cleanup: the Runs group is still shown'));
    // The window stays open, idle on the Explorer, until the runner ends: a window that closes ends its
    // extension host, which the runner would take for a crash of the extension under test.
    await runCommand(page, 'View: Show Explorer').catch((err: Error) =>
      workbench().log(`cleanup: View: Show Explorer: ${err.message}`),
    );
  });

  it('says how to connect a model, and asks for no role or task, while there is none', async () => {
    const { modelServer } = workbench();
    const before = modelServer.requests.length;
    await runCommandPatiently(page, commandTitle('groundwork.runAgent'));
    await runCommand(page, 'Notifications: Show Notifications');
    await page
      .locator('.notifications-center')
      .getByText(/Groundwork needs a model: set an Anthropic API key/)
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Escape');
    assert.equal(
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run Agent' }).isVisible(),
      false,
      'no role is asked for',
    );
    assert.deepEqual(runIds(), [], 'no run was made');
    assert.equal(modelServer.requests.length, before);
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it('runs build-developer from the palette: the modal shows the exact command, Allow Once runs it, the terminal shows it all', async () => {
    const { workspace, modelServer } = workbench();
    // A key for the scripted server, typed as a person does (model.e2e.ts checks the same box).
    await runCommand(page, commandTitle('groundwork.setApiKey'));
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(KEY);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 15_000 });

    await runAgent(page, 'build-developer', TASK);

    const modal = dialog(page);
    await modal.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await modal.innerText();
    assert.match(text, /Run this command\?/);
    assert.match(text, /^node --test$/m, 'the exact command, on a line of its own');
    assert.ok(text.includes(`Folder: ${workspace}`), `the folder is named:\n${text}`);
    assert.match(text, /Agent: build-developer/);
    assert.equal(
      existsSync(join(workspace, 'src', 'sum.js')),
      true,
      'the file was written before the command was asked for',
    );
    // the terminal behind the modal already says what it waits for
    await untilTerminalShows(page, /\? Waiting for your approval to run: node --test/);
    await screenshot(page, 'groundwork-agent-terminal.png');
    await modal.getByRole('button', { name: 'Allow Once' }).click();
    await modal.waitFor({ state: 'hidden', timeout: 10_000 });

    const shown = await untilTerminalShows(page, /■ Completed: 7 turns/);
    assert.match(shown, /▸ build-developer: Write sum\(\) with a test, and run the tests/);
    assert.match(shown, /Let me look at the folder first\./, "the model's text as it streamed");
    assert.match(shown, /✎ wrote src\/sum\.js \(4 lines, new\)/);
    assert.match(shown, /✎ wrote test\/sum\.test\.js \(4 lines, new\)/);
    assert.match(shown, /✓ Allowed once/);
    assert.match(
      shown,
      /▶ node --test\n[\s\S]*# pass 1[\s\S]*\n✓ exit 0 in \d/,
      'the command, its output, then its exit code',
    );
    assert.match(shown, /☾ Sleeping \(timer, 1 s\): let the file system settle\n☀ Woke: /);
    assert.match(
      shown,
      /◆ Learned \(local, disc-\d{3,}\): Tests run with node --test\./,
      'the learning became a numbered discovery case',
    );
    assert.match(shown, /sum\(\) is written and its test passes\./);
    assert.match(shown, /Press any key to close this terminal\./);
    assert.doesNotMatch(shown, /\\x1b|\u001b/, 'no raw or escaped control sequence is visible');

    assert.equal(readFileSync(join(workspace, 'src', 'sum.js'), 'utf8'), SUM);
    assert.equal(readFileSync(join(workspace, 'test', 'sum.test.js'), 'utf8'), TEST);
    const [id] = runIds();
    assert.ok(id, 'the run has its folder');
    const run = JSON.parse(readFileSync(join(workspace, '.groundwork', 'runs', id, 'run.json'), 'utf8')) as {
      status: string;
      role: string;
      origin: string;
    };
    assert.deepEqual([run.status, run.role, run.origin], ['completed', 'build-developer', 'vscode']);
    const commands = jsonl(join(workspace, '.groundwork', 'runs', id, 'transcript.jsonl')).filter(
      (t) => t['type'] === 'command',
    );
    assert.deepEqual(
      commands.map((c) => [c['command'], c['decision'], c['exitCode']]),
      [['node --test', 'once', 0]],
      'the command ran once, approved once, exit 0',
    );
    assert.deepEqual(
      jsonl(join(workspace, '.groundwork', 'sleep.jsonl')).map((l) => l['event']),
      ['started', 'woken'],
    );
    assert.match(
      readFileSync(join(workspace, '.groundwork', 'discoveries.jsonl'), 'utf8'),
      /Tests run with node --test\./,
    );
    assert.deepEqual(
      modelServer.pending().filter((n) => n.startsWith('run: ')),
      [],
      'every scripted turn was asked for',
    );
    const result = JSON.stringify(modelServer.requests.find((r) => r.rule === 'run: sleep')?.body);
    assert.match(result, /Exit code 0\./, "the command's exit code reached the model");
  });

  it('lists the run in the Runs group with its status and files; a file row and Open Changes open diffs', async () => {
    // the run is over: any key in its terminal closes it
    await closeEndedTerminal(page);
    await openGroundwork(page);
    const row = await runRow(page, TASK);
    assert.match(await row.innerText(), /build-developer/, 'the role beside the task');
    assert.equal(await row.locator('.codicon-pass').count(), 1, 'a completed run shows the pass icon');
    await row.click(); // expands it
    const file = treeRow(page, 'sum.js');
    await file.waitFor({ state: 'visible', timeout: 15_000 });
    const testFile = treeRow(page, 'sum.test.js');
    await testFile.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await file.innerText(), /src/, 'the folder beside the name');
    assert.deepEqual(
      await until('the A badge of a file the run created', async () =>
        (await badges(file)).length ? badges(file) : undefined,
      ),
      ['"A"'],
    );
    assert.deepEqual(await badges(testFile), ['"A"']);
    await widenSideBar(page);

    await file.click();
    const diffTab = page.locator('.tabs-container .tab', { hasText: 'sum.js (before build-developer ↔ now)' });
    await diffTab.waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    const lines = page.locator('.editor-instance .monaco-diff-editor .view-lines');
    let shownText = '';
    await until('the new file in the diff', async () => {
      shownText = (await lines.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
      return /return a \+ b;/.test(shownText) ? true : undefined;
    }).catch((err: Error) => {
      throw new Error(`${err.message}: it shows ${JSON.stringify(shownText)}`);
    });
    await screenshot(page, 'groundwork-runs-group.png');

    await row.hover();
    await row.locator('.actions .action-label[aria-label="Open Changes"]').click();
    await page
      .locator('.tabs-container .tab', { hasText: /Changes of run .*build-developer/ })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await page
      .locator('.multiDiffEditor, .multi-diff-editor, .monaco-component.multiDiffEditor')
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    const editor = page.locator('.editor-instance').first();
    await until('both files in the multi-file diff', async () => {
      const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
      return /sum\.js/.test(text) &&
        /sum\.test\.js/.test(text) &&
        /return a \+ b;/.test(text) &&
        /test\('sum adds'/.test(text)
        ? true
        : undefined;
    });
    await runCommand(page, 'View: Close All Editors');
  });

  it('Revert Run asks first, then takes the files back', async () => {
    const { workspace } = workbench();
    const row = await runRow(page, TASK);
    await contextMenu(page, row, 'Revert Run');
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible', timeout: 15_000 }).catch(async (err: Error) => {
      throw new Error(`${err.message}\nnotifications: ${await notifications(page)}`);
    });
    assert.match(await modal.innerText(), /Revert the 2 files run \d{8}-\d{6}-build-developer-[0-9a-f]{4} changed\?/);
    await modal.getByRole('button', { name: 'Revert', exact: true }).click();
    await until('the files to be gone', () =>
      !existsSync(join(workspace, 'src', 'sum.js')) && !existsSync(join(workspace, 'test', 'sum.test.js'))
        ? true
        : undefined,
    );
    const [id] = runIds();
    await until('the run to record that it was reverted', () => {
      const run = JSON.parse(readFileSync(join(workspace, '.groundwork', 'runs', id!, 'run.json'), 'utf8')) as {
        revertedAt?: string;
      };
      return run.revertedAt;
    });
  });

  it('a denied command is not run, and the denial goes back to the model as the tool result', async () => {
    const { workspace, modelServer } = workbench();
    const command = "node -e \"require('fs').writeFileSync('denied.txt', 'x')\"";
    modelServer.add(
      { name: 'deny: command', match: forTask(DENY_TASK), reply: reply.toolUse('run_command', { command }) },
      { name: 'deny: answer', match: forTask(DENY_TASK), reply: reply.text('Understood: I did not run it.') },
    );
    await runAgent(page, 'build-developer', DENY_TASK);
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok((await modal.innerText()).includes(command), 'the exact command, quotes and all');
    await modal.getByRole('button', { name: 'Deny' }).click();
    await modal.waitFor({ state: 'hidden', timeout: 10_000 });

    const shown = await untilTerminalShows(page, /■ Completed: 2 turns/);
    assert.match(shown, /⊘ Denied: node -e/);
    assert.doesNotMatch(shown, /▶ node -e/, 'the command never started');
    assert.equal(existsSync(join(workspace, 'denied.txt')), false);
    const answer = modelServer.requests.find((r) => r.rule === 'deny: answer');
    assert.ok(answer, 'the model was asked again after the denial');
    const last = (answer.body as MessagesBody).messages.at(-1)?.content as Array<Record<string, unknown>>;
    const result = last.find((b) => b['type'] === 'tool_result');
    assert.equal(result?.['is_error'], true);
    assert.match(JSON.stringify(result?.['content']), /The command was not run: the person denied it\./);
    const id = runIds().find(
      (n) =>
        n.includes('build-developer') &&
        JSON.parse(readFileSync(join(workspace, '.groundwork', 'runs', n, 'run.json'), 'utf8')).task === DENY_TASK,
    );
    assert.ok(id);
    const commands = jsonl(join(workspace, '.groundwork', 'runs', id, 'transcript.jsonl')).filter(
      (t) => t['type'] === 'command',
    );
    assert.deepEqual(
      commands.map((c) => [c['command'], c['decision']]),
      [[command, 'denied']],
    );
    await closeEndedTerminal(page);
    const row = await runRow(page, DENY_TASK);
    await row.locator('.codicon-pass').waitFor({ state: 'visible', timeout: 10_000 });
  });
  it('closing the terminal mid-command stops the run and its command; Resume Run continues it from the Runs group', async () => {
    const { workspace, modelServer } = workbench();
    modelServer.add(
      {
        name: 'stop: write',
        match: forTask(STOP_TASK),
        reply: reply.toolUse('write_file', { path: 'hang.js', content: HANG }),
      },
      {
        name: 'stop: command',
        match: forTask(STOP_TASK),
        reply: reply.toolUse('run_command', { command: 'node hang.js' }),
      },
      { name: 'stop: resumed', match: forTask(STOP_TASK), reply: reply.text('Resumed: the rest is done.') },
    );
    await runAgent(page, 'build-developer', STOP_TASK);
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible', timeout: 30_000 });
    await modal.getByRole('button', { name: 'Allow Once' }).click();
    await untilTerminalShows(page, /▶ node hang\.js/);
    const pidsFile = join(workspace, 'pids.txt');
    const pids = await until('the command to start its child', () =>
      existsSync(pidsFile) ? readFileSync(pidsFile, 'utf8').trim().split(' ').map(Number) : undefined,
    );
    assert.equal(pids.length, 2);
    assert.ok(pids.every(alive), 'the command and its child run');

    // the person closes the run's terminal (its trash can) while the command runs
    await page.locator('.terminal-wrapper').first().click();
    await runCommand(page, 'Terminal: Kill the Active Terminal Instance');
    const id = await until('the run to be recorded as stopped', () =>
      runIds().find((n) => runJson(n).task === STOP_TASK && runJson(n).status === 'stopped'),
    );
    await until('no process of the command left', () => (pids.some(alive) ? undefined : true), 10_000);
    assert.equal(
      modelServer.requests.filter((r) => r.rule === 'stop: resumed').length,
      0,
      'the model was not asked again',
    );

    const row = await runRow(page, STOP_TASK);
    await row.locator('.codicon-debug-stop').waitFor({ state: 'visible', timeout: 10_000 });
    // The row's inline action, shown on hover; a refresh of the tree redraws the row, so the click is tried again until a terminal opens.
    for (let attempt = 1; ; attempt++) {
      await row.hover();
      await row.locator('.actions .action-label[aria-label="Resume Run"]').click();
      const opened = await page
        .locator('.terminal-wrapper')
        .first()
        .waitFor({ state: 'attached', timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (opened) break;
      if (attempt === 3) throw new Error(`Resume Run opened no terminal\nnotifications: ${await notifications(page)}`);
    }
    const shown = await untilTerminalShows(page, /■ Completed: /).catch(async (err: Error) => {
      throw new Error(`${err.message}\nnotifications: ${await notifications(page)}`);
    });
    assert.match(shown, /↻ Resuming build-developer: Run the slow script/);
    assert.match(shown, /Resumed: the rest is done\./);
    assert.equal(runJson(id).status, 'completed');
    const messages = (modelServer.requests.find((r) => r.rule === 'stop: resumed')?.body as MessagesBody).messages;
    // the task, the write and its result, the command and its result: that the run was stopped
    assert.equal(messages.length, 5);
    assert.match(JSON.stringify(messages[4]?.content), /The command was stopped: the run was cancelled/);
    await closeEndedTerminal(page);
    await row.locator('.codicon-pass').waitFor({ state: 'visible', timeout: 10_000 });
  });
});
