// A build that does not go straight through: stopped, interrupted, at its cost ceiling, resumed,
// rerun, and the starts and resumes that are refused before anything is written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BuildEvent } from '../../../src/core/build/buildRunner';
import { BUILD_INPUT_MAX_CHARS, BuildRefusedError } from '../../../src/core/build/buildRunner';
import { buildDisplayStatus } from '../../../src/core/build/buildStore';
import { VERIFIED_MAX } from '../../../src/core/build/buildRecord';
import {
  ARCHITECTURE,
  buildHarness,
  causesOf,
  happyTurns,
  QA_FAIL,
  statuses,
  SUM,
  VERIFY,
  write,
} from './buildHarness';
import type { BuildHarness, PhaseTurns } from './buildHarness';

/** Starts a build that stops itself when `phase`'s model hangs (its text reaches the terminal). */
async function stoppedIn(turns: PhaseTurns) {
  const h = buildHarness(turns);
  const stop = new AbortController();
  const build = await h.runner.start(h.request(), stop.signal, (event: BuildEvent) => {
    h.emit(event);
    if (event.type === 'run' && event.event.type === 'text' && event.event.text.includes('HANG')) stop.abort();
  });
  return { h, build };
}

const noEmit = () => undefined;
const signal = () => new AbortController().signal;
/** The CLI gives its --approve again on a resume, as here. */
const approve = { approve: [VERIFY] };

