// One attempt of one phase: the real agent run, then Groundwork's check, whose own commands
// (BUILD:, VERIFY:) go through the same approval gate as an agent's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PhaseState } from '../../../src/core/build/buildTypes';
import { CHECK_ROLE, runAttempt } from '../../../src/core/build/phaseAttempt';
import type { AttemptRequest, AttemptResult } from '../../../src/core/build/phaseAttempt';
import type { RunEvent } from '../../../src/core/run/runTypes';
import { ARCHITECTURE, buildHarness, bundledRole, QA_PASS, say, VERIFY, write } from './buildHarness';
import type { HarnessOptions, PhaseTurns } from './buildHarness';

const PHASES: Record<string, Pick<PhaseState, 'role' | 'check'>> = {
  qa: { role: 'build-qa', check: 'verification' },
  developer: { role: 'build-developer', check: 'build-command' },
  'test-writer': { role: 'build-test-writer', check: 'tests-created' },
};

/** One attempt of `phase` in /ws/proj (which holds `files`), as the orchestrator makes it. */
async function attempt(
  phase: string,
  turns: PhaseTurns,
  options: HarnessOptions & { approve?: string[]; stopOnAsk?: boolean; root?: string } = {},
) {
  const files = { 'proj/specs/architecture.md': ARCHITECTURE, ...options.files };
  const stop = new AbortController();
  const h = buildHarness(turns, { ...options, files, ...(options.stopOnAsk ? { onAsk: () => stop.abort() } : {}) });
  const events: RunEvent[] = [];
  const { role, check } = PHASES[phase] ?? { role: 'build-qa', check: 'none' };
  const gateState = { approvedForRun: new Set(options.approve ?? []), manifestWritten: true };
  const request: AttemptRequest = {
    buildId: '20261124-100000-brief-0001',
    phase: { name: phase, role, check, status: 'running', attempts: [] },
    role: bundledRole(role),
    task: `Do the ${phase} phase.`,
    root: options.root ?? '/ws/proj',
    approve: options.approve ?? [],
    gateState,
    signal: stop.signal,
    emit: (event) => events.push(event),
    onRun: () => undefined,
  };
  const result = await runAttempt(h.deps, request);
  return { h, result, events, gateState };
}

function checked(result: AttemptResult) {
  assert.equal(result.kind, 'checked', JSON.stringify(result));
  return (result as Extract<AttemptResult, { kind: 'checked' }>).outcome;
}

