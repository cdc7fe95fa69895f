// The command runner with real processes: what a command gets (its folder, a minimal environment),
// what comes back (exit code, output, head and tail of a flood), and that stopping it — by timeout,
// by abort, or by its ending with a job still in the background — leaves no process of its group.
import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandRequest } from '../../../src/core/commands/commandRunner';
import { minimalEnv, NodeCommandRunner } from '../../../src/core/node/nodeCommandRunner';

let dir: string;
const groups: number[] = [];

before(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gw-commands-')));
});
after(async () => {
  for (const pgid of groups) if (!groupGone(pgid)) process.kill(-pgid, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function request(command: string, over: Partial<CommandRequest> = {}): CommandRequest {
  return { command, cwd: dir, timeoutMs: 10_000, signal: new AbortController().signal, ...over };
}

/** The number the command printed as `<name>=<n>`, once it has printed it. */
function printed(output: string, name: string): number | undefined {
  const match = new RegExp(`${name}=(\\d+)`).exec(output);
  if (!match) return undefined;
  const n = Number(match[1]);
  if (name === 'pid') groups.push(n);
  return n;
}

describe('NodeCommandRunner', { skip: process.platform === 'win32' ? 'process groups are POSIX' : false }, () => {
  const runner = new NodeCommandRunner({ graceMs: 300 });

  test('captures the exit code and stdout and stderr, merged, as they arrive', async () => {
    const chunks: string[] = [];
    const result = await runner.run(
      request('echo out; echo err 1>&2; printf "é"', { onOutput: (c) => chunks.push(c) }),
    );
    assert.equal(result.exitCode, 0);
    assert.equal(result.signal, undefined);
    assert.deepEqual([result.timedOut, result.cancelled], [false, false]);
    assert.match(result.output, /out\n/);
    assert.match(result.output, /err\n/);
    assert.match(result.output, /é/, 'UTF-8 decoded');
    assert.equal(chunks.join(''), result.output);
    assert.ok(result.durationMs > 0 && result.durationMs < 5000);
  });

  test('a failing command is a result with its exit code', async () => {
    const result = await runner.run(request('echo failing; exit 3'));
    assert.equal(result.exitCode, 3);
    assert.equal(result.output, 'failing\n');
  });

  test('the command gets a minimal environment: no API key, whatever the base holds', async () => {
    const base = {
      PATH: process.env['PATH'],
      HOME: '/home/x',
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      AWS_SECRET_ACCESS_KEY: 'aws',
      NODE_OPTIONS: '--require evil.js',
    };
    const result = await new NodeCommandRunner({ env: base }).run(request('env'));
    assert.doesNotMatch(result.output, /sk-ant-secret|ANTHROPIC|AWS_|NODE_OPTIONS/);
    assert.match(result.output, /^GROUNDWORK_AGENT=1$/m);
    assert.match(result.output, /^HOME=\/home\/x$/m);
    assert.match(result.output, /^TERM=dumb$/m);
    assert.deepEqual(Object.keys(minimalEnv(base, 'linux')).sort(), ['GROUNDWORK_AGENT', 'HOME', 'PATH', 'TERM']);
    assert.deepEqual(minimalEnv({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', ANTHROPIC_API_KEY: 'k' }, 'win32'), {
      Path: 'C:\\bin',
      SystemRoot: 'C:\\Windows',
      TERM: 'dumb',
      GROUNDWORK_AGENT: '1',
      NoDefaultCurrentDirectoryInExePath: '1',
    });
  });

  test('runs in the folder it is given', async () => {
    const result = await runner.run(request('pwd'));
    assert.equal(result.output.trim(), dir);
  });

  test('a timeout sends SIGINT, then SIGKILL to a group that ignores it, and leaves no process behind', async () => {
    const started = performance.now();
    const result = await runner.run(
      request('echo pid=$$; trap "echo got-INT" INT; while :; do sleep 0.05; done', { timeoutMs: 300 }),
    );
    const pgid = printed(result.output, 'pid');
    assert.ok(pgid !== undefined, result.output);
    assert.equal(result.timedOut, true);
    assert.equal(result.cancelled, false);
    assert.match(result.output, /got-INT/, 'SIGINT came first');
    assert.equal(result.signal, 'SIGKILL');
    assert.equal(result.exitCode, undefined);
    assert.ok(performance.now() - started >= 550, 'the grace period was given');
    assert.ok(groupGone(pgid), 'no process of the group is alive');
  });

  test('a command that ignores SIGINT entirely is killed after the grace period', async () => {
    const result = await runner.run(request('echo pid=$$; trap "" INT; sleep 30', { timeoutMs: 200 }));
    const pgid = printed(result.output, 'pid');
    assert.ok(pgid !== undefined);
    assert.equal(result.timedOut, true);
    assert.ok(result.durationMs < 10_000);
    assert.ok(groupGone(pgid));
  });

  test('aborting stops the command and its group, and says it was cancelled', async () => {
    const abort = new AbortController();
    let output = '';
    const running = runner.run(
      request('echo pid=$$; sleep 30 & sleep 30', {
        signal: abort.signal,
        onOutput: (chunk) => {
          output += chunk;
          if (/pid=\d+/.test(output)) abort.abort();
        },
      }),
    );
    const result = await running;
    const pgid = printed(result.output, 'pid');
    assert.ok(pgid !== undefined);
    assert.equal(result.cancelled, true);
    assert.equal(result.timedOut, false);
    assert.ok(result.durationMs < 10_000);
    assert.ok(groupGone(pgid));
  });

  test('an abort before the start runs nothing', async () => {
    const abort = new AbortController();
    abort.abort();
    const result = await runner.run(request(`touch ${join(dir, 'ran')}`, { signal: abort.signal }));
    assert.equal(result.cancelled, true);
    assert.equal((await runner.run(request('ls'))).output.includes('ran'), false);
  });

  test('a job left in the background does not outlive the command', async () => {
    const result = await runner.run(request('echo pid=$$; sleep 30 & echo bg=$!; echo started'));
    const pgid = printed(result.output, 'pid');
    const background = printed(result.output, 'bg');
    assert.ok(pgid !== undefined && background !== undefined, result.output);
    assert.equal(result.exitCode, 0);
    assert.match(result.output, /started/);
    assert.deepEqual([result.timedOut, result.cancelled], [false, false]);
    assert.ok(groupGone(pgid));
    assert.throws(() => process.kill(background, 0), { code: 'ESRCH' });
  });

  test('output over the limit keeps its head and its tail, and says how much was left out', async () => {
    const small = new NodeCommandRunner({ maxCapturedBytes: 1000 });
    const result = await small.run(request("echo HEAD; head -c 200000 /dev/zero | tr '\\0' x; echo; echo TAIL"));
    assert.equal(result.exitCode, 0);
    assert.ok(result.output.startsWith('HEAD\nxxx'));
    assert.ok(result.output.endsWith('xxx\nTAIL\n'));
    const note = /\[… (\d+) bytes of output left out …\]/.exec(result.output);
    assert.ok(note);
    assert.equal(Number(note[1]), 5 + 200_000 + 1 + 5 - 1000);
    assert.ok(Buffer.byteLength(result.output) < 1100);
  });

  test('a folder that does not exist is a rejection that says what to do', async () => {
    await assert.rejects(runner.run(request('true', { cwd: join(dir, 'missing') })), /folder .*missing does not exist/);
  });
});
