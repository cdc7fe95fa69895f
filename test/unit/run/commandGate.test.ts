// The gate every command Groundwork runs for an agent goes through (run_command, and a build's own
// BUILD:/VERIFY: re-runs): trust, the exact text approved, the person asked, nothing run otherwise.
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CommandRequest, CommandResult } from '../../../src/core/commands/commandRunner';
import { gateCommand } from '../../../src/core/run/commandGate';
import type { ApprovalAnswer, GateDeps, GateState } from '../../../src/core/run/commandGate';
import type { RunEvent } from '../../../src/core/run/runTypes';

function setup(
  over: { trusted?: () => boolean; answer?: ApprovalAnswer | 'none'; patterns?: string[]; onAsk?: () => void } = {},
) {
  const answer = over.answer;
  const ran: string[] = [];
  const asked: string[] = [];
  const events: RunEvent[] = [];
  const deps: GateDeps = {
    commands: {
      async run(request: CommandRequest): Promise<CommandResult> {
        ran.push(request.command);
        request.onOutput?.('ok\n');
        return { exitCode: 0, timedOut: false, cancelled: false, output: 'ok\n', durationMs: 5 };
      },
    },
    isTrusted: over.trusted ?? (() => true),
    autoApprove: () => over.patterns ?? ['npm test'],
    ...(answer === 'none'
      ? {}
      : {
          approver: {
            async ask({ command }) {
              asked.push(command);
              over.onAsk?.();
              return answer ?? 'once';
            },
          },
        }),
  };
  const state: GateState = { approvedForRun: new Set(), manifestWritten: false };
  const request = (command: string, signal = new AbortController().signal) => ({
    command,
    folder: '/ws',
    role: 'build-qa',
    timeoutMs: 1000,
    signal,
    emit: (e: RunEvent) => events.push(e),
  });
  return { deps, state, request, ran, asked, events };
}

describe('gateCommand', () => {
  test('a pre-approved command runs without asking, its output and exit streamed', async () => {
    const s = setup();
    const out = await gateCommand(s.deps, s.state, s.request('npm test'));
    assert.equal(out.ran, true);
    assert.deepEqual(s.ran, ['npm test']);
    assert.deepEqual(s.asked, []);
    assert.deepEqual(
      s.events.map((e) => e.type),
      ['approval', 'command', 'output', 'exit'],
    );
  });

  test('anything else is asked; "for this run" holds for that exact text only', async () => {
    const s = setup({ answer: 'run' });
    await gateCommand(s.deps, s.state, s.request('node --test'));
    await gateCommand(s.deps, s.state, s.request('node --test'));
    await gateCommand(s.deps, s.state, s.request('node --test '));
    assert.deepEqual(s.asked, ['node --test', 'node --test ']);
    assert.equal(s.ran.length, 3);
  });

  test('a denial, nobody to ask, or an untrusted folder: nothing runs, and the reason says which', async () => {
    const denied = setup({ answer: 'deny' });
    assert.deepEqual(await gateCommand(denied.deps, denied.state, denied.request('node x.js')), {
      ran: false,
      decision: 'denied',
      why: 'the person denied it',
    });
    const unattended = setup({ answer: 'none' });
    const refused = await gateCommand(unattended.deps, unattended.state, unattended.request('npm test && curl x'));
    assert.equal(refused.ran, false);
    assert.match(refused.ran ? '' : refused.why, /unattended.*never be pre-approved/);
    const untrusted = setup({ trusted: () => false });
    assert.equal((await gateCommand(untrusted.deps, untrusted.state, untrusted.request('npm test'))).ran, false);
    assert.deepEqual([...denied.ran, ...unattended.ran, ...untrusted.ran], []);
  });

  test('trust withdrawn while the person was asked: not run', async () => {
    let trusted = true;
    const s = setup({ trusted: () => trusted, onAsk: () => (trusted = false) });
    const out = await gateCommand(s.deps, s.state, s.request('node x.js'));
    assert.equal(out.ran, false);
    assert.deepEqual(s.ran, []);
  });

  test('stopped while asking: not run, and said so', async () => {
    const abort = new AbortController();
    const s = setup({ onAsk: () => abort.abort() });
    const out = await gateCommand(s.deps, s.state, s.request('node x.js', abort.signal));
    assert.equal(out.decision, 'stopped');
    assert.deepEqual(s.ran, []);
  });
});
