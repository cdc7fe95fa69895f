// An agent run as a person meets it in VS Code: `Groundwork: Run Agent…` from the palette, a role
// picked, the task typed; the (scripted) model has the agent look around, write two files and ask
// to run `node --test`; VS Code's modal shows the exact command and "Allow Once" lets it run; the
// run's own terminal shows the writes, the command, its output and exit code, the sleep, what it
// learned and the run's end. The Runs group of the plan explorer lists the run with its files; a
// file row and Open Changes open diffs; Revert Run (after its modal) takes the files back. A second
// run asks again and is denied, and the denial reaches the model as the tool's result. A third is
// stopped by closing its terminal mid-command (no process left) and resumed from the Runs group.
//
// It starts with no model (E2E_ORDER in scripts/vscode/bundleTests.mjs: before model.e2e.ts), stores
// an API key for the scripted server and removes it afterwards, and removes every file it made.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { match, reply } from '../support/scriptedModelServer';
import type { MessagesBody } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { jsonLines } from '../support/e2e/files';
import { ui } from '../support/e2e/ui';
import {
  PATIENCE,
  commandTitle,
  keepWorkspaceAsFound,
  screenshot,
  widenSideBar,
  workbench,
} from '../support/e2e/workbench';

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

const isDeveloper = match.system('# Build developer');
const forTask = (task: string) => (body: MessagesBody) =>
  isDeveloper(body) && JSON.stringify(body.messages[0]?.content ?? '').includes(task);

