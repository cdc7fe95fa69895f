// A build as a person meets it in VS Code: Build This on the Idea Brief card of a brief a discovery
// in the panel has just written and saved (a specific request gets its brief at once), the
// confirmation gate (a native modal: the brief, each phase with its role and model, where the
// project goes, the estimate), Start; the scripted model plays all seven roles (test/support/
// buildScript.ts): the first QA fails, the developer is sent back and fixes the bug, the second QA
// says PASS and Groundwork re-runs `node --test` itself after the modal asked for it as
// "Groundwork (build check)" (and again for the final verification after the last phase). Each phase try prints in a terminal of its own (read back here), the
// panel shows the phases as they go, the Builds group of the plan explorer lists the build, its
// phases and their tries, the plan the brief belongs to lists the build too, and report.md opens in
// the markdown preview. A second build is stopped by closing its developer's terminal while its model
// call hangs (the call is hung up, the locks let go), the window is reloaded (one of the two real
// reloads of the run: a stopped build read back by a fresh window), and Resume from the Builds group
// finishes it from the developer on.
//
// It starts with no model (E2E_ORDER in scripts/vscode/bundleTests.mjs), stores an API key for the
// scripted server and removes it afterwards, and removes every file it made.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { FIXED, PROJECT, VERIFY, buildRules } from '../support/buildScript';
import { match, reply, type ScriptRule } from '../support/scriptedModelServer';
import { until } from '../support/until';
import { ui } from '../support/e2e/ui';
import {
  PATIENCE,
  activityBarItem,
  commandTitle,
  keepWorkspaceAsFound,
  screenshot,
  workbench,
} from '../support/e2e/workbench';

const KEY = 'sk-ant-build-e2e-0123456789abcdef';
const REQUEST = 'Build me a tool that adds two numbers';
/** The discovery's answer to a request this specific: the brief at once. */
const BRIEF = [
  'DISCOVERY_COMPLETE',
  'IDEA_BRIEF:',
  'One-line summary: a tool that adds two numbers',
  'Problem: People learning Node need a tiny example.',
  'Users: Learners',
  'MVP scope: sum(a, b) with tests',
  'Technology: Node 20',
  'Out of scope: A user interface',
  "Key decisions: Node's built-in test runner",
  'Constraints: None',
].join('\n');
/** The plan the brief was saved as (its slug), and the brief's path, once saved. */
let PLAN = '';
let BRIEF_PATH = '';
const PHASES = ['analyst', 'architect', 'test-writer', 'developer', 'qa', 'reviewer', 'delivery'];

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

/**
 * The build's script with its test-writer's first reply held after its first piece until `release`
 * resolves: the panel shows the build mid-way (the analyst and architect passed, a phase running
 * with its stream) for as long as a test looks at it.
 */
function heldAtTestWriter(release: Promise<unknown>): ScriptRule[] {
  return buildRules().map((rule) =>
    rule.name === 'test-writer 1' && typeof rule.reply === 'object' && 'blocks' in rule.reply
      ? { ...rule, reply: { ...rule.reply, chunkDelayMs: 20, hold: { afterDeltas: 1, until: release } } }
      : rule,
  );
}

/** The modal asking for Groundwork's own re-run of the verification command: what it says, then Allow Once. */
async function allowCheck(): Promise<string> {
  const { modal } = ui();
  const text = await modal.shown(/Run this command\?/);
  await modal.choose('Allow Once');
  return text;
}

