// A build's test contract as a person meets it in VS Code (test/support/contractScript.ts scripts
// the model). A developer that moves a test of its own over the frozen test/sum.test.js with a
// command (allowed in the modal) fails its phase: the notification says why and offers Accept Test
// Change, whose modal lists the change; Accept and Resume finishes the build from the developer, and
// report.md and build.yaml keep the accepted change. Then a build whose requirements end green (a
// passing test names task-001), blue (no test names task-002) and red (the test naming task-003
// fails at the final verification): specs/requirements.md in the editor draws them so, with the
// tests written after each region and shown in its hover. Pictures: test-artifacts/vscode/contract-*.png.
//
// It starts with no model (after build.e2e.ts), stores an API key for the scripted server and
// removes it afterwards, and removes every file it made.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { BRIEF_MD } from '../support/buildScript';
import { BETTER_TEST, MOVE_TEST, acceptedChangeRules, evidenceRules } from '../support/contractScript';
import { until } from '../support/until';
import { ui } from '../support/e2e/ui';
import { PATIENCE, commandTitle, keepWorkspaceAsFound, screenshot, workbench } from '../support/e2e/workbench';

const KEY = 'sk-ant-contract-e2e-0123456789abcdef';
const PLAN = 'contract-sum';
const CHANGED = 'sum-contract';
const COLOURED = 'sum-evidence';
/** The build under way: each test's scripted replies answer only its own build. */
let building: 'contract' | 'evidence' | undefined;

interface BuildYaml {
  status: string;
  reason?: string;
  phases: { name: string; attempts: { status: string; cause?: string }[] }[];
  contract?: { accepted: { path: string; phase: string }[] };
  final?: { passed: boolean; requirements: { id: string; result: string }[] };
}

const buildsDir = () => join(workbench().workspace, '.groundwork', 'builds');
const buildIds = () => (existsSync(buildsDir()) ? readdirSync(buildsDir()).filter((n) => /^\d{8}-\d{6}-/.test(n)) : []);
const buildYaml = (id: string) => parseYaml(readFileSync(join(buildsDir(), id, 'build.yaml'), 'utf8')) as BuildYaml;

/** Build from Brief on the plan's brief, and Start in the gate; the new build's id once it is written. */
async function startBuild(): Promise<string> {
  const { palette, modal } = ui();
  const before = new Set(buildIds());
  await palette.runGroundwork('groundwork.buildFromBrief');
  await palette.pick(PLAN);
  await modal.shown(/Build a project from/);
  await modal.choose('Start Build');
  return until('the build to be written', () => buildIds().find((id) => !before.has(id)), PATIENCE.work);
}

const COLOURS = {
  green: ['63,185,80', '45,164,78'],
  blue: ['56,139,253', '9,105,218'],
  red: ['248,81,73', '207,34,46'],
} as const;