/** `Run Agent…` from the palette, as a person would: F1, the role, the task. */
async function runAgent(role: string, task: string): Promise<void> {
  const { page, palette } = ui();
  await palette.runGroundwork('groundwork.runAgent');
  await palette.title('Run Agent').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  await palette.input.fill(role);
  const row = palette.row(role);
  await row.waitFor({ state: 'visible', timeout: PATIENCE.soon });
  assert.match(await row.innerText(), /implements the project module by module/, "the role's description is shown");
  await page.keyboard.press('Enter');
  await palette.title(`Run Agent: ${role}`).waitFor({ state: 'visible', timeout: PATIENCE.soon });
  await palette.submit(task);
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

/** The Runs group, with the run's row (its task) under it. */
async function runRow(task: string) {
  const { explorer } = ui();
  await explorer.shown(/^\s*Runs/);
  return explorer.shown(task);
}

describe('Agent runs (UI)', function () {
  this.timeout(180_000);
  let failures = 0;
  /** How far this file widened the side bar (put back at the end). */
  let widened = 0;
  let restoreWorkspace = () => undefined as void;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await screenshot(workbench().page, `agent-run-failure-${++failures}.png`).catch(() => undefined);
  });

  before(async () => {
    const { modelServer } = workbench();
    restoreWorkspace = keepWorkspaceAsFound();
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
    const { log } = workbench();
    const { page, palette, explorer } = ui();
    // Whatever happened above: no modal, no quick input, no agent terminal, no diff editor, no key, no run left behind.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    for (const title of [
      'Terminal: Kill All Terminals',
      'View: Close All Editors',
      commandTitle('groundwork.clearApiKey'),
    ]) {
      await palette.run(title).catch((err: Error) => log(`cleanup: ${title}: ${err.message}`));
    }
    if (widened) await widenSideBar(page, -widened);
    restoreWorkspace();
    // The Runs group goes with its folder.
    await explorer.gone(/^\s*Runs/).catch(() => log('cleanup: the Runs group is still shown'));
  });

  it('says how to connect a model, and asks for no role or task, while there is none', async () => {
    const { modelServer } = workbench();
    const { palette, notifications } = ui();
    const before = modelServer.requests.length;
    await palette.runGroundwork('groundwork.runAgent');
    await notifications.waitFor(/Groundwork needs a model: set an Anthropic API key/);
    await notifications.hide();
    assert.equal(await palette.title('Run Agent').isVisible(), false, 'no role is asked for');
    assert.deepEqual(runIds(), [], 'no run was made');
    assert.equal(modelServer.requests.length, before);
    await notifications.clear();
  });

  it('runs build-developer from the palette: the modal shows the exact command, Allow Once runs it, the terminal shows it all', async () => {
    const { workspace, modelServer } = workbench();
    const { page, palette, modal, terminals } = ui();
    // A key for the scripted server, typed as a person does (model.e2e.ts checks the same box).
    await palette.setApiKey(KEY);

    await runAgent('build-developer', TASK);

    const text = await modal.shown();
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
    await terminals.untilShows(/\? Waiting for your approval to run: node --test/);
    await screenshot(page, 'groundwork-agent-terminal.png');
    await modal.choose('Allow Once');

    const shown = await terminals.untilShows(/■ Completed: 7 turns/);
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
    const commands = jsonLines(join(workspace, '.groundwork', 'runs', id, 'transcript.jsonl')).filter(
      (t) => t['type'] === 'command',
    );
    assert.deepEqual(
      commands.map((c) => [c['command'], c['decision'], c['exitCode']]),
      [['node --test', 'once', 0]],
      'the command ran once, approved once, exit 0',
    );
    assert.deepEqual(
      jsonLines(join(workspace, '.groundwork', 'sleep.jsonl')).map((l) => l['event']),
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
    const { page, panel, explorer, terminals, editors } = ui();
    // the run is over: any key in its terminal closes it
    await terminals.closeEnded();
    await panel.open();
    const row = await runRow(TASK);
    assert.match(await row.innerText(), /build-developer/, 'the role beside the task');
    // The row is drawn before run.json's last write may have reached the explorer's watcher: wait for it.
    await row
      .locator('.codicon-pass')
      .waitFor({ state: 'visible', timeout: PATIENCE.work })
      .catch(() => undefined);
    assert.equal(await row.locator('.codicon-pass').count(), 1, 'a completed run shows the pass icon');
    await row.click(); // expands it
    const file = await explorer.shown('sum.js');
    const testFile = await explorer.shown('sum.test.js');
    assert.match(await file.innerText(), /src/, 'the folder beside the name');
    assert.deepEqual(
      await until('the A badge of a file the run created', async () =>
        (await explorer.badges(file)).length ? explorer.badges(file) : undefined,
      ),
      ['"A"'],
    );
    assert.deepEqual(await explorer.badges(testFile), ['"A"']);
    await widenSideBar(page, 180);
    widened = 180;

    await file.click();
    await editors.tab('sum.js (before build-developer ↔ now)').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await page
      .locator('.editor-instance .monaco-diff-editor')
      .first()
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
    const lines = page.locator('.editor-instance .monaco-diff-editor .view-lines');
    let shownText = '';
    await until('the new file in the diff', async () => {
      shownText = (await lines.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
      return /return a \+ b;/.test(shownText) ? true : undefined;
    }).catch((err: Error) => {
      throw new Error(`${err.message}: it shows ${JSON.stringify(shownText)}`);
    });
    await screenshot(page, 'groundwork-runs-group.png');

    await explorer.inlineAction(row, 'Open Changes');
    await editors.tab(/Changes of run .*build-developer/).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await page
      .locator('.multiDiffEditor, .multi-diff-editor, .monaco-component.multiDiffEditor')
      .first()
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
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
    await editors.closeAll();
  });

  it('Revert Run asks first, then takes the files back', async () => {
    const { workspace } = workbench();
    const { explorer, modal, notifications } = ui();
    const row = await runRow(TASK);
    await explorer.contextMenu(row, 'Revert Run');
    const text = await modal.shown().catch(async (err: Error) => {
      throw new Error(`${err.message}\nnotifications: ${await notifications.text()}`);
    });
    assert.match(text, /Revert the 2 files run \d{8}-\d{6}-build-developer-[0-9a-f]{4} changed\?/);
    await modal.choose('Revert');
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
    const { modal, terminals } = ui();
    const command = "node -e \"require('fs').writeFileSync('denied.txt', 'x')\"";
    modelServer.add(
      { name: 'deny: command', match: forTask(DENY_TASK), reply: reply.toolUse('run_command', { command }) },
      { name: 'deny: answer', match: forTask(DENY_TASK), reply: reply.text('Understood: I did not run it.') },
    );
    await runAgent('build-developer', DENY_TASK);
    assert.ok((await modal.shown()).includes(command), 'the exact command, quotes and all');
    await modal.choose('Deny');

    const shown = await terminals.untilShows(/■ Completed: 2 turns/);
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
    const commands = jsonLines(join(workspace, '.groundwork', 'runs', id, 'transcript.jsonl')).filter(
      (t) => t['type'] === 'command',
    );
    assert.deepEqual(
      commands.map((c) => [c['command'], c['decision']]),
      [[command, 'denied']],
    );
    await terminals.closeEnded();
    const row = await runRow(DENY_TASK);
    await row.locator('.codicon-pass').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });

  it('closing the terminal mid-command stops the run and its command; Resume Run continues it from the Runs group', async () => {
    const { workspace, modelServer } = workbench();
    const { explorer, modal, terminals, notifications } = ui();
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
    await runAgent('build-developer', STOP_TASK);
    await modal.shown();
    await modal.choose('Allow Once');
    await terminals.untilShows(/▶ node hang\.js/);
    const pidsFile = join(workspace, 'pids.txt');
    const pids = await until('the command to start its child', () =>
      existsSync(pidsFile) ? readFileSync(pidsFile, 'utf8').trim().split(' ').map(Number) : undefined,
    );
    assert.equal(pids.length, 2);
    assert.ok(pids.every(alive), 'the command and its child run');

    // the person closes the run's terminal (its trash can) while the command runs
    await terminals.killShown();
    const id = await until(
      'the run to be recorded as stopped',
      () => runIds().find((n) => runJson(n).task === STOP_TASK && runJson(n).status === 'stopped'),
      PATIENCE.soon,
    );
    await until('no process of the command left', () => (pids.some(alive) ? undefined : true), PATIENCE.soon);
    assert.equal(
      modelServer.requests.filter((r) => r.rule === 'stop: resumed').length,
      0,
      'the model was not asked again',
    );

    const row = await runRow(STOP_TASK);
    await row.locator('.codicon-debug-stop').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    // The row's inline action, shown on hover; a refresh of the tree redraws the row, so the click is tried again until a terminal opens.
    for (let attempt = 1; ; attempt++) {
      await explorer.inlineAction(row, 'Resume Run');
      const opened = await terminals.shown
        .waitFor({ state: 'attached', timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (opened) break;
      if (attempt === 3) throw new Error(`Resume Run opened no terminal\nnotifications: ${await notifications.text()}`);
    }
    const shown = await terminals.untilShows(/■ Completed: /).catch(async (err: Error) => {
      throw new Error(`${err.message}\nnotifications: ${await notifications.text()}`);
    });
    assert.match(shown, /↻ Resuming build-developer: Run the slow script/);
    assert.match(shown, /Resumed: the rest is done\./);
    assert.equal(runJson(id).status, 'completed');
    const messages = (modelServer.requests.find((r) => r.rule === 'stop: resumed')?.body as MessagesBody).messages;
    // the task, the write and its result, the command and its result: that the run was stopped
    assert.equal(messages.length, 5);
    assert.match(JSON.stringify(messages[4]?.content), /The command was stopped: the run was cancelled/);
    await terminals.closeEnded();
    await row.locator('.codicon-pass').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });
});
