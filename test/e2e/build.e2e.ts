// A build as a person meets it in VS Code: Build This on the Idea Brief card of a saved brief, the
// confirmation gate (a native modal: the brief, each phase with its role and model, where the
// project goes, the estimate), Start; the scripted model plays all seven roles (test/support/
// buildScript.ts): the first QA fails, the developer is sent back and fixes the bug, the second QA
// says PASS and Groundwork re-runs `node --test` itself after the modal asked for it as
// "Groundwork (build check)". Each phase try prints in a terminal of its own (read back here), the
// panel shows the phases as they go, the Builds group of the plan explorer lists the build, its
// phases and their tries, the plan the brief belongs to lists the build too, and report.md opens in
// the markdown preview. A second build is stopped by closing its developer's terminal while its model
// call hangs (the call is hung up, the locks let go), the window is reloaded, and Resume from the
// Builds group finishes it from the developer on.
//
// Like agentRun.e2e.ts it works in a second workbench window (support/dialogWindow.ts): modal
// dialogs are refused in the window that runs the in-host tests. It stores an API key for the
// scripted server and removes it afterwards, and removes every file it made.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { BRIEF_MD, FIXED, PROJECT, VERIFY, buildRules } from '../support/buildScript';
import { until } from '../support/until';
import {
  dialog,
  notifications,
  reloadWindowWithDialogs,
  runCommandPatiently,
  untilTerminalShows,
  windowWithDialogs,
} from './support/dialogWindow';
import { commandTitle, openGroundwork, runCommand, screenshot, sideBar, treeRow, workbench } from './support/workbench';

const KEY = 'sk-ant-build-e2e-0123456789abcdef';
const PLAN = 'adder';
const BRIEF_PATH = `.groundwork/plans/${PLAN}/idea-brief.md`;
const PHASES = ['analyst', 'architect', 'test-writer', 'developer', 'qa', 'reviewer', 'delivery'];
let fixtureNames: string[] = [];

function buildIds(): string[] {
  const dir = join(workbench().workspace, '.groundwork', 'builds');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => /^\d{8}-\d{6}-/.test(n))
        .sort()
    : [];
}

function buildYaml(id: string): string {
  return readFileSync(join(workbench().workspace, '.groundwork', 'builds', id, 'build.yaml'), 'utf8');
}

const topStatus = (yaml: string) => /^status: (\w+)$/m.exec(yaml)?.[1];

/** A phase's tries as build.yaml records them: status, cause, run id. */
function attempts(id: string, phase: string): { status: string; cause?: string; runId?: string }[] {
  const build = parseYaml(buildYaml(id)) as {
    phases: { name: string; attempts: { status: string; cause?: string; runId?: string }[] }[];
  };
  return build.phases.find((p) => p.name === phase)?.attempts ?? [];
}

/** Whether a live build or agent run holds its lock (`.groundwork/locks/<name>.lock`, removed when let go). */
const lockHeld = (name: string) => existsSync(join(workbench().workspace, '.groundwork', 'locks', `${name}.lock`));

/** The processes of this user whose working folder is `dir` or inside it (a command a phase ran and left behind). */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue; // gone, or another user's
    }
    if (cwd === dir || cwd.startsWith(dir + sep)) {
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      } catch {}
      found.push(`${pid} ${cmd}`);
    }
  }
  return found;
}

/** The saved brief, and the panel's card pointing at it (as discovery leaves it after Save as Plan). */
function writeSavedBrief(workspace: string): void {
  mkdirSync(join(workspace, '.groundwork', 'plans', PLAN), { recursive: true });
  mkdirSync(join(workspace, '.groundwork', 'panel'), { recursive: true });
  writeFileSync(join(workspace, BRIEF_PATH), BRIEF_MD);
  const fields = {
    summary: 'A tool that adds two numbers',
    problem: 'People learning Node need a tiny example.',
    users: 'Learners',
    mvpScope: 'sum(a, b) with tests',
  };
  const brief = {
    ...fields,
    technology: 'Node 20',
    outOfScope: 'A user interface',
    keyDecisions: "Node's built-in test runner",
    constraints: 'None',
  };
  writeFileSync(
    join(workspace, '.groundwork', 'panel', 'brief.json'),
    JSON.stringify({
      request: 'Build me a tool that adds two numbers',
      brief,
      transcript: [],
      message: 'Here is the brief.',
      savedAt: BRIEF_PATH,
    }),
  );
}

