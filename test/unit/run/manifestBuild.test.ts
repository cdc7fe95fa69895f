// The manifest rule build-wide: a phase that wrote package.json, or ran a command, makes every later
// phase (and Groundwork's own checks) ask again for the script runners the build pre-approved; the
// state is made again from the build's runs at Resume; Groundwork's frozen re-runs may be exempted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BuildEvent } from '../../../src/core/build/buildRunner';
import { gateCommand } from '../../../src/core/run/commandGate';
import type { GateState } from '../../../src/core/run/commandGate';
import type { RunEvent } from '../../../src/core/run/runTypes';
import type { Turn } from '../session/toolScript';
import { ARCHITECTURE, PROJECT, QA_PASS, VERIFY, buildHarness, happyTurns, say, write } from '../build/buildHarness';

const NPM_ARCHITECTURE = ARCHITECTURE.replace(`TEST: ${VERIFY}`, 'TEST: npm test');
const PACKAGE = '{"scripts":{"test":"node --test"}}\n';
const CHEAT = '{"scripts":{"test":"exit 0"}}\n';
const run = (command: string): Turn => ({ tools: [{ name: 'run_command', input: { command } }] });
const signal = () => new AbortController().signal;

/** The 'refused' approvals of the build's runs and checks, as [command, why]. */
function refusals(events: BuildEvent[]): [string, string][] {
  return events
    .filter((e): e is Extract<BuildEvent, { type: 'run' }> => e.type === 'run')
    .map((e) => e.event)
    .filter((e): e is Extract<RunEvent, { type: 'approval' }> => e.type === 'approval' && e.decision === 'refused')
    .map((e) => [e.command, e.why ?? '']);
}

