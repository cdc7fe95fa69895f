// Commands and runs that misbehave, through the built CLI (dist/cli.js) as a real process against
// the scripted model server: a command that reads stdin, one that prints 200 MB, one that ignores
// SIGINT, one that leaves a detached grandchild behind; two runs at once in one workspace; a
// resume and a revert of a run that is live in another process.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { inOrder, reply, startScriptedModelServer } from '../../support/scriptedModelServer';
import type { MessagesBody, ScriptedModelServer } from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import { tempFolder } from '../../support/tempDirs';
import { alive, cli, runIdOf } from './agentCliHarness';
import type { ProcessRun } from '../../support/processes';

function killQuietly(pid: number | undefined): void {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/** The tool results the model was sent, in order, over every request. */
function toolResults(server: ScriptedModelServer): string[] {
  return server.requests.flatMap((r) => {
    const last = (r.body as MessagesBody | undefined)?.messages.at(-1)?.content;
    return Array.isArray(last)
      ? last.filter((b) => b['type'] === 'tool_result').map((b) => JSON.stringify(b['content']))
      : [];
  });
}

const AUTO = { GROUNDWORK_AUTO_APPROVE: '["node *"]' };

describe('commands that misbehave', () => {
  test('a command that reads stdin gets end-of-file at once: nothing hangs', async () => {
    const server = await startScriptedModelServer(
      inOrder(
        // As files: '=>' and ';' in a `node -e` text are never pre-approved.
        reply.toolUse('write_file', {
          path: 'drain.js',
          content:
            "let n = 0;\nprocess.stdin.on('data', (d) => (n += d.length)).on('end', () => console.log('stdin ended after', n, 'bytes'));\n",
        }),
        reply.toolUse('write_file', {
          path: 'ask.js',
          content:
            "require('readline').createInterface({ input: process.stdin }).question('Continue? ', (a) => console.log('answer:' + a));\n",
        }),
        reply.toolUse('run_command', { command: 'node drain.js' }),
        reply.toolUse('run_command', { command: 'node ask.js' }),
        reply.text('done'),
      ),
    );
    try {
      const ws = await tempFolder('groundwork-hostile-');
      const r = await cli(['--workspace', ws, 'agent', 'build-developer', 'read stdin', '--unattended'], server, AUTO);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.ms < 20_000, `took ${r.ms} ms`);
      assert.match(r.stderr, /stdin ended after 0 bytes/);
      assert.equal((r.stderr.match(/✓ exit 0/g) ?? []).length, 2, r.stderr);
    } finally {
      await server.close();
    }
  });

  test('a command that prints 200 MB: the run goes on, the log keeps head and tail, the model gets about 8 KB', async () => {
    const server = await startScriptedModelServer(
      inOrder(
        reply.toolUse('write_file', {
          path: 'loud.js',
          content:
            'const b = Buffer.alloc(1 << 20, 97);\nb[0] = 10;\nfor (let i = 0; i < 200; i++) process.stdout.write(b);\n',
        }),
        reply.toolUse('run_command', { command: 'node loud.js' }),
        reply.text('done'),
      ),
    );
    try {
      const ws = await tempFolder('groundwork-hostile-');
      const r = await cli(['--workspace', ws, 'agent', 'build-developer', 'print a lot', '--unattended'], server, AUTO);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderrBytes > 200 * 1024 * 1024, `the terminal saw ${r.stderrBytes} bytes`);
      assert.ok(r.ms < 90_000, `took ${r.ms} ms`);
      const id = runIdOf(r.stderr);
      const log = join(ws, `.groundwork/runs/${id}/commands`);
      const [name] = await readdir(log);
      assert.ok(name);
      const size = (await stat(join(log, name))).size;
      assert.ok(size <= 17 * 1024 * 1024, `the log is ${size} bytes`);
      assert.match(await readFile(join(log, name), 'utf8'), /bytes of output left out/);
      const result = toolResults(server).at(-1);
      assert.ok(
        result !== undefined && Buffer.byteLength(result) < 12 * 1024,
        `the model got ${result?.length} characters`,
      );
      assert.match(result ?? '', /Its output was \d+ bytes/);
    } finally {
      await server.close();
    }
  });

  test('Ctrl-C while a command ignores SIGINT: it is killed after the grace period, the run is stopped, nothing is left', async () => {
    const stubborn =
      "require('fs').writeFileSync('pid.txt', String(process.pid)); process.on('SIGINT', () => console.log('ignoring SIGINT')); setInterval(() => {}, 1000);";
    const server = await startScriptedModelServer(
      inOrder(
        reply.toolUse('write_file', { path: 'stubborn.js', content: stubborn }),
        reply.toolUse('run_command', { command: 'node stubborn.js' }),
      ),
    );
    const ws = await tempFolder('groundwork-hostile-');
    let pid: number | undefined;
    let signalledAt = 0;
    try {
      const r = await cli(
        ['--workspace', ws, 'agent', 'build-developer', 'stubborn', '--unattended'],
        server,
        AUTO,
        (stderr, kill) => {
          void until(
            'the command to start',
            () =>
              stderr().includes('▶ node stubborn.js') &&
              existsSync(join(ws, 'pid.txt')) &&
              readFileSync(join(ws, 'pid.txt'), 'utf8'),
          ).then((text) => {
            pid = Number(text);
            signalledAt = Date.now();
            kill('SIGINT');
          });
        },
      );
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /■ Stopped/);
      assert.ok(Date.now() - signalledAt < 10_000, `stopped ${Date.now() - signalledAt} ms after Ctrl-C`);
      assert.ok(pid !== undefined);
      assert.equal(alive(pid), false, 'the stubborn command is gone');
      const run = JSON.parse(await readFile(join(ws, `.groundwork/runs/${runIdOf(r.stderr)}/run.json`), 'utf8')) as {
        status: string;
      };
      assert.equal(run.status, 'stopped');
    } finally {
      killQuietly(pid);
      await server.close();
    }
  });
});