/** Shows the terminal named `name` from the terminals' list beside the terminal, as a person picks it; its text once it shows `until`. */
async function showTerminal(page: Page, name: string, shows: RegExp): Promise<string> {
  await page.locator('.terminal-tabs-entry', { hasText: name }).first().click();
  return untilTerminalShows(page, shows, 10_000);
}

/** A row at the top level of a group (a plan, a build of the Builds group), by the start of what a screen reader says of it. */
function groupRow(page: Page, ariaLabel: string) {
  return sideBar(page).locator(`.monaco-list-row[aria-level="2"][aria-label^="${ariaLabel}"]`).first();
}

/** A phase's row of the Builds group, by what a screen reader says of it ("qa, passed · 2 tries · …"). */
function phaseRow(page: Page, phase: string) {
  return page.locator(`.part.sidebar .monaco-list-row[aria-label^="${phase}, "]`).first();
}

/** The modal asking for Groundwork's own re-run of the verification command: what it says, then Allow Once. */
async function allowCheck(page: Page): Promise<string> {
  const modal = dialog(page);
  await modal.waitFor({ state: 'visible', timeout: 60_000 });
  const text = await modal.innerText();
  await modal.getByRole('button', { name: 'Allow Once' }).click();
  await modal.waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}

describe('Builds (UI)', function () {
  this.timeout(180_000);
  let page: Page;
  let failures = 0;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) {
      await screenshot(page, `build-failure-${++failures}.png`).catch(() => undefined);
      workbench().log(`build e2e: notifications after the failure:\n${await notifications(page).catch(() => '')}`);
    }
  });

  before(async () => {
    const { workspace, modelServer } = workbench();
    fixtureNames = readdirSync(workspace);
    writeSavedBrief(workspace);
    modelServer.add(...buildRules({ delayMs: 500 }));
    page = await windowWithDialogs(workbench().page, 'build');
    await runCommandPatiently(page, commandTitle('groundwork.setApiKey'));
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(KEY);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 15_000 });
  });

  after(async () => {
    const { workspace } = workbench();
    if (!page) return;
    // The report's preview (a webview) takes the keyboard back when it likes, seconds after it
    // opened, closing the palette under the keys: closed first, with the mouse.
    const preview = page.locator('.tabs-container .tab', { hasText: 'Preview report.md' }).first();
    if (await preview.isVisible()) {
      await preview.hover();
      await preview
        .locator('.tab-actions .action-label[aria-label^="Close"]')
        .click({ timeout: 5_000 })
        .catch((err: Error) => workbench().log(`cleanup: closing the report's preview: ${err.message}`));
    }
    for (const title of [
      'Terminal: Kill All Terminals',
      'View: Close All Editors',
      commandTitle('groundwork.clearApiKey'),
    ]) {
      for (let attempt = 1; ; attempt++) {
        // The keyboard back to the workbench from a webview (the panel's) that may hold it.
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        const failed = await runCommand(page, title).then(
          () => undefined,
          (err: Error) => err,
        );
        if (!failed) break;
        workbench().log(`cleanup: ${title} (try ${attempt}): ${failed.message}`);
        if (attempt === 2) {
          await screenshot(page, 'build-cleanup-failure.png').catch(() => undefined);
          break;
        }
      }
    }
    for (const name of readdirSync(workspace))
      if (!fixtureNames.includes(name)) rmSync(join(workspace, name), { recursive: true, force: true });
    await treeRow(page, /^\s*Builds/)
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => workbench().log('cleanup: the Builds group is still shown'));
    await runCommand(page, 'View: Show Explorer').catch((err: Error) =>
      workbench().log(`cleanup: View: Show Explorer: ${err.message}`),
    );
  });

  it('Build This on a saved brief shows the gate: the brief, the phases with their models, the folder and an estimate', async () => {
    const { workspace, modelServer } = workbench();
    const panel = await openGroundwork(page);
    const button = panel.locator('#brief-build');
    await button.waitFor({ state: 'visible', timeout: 30_000 });
    await button.click();
    const modal = dialog(page);
    await modal.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await modal.innerText();
    assert.ok(text.includes(`Build a project from ${BRIEF_PATH}?`), text);
    assert.match(text, /Idea Brief: a tool that adds two numbers/, "the brief's first lines");
    for (const phase of PHASES)
      assert.match(
        text,
        new RegExp(`^\\s*${phase} — claude-[\\w.-]+, up to \\d+ turns$`, 'm'),
        `${phase} with its model`,
      );
    assert.match(text, /Project folder: a new folder in the workspace, named by the analyst's PROJECT_NAME/);
    assert.match(text, /Estimate: \d+k–[\d.]+[kM] tokens, \$\d+\.\d\d–\$\d+\.\d\d\. This is an estimate/);
    assert.match(text, /No cost ceiling/);
    assert.ok(await modal.getByRole('button', { name: 'Start Build' }).isVisible());
    assert.ok(await modal.getByRole('button', { name: 'Cancel' }).isVisible());
    await screenshot(page, 'groundwork-build-gate.png');
    assert.deepEqual(buildIds(), [], 'nothing is written before Start');
    assert.equal(modelServer.requests.filter((r) => r.rule === 'analyst').length, 0, 'no model call before Start');
    assert.equal(existsSync(join(workspace, PROJECT)), false);
  });

  it('Start runs the phases, each in its own terminal, with the panel showing them; the check of QA asks in the modal', async () => {
    const { workspace } = workbench();
    await dialog(page).getByRole('button', { name: 'Start Build' }).click();
    const panel = await openGroundwork(page);
    // Mid-build: the panel lists the phases, the current one running with its output.
    await panel.locator('#build-phase-architect.passed').waitFor({ state: 'visible', timeout: 60_000 });
    await panel.locator('.build-phase.running').waitFor({ state: 'visible', timeout: 10_000 });
    await panel.locator('#build-stream').waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await panel.locator('#build-phase-analyst').innerText(), /passed/);
    assert.ok(await panel.locator('#build-stop').isVisible(), 'Stop is offered while it runs');
    // As a person watching the build would: the Plans view folded, so the Agent view has the side bar's height.
    const plans = sideBar(page)
      .locator('.pane-header', { hasText: /^\s*Plans/ })
      .first();
    // On its twistie: the header's middle holds the view's actions (Discover Idea…).
    await plans.click({ position: { x: 12, y: 10 } });
    await panel.locator('#build').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'groundwork-build-panel.png');
    await plans.click({ position: { x: 12, y: 10 } });

    const asked = await allowCheck(page);
    assert.match(asked, /Run this command\?/);
    assert.match(asked, new RegExp(`^${VERIFY}$`, 'm'), 'the exact command, on a line of its own');
    assert.match(asked, /Agent: Groundwork \(build check\)/);
    assert.ok(asked.includes(`Folder: ${join(workspace, PROJECT)}`), asked);

    const id = await until(
      'the build to complete',
      () => {
        const [only] = buildIds();
        return only && topStatus(buildYaml(only)) === 'completed' ? only : undefined;
      },
      90_000,
    );
    const last = await untilTerminalShows(page, /Press any key to close this terminal\./);
    assert.match(last, /── Groundwork build phase: delivery · try 1 ──/);
    assert.match(last, /✓ Groundwork checked delivery/);
    assert.match(last, new RegExp(`Build ${id}: completed`));
    assert.doesNotMatch(last, /\\x1b|\u001b/, 'no raw or escaped control sequence is visible');

    const qa = await showTerminal(page, 'qa (try 2) · Groundwork build', /Groundwork build phase: qa · try 2/);
    assert.match(qa, /── Groundwork build phase: qa · try 2 ──/);
    assert.match(qa, /VERIFICATION: PASS/);
    assert.match(
      qa,
      /▶ node --test\n[\s\S]*# pass 1[\s\S]*\n✓ exit 0 in \d/,
      "Groundwork's own run of the command, its output, its exit code",
    );
    assert.match(qa, /✓ Groundwork checked qa/);
    const firstQa = await showTerminal(page, 'qa · Groundwork build', /Groundwork build phase: qa · try 1/);
    assert.match(firstQa, /── Groundwork build phase: qa · try 1 ──/);
    assert.match(firstQa, /✗ Groundwork checked qa: /);
    const developer = await showTerminal(
      page,
      'developer (try 2) · Groundwork build',
      /Groundwork build phase: developer · try 2/,
    );
    assert.match(developer, /sent back: QA failed/);
    assert.match(developer, /✎ wrote src\/sum\.js/);

    const yaml = buildYaml(id);
    for (const phase of PHASES)
      assert.match(
        yaml,
        new RegExp(`name: ${phase}\\n\\s+role: build-${phase}\\n\\s+check: [\\w-]+\\n\\s+status: passed`),
        `${phase} passed`,
      );
    assert.match(yaml, /command: node --test\n\s+exitCode: 0/);
    assert.equal(readFileSync(join(workspace, PROJECT, 'src', 'sum.js'), 'utf8'), FIXED);
    for (const file of ['test/sum.test.js', 'specs/architecture.md', 'docs/USAGE.md'])
      assert.ok(existsSync(join(workspace, PROJECT, file)), file);
  });

  it('opens report.md in the markdown preview, and lists the build, its phases and their tries in the Builds group and under its plan', async () => {
    const [id] = buildIds();
    const preview = page.locator('.tabs-container .tab', { hasText: 'Preview report.md' });
    await preview.waitFor({ state: 'visible', timeout: 30_000 });
    const report = readFileSync(join(workbench().workspace, '.groundwork', 'builds', id!, 'report.md'), 'utf8');
    assert.match(report, /node --test/);
    // The preview draws in a webview of its own: give it a moment before the picture.
    await page.waitForTimeout(2_000);
    await screenshot(page, 'groundwork-build-report.png');
    // Only the panel's webview left: openGroundwork waits on the first one.
    await runCommand(page, 'View: Close All Editors');

    await openGroundwork(page);
    await treeRow(page, /^\s*Builds/).waitFor({ state: 'visible', timeout: 30_000 });
    const row = treeRow(page, PROJECT);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.locator('.codicon-pass').waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await row.innerText(), /completed/);
    await row.click(); // expands it
    for (const phase of PHASES) await phaseRow(page, phase).waitFor({ state: 'visible', timeout: 15_000 });
    const qa = phaseRow(page, 'qa');
    assert.match(await qa.innerText(), /passed · 2 tries/);
    await qa.click();
    await treeRow(page, /^\s*try 2/).waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'groundwork-builds-tree.png');
    await row.click(); // folds it again: the plan's rows get the room

    // A plan shows its builds: the plan of the brief expands to the build made from it.
    const plan = groupRow(page, PLAN);
    await plan.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await plan.getAttribute('aria-expanded'), 'false', 'a plan with a build can be expanded');
    await plan.locator('.monaco-tl-twistie').click();
    const underPlan = sideBar(page)
      .locator(`.monaco-list-row[aria-level="3"][aria-label^="${PROJECT}, completed"]`)
      .first();
    await underPlan.waitFor({ state: 'visible', timeout: 15_000 });
    // Its documents come first (the Idea Brief), then its build.
    const planIndex = Number(await plan.getAttribute('data-index'));
    const brief = sideBar(page).locator(`.monaco-list-row[aria-level="3"][data-index="${planIndex + 1}"]`);
    assert.match(await brief.innerText(), /^\s*Idea Brief/, 'the plan’s first child is its Idea Brief');
    assert.equal(
      Number(await underPlan.getAttribute('data-index')),
      planIndex + 2,
      'the build follows the plan’s documents',
    );
    await underPlan.locator('.codicon-pass').waitFor({ state: 'visible', timeout: 5_000 });
    await underPlan.click(); // expands it to its phases, as in the Builds group
    for (const phase of PHASES)
      await sideBar(page)
        .locator(`.monaco-list-row[aria-level="4"][aria-label^="${phase}, passed"]`)
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'groundwork-plan-builds.png');
    await plan.locator('.monaco-tl-twistie').click();
    await underPlan.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('closing the current phase’s terminal stops the build, hanging up its model call; after a reload of the window, Resume in the Builds group finishes it from that phase', async () => {
    const { workspace, modelServer } = workbench();
    const firstSeq = modelServer.requests.length + 1;
    modelServer.add(...buildRules({ stallDeveloper: true }));
    await runCommand(page, commandTitle('groundwork.buildFromBrief'));
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Idea Brief' }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await row.innerText(), new RegExp(PLAN));
    await row.click();
    await dialog(page).waitFor({ state: 'visible', timeout: 30_000 });
    await dialog(page).getByRole('button', { name: 'Start Build' }).click();
    // The analyst names the project sum-tool again, whose folder the first build filled: asked, the person takes the free name.
    const place = dialog(page).filter({ hasText: `The folder ${PROJECT} already exists and holds files.` });
    await place.waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'groundwork-build-place.png');
    await place.getByRole('button', { name: `Use ${PROJECT}-2` }).click();
    await untilTerminalShows(page, /── Groundwork build phase: developer · try 1 ──/, 60_000);
    const id = buildIds().at(-1)!;
    // the person closes the developer's terminal while its model call hangs
    await page.locator('.terminal-wrapper.active').first().click();
    await runCommand(page, 'Terminal: Kill the Active Terminal Instance');
    await until('the build to be recorded as stopped', () => topStatus(buildYaml(id)) === 'stopped', 15_000);
    assert.ok(buildYaml(id).replace(/\s+/g, ' ').includes('Phase developer was stopped'), buildYaml(id));

    // Nothing is left behind: the hanging model call was hung up, the build and its developer's run let go of their locks.
    const stalled = modelServer.requests.filter((r) => r.seq >= firstSeq && r.rule === 'developer stalls');
    assert.equal(stalled.length, 1, 'one stalled developer call');
    await until('the stalled model call to be hung up', () => stalled[0]!.clientClosed, 10_000);
    const [stopped] = attempts(id, 'developer');
    assert.equal(stopped?.status, 'stopped');
    assert.ok(stopped?.runId, 'the stopped try names its agent run');
    await until(
      'the build and its run to let go of their locks',
      () => !lockHeld(`build-${id}`) && !lockHeld(`run-${stopped.runId}`),
      10_000,
    );
    const run = JSON.parse(readFileSync(join(workspace, '.groundwork', 'runs', stopped.runId, 'run.json'), 'utf8')) as {
      status: string;
    };
    assert.equal(run.status, 'stopped', "the developer's run is recorded as stopped");

    await reloadWindowWithDialogs(page);
    const beforeResume = modelServer.requests.length;
    assert.deepEqual(
      modelServer.requests.filter((r) => r.seq >= firstSeq && r.finishedAt === undefined).map((r) => r.rule),
      [],
      'no model call of this build is still open',
    );

    await openGroundwork(page);
    const build = groupRow(page, `${PROJECT}-2, `);
    await build.waitFor({ state: 'visible', timeout: 30_000 });
    // still "stopped" after the reload (as recorded), not "interrupted": nobody was holding it
    await build.locator('.codicon-debug-stop').waitFor({ state: 'visible', timeout: 15_000 });
    for (let attempt = 1; ; attempt++) {
      await build.hover();
      await build.locator('.actions .action-label[aria-label="Resume Build"]').click();
      const started = await untilTerminalShows(
        page,
        /── Groundwork build phase: developer · try 2 \(resumed\) ──/,
        10_000,
      ).then(
        () => true,
        () => false,
      );
      if (started) break;
      if (attempt === 3) throw new Error(`Resume Build started nothing\nnotifications: ${await notifications(page)}`);
    }
    await allowCheck(page);
    await until('the resumed build to complete', () => topStatus(buildYaml(id)) === 'completed', 90_000);
    assert.equal(readFileSync(join(workspace, `${PROJECT}-2`, 'src', 'sum.js'), 'utf8'), FIXED);
    // It went on from the developer: no earlier phase asked the model again, and the developer's tries say so.
    const resumedPhases = new Set(modelServer.requests.slice(beforeResume).map((r) => r.rule?.replace(/ \d+$/, '')));
    assert.deepEqual(
      [...resumedPhases].filter((p) => !['developer', 'qa', 'reviewer', 'delivery'].includes(p ?? '')),
      [],
      [...resumedPhases].join(', '),
    );
    for (const phase of ['analyst', 'architect', 'test-writer'])
      assert.equal(attempts(id, phase).length, 1, `${phase} ran once`);
    assert.deepEqual(
      attempts(id, 'developer')
        .slice(0, 2)
        .map((a) => [a.status, a.cause ?? 'first']),
      [
        ['stopped', 'first'],
        ['passed', 'resume'],
      ],
    );
    await until('the build to let go of its lock', () => !lockHeld(`build-${id}`), 10_000);
    assert.deepEqual(
      processesIn(join(workspace, `${PROJECT}-2`)),
      [],
      'no process is left running in the project folder',
    );
    const scripted = new Set(buildRules({ stallDeveloper: true }).map((r) => r.name));
    assert.deepEqual(
      modelServer.pending().filter((n) => scripted.has(n)),
      [],
      'every scripted turn was asked for',
    );
    await build.locator('.codicon-pass').waitFor({ state: 'visible', timeout: 15_000 });
    await page
      .locator('.tabs-container .tab', { hasText: 'Preview report.md' })
      .waitFor({ state: 'visible', timeout: 30_000 });
  });
});