describe('a build: the manifest rule from phase to phase', () => {
  test('the developer rewrites the test script to exit 0 and runs npm test: the write and the command are refused; the build completes on the real script', async () => {
    const turns = happyTurns();
    turns.architect = [
      write('specs/architecture.md', NPM_ARCHITECTURE),
      write('package.json', PACKAGE),
      say('ARCHITECTURE_COMPLETE'),
    ];
    turns.developer = [write('package.json', CHEAT), run('npm test'), say('IMPLEMENTATION_COMPLETE')];
    turns.qa = [say(QA_PASS.replace(`VERIFY: ${VERIFY}`, 'VERIFY: npm test'))];
    const h = buildHarness(turns);
    const build = await h.start({ approve: ['npm test', VERIFY] });
    assert.equal(build.status, 'completed', build.reason);
    assert.equal(h.file(`${PROJECT}/package.json`), PACKAGE, 'write_file refused the frozen test script');
    const refused = refusals(h.events);
    assert.equal(refused.length, 1, JSON.stringify(refused));
    assert.match(
      refused[0]?.[1] ?? '',
      /package\.json was written in this build \(phase architect\), so script runners/,
    );
    // Groundwork's own re-runs of the frozen npm test: the scripts it runs are as frozen.
    assert.deepEqual(
      h.commands.requests.map((r) => r.command),
      ['npm test', 'npm test'],
    );
  });

  test('a later phase asks again for what an earlier phase’s write made uncertain', async () => {
    const turns = happyTurns();
    turns.architect = [
      write('specs/architecture.md', ARCHITECTURE),
      write('packages/a/package.json', PACKAGE),
      say('ARCHITECTURE_COMPLETE'),
    ];
    turns['test-writer'] = [run('npm test'), ...(turns['test-writer'] ?? [])];
    const h = buildHarness(turns);
    const build = await h.start({ approve: ['npm test', VERIFY] });
    assert.equal(build.status, 'completed', build.reason);
    assert.deepEqual(refusals(h.events), [
      [
        'npm test',
        'nobody can approve it in this run (unattended), and packages/a/package.json was written in this build (phase architect), so script runners (npm, make, cargo…) are asked again',
      ],
    ]);
  });

  test('a command an earlier phase ran may have written a manifest: later phases ask again', async () => {
    const turns = happyTurns();
    turns.architect = [run('mkdir -p src'), ...(turns.architect ?? [])];
    turns.developer = [run('npm test'), ...(turns.developer ?? [])];
    const h = buildHarness(turns);
    const build = await h.start({ approve: ['npm test', 'mkdir -p src', VERIFY] });
    assert.equal(build.status, 'completed', build.reason);
    assert.deepEqual(
      h.commands.requests.map((r) => r.command),
      ['mkdir -p src', VERIFY, VERIFY],
      'QA’s re-run and the final verification’s',
    );
    assert.match(
      refusals(h.events)[0]?.[1] ?? '',
      /\(unattended\), and phase architect of this build ran commands, and a command may/,
    );
  });

  test('with no manifest written and no command run, --approve holds in every phase', async () => {
    const turns = happyTurns();
    turns['test-writer'] = [run('npm test'), ...(turns['test-writer'] ?? [])];
    const h = buildHarness(turns);
    await h.start({ approve: ['npm test', VERIFY] });
    assert.equal(h.commands.requests[0]?.command, 'npm test');
  });

  test('Resume: a build whose architect wrote package.json still asks in the phases it runs again', async () => {
    const turns = happyTurns();
    turns.architect = [
      write('specs/architecture.md', ARCHITECTURE),
      write('package.json', PACKAGE),
      say('ARCHITECTURE_COMPLETE'),
    ];
    turns.developer = [{ error: 'down' }, { error: 'down' }, { error: 'down' }];
    const h = buildHarness(turns);
    const failed = await h.start({ approve: ['npm test', VERIFY] });
    assert.equal(failed.status, 'failed');
    h.script.turns.developer = [run('npm test'), write('src/sum.js', 'exports.sum = (a, b) => a + b;\n'), say('OK')];
    const resumed = await h.runner.resume(failed.id, signal(), h.emit, { approve: ['npm test', VERIFY] });
    assert.equal(resumed.status, 'completed', resumed.reason);
    assert.ok(!h.commands.requests.some((r) => r.command === 'npm test'));
    assert.match(
      refusals(h.events)[0]?.[1] ?? '',
      /\(unattended\), and package\.json was written in this build \(phase architect\)/,
    );
  });
});

describe('the gate: Groundwork’s own frozen re-runs', () => {
  const state = (): GateState => ({
    approvedForRun: new Set(),
    preApproved: new Set(['npm test']),
    manifestWritten: true,
    manifestWhy: 'package.json was written in this build (phase developer)',
  });
  const deps = (ran: string[]) => ({
    commands: {
      run: async (r: { command: string }) => {
        ran.push(r.command);
        return { exitCode: 0, timedOut: false, cancelled: false, output: '', durationMs: 1 };
      },
    },
    isTrusted: () => true,
    autoApprove: () => [],
  });
  const request = (command: string, frozenContractHolds?: boolean) => ({
    command,
    folder: '/ws',
    role: 'Groundwork (build check)',
    timeoutMs: 1000,
    signal: signal(),
    emit: () => undefined,
    ...(frozenContractHolds === undefined ? {} : { frozenContractHolds }),
  });

  test('frozenContractHolds: the manifest rule is lifted, --approve holds', async () => {
    const ran: string[] = [];
    assert.equal((await gateCommand(deps(ran), state(), request('npm test'))).ran, false);
    const out = await gateCommand(deps(ran), state(), request('npm test', true));
    assert.equal(out.ran, true);
    assert.deepEqual(ran, ['npm test']);
  });

  test('frozenContractHolds does not approve what was never approved', async () => {
    const ran: string[] = [];
    const out = await gateCommand(deps(ran), state(), request('npm run build', true));
    assert.equal(out.ran, false);
    assert.match(out.ran ? '' : out.why, /unattended\), and it is not in groundwork\.commands\.autoApprove/);
  });
});