describe('runs that meet', () => {
  test('two CLI runs at once in one workspace: both complete, each with its own folder, changes and transcript', async () => {
    const task = (body: MessagesBody) => JSON.stringify(body.messages[0]?.content ?? '');
    const server = await startScriptedModelServer([
      {
        name: 'A writes',
        match: (b) => task(b).includes('task A') && b.messages.length === 1,
        reply: reply.toolUse('write_file', { path: 'a.txt', content: 'A\n' }),
      },
      {
        name: 'B writes',
        match: (b) => task(b).includes('task B') && b.messages.length === 1,
        reply: reply.toolUse('write_file', { path: 'b.txt', content: 'B\n' }),
      },
      {
        name: 'A runs',
        match: (b) => task(b).includes('task A') && b.messages.length === 3,
        reply: reply.toolUse('run_command', { command: 'node -e "setTimeout(console.log,300,1)"' }),
      },
      {
        name: 'B runs',
        match: (b) => task(b).includes('task B') && b.messages.length === 3,
        reply: reply.toolUse('run_command', { command: 'node -e "setTimeout(console.log,300,2)"' }),
      },
      {
        name: 'A ends',
        match: (b) => task(b).includes('task A') && b.messages.length === 5,
        reply: reply.text('A done'),
      },
      {
        name: 'B ends',
        match: (b) => task(b).includes('task B') && b.messages.length === 5,
        reply: reply.text('B done'),
      },
    ]);
    try {
      const ws = await tempFolder('groundwork-hostile-');
      const [a, b] = await Promise.all([
        cli(['--workspace', ws, 'agent', 'build-developer', 'task A', '--unattended'], server, AUTO),
        cli(['--workspace', ws, 'agent', 'build-developer', 'task B', '--unattended'], server, AUTO),
      ]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      const [idA, idB] = [runIdOf(a.stderr), runIdOf(b.stderr)];
      assert.notEqual(idA, idB);
      assert.deepEqual(server.pending(), []);
      for (const [id, file] of [
        [idA, 'a.txt'],
        [idB, 'b.txt'],
      ] as const) {
        const changes = JSON.parse(await readFile(join(ws, `.groundwork/runs/${id}/changes.json`), 'utf8')) as {
          files: { path: string }[];
        };
        assert.deepEqual(
          changes.files.map((f) => f.path),
          [file],
        );
        const lines = (await readFile(join(ws, `.groundwork/runs/${id}/transcript.jsonl`), 'utf8')).trim().split('\n');
        for (const line of lines) JSON.parse(line);
        assert.equal(lines.filter((l) => l.includes('"type":"command"')).length, 1);
      }
      const list = await cli(['--workspace', ws, 'runs', 'list', '--json'], server);
      const runs = JSON.parse(list.stdout) as { id: string; status: string }[];
      assert.deepEqual(runs.map((r) => r.status).sort(), ['completed', 'completed']);
    } finally {
      await server.close();
    }
  });

  test('resume and revert of a run live in another process are refused, saying why; it is listed as running, then stopped', async () => {
    const server = await startScriptedModelServer([
      { name: 'write', reply: reply.toolUse('write_file', { path: 'a.txt', content: 'A\n' }) },
      { name: 'hang', times: Infinity, reply: reply.blackHole() },
    ]);
    try {
      const ws = await tempFolder('groundwork-hostile-');
      let id = '';
      const outcome: { resume?: ProcessRun; revert?: ProcessRun; list?: ProcessRun } = {};
      const live = await cli(
        ['--workspace', ws, 'agent', 'build-developer', 'hang', '--unattended'],
        server,
        {},
        (stderr, kill) => {
          void until('the write', () => /✎ wrote a\.txt/.test(stderr()) && server.requests.length >= 2)
            .then(async () => {
              const dirs = await readdir(join(ws, '.groundwork/runs'));
              id = dirs[0] ?? '';
              outcome.resume = await cli(['--workspace', ws, 'runs', 'resume', id, '--unattended'], server);
              outcome.revert = await cli(['--workspace', ws, 'runs', 'revert', id], server);
              outcome.list = await cli(['--workspace', ws, 'runs', 'list'], server);
            })
            .finally(() => kill('SIGINT'));
        },
      );
      assert.equal(live.code, 1, live.stderr);
      assert.equal(outcome.resume?.code, 2, outcome.resume?.stderr);
      assert.match(outcome.resume?.stderr ?? '', /under way in another window or a groundwork command/);
      assert.equal(outcome.revert?.code, 2, outcome.revert?.stderr);
      assert.match(outcome.revert?.stderr ?? '', /is under way; stop it before reverting it/);
      assert.match(outcome.list?.stdout ?? '', new RegExp(`${id}  running`));
      assert.equal(await readFile(join(ws, 'a.txt'), 'utf8'), 'A\n', 'nothing reverted');
      const after = await cli(['--workspace', ws, 'runs', 'list'], server);
      assert.match(after.stdout, new RegExp(`${id}  stopped`));
    } finally {
      await server.close();
    }
  });
});

// Found by an adversarial review and fixed (NodeCommandRunner marks every process of a command and
// kills the marked ones that left its group): each test guards the fix.
describe('found by review', () => {
  // NodeCommandRunner (src/core/node/nodeCommandRunner.ts) kills the command's process GROUP; a
  // process that leaves it (setsid, or Node's spawn with detached: true, which is setsid) is never
  // signalled, and survives Ctrl-C, a timeout and the command's normal end. The issue promises
  // "leaving no process behind". Possible fix on Linux: give each command a marker in its
  // environment (GROUNDWORK_COMMAND=<random>) and, after the group is gone, kill the processes of
  // this user whose /proc/<pid>/environ holds it; or run the command in a cgroup of its own
  // (systemd-run --user --scope) where available. At least document it.
  const spawner = (stay: boolean) =>
    "const { spawn } = require('node:child_process');\n" +
    "const c = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });\n" +
    "c.unref();\nrequire('node:fs').writeFileSync('grandchild.pid', String(c.pid));\n" +
    (stay ? 'setInterval(() => {}, 1000);\n' : "console.log('left a daemon');\n");

  for (const [how, stay, args, runArgs] of [
    ['Ctrl-C', true, {}, []],
    ['its timeout', true, { timeout_seconds: 2 }, []],
    ['its normal end', false, {}, []],
  ] as const) {
    test(`no detached grandchild outlives a command stopped by ${how}`, async () => {
      const server = await startScriptedModelServer(
        inOrder(
          reply.toolUse('write_file', { path: 'spawner.js', content: spawner(stay) }),
          reply.toolUse('run_command', { command: 'node spawner.js', ...args }),
          reply.text('done'),
        ),
      );
      const ws = await tempFolder('groundwork-hostile-');
      let pid: number | undefined;
      try {
        await cli(
          ['--workspace', ws, 'agent', 'build-developer', 'daemon', '--unattended', ...runArgs],
          server,
          AUTO,
          (stderr, kill) => {
            if (how !== 'Ctrl-C') return;
            void until(
              'the grandchild',
              () =>
                stderr().includes('▶ node spawner.js') &&
                existsSync(join(ws, 'grandchild.pid')) &&
                readFileSync(join(ws, 'grandchild.pid'), 'utf8'),
            ).then(() => kill('SIGINT'));
          },
        );
        pid = Number(await readFile(join(ws, 'grandchild.pid'), 'utf8'));
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(alive(pid), false, `the detached grandchild ${pid} is still running`);
      } finally {
        killQuietly(pid);
        await server.close();
      }
    });
  }
});