describe('Builds (UI)', function () {
  this.timeout(240_000);
  let failures = 0;
  let release!: () => void;
  let restoreWorkspace = () => undefined as void;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const { page, notifications } = ui();
      release?.();
      await screenshot(page, `build-failure-${++failures}.png`).catch(() => undefined);
      workbench().log(`build e2e: notifications after the failure:\n${await notifications.text().catch(() => '')}`);
    }
  });

  before(async () => {
    const { modelServer } = workbench();
    restoreWorkspace = keepWorkspaceAsFound();
    modelServer.add(
      { name: 'build brief', match: match.system('DISCOVERY_QUESTIONS'), reply: reply.text(BRIEF) },
      ...heldAtTestWriter(new Promise<void>((resolve) => (release = resolve))),
    );
    await ui().palette.setApiKey(KEY);
  });

  after(async () => {
    const { log } = workbench();
    const { page, palette, panel, editors, explorer } = ui();
    release?.();
    // The brief's card put away: the next files find an idle panel.
    await panel
      .open()
      .then(() => panel.idleDiscovery())
      .catch((err: Error) => log(`cleanup: the panel: ${err.message}`));
    // The report's preview (a webview) takes the keyboard back when it likes, seconds after it
    // opened, closing the palette under the keys: closed first, with the mouse.
    const preview = editors.tab('Preview report.md');
    if (await preview.isVisible()) {
      await preview.hover();
      await preview
        .locator('.tab-actions .action-label[aria-label^="Close"]')
        .click({ timeout: 5_000 })
        .catch((err: Error) => log(`cleanup: closing the report's preview: ${err.message}`));
    }
    for (const title of [
      'Terminal: Kill All Terminals',
      'View: Close All Editors',
      commandTitle('groundwork.clearApiKey'),
    ]) {
      await palette.run(title).catch(async (err: Error) => {
        log(`cleanup: ${title}: ${err.message}`);
        await screenshot(page, 'build-cleanup-failure.png').catch(() => undefined);
      });
    }
    restoreWorkspace();
    await explorer.gone(/^\s*Builds/).catch(() => log('cleanup: the Builds group is still shown'));
  });

  it('Build This on a saved brief shows the gate: the brief, the phases with their models, the folder and an estimate', async () => {
    const { workspace, modelServer } = workbench();
    const { page, panel, modal } = ui();
    await panel.open();
    await panel.idle();
    await panel.send(REQUEST);
    await panel.locator('#brief-card').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel.locator('#brief-save').click();
    const saved = panel.locator('#brief-saved');
    await saved.waitFor({ state: 'visible', timeout: PATIENCE.work });
    BRIEF_PATH = /\.groundwork\/plans\/[a-z0-9-]+\/idea-brief\.md/.exec(await saved.innerText())?.[0] ?? '';
    assert.ok(BRIEF_PATH, 'the card says where the plan was saved');
    PLAN = BRIEF_PATH.split('/')[2]!;
    const button = panel.locator('#brief-build');
    await button.waitFor({ state: 'visible', timeout: PATIENCE.work });
    await button.click();
    const text = await modal.shown();
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
    assert.ok(await modal.button('Start Build').isVisible());
    assert.ok(await modal.button('Cancel').isVisible());
    await screenshot(page, 'groundwork-build-gate.png');
    assert.deepEqual(buildIds(), [], 'nothing is written before Start');
    assert.equal(modelServer.requests.filter((r) => r.rule === 'analyst').length, 0, 'no build call before Start');
    assert.equal(existsSync(join(workspace, PROJECT)), false);
  });

  it('Start runs the phases, each in its own terminal, with the panel showing them; the check of QA asks in the modal', async () => {
    const { workspace } = workbench();
    const { page, panel, modal, terminals } = ui();
    await modal.choose('Start Build');
    await panel.open();
    // Mid-build (the test-writer's reply is held): the panel lists the phases, the current one running with its output.
    await panel.locator('#build-phase-architect.passed').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel.locator('.build-phase.running').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await panel.locator('#build-stream').waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.match(await panel.locator('#build-phase-analyst').innerText(), /passed/);
    assert.ok(await panel.locator('#build-stop').isVisible(), 'Stop is offered while it runs');
    // As a person watching the build would: the Plans view folded, so the Agent view has the side bar's height.
    await panel.setViewExpanded('Plans', false);
    await panel.locator('#build').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'groundwork-build-panel.png');
    await panel.setViewExpanded('Plans', true);
    release();

    const asked = await allowCheck();
    assert.match(asked, /Run this command\?/);
    assert.match(asked, new RegExp(`^${VERIFY}$`, 'm'), 'the exact command, on a line of its own');
    assert.match(asked, /Agent: Groundwork \(build check\)/);
    assert.ok(asked.includes(`Folder: ${join(workspace, PROJECT)}`), asked);

    // The final verification after the last phase runs the frozen TEST command again: asked too.
    const { value: id, allowed } = await modal.allowingChecks('the build to complete', () => {
      const [only] = buildIds();
      return only && topStatus(buildYaml(only)) === 'completed' ? only : undefined;
    });
    assert.equal(allowed, 1, "the final verification's run of the TEST command");
    const last = await terminals.untilShows(/Press any key to close this terminal\./);
    assert.match(last, /── Groundwork build phase: delivery · try 1 ──/);
    assert.match(last, /✓ Groundwork checked delivery/);
    assert.match(last, new RegExp(`Build ${id}: completed`));
    assert.doesNotMatch(last, /\\x1b|\u001b/, 'no raw or escaped control sequence is visible');

    const qa = await terminals.pick('qa (try 2) · Groundwork build', /Groundwork build phase: qa · try 2/);
    assert.match(qa, /── Groundwork build phase: qa · try 2 ──/);
    assert.match(qa, /VERIFICATION: PASS/);
    assert.match(
      qa,
      /▶ node --test\n[\s\S]*# pass 1[\s\S]*\n✓ exit 0 in \d/,
      "Groundwork's own run of the command, its output, its exit code",
    );
    assert.match(qa, /✓ Groundwork checked qa/);
    const firstQa = await terminals.pick('qa · Groundwork build', /Groundwork build phase: qa · try 1/);
    assert.match(firstQa, /── Groundwork build phase: qa · try 1 ──/);
    assert.match(firstQa, /✗ Groundwork checked qa: /);
    const developer = await terminals.pick(
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
    const { page, panel, explorer, editors } = ui();
    await editors.tab('Preview report.md').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const report = readFileSync(join(workbench().workspace, '.groundwork', 'builds', id!, 'report.md'), 'utf8');
    assert.match(report, /node --test/);
    // The preview draws in a webview of its own: the picture once it shows the report.
    await editors.webviewShowing('h1', /Build report/);
    await screenshot(page, 'groundwork-build-report.png');
    // Only the panel's webview left: the panel object works on the first one.
    await editors.closeAll();

    await panel.open();
    await explorer.shown(/^\s*Builds/);
    const row = await explorer.shown(PROJECT);
    await row.locator('.codicon-pass').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    assert.match(await row.innerText(), /completed/);
    await row.click(); // expands it
    for (const phase of PHASES)
      await explorer.labelled(`${phase}, `).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    const qa = explorer.labelled('qa, ');
    assert.match(await qa.innerText(), /passed · 2 tries/);
    await qa.click();
    await explorer.shown(/^\s*try 2/);
    await screenshot(page, 'groundwork-builds-tree.png');
    await row.click(); // folds it again: the plan's rows get the room

    // A plan shows its builds: the plan of the brief expands to the build made from it.
    const plan = explorer.labelled(PLAN, 2);
    await plan.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    assert.equal(await plan.getAttribute('aria-expanded'), 'false', 'a plan with a build can be expanded');
    await explorer.toggle(plan);
    const underPlan = explorer.labelled(`${PROJECT}, completed`, 3);
    await underPlan.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    // Its documents come first (the Idea Brief), then its build.
    const planIndex = Number(await plan.getAttribute('data-index'));
    const brief = page.locator(`.part.sidebar .monaco-list-row[aria-level="3"][data-index="${planIndex + 1}"]`);
    assert.match(await brief.innerText(), /^\s*Idea Brief/, 'the plan’s first child is its Idea Brief');
    assert.equal(
      Number(await underPlan.getAttribute('data-index')),
      planIndex + 2,
      'the build follows the plan’s documents',
    );
    await underPlan.locator('.codicon-pass').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await underPlan.click(); // expands it to its phases, as in the Builds group
    for (const phase of PHASES)
      await explorer.labelled(`${phase}, passed`, 4).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await screenshot(page, 'groundwork-plan-builds.png');
    await explorer.toggle(plan);
    await underPlan.waitFor({ state: 'detached', timeout: PATIENCE.soon });
  });

  it('closing the current phase’s terminal stops the build, hanging up its model call; after a reload of the window, Resume in the Builds group finishes it from that phase', async () => {
    const { workspace, modelServer } = workbench();
    const { page, palette, panel, modal, terminals, explorer, editors, notifications } = ui();
    const firstSeq = modelServer.requests.length + 1;
    modelServer.add(...buildRules({ stallDeveloper: true }));
    await palette.runGroundwork('groundwork.buildFromBrief');
    const row = palette.row('Idea Brief');
    await row.waitFor({ state: 'visible', timeout: PATIENCE.soon });
    assert.match(await row.innerText(), new RegExp(PLAN));
    await row.click();
    await modal.shown(/Build a project from/);
    await modal.choose('Start Build');
    // The analyst names the project sum-tool again, whose folder the first build filled: asked, the person takes the free name.
    await modal.shown(`The folder ${PROJECT} already exists and holds files.`);
    await screenshot(page, 'groundwork-build-place.png');
    await modal.choose(`Use ${PROJECT}-2`);
    await terminals.untilShows(/── Groundwork build phase: developer · try 1 ──/);
    const id = buildIds().at(-1)!;
    // the person closes the developer's terminal while its model call hangs
    await terminals.killShown();
    await until('the build to be recorded as stopped', () => topStatus(buildYaml(id)) === 'stopped', PATIENCE.soon);
    assert.ok(buildYaml(id).replace(/\s+/g, ' ').includes('Phase developer was stopped'), buildYaml(id));

    // Nothing is left behind: the hanging model call was hung up, the build and its developer's run let go of their locks.
    const stalled = modelServer.requests.filter((r) => r.seq >= firstSeq && r.rule === 'developer stalls');
    assert.equal(stalled.length, 1, 'one stalled developer call');
    await until('the stalled model call to be hung up', () => stalled[0]!.clientClosed, PATIENCE.soon);
    const [stopped] = attempts(id, 'developer');
    assert.equal(stopped?.status, 'stopped');
    assert.ok(stopped?.runId, 'the stopped try names its agent run');
    await until(
      'the build and its run to let go of their locks',
      () => !lockHeld(`build-${id}`) && !lockHeld(`run-${stopped.runId}`),
      PATIENCE.soon,
    );
    const run = JSON.parse(readFileSync(join(workspace, '.groundwork', 'runs', stopped.runId, 'run.json'), 'utf8')) as {
      status: string;
    };
    assert.equal(run.status, 'stopped', "the developer's run is recorded as stopped");

    await workbench().reload();
    await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const beforeResume = modelServer.requests.length;
    assert.deepEqual(
      modelServer.requests.filter((r) => r.seq >= firstSeq && r.finishedAt === undefined).map((r) => r.rule),
      [],
      'no model call of this build is still open',
    );

    await panel.open();
    const build = explorer.labelled(`${PROJECT}-2, `, 2);
    await build.waitFor({ state: 'visible', timeout: PATIENCE.work });
    // still "stopped" after the reload (as recorded), not "interrupted": nobody was holding it
    await build.locator('.codicon-debug-stop').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    for (let attempt = 1; ; attempt++) {
      await explorer.inlineAction(build, 'Resume Build');
      const started = await terminals
        .untilShows(/── Groundwork build phase: developer · try 2 \(resumed\) ──/, 10_000)
        .then(
          () => true,
          () => false,
        );
      if (started) break;
      if (attempt === 3) throw new Error(`Resume Build started nothing\nnotifications: ${await notifications.text()}`);
    }
    await allowCheck();
    await modal.allowingChecks('the resumed build to complete', () => topStatus(buildYaml(id)) === 'completed');
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
    await until('the build to let go of its lock', () => !lockHeld(`build-${id}`), PATIENCE.soon);
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
    await build.locator('.codicon-pass').waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await editors.tab('Preview report.md').waitFor({ state: 'visible', timeout: PATIENCE.work });
  });
});