describe('BuildRunner: stop, resume and rerun', () => {
  it('stop mid-phase: the build and the attempt are stopped; Resume continues from that phase and finishes', async () => {
    const turns = happyTurns();
    turns.developer = [{ hang: 'HANG' }, write('src/sum.js', SUM), { text: 'Done.' }];
    const { h, build } = await stoppedIn(turns);

    assert.equal(build.status, 'stopped');
    assert.equal(statuses(build)['developer'], 'stopped');
    assert.deepEqual(
      build.phases.find((p) => p.name === 'developer')?.attempts.map((a) => a.status),
      ['stopped'],
    );
    assert.match(
      build.reason ?? '',
      /^Phase developer was stopped: .* Finished: analyst, architect, test-writer\. Partial results are in sum-tool\/\./,
    );
    assert.equal((await h.saved(build.id)).status, 'stopped');

    const resumed = await h.runner.resume(build.id, signal(), h.emit, approve);
    assert.equal(resumed.status, 'completed');
    assert.deepEqual(causesOf(resumed, 'developer'), ['first', 'resume']);
    assert.deepEqual(causesOf(resumed, 'architect'), ['first'], 'the phases that passed are not run again');
    assert.equal(h.file('sum-tool/src/sum.js'), SUM);
    assert.equal(resumed.reason, undefined);
    assert.equal(resumed.endedAt !== undefined, true);
  });

  it("a build whose process died (build.yaml 'running', its attempt 'running', the lock free) shows as interrupted and resumes from that phase", async () => {
    const turns = happyTurns();
    turns.qa = [{ hang: 'HANG' }, { text: 'VERIFICATION: PASS\nVERIFY: node --test\n' }];
    const { h, build } = await stoppedIn(turns);
    // What a killed process leaves: the record as it was mid-phase.
    const qa = build.phases.find((p) => p.name === 'qa');
    assert.ok(qa?.attempts[0]);
    qa.status = 'running';
    qa.attempts[0].status = 'running';
    delete qa.attempts[0].endedAt;
    delete qa.attempts[0].reason;
    build.status = 'running';
    delete build.endedAt;
    delete build.reason;
    await h.builds.save(build);
    assert.equal(buildDisplayStatus(await h.saved(build.id), await h.builds.isHeld(build.id)), 'interrupted');

    const resumed = await h.runner.resume(build.id, signal(), h.emit, approve);
    assert.equal(resumed.status, 'completed');
    const attempts = resumed.phases.find((p) => p.name === 'qa')?.attempts ?? [];
    assert.deepEqual(
      attempts.map((a) => [a.cause, a.status]),
      [
        ['first', 'stopped'],
        ['resume', 'passed'],
      ],
    );
    assert.match(attempts[0]?.reason ?? '', /Interrupted/);
    assert.equal(attempts[0]?.endedAt !== undefined, true);
  });

  it("Resume of a developer stopped while fixing QA's failure gives it that failure again", async () => {
    const turns = happyTurns();
    turns.qa = [{ text: QA_FAIL }, { text: 'VERIFICATION: PASS\nVERIFY: node --test\n' }];
    turns.developer = [...(turns.developer ?? []), { hang: 'HANG' }, write('src/sum.js', SUM), { text: 'Fixed.' }];
    const { h, build } = await stoppedIn(turns);
    assert.equal(build.status, 'stopped');

    const resumed = await h.runner.resume(build.id, signal(), h.emit, approve);
    assert.equal(resumed.status, 'completed');
    assert.deepEqual(causesOf(resumed, 'developer'), ['first', 'qa-failed', 'resume']);
    const task = h.script.tasksOf('developer')[2] ?? '';
    assert.match(task, /QA found the project failing; fix exactly this first/);
    assert.match(task, /REASON: sum subtracts instead of adding/);
    assert.doesNotMatch(
      h.script.tasksOf('developer')[0] ?? '',
      /QA found/,
      'a developer not sent back is told nothing of the kind',
    );
  });

  it('a build resumed again and again keeps the newest commands it verified, and is still saved', async () => {
    const h = buildHarness();
    const build = await h.start({ approve: [] });
    assert.equal(build.status, 'failed', 'QA could not re-run its command unattended');
    build.verified = Array.from({ length: VERIFIED_MAX }, (_, i) => ({
      phase: 'qa',
      command: `check ${i}`,
      exitCode: 0,
    }));
    await h.builds.save(build);
    h.script.turns['qa'] = [{ text: 'VERIFICATION: PASS\nVERIFY: node --test\n' }];
    h.script.turns['reviewer'] = happyTurns().reviewer ?? [];
    h.script.turns['delivery'] = happyTurns().delivery ?? [];

    const resumed = await h.runner.resume(build.id, signal(), h.emit, approve);
    assert.equal(resumed.status, 'completed');
    assert.equal(resumed.verified.length, VERIFIED_MAX);
    assert.deepEqual(resumed.verified.slice(-2), [
      { phase: 'qa', command: VERIFY, exitCode: 0, output: 'ok' },
      { phase: 'final', command: VERIFY, exitCode: 0, output: 'ok' },
    ]);
    assert.equal(resumed.verified[0]?.command, 'check 2');
    assert.equal((await h.saved(build.id)).status, 'completed');
  });

  it('resume of a completed build is refused and changes nothing', async () => {
    const h = buildHarness();
    const build = await h.start();
    const before = h.file(`.groundwork/builds/${build.id}/build.yaml`);
    await assert.rejects(
      h.runner.resume(build.id, signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /completed; use Rerun Phase/.test(err.message),
    );
    assert.equal(h.file(`.groundwork/builds/${build.id}/build.yaml`), before);
  });

  it('resume of a build under way elsewhere is refused', async () => {
    const turns = happyTurns();
    turns.architect = [{ hang: 'HANG' }];
    const h = buildHarness(turns);
    const stop = new AbortController();
    let hanging!: () => void;
    const reached = new Promise<void>((resolve) => (hanging = resolve));
    const going = h.runner.start(h.request(), stop.signal, (event) => {
      if (event.type === 'run' && event.event.type === 'text' && event.event.text.includes('HANG')) hanging();
    });
    // Asked from outside the build's own call chain, as another window or command would.
    await reached;
    const [id] = await h.buildIds();
    const refused = await h.runner.resume(id ?? '', signal(), noEmit).catch((err: unknown) => err);
    stop.abort();
    const build = await going;
    assert.equal(build.status, 'stopped');
    assert.ok(refused instanceof BuildRefusedError);
    assert.match(refused.message, /under way in another window or a groundwork command/);
  });

  it('Rerun Phase runs that phase and the ones after it again, and leaves the earlier ones', async () => {
    const turns = happyTurns();
    turns.qa = [
      { text: 'VERIFICATION: PASS\nVERIFY: node --test\n' },
      { text: 'VERIFICATION: PASS\nVERIFY: node --test\n' },
    ];
    turns.reviewer = [{ text: 'REVIEW: APPROVED' }, { text: 'REVIEW: APPROVED' }];
    turns.delivery = [...(turns.delivery ?? []), ...(happyTurns().delivery ?? [])];
    const h = buildHarness(turns);
    const first = await h.start();
    const rerun = await h.runner.rerunPhase(first.id, 'qa', signal(), h.emit, approve);

    assert.equal(rerun.status, 'completed');
    assert.deepEqual(causesOf(rerun, 'qa'), ['first', 'rerun']);
    assert.deepEqual(causesOf(rerun, 'reviewer'), ['first', 'first']);
    assert.deepEqual(causesOf(rerun, 'delivery'), ['first', 'first']);
    assert.deepEqual(causesOf(rerun, 'developer'), ['first']);
    assert.equal(h.script.callsOf('developer').length, 2, 'the developer did not run again');
  });

  it('Rerun Phase is the person asking again: a QA failure after it sends the developer back once more instead of stopping', async () => {
    const turns = happyTurns();
    const fix = [write('src/sum.js', SUM), { text: 'IMPLEMENTATION_COMPLETE' }];
    turns.developer = [...(turns.developer ?? []), ...fix, ...fix];
    turns.qa = [{ text: QA_FAIL }, ...(turns.qa ?? []), { text: QA_FAIL }, ...(happyTurns().qa ?? [])];
    turns.reviewer = [...(turns.reviewer ?? []), ...(happyTurns().reviewer ?? [])];
    turns.delivery = [...(turns.delivery ?? []), ...(happyTurns().delivery ?? [])];
    const h = buildHarness(turns);
    const first = await h.start();
    assert.equal(first.status, 'completed');
    const rerun = await h.runner.rerunPhase(first.id, 'qa', signal(), h.emit, approve);
    assert.equal(rerun.status, 'completed', rerun.reason);
    assert.deepEqual(causesOf(rerun, 'developer'), ['first', 'qa-failed', 'qa-failed']);
  });

  it('Rerun Phase marks the phases from it pending while it goes, and refuses a phase the build does not have', async () => {
    const turns = happyTurns();
    turns.architect = [...(turns.architect ?? []), { hang: 'HANG' }];
    const h = buildHarness(turns);
    const first = await h.start();
    await assert.rejects(h.runner.rerunPhase(first.id, 'deploy', signal(), noEmit), /has no phase deploy/);

    const stop = new AbortController();
    let seen: Record<string, string> | undefined;
    const rerun = await h.runner.rerunPhase(first.id, 'architect', stop.signal, (event) => {
      if (event.type === 'phase') seen = statuses(event.build);
      if (event.type === 'run' && event.event.type === 'text' && event.event.text.includes('HANG')) stop.abort();
    });
    assert.deepEqual(seen, {
      analyst: 'passed',
      architect: 'running',
      'test-writer': 'pending',
      developer: 'pending',
      qa: 'pending',
      reviewer: 'pending',
      delivery: 'pending',
    });
    assert.equal(rerun.status, 'stopped');
    await assert.rejects(
      h.runner.rerunPhase(first.id, 'qa', signal(), noEmit),
      /An earlier phase .* has not passed; Resume it instead/,
    );
  });
});

describe('BuildRunner: the cost ceiling', () => {
  it('between phases: the build stops before the next phase, as a failure that says so, with no model call for it', async () => {
    const h = buildHarness();
    // $0.01 per model call: the analyst spends 0.01, the architect 0.02.
    const build = await h.start({ maxCostUsd: 0.025 });

    assert.equal(build.status, 'failed');
    assert.match(
      build.reason ?? '',
      /reached its cost ceiling of \$0\.03 \(spent \$0\.0300\) and stopped before the next model call/,
    );
    assert.match(build.reason ?? '', /Raise groundwork\.build\.maxCostUsd \(or --max-cost\) and Resume/);
    assert.deepEqual(causesOf(build, 'test-writer'), []);
    assert.equal(h.script.callsOf('test-writer').length, 0);
    assert.equal((await h.saved(build.id)).status, 'failed');
  });

  it('inside a run: stopWhen ends it before its next model call; Resume with a higher ceiling continues from that phase', async () => {
    const turns = happyTurns();
    turns.architect = [write('specs/architecture.md', ARCHITECTURE), ...(turns.architect ?? [])];
    const h = buildHarness(turns);
    const build = await h.start({ maxCostUsd: 0.015 });

    assert.equal(build.status, 'failed');
    assert.equal(h.script.callsOf('architect').length, 1, 'no model call after the ceiling was reached');
    const architect = build.phases.find((p) => p.name === 'architect');
    assert.deepEqual(
      architect?.attempts.map((a) => [a.status, a.transient]),
      [['failed', false]],
      'the ceiling is not retried',
    );
    assert.match(architect?.attempts[0]?.reason ?? '', /cost ceiling of \$0\.01/);
    assert.match(build.reason ?? '', /^Phase architect failed: The build reached its cost ceiling/);
    assert.equal(build.costUsd?.toFixed(2), '0.02');

    const resumed = await h.runner.resume(build.id, signal(), h.emit, { ...approve, maxCostUsd: 5 });
    assert.equal(resumed.status, 'completed');
    assert.equal(resumed.maxCostUsd, 5);
    assert.deepEqual(causesOf(resumed, 'architect'), ['first', 'resume']);
  });

  it('Resume without a higher ceiling stops again at once, without a model call', async () => {
    const h = buildHarness();
    const build = await h.start({ maxCostUsd: 0.025 });
    const calls = h.script.requests.length;
    const again = await h.runner.resume(build.id, signal(), noEmit);
    assert.equal(again.status, 'failed');
    assert.match(again.reason ?? '', /cost ceiling/);
    assert.equal(h.script.requests.length, calls);
  });
});

/** Every path under .groundwork/builds, and whether any model call was made. */
function nothingWritten(h: BuildHarness): void {
  assert.deepEqual(
    h.paths().filter((p) => p.startsWith('.groundwork/builds')),
    [],
  );
  assert.equal(h.script.requests.length, 0);
}

describe('BuildRunner: refused before anything is written', () => {
  it('in an untrusted workspace: start and resume are refused', async () => {
    const h = buildHarness();
    h.trust.trusted = false;
    await assert.rejects(
      h.start(),
      (err: Error) => err instanceof BuildRefusedError && /untrusted workspace \(Restricted Mode\)/.test(err.message),
    );
    nothingWritten(h);
    await assert.rejects(h.runner.resume('20261124-100000-brief-0001', signal(), noEmit), /untrusted workspace/);
  });

  it('a blank or over-long brief', async () => {
    const h = buildHarness();
    await assert.rejects(
      h.start({ input: ' \n\t\n' }),
      (err: Error) => err instanceof BuildRefusedError && /The brief is empty/.test(err.message),
    );
    await assert.rejects(
      h.start({ input: 'x'.repeat(BUILD_INPUT_MAX_CHARS + 1) }),
      (err: Error) => err instanceof BuildRefusedError && /a build takes at most 200000/.test(err.message),
    );
    nothingWritten(h);
  });

  it('a new project from a workflow without a brief phase: nothing would name its folder', async () => {
    const h = buildHarness();
    const phases = [{ name: 'developer', role: 'build-developer', check: 'build-command' as const }];
    await assert.rejects(
      h.start({ phases }),
      (err: Error) => err instanceof BuildRefusedError && /no phase with check brief/.test(err.message),
    );
    await assert.rejects(h.start({ phases: [] }), /The workflow has no phases/);
    nothingWritten(h);
  });

  it('--into a folder outside the workspace, a link that leads out of it, or a protected folder', async () => {
    const h = buildHarness();
    h.ws.fs.mkdir('/elsewhere');
    h.ws.fs.symlink('/ws/out', '/elsewhere');
    for (const into of ['/elsewhere', '/ws/out', '/ws/../elsewhere', '/ws/missing']) {
      await assert.rejects(
        h.start({ into }),
        (err: Error) =>
          err instanceof BuildRefusedError && /does not exist or is not inside the workspace/.test(err.message),
        into,
      );
    }
    for (const dir of ['.groundwork', '.git', 'vendor/.git', '.github']) {
      h.ws.fs.mkdir(`/ws/${dir}`);
      await assert.rejects(
        h.start({ into: `/ws/${dir}` }),
        (err: Error) =>
          err instanceof BuildRefusedError && /is refused: .*a build may not work there/.test(err.message),
        dir,
      );
    }
    nothingWritten(h);
  });

  it('a damaged build.yaml, a missing input.md, a project folder that now leads out: a clear refusal on resume', async () => {
    const h = buildHarness();
    const build = await h.start({ maxCostUsd: 0.025 });
    const dir = `/ws/.groundwork/builds/${build.id}`;
    const yaml = h.ws.fs.text(`${dir}/build.yaml`) ?? '';

    h.ws.fs.writeRaw(`${dir}/build.yaml`, yaml.replace(/^status: failed$/m, 'status: [1, 2]'));
    await assert.rejects(
      h.runner.resume(build.id, signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /build\.yaml' is damaged: field status/.test(err.message),
    );
    h.ws.fs.writeRaw(`${dir}/build.yaml`, yaml.replace(/^projectDir: sum-tool$/m, 'projectDir: ../outside'));
    await assert.rejects(
      h.runner.resume(build.id, signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /is damaged: field projectDir/.test(err.message),
    );

    h.ws.fs.writeRaw(`${dir}/build.yaml`, yaml);
    await h.ws.fs.remove(`${dir}/input.md`);
    await assert.rejects(
      h.runner.resume(build.id, signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /input\.md in its folder\) is missing/.test(err.message),
    );
    h.ws.fs.writeRaw(`${dir}/input.md`, 'brief');

    await h.ws.fs.remove('/ws/sum-tool');
    h.ws.fs.mkdir('/elsewhere');
    h.ws.fs.symlink('/ws/sum-tool', '/elsewhere');
    await assert.rejects(
      h.runner.resume(build.id, signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /not inside the workspace/.test(err.message),
    );
    await assert.rejects(
      h.runner.resume('../../etc', signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /'\.\.\/\.\.\/etc' is not a build id/.test(err.message),
    );
    await assert.rejects(
      h.runner.rerunPhase('nope', 'qa', signal(), noEmit),
      (err: Error) => err instanceof BuildRefusedError && /'nope' is not a build id/.test(err.message),
    );
    assert.equal(h.file(`.groundwork/builds/${build.id}/build.yaml`), yaml, 'no refusal wrote anything');
  });
});