/** The colours painted behind the editor's line showing `text` (its decorations' backgrounds), as rgb triples. */
function lineColours(page: Page, text: string): Promise<string[]> {
  return page.evaluate((wanted) => {
    const line = Array.from(document.querySelectorAll('.editor-instance .view-lines .view-line')).find((el) =>
      (el.textContent ?? '').replace(/\u00a0/g, ' ').includes(wanted),
    );
    if (line === undefined) return [];
    const top = line.getBoundingClientRect().top;
    const seen = new Set<string>();
    for (const el of Array.from(document.querySelectorAll('.editor-instance .view-overlays .cdr'))) {
      if (Math.abs(el.getBoundingClientRect().top - top) > 2) continue;
      const m = /rgba?\((\d+), (\d+), (\d+)/.exec(getComputedStyle(el).backgroundColor);
      if (m) seen.add(`${m[1]},${m[2]},${m[3]}`);
    }
    return [...seen];
  }, text);
}

describe('Test contract (UI)', function () {
  this.timeout(360_000);
  let failures = 0;
  let restoreWorkspace = () => undefined as void;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const { page, notifications } = ui();
      await screenshot(page, `contract-failure-${++failures}.png`).catch(() => undefined);
      workbench().log(`contract e2e: notifications after the failure:\n${await notifications.text().catch(() => '')}`);
    }
  });

  before(async () => {
    const { workspace } = workbench();
    const { palette, notifications } = ui();
    restoreWorkspace = keepWorkspaceAsFound();
    mkdirSync(join(workspace, '.groundwork', 'plans', PLAN), { recursive: true });
    writeFileSync(join(workspace, '.groundwork', 'plans', PLAN, 'idea-brief.md'), BRIEF_MD);
    await palette.setApiKey(KEY);
    await notifications.clear();
  });

  after(async () => {
    const { log } = workbench();
    const { page, palette, editors, explorer, notifications } = ui();
    building = undefined; // what was scripted and not asked for answers nothing after this file
    await page.keyboard.press('Escape');
    await notifications.hide().catch(() => undefined);
    await editors
      .closeTab('Preview report.md')
      .catch((err: Error) => log(`cleanup: closing the report's preview: ${err.message}`));
    for (const title of [
      'Terminal: Kill All Terminals',
      'View: Close All Editors',
      'Notifications: Clear All Notifications',
      commandTitle('groundwork.clearApiKey'),
    ])
      await palette.run(title).catch((err: Error) => log(`cleanup: ${title}: ${err.message}`));
    restoreWorkspace();
    await explorer.gone(/^\s*Builds/).catch(() => log('cleanup: the Builds group is still shown'));
  });

  it('a developer that changes a frozen test by a command fails its phase; Accept Test Change shows the change, and Accept and Resume completes the build', async () => {
    const { workspace, modelServer } = workbench();
    const { page, modal, notifications, editors } = ui();
    building = 'contract';
    modelServer.add(...acceptedChangeRules(CHANGED, () => building === 'contract'));
    const id = await startBuild();

    // The developer's command, asked in the modal as any agent's: the person allows it.
    const asked = await modal.shown(/Run this command\?/);
    assert.match(asked, new RegExp(`^${MOVE_TEST}$`, 'm'), asked);
    assert.match(asked, /Agent: build-developer/);
    await modal.choose('Allow Once');
    await until('the build to fail', () => buildYaml(id).status === 'failed', PATIENCE.work);
    const failed = buildYaml(id);
    assert.match(failed.reason ?? '', /Test contract changed: test\/sum\.test\.js\./, failed.reason);
    assert.deepEqual(
      failed.phases.find((p) => p.name === 'developer')?.attempts.map((a) => a.status),
      ['failed'],
    );
    assert.deepEqual(
      failed.phases.filter((p) => p.attempts.length > 0).map((p) => p.name),
      ['analyst', 'architect', 'test-writer', 'developer'],
      'no phase ran after the developer',
    );

    // The report opens first (a webview, which takes the keyboard when it is ready), then the notification.
    await editors.webviewShowing('h1', /Build report/);
    // The notification says why, and offers Accept Test Change.
    const item = await notifications.item(/Test contract changed: test\/sum\.test\.js/);
    assert.match(await item.innerText(), new RegExp(`Build ${id} failed`));
    const accept = notifications.button(item, 'Accept Test Change');
    await accept.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await screenshot(page, 'contract-failed-notification.png');
    await accept.click();

    const text = await modal.shown(/Accept these changes to the tests of build/);
    assert.ok(text.includes(`Accept these changes to the tests of build ${id}?`), text);
    assert.match(text, /• test\/sum\.test\.js changed/);
    assert.match(text, /Accept only a change you have read and agree with/);
    await screenshot(page, 'contract-accept-modal.png');
    await modal.choose('Accept and Resume');
    await notifications.hide();

    const { allowed } = await modal.allowingChecks(
      'the resumed build to complete',
      () => buildYaml(id).status === 'completed',
    );
    assert.equal(allowed, 2, "QA's check and the final verification");
    const done = buildYaml(id);
    assert.deepEqual(
      done.phases.find((p) => p.name === 'developer')?.attempts.map((a) => [a.status, a.cause ?? 'first']),
      [
        ['failed', 'first'],
        ['passed', 'resume'],
      ],
    );
    assert.deepEqual(
      done.contract?.accepted.map((a) => [a.path, a.phase]),
      [['test/sum.test.js', 'developer']],
    );
    assert.equal(done.final?.passed, true);
    assert.equal(readFileSync(join(workspace, CHANGED, 'test', 'sum.test.js'), 'utf8'), BETTER_TEST);
    const report = readFileSync(join(buildsDir(), id, 'report.md'), 'utf8');
    assert.match(report, /## Test contract\n/);
    assert.match(report, /Changes the person accepted:\n\n- test\/sum\.test\.js, when phase developer failed on it \(/);
    assert.deepEqual(
      modelServer.pending().filter((n) => n.startsWith('contract ')),
      [],
      'every scripted turn was asked for',
    );

    // The report in the preview, at its test contract.
    await editors.tab('Preview report.md').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const frame = await editors.webviewShowing('h2', 'Test contract');
    await frame.getByText('Changes the person accepted').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    // Scrolled as a person would, to the section's title at the top (again if the preview draws anew meanwhile).
    const section = frame.locator('h2', { hasText: 'Test contract' });
    await until(
      'the test contract at the top of the preview',
      () =>
        section.evaluate(
          (el) => (el.scrollIntoView({ block: 'start' }), Math.abs(el.getBoundingClientRect().top) < 40),
        ),
      PATIENCE.soon,
    );
    await screenshot(page, 'contract-report.png');
  });

  it('colours each requirement by the tests of the final verification, green, blue and red, with the tests in the hover', async () => {
    const { modelServer } = workbench();
    const { page, modal, editors, notifications } = ui();
    await editors.closeTab('Preview report.md');
    await editors.closeAll();
    building = 'evidence';
    modelServer.add(...evidenceRules(COLOURED, () => building === 'evidence'));
    const id = await startBuild();
    // The test naming task-003 passes in QA and fails once the delivery has written a wrong example.
    await modal.allowingChecks('the build to fail at the final verification', () => buildYaml(id).status === 'failed');
    // The report opens (a webview that takes the keyboard when it likes): closed with the mouse.
    await editors.webviewShowing('h1', /Build report/);
    await editors.closeTab('Preview report.md');
    const built = buildYaml(id);
    assert.match(built.reason ?? '', /final verification failed/, built.reason);
    assert.equal(built.final?.passed, false);
    assert.deepEqual(
      built.final?.requirements.map((r) => [r.id, r.result]),
      [
        ['task-001', 'passed'],
        ['task-002', 'untested'],
        ['task-003', 'failed'],
      ],
    );
    await notifications.item(/final verification failed/);
    await notifications.clear();
    await notifications.hide();

    await editors.open(`${COLOURED}/specs/requirements.md`, '[task-001]');
    const wanted: [string, keyof typeof COLOURS][] = [
      ['[task-001]', 'green'],
      ['[task-002]', 'blue'],
      ['[task-003]', 'red'],
    ];
    let last = '';
    await until(
      'each requirement in its colour',
      async () => {
        const seen = await Promise.all(wanted.map(([text]) => lineColours(page, text)));
        last = seen.map((c, i) => `${wanted[i]![1]}: ${c.join(' ')}`).join(' | ');
        return wanted.every(([, colour], i) => COLOURS[colour].some((c) => seen[i]!.includes(c)));
      },
      PATIENCE.work,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; painted: ${last}`);
    });
    // After each region, on its line, what the final verification found.
    const spec = readFileSync(join(workbench().workspace, COLOURED, 'specs', 'requirements.md'), 'utf8');
    assert.match(spec, /returns 5 .*<!--\/@ax--> · Tests: `task-001 sum\(2, 3\) returns 5` passed\n/);
    assert.match(spec, /require works<!--\/@ax--> · Implemented, no passing test names it\.\n/);
    assert.match(spec, /sum's<!--\/@ax--> · Tests: `task-003 the usage example shows what sum returns` failed\n/);
    await screenshot(page, 'contract-requirements.png');

    // Each region's hover: what its colour means now, and the evidence, test names as code.
    const read = async (on: string, saying: string, wants: RegExp, code: string | undefined, picture: string) => {
      const hover = await editors.hover(on, saying);
      let text = '';
      await until('the hover with its evidence', async () =>
        wants.test((text = (await hover.innerText()).replace(/\s+/g, ' '))),
      ).catch((err: Error) => {
        throw new Error(`${err.message}; the hover reads: ${text}`);
      });
      assert.ok(!text.includes('`'), `no markdown shows as text: ${text}`);
      if (code !== undefined) assert.ok(await hover.locator('code', { hasText: code }).isVisible(), `${code} as code`);
      await screenshot(page, picture, { keepHover: true });
    };
    const TEST_1 = 'task-001 sum(2, 3) returns 5';
    const TEST_3 = 'task-003 the usage example shows what sum returns';
    await read(
      'sum(2, 3) returns 5',
      'task-001',
      /task-001 · green \(verified\) .*Tests: task-001 sum\(2, 3\) returns 5 passed/,
      TEST_1,
      'contract-hover-green.png',
    );
    await read(
      'sum is exported',
      'task-002',
      /task-002 · blue \(no passing test\) .*Implemented, no passing test names it\./,
      undefined,
      'contract-hover-blue.png',
    );
    await read(
      'shows a right example',
      'task-003',
      /task-003 · red \(failed\) .*Tests: task-003 the usage example shows what sum returns failed/,
      TEST_3,
      'contract-hover-red.png',
    );
    await page.keyboard.press('Escape');
  });
});