describe('phaseAttempt: Groundwork’s own commands go through the gate', () => {
  it('pre-approved (--approve): the command runs in the project folder and its events reach the terminal', async () => {
    const { h, result, events } = await attempt('qa', { qa: [say(QA_PASS)] }, { approve: [VERIFY] });
    const outcome = checked(result);
    assert.equal(outcome.passed, true);
    assert.deepEqual(
      h.commands.requests.map((r) => [r.command, r.cwd]),
      [[VERIFY, '/ws/proj']],
    );
    const after = events.slice(events.findIndex((e) => e.type === 'ended'));
    assert.deepEqual(
      after.map((e) => e.type),
      ['ended', 'approval', 'command', 'output', 'exit'],
      "Groundwork's re-run is shown after the run, as run events",
    );
  });

  it('unattended and not pre-approved: refused, the check fails for good, and the developer is not sent back', async () => {
    const { h, result, events } = await attempt('qa', { qa: [say(QA_PASS)] });
    const outcome = checked(result);
    assert.equal(outcome.passed, false);
    assert.equal(outcome.transient, false);
    assert.equal(outcome.sendBack, undefined);
    assert.match(
      outcome.reason ?? '',
      /^Claimed but not verified: .*`node --test` was not run \(nobody can approve it in this run \(unattended\)/,
    );
    assert.deepEqual(
      outcome.verified.map((v) => [v.command, v.exitCode]),
      [[VERIFY, null]],
    );
    assert.equal(h.commands.requests.length, 0);
    assert.ok(events.some((e) => e.type === 'approval' && e.decision === 'refused'));
  });

  it('denied by the person: the check fails with that reason, nothing runs', async () => {
    const { h, result } = await attempt('qa', { qa: [say(QA_PASS)] }, { answers: ['deny'] });
    const outcome = checked(result);
    assert.deepEqual(h.asked, [VERIFY]);
    assert.equal(outcome.passed, false);
    assert.equal(outcome.sendBack, undefined);
    assert.match(outcome.reason ?? '', /was not run \(the person denied it\)/);
    assert.equal(h.commands.requests.length, 0);
  });

  it('asked as Groundwork itself; "for this build" is kept for the rest of the build', async () => {
    const { h, result, gateState } = await attempt('qa', { qa: [say(QA_PASS)] }, { answers: ['run'] });
    assert.equal(checked(result).passed, true);
    assert.deepEqual(h.asked, [VERIFY]);
    assert.deepEqual(h.askedFor, [CHECK_ROLE]);
    assert.ok(gateState.approvedForRun.has(VERIFY));
  });

  it('stopped while the person is asked: the attempt is stopped, not failed, and nothing runs', async () => {
    const { h, result } = await attempt('qa', { qa: [say(QA_PASS)] }, { answers: ['once'], stopOnAsk: true });
    assert.equal(result.kind, 'stopped');
    assert.equal(h.commands.requests.length, 0);
  });

  it("a PASS whose command passes while the architecture's own TEST fails is sent back with that output", async () => {
    const files = { 'proj/specs/architecture.md': `${ARCHITECTURE}TEST: npm test\n` };
    const { h, result } = await attempt(
      'qa',
      { qa: [say(QA_PASS)] },
      {
        files,
        approve: [VERIFY, 'npm test'],
        commandResult: (r) => (r.command === 'npm test' ? { exitCode: 1, output: 'not ok 1 - sum\n' } : {}),
      },
    );
    const outcome = checked(result);
    assert.deepEqual(
      h.commands.requests.map((r) => r.command),
      [VERIFY, 'npm test'],
    );
    assert.equal(outcome.passed, false);
    assert.match(outcome.reason ?? '', /Claimed but not verified: .*`npm test` exited 1/);
    assert.match(outcome.sendBack?.feedback ?? '', /not ok 1 - sum/);
  });

  it("the developer's BUILD: command that fails: a verified failure with its output, not retried", async () => {
    const files = { 'proj/specs/architecture.md': `${ARCHITECTURE}BUILD: npm run build\n` };
    const { result } = await attempt(
      'developer',
      { developer: [say('IMPLEMENTATION_COMPLETE')] },
      {
        files,
        approve: ['npm run build'],
        commandResult: () => ({ exitCode: 2, output: 'error TS2304: Cannot find name x\n' }),
      },
    );
    const outcome = checked(result);
    assert.equal(outcome.passed, false);
    assert.equal(outcome.transient, false);
    assert.match(outcome.reason ?? '', /The build command `npm run build` exited 2/);
    assert.match(outcome.evidence ?? '', /\$ npm run build\nerror TS2304/);
  });
});

describe('phaseAttempt: what the check is given', () => {
  it("the created files come from the run's changes.json: a new test file passes", async () => {
    const { result } = await attempt('test-writer', {
      'test-writer': [write('test/sum.test.js', 'test()\n'), say('TESTS_COMPLETE')],
    });
    const outcome = checked(result);
    assert.equal(outcome.passed, true);
    assert.match(outcome.reason ?? '', /The run created the test file test\/sum\.test\.js\./);
  });

  it('a test file the run only changed, or one already on the disk, is not one it created', async () => {
    const files = { 'proj/test/old.test.js': 'old\n', 'proj/test/other.test.js': 'other\n' };
    const { result } = await attempt(
      'test-writer',
      { 'test-writer': [write('test/old.test.js', 'changed\n'), say('TESTS_COMPLETE')] },
      { files },
    );
    const outcome = checked(result);
    assert.equal(outcome.passed, false);
    assert.match(outcome.reason ?? '', /created no file at all/);
    assert.equal(outcome.transient, true, 'worth another try');
  });

  it('a run that fails (a model error) is reported as such, with no check made', async () => {
    const { h, result } = await attempt('qa', { qa: [{ error: 'rate limited, try later' }] }, { approve: [VERIFY] });
    assert.equal(result.kind, 'run-failed');
    assert.match((result as { reason: string }).reason, /rate limited, try later/);
    assert.equal(h.commands.requests.length, 0);
  });

  it('a root outside the workspace is a refusal, not a run', async () => {
    const { h, result } = await attempt('qa', { qa: [say(QA_PASS)] }, { root: '/elsewhere' });
    assert.equal(result.kind, 'refused');
    assert.match((result as { reason: string }).reason, /must be inside the workspace/);
    assert.equal(h.script.requests.length, 0);
  });
});
