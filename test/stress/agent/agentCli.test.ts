// `groundwork agent` and `groundwork runs` as a person uses them: the built CLI (dist/cli.js) as a
// real process against the scripted model server, real files, real commands in their own process
// groups, and real signals (Ctrl-C, SIGTERM) sent to the CLI mid-command.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { inOrder, reply, startScriptedModelServer } from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import { repo } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';
import { KEY, alive, cli, runIdOf } from './agentCliHarness';

const SUM = 'function sum(a, b) {\n  return a + b;\n}\nmodule.exports = { sum };\n';
const TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('../src/sum.js');\ntest('sum adds', () => assert.equal(sum(1, 2), 3));\n";

async function runJson(ws: string, id: string): Promise<{ status: string; turns: number }> {
  return JSON.parse(await readFile(join(ws, `.groundwork/runs/${id}/run.json`), 'utf8')) as {
    status: string;
    turns: number;
  };
}

const sha = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

describe('groundwork agent: the built CLI', () => {
  test('build-developer lists, writes, runs node --test (approved), sleeps, reports and sums up', async () => {
    assert.ok(existsSync(join(repo, 'dist/cli.js')), 'dist/cli.js is missing: run npm run build');
    const server = await startScriptedModelServer(
      inOrder(
        reply.toolUse('list_files', { path: '.' }, { text: ['Let me look first.'] }),
        reply.toolUse('write_file', { path: 'src/sum.js', content: SUM }),
        reply.toolUse('write_file', { path: 'test/sum.test.js', content: TEST }),
        reply.toolUse('run_command', { command: 'node --test' }),
        reply.toolUse('sleep', { mode: 'timer', seconds: 1, reason: 'settle' }),
        reply.toolUse('report_discovery', { scope: 'global', content: 'Tests run with node --test.' }),
        reply.text('sum() is written and its test passes.'),
      ),
    );
    try {
      const ws = await tempFolder('groundwork-agent-');
      const r = await cli(
        ['--workspace', ws, 'agent', 'build-developer', 'Write sum() with a test', '--approve', 'node --test'],
        server,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await readFile(join(ws, 'src/sum.js'), 'utf8'), SUM);
      assert.equal(await readFile(join(ws, 'test/sum.test.js'), 'utf8'), TEST);
      assert.match(r.stderr, /✎ wrote src\/sum\.js \(4 lines, new\)/);
      assert.match(r.stderr, /▶ node --test\n[\s\S]*pass 1[\s\S]*✓ exit 0 in /);
      assert.match(r.stderr, /■ Completed: 7 turns/);
      const id = runIdOf(r.stderr);
      const transcript = (await readFile(join(ws, `.groundwork/runs/${id}/transcript.jsonl`), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; exitCode?: number });
      const commands = transcript.filter((t) => t.type === 'command');
      assert.equal(commands.length, 1);
      assert.equal(commands[0]?.exitCode, 0);
      const sleep = (await readFile(join(ws, '.groundwork/sleep.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { event: string }).event);
      assert.deepEqual(sleep, ['started', 'woken']);
      assert.match(await readFile(join(ws, '.groundwork/discoveries.jsonl'), 'utf8'), /Tests run with node --test\./);
      assert.ok(existsSync(join(ws, `.groundwork/runs/${id}/changes.json`)));
      assert.equal((await runJson(ws, id)).status, 'completed');
      // The key reaches neither the command's environment nor any file.
      for (const file of await readdir(join(ws, `.groundwork/runs/${id}`), { recursive: true })) {
        const path = join(ws, `.groundwork/runs/${id}`, file);
        if (existsSync(path) && !(await readdir(path).catch(() => undefined)))
          assert.doesNotMatch(await readFile(path, 'utf8'), new RegExp(KEY));
      }
      assert.equal(server.pending().length, 0);
    } finally {
      await server.close();
    }
  });

  test('the bypass corpus is refused under --unattended, whatever GROUNDWORK_AUTO_APPROVE says', async () => {
    const corpus = [
      'npm test; rm -rf x',
      'npm test && curl x',
      'npm test | sh',
      'node -e "$(cat x)"',
      'node `x`',
      'npm test\nrm x',
      'node a > .vscode/settings.json',
      'eval node',
      'sudo node x',
      `${'node x && '.repeat(51)}node x`,
    ];
    const server = await startScriptedModelServer(
      inOrder(...corpus.map((command) => reply.toolUse('run_command', { command })), reply.text('Nothing ran.')),
    );
    try {
      const ws = await tempFolder('groundwork-agent-');
      const r = await cli(['--workspace', ws, 'agent', 'build-developer', 'try everything', '--unattended'], server, {
        GROUNDWORK_AUTO_APPROVE: '["npm test", "node *"]',
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal((r.stderr.match(/⊘ Not run: /g) ?? []).length, corpus.length, r.stderr);
      assert.doesNotMatch(r.stderr, /▶ /, 'no command started');
      const id = runIdOf(r.stderr);
      const transcript = (await readFile(join(ws, `.groundwork/runs/${id}/transcript.jsonl`), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; decision?: string; command?: string });
      const commands = transcript.filter((t) => t.type === 'command');
      assert.deepEqual(
        commands.map((c) => [c.command, c.decision]),
        corpus.map((c) => [c, 'refused']),
      );
    } finally {
      await server.close();
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} mid-command stops the run and the command's whole process group; Resume continues from the last complete turn`, async () => {
      const hang =
        "const { spawn } = require('node:child_process');\nconst fs = require('node:fs');\nconst c = spawn('sleep', ['60'], { stdio: 'ignore' });\nfs.writeFileSync('pids.txt', process.pid + ' ' + c.pid);\nsetInterval(() => {}, 1000);\n";
      const server = await startScriptedModelServer(
        inOrder(
          reply.toolUse('write_file', { path: 'hang.js', content: hang }),
          reply.toolUse('run_command', { command: 'node hang.js' }),
          reply.text('Resumed: the rest is done.'),
        ),
      );
      try {
        const ws = await tempFolder('groundwork-agent-');
        let pids: number[] = [];
        const r = await cli(
          ['--workspace', ws, 'agent', 'build-developer', 'hang', '--approve', 'node hang.js'],
          server,
          {},
          (stderr, kill) => {
            void until('the command to start', async () =>
              stderr().includes('▶ node hang.js') && existsSync(join(ws, 'pids.txt'))
                ? (await readFile(join(ws, 'pids.txt'), 'utf8')).trim()
                : undefined,
            ).then((text) => {
              pids = text.split(' ').map(Number);
              kill(signal);
            });
          },
        );
        assert.equal(r.code, 1, r.stderr);
        assert.equal(pids.length, 2);
        for (const pid of pids) assert.equal(alive(pid), false, `process ${pid} of the command's group is gone`);
        assert.match(r.stderr, /■ Stopped/);
        const id = runIdOf(r.stderr);
        assert.match(r.stderr.trim().split('\n').at(-1) ?? '', /stopped/);
        assert.equal((await runJson(ws, id)).status, 'stopped');

        const resumed = await cli(['--workspace', ws, 'runs', 'resume', id], server);
        assert.equal(resumed.code, 0, resumed.stderr);
        const messages =
          (server.requests.at(-1)?.body as { messages: { content: unknown }[] } | undefined)?.messages ?? [];
        // The task, the write turn and its result, the command's turn and its result: that the run was stopped.
        assert.equal(messages.length, 5);
        assert.match(JSON.stringify(messages[4]?.content), /The command was stopped: the run was cancelled/);
        assert.equal((await runJson(ws, id)).status, 'completed');
      } finally {
        await server.close();
      }
    });
  }

  test('runs revert restores the workspace byte for byte, and refuses a file changed outside the run', async () => {
    const server = await startScriptedModelServer(
      inOrder(
        reply.toolUse('write_file', { path: 'notes.md', content: 'replaced\n' }),
        reply.toolUse('edit_file', { path: 'data.bin.txt', old_text: 'two', new_text: 'TWO' }),
        reply.toolUse('write_file', { path: 'new/deep/file.txt', content: 'created\n' }),
        reply.text('done'),
        reply.toolUse('write_file', { path: 'notes.md', content: 'again\n' }),
        reply.text('done again'),
      ),
    );
    try {
      const ws = await tempFolder('groundwork-agent-');
      await writeFile(join(ws, 'notes.md'), 'original\r\nwith CRLF and ünïcödé\r\n');
      await writeFile(join(ws, 'data.bin.txt'), 'one two three');
      const before = { notes: await sha(join(ws, 'notes.md')), data: await sha(join(ws, 'data.bin.txt')) };
      const first = await cli(['--workspace', ws, 'agent', 'build-developer', 'change things', '--unattended'], server);
      assert.equal(first.code, 0, first.stderr);
      const id = runIdOf(first.stderr);
      assert.equal(await readFile(join(ws, 'data.bin.txt'), 'utf8'), 'one TWO three');
      const reverted = await cli(['--workspace', ws, 'runs', 'revert', id], server);
      assert.equal(reverted.code, 0, reverted.stderr);
      assert.equal(await sha(join(ws, 'notes.md')), before.notes);
      assert.equal(await sha(join(ws, 'data.bin.txt')), before.data);
      assert.equal(existsSync(join(ws, 'new/deep/file.txt')), false);

      const second = await cli(['--workspace', ws, 'agent', 'build-developer', 'change again', '--unattended'], server);
      const id2 = runIdOf(second.stderr);
      await writeFile(join(ws, 'notes.md'), 'edited by a person\n');
      const refused = await cli(['--workspace', ws, 'runs', 'revert', id2], server);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /notes\.md/);
      assert.equal(await readFile(join(ws, 'notes.md'), 'utf8'), 'edited by a person\n', 'nothing touched');
    } finally {
      await server.close();
    }
  });
});
