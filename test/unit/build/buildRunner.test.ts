// The build orchestrator end to end over the in-memory workspace: the real BuildRunner and
// AgentRunner, the bundled workflow and roles, a model scripted per phase. What a person sees:
// build.yaml, the project folder, report.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BuildRunner } from '../../../src/core/build/buildRunner';
import { projectNameFrom } from '../../../src/core/build/projectName';
import {
  ANALYST,
  BRIEF,
  buildHarness,
  bundledRole,
  causesOf,
  happyTurns,
  phaseOf,
  PROJECT,
  QA_FAIL,
  QA_PASS,
  say,
  statuses,
  SUM,
  VERIFY,
  write,
} from './buildHarness';

const ALL_PASSED = {
  analyst: 'passed',
  architect: 'passed',
  'test-writer': 'passed',
  developer: 'passed',
  qa: 'passed',
  reviewer: 'passed',
  delivery: 'passed',
};

describe('BuildRunner: a build from start to end', () => {
  it('runs the seven phases in the project folder, each checked, and writes build.yaml, the brief and report.md', async () => {
    const h = buildHarness();
    const build = await h.start();

    assert.equal(build.status, 'completed');
    assert.equal(build.mode, 'new');
    assert.equal(build.projectDir, PROJECT);
    assert.deepEqual(statuses(build), ALL_PASSED);
    assert.deepEqual(await h.saved(build.id), build, 'build.yaml holds the final record');
    assert.equal(h.file(`${PROJECT}/src/sum.js`), SUM);
    assert.match(h.file(`${PROJECT}/specs/brief.md`) ?? '', /^PROJECT_NAME: sum-tool$/m);
    assert.match(h.file(`${PROJECT}/specs/verification.md`) ?? '', /VERIFICATION: PASS/);
    // Groundwork re-ran QA's command itself, in the project folder, and the frozen TEST command after the last phase.
    assert.deepEqual(
      h.commands.requests.map((r) => [r.command, r.cwd]),
      [
        [VERIFY, `/ws/${PROJECT}`],
        [VERIFY, `/ws/${PROJECT}`],
      ],
    );
    assert.deepEqual(build.verified, [
      { phase: 'qa', command: VERIFY, exitCode: 0, output: 'ok' },
      { phase: 'final', command: VERIFY, exitCode: 0, output: 'ok' },
    ]);
    assert.deepEqual(build.commands, { test: [VERIFY] }, 'frozen when the architect passed');
    assert.deepEqual(
      build.contract?.tests.map((t) => [t.path, t.declared]),
      [['test/sum.test.js', 1]],
    );
    assert.equal(build.final?.passed, true);
    assert.match(build.final?.note ?? '', /no format Groundwork reads/, "the fake runner's 'ok' names no test");
    assert.equal(build.summary?.project, PROJECT);
    const report = h.ws.fs.text(`/ws/.groundwork/builds/${build.id}/report.md`) ?? '';
    assert.match(report, /completed: every phase and the final verification passed/);
    assert.match(report, /\| qa \| `node --test` \| 0 \|/);
    assert.match(report, /- `test\/sum\.test\.js`/);
    assert.match(h.ws.fs.text(`/ws/.groundwork/builds/${build.id}/input.md`) ?? '', /Idea Brief: a tool that adds/);
    // Each phase's model was told which phase it is; the analyst got the brief's text.
    assert.deepEqual([...new Set(h.script.requests.map((r) => phaseOf(r.system)))], Object.keys(ALL_PASSED));
    assert.match(h.script.tasksOf('analyst')[0] ?? '', /A tiny Node module, sum\(a, b\)/);
    assert.doesNotMatch(
      h.script.tasksOf('architect')[0] ?? '',
      /A tiny Node module/,
      'later phases read the brief from the project folder',
    );
    // The costs add up: 11 model calls at $0.01.
    assert.equal(build.costUsd?.toFixed(2), '0.11');
  });

  it('a phase that fails for a transient reason is tried 3 times, each try recorded with cause retry', async () => {
    const turns = happyTurns();
    turns.architect = [{ error: 'overloaded' }, { error: 'overloaded' }, ...(turns.architect ?? [])];
    const h = buildHarness(turns);
    const build = await h.start();

    assert.equal(build.status, 'completed');
    assert.deepEqual(causesOf(build, 'architect'), ['first', 'retry', 'retry']);
    const tries = build.phases.find((p) => p.name === 'architect')?.attempts ?? [];
    assert.deepEqual(
      tries.map((a) => [a.status, a.transient]),
      [
        ['failed', true],
        ['failed', true],
        ['passed', undefined],
      ],
    );
    assert.match(tries[0]?.reason ?? '', /overloaded/);
    assert.ok(
      tries.every((a) => a.runId !== undefined),
      'each try is an agent run of its own',
    );
  });

  it('a phase that keeps failing stops the build after 3 tries, saying so', async () => {
    const turns = happyTurns();
    turns.delivery = [say('The docs are written.'), say('The docs are written.'), say('The docs are written.')];
    const h = buildHarness(turns);
    const build = await h.start();

    assert.equal(build.status, 'failed');
    assert.deepEqual(causesOf(build, 'delivery'), ['first', 'retry', 'retry']);
    assert.match(
      build.reason ?? '',
      /^Phase delivery failed: Delivery is not complete: .*BUILD_COMPLETE.* \(after 3 tries\)/,
    );
    assert.match(build.reason ?? '', /Finished: analyst, architect, test-writer, developer, qa, reviewer\./);
    assert.match(build.reason ?? '', /Partial results are in sum-tool\/\./);
  });

  it('an analyst without PROJECT_NAME in 3 tries: the project is named from the brief, which is saved as specs/brief.md', async () => {
    const turns = happyTurns();
    turns.analyst = [say('Here is the brief.'), say('Stack: Node.'), say('No name, sorry.')];
    const h = buildHarness(turns);
    const build = await h.start();

    const name = projectNameFrom(BRIEF);
    assert.equal(name, 'adds-two-numbers');
    assert.equal(build.status, 'completed');
    assert.equal(build.projectDir, name);
    assert.equal(build.projectName, name);
    assert.equal(h.file(`${name}/specs/brief.md`), BRIEF, 'the brief itself is the project brief');
    const analyst = build.phases[0];
    assert.equal(analyst?.status, 'passed');
    assert.equal(analyst?.attempts.length, 3);
    assert.match(analyst?.attempts[2]?.reason ?? '', /Groundwork named the project adds-two-numbers from the brief/);
    assert.equal(h.file(`${name}/src/sum.js`), SUM, 'the later phases worked in that folder');
  });

  it('an analyst whose runs failed (model errors) does not get a name from the brief: the build fails', async () => {
    const h = buildHarness({ analyst: [{ error: 'overloaded' }, { error: 'overloaded' }, { error: 'overloaded' }] });
    const build = await h.start();

    assert.equal(build.status, 'failed');
    assert.equal(build.projectDir, undefined);
    assert.match(build.reason ?? '', /^Phase analyst failed: Phase analyst's run failed: overloaded \(after 3 tries\)/);
    assert.match(build.reason ?? '', /No phase finished\. No project folder was made yet\./);
    assert.deepEqual(
      h.paths().filter((p) => !p.startsWith('.groundwork')),
      ['brief.md'],
    );
  });

  it('never writes into a folder that holds anything: the project goes to name-2', async () => {
    const h = buildHarness(happyTurns(), { files: { [`${PROJECT}/notes.txt`]: 'mine\n' } });
    const build = await h.start();

    assert.equal(build.status, 'completed');
    assert.equal(build.projectDir, `${PROJECT}-2`);
    assert.equal(h.file(`${PROJECT}-2/src/sum.js`), SUM);
    assert.deepEqual(
      h.paths().filter((p) => p.startsWith(`${PROJECT}/`)),
      [`${PROJECT}/notes.txt`],
      'the existing folder is left as it was',
    );
  });

  it('an empty folder of that name may be used', async () => {
    const h = buildHarness();
    h.ws.fs.mkdir(`/ws/${PROJECT}`);
    const build = await h.start();
    assert.equal(build.projectDir, PROJECT);
  });

  it('QA FAIL: the developer runs once more with the failure in its task, then QA again', async () => {
    const turns = happyTurns();
    turns.qa = [say(QA_FAIL), say(QA_PASS)];
    turns.developer = [...(turns.developer ?? []), write('src/sum.js', SUM), say('Fixed.')];
    const h = buildHarness(turns);
    const build = await h.start();

    assert.equal(build.status, 'completed');
    assert.deepEqual(causesOf(build, 'developer'), ['first', 'qa-failed']);
    assert.deepEqual(causesOf(build, 'qa'), ['first', 'first']);
    const [, second] = h.script.tasksOf('developer');
    assert.match(second ?? '', /QA found the project failing; fix exactly this first/);
    assert.match(second ?? '', /REASON: sum subtracts instead of adding \(src\/sum\.js:1\)/);
    assert.doesNotMatch(h.script.tasksOf('developer')[0] ?? '', /QA found/);
  });

  it('a second QA failure stops the build with which phase, what finished and where the partial results are', async () => {
    const turns = happyTurns();
    turns.qa = [say(QA_FAIL), say(QA_FAIL)];
    turns.developer = [...(turns.developer ?? []), say('Fixed, I think.')];
    const h = buildHarness(turns);
    const build = await h.start();

    assert.equal(build.status, 'failed');
    assert.match(
      build.reason ?? '',
      /^Phase qa failed: QA reported VERIFICATION: FAIL: sum subtracts instead of adding/,
    );
    assert.match(
      build.reason ?? '',
      /This is the second failure \(the developer was already sent back once\), so the build stops\./,
    );
    assert.match(
      build.reason ?? '',
      /Finished: analyst, architect, test-writer, developer\. Partial results are in sum-tool\/\./,
    );
    assert.equal(h.script.callsOf('reviewer').length, 0, 'nothing after QA ran');
    assert.equal(build.phases.find((p) => p.name === 'delivery')?.status, 'pending');
    const report = h.ws.fs.text(`/ws/.groundwork/builds/${build.id}/report.md`) ?? '';
    assert.match(report, /## What stopped it/);
    assert.match(report, /REASON: sum subtracts/, "QA's reply is the evidence");
  });

  it('REVIEW: CHANGES sends the developer back once with the reasons, then QA and the review run again', async () => {
    const turns = happyTurns();
    turns.reviewer = [say('REVIEW: CHANGES\n- [blocking] sum ignores a third argument\n'), say('REVIEW: APPROVED\n')];
    turns.developer = [...(turns.developer ?? []), say('Done.')];
    turns.qa = [say(QA_PASS), say(QA_PASS)];
    const h = buildHarness(turns);
    const build = await h.start();

    assert.equal(build.status, 'completed');
    assert.deepEqual(causesOf(build, 'developer'), ['first', 'review-changes']);
    assert.equal(causesOf(build, 'qa').length, 2);
    assert.equal(causesOf(build, 'reviewer').length, 2);
    const [, second] = h.script.tasksOf('developer');
    assert.match(second ?? '', /The reviewer requested these changes; fix exactly this first/);
    assert.match(second ?? '', /sum ignores a third argument/);
  });

  it('a retry of a developer sent back by the reviewer is still told what the reviewer asked for', async () => {
    const turns = happyTurns();
    turns.reviewer = [say('REVIEW: CHANGES\n- rename sum to add\n'), say('REVIEW: APPROVED\n')];
    turns.developer = [...(turns.developer ?? []), { error: 'overloaded' }, say('Renamed.')];
    turns.qa = [say(QA_PASS), say(QA_PASS)];
    const h = buildHarness(turns);
    const build = await h.start();

    assert.equal(build.status, 'completed');
    assert.deepEqual(causesOf(build, 'developer'), ['first', 'review-changes', 'retry']);
    const retry = h.script.tasksOf('developer')[2] ?? '';
    assert.match(retry, /The reviewer requested these changes/);
    assert.doesNotMatch(retry, /QA found the project failing/);
  });

  it('a second REVIEW: CHANGES stops the build', async () => {
    const turns = happyTurns();
    const changes = say('REVIEW: CHANGES\n- rename sum to add\n');
    turns.reviewer = [changes, changes];
    turns.developer = [...(turns.developer ?? []), say('Renamed.')];
    turns.qa = [say(QA_PASS), say(QA_PASS)];
    const build = await buildHarness(turns).start();

    assert.equal(build.status, 'failed');
    assert.match(
      build.reason ?? '',
      /^Phase reviewer failed: The reviewer requested changes: rename sum to add .*second failure/,
    );
  });

  it('a feature build works in the workspace folder itself: mode feature, projectDir "."', async () => {
    const turns = happyTurns();
    turns.analyst = [say(ANALYST)];
    const h = buildHarness(turns, { files: { 'README.md': '# existing\n' } });
    const build = await h.start({ into: '/ws' });

    assert.equal(build.status, 'completed');
    assert.equal(build.mode, 'feature');
    assert.equal(build.projectDir, '.');
    assert.equal(build.projectName, PROJECT);
    assert.equal(h.file('src/sum.js'), SUM);
    assert.equal(h.file('README.md'), '# existing\n');
    assert.match(h.file('specs/brief.md') ?? '', /PROJECT_NAME: sum-tool/);
    assert.equal(h.commands.requests[0]?.cwd, '/ws');
    assert.match(h.script.tasksOf('analyst')[0] ?? '', /a feature on the existing code of this folder/);
  });

  it("each phase change is a line of the build's log and of the audit log", async () => {
    const h = buildHarness();
    const build = await h.start();
    const log = h.ws.lines(`builds/${build.id}/build.log`) ?? [];
    assert.match(log[0] ?? '', /^2026-11-24T10:00:00\.000Z build started from the brief brief\.md \(7 phases\)$/);
    assert.ok(log.some((l) => / phase qa started \(try 1, first\)$/.test(l)));
    assert.ok(log.some((l) => / phase qa passed: VERIFICATION: PASS verified/.test(l)));
    assert.match(log[log.length - 1] ?? '', / build completed$/);
    const audit = (h.ws.lines('audit.jsonl') ?? []).map((l) => JSON.parse(l) as { kind: string; status: string });
    assert.deepEqual(
      audit.filter((a) => a.kind.startsWith('build.')).map((a) => a.kind),
      ['build.start', ...Array<string>(7).fill('build.phase'), 'build.final', 'build.end'],
    );
  });

  it('a phase whose role cannot be loaded fails the build at once, naming the role', async () => {
    const h = buildHarness();
    h.deps.loadRole = async (name) => {
      if (name === 'build-reviewer') throw new Error('roles/build-reviewer.md:3: tools: "deploy" is not a tool');
      return bundledRole(name);
    };
    const build = await new BuildRunner(h.deps).start(h.request(), new AbortController().signal, () => undefined);
    assert.equal(build.status, 'failed');
    assert.match(
      build.reason ?? '',
      /^Phase reviewer failed: The role build-reviewer of phase reviewer cannot be loaded: roles\/build-reviewer\.md:3: tools/,
    );
    assert.deepEqual(causesOf(build, 'reviewer'), ['first'], 'not retried');
  });

  it("the report lists the learnings reported with the build's id", async () => {
    const h = buildHarness();
    const asked: string[] = [];
    h.deps.discoveriesOf = async (id) => {
      asked.push(id);
      return ['node --test needs Node 18 <img src=x>'];
    };
    const build = await new BuildRunner(h.deps).start(h.request(), new AbortController().signal, () => undefined);
    assert.deepEqual(asked, [build.id]);
    assert.match(
      h.file(`.groundwork/builds/${build.id}/report.md`) ?? '',
      /## Discoveries\n\n- node --test needs Node 18 &lt;img src=x>\n/,
    );
  });
});
