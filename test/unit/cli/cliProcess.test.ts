// The CLI in-process over the real store, on real temporary workspaces. The same commands as a real
// child process: test/stress/cli/cliProcess.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import { T0, cliHere } from './cliHarness';
import { tempFolder } from '../../support/tempDirs';
import type { CliRun } from '../../support/processes';
import { FakeClock } from '../../support/fakeClock';

async function workspace(): Promise<string> {
  return tempFolder();
}

async function inProcess(argv: string[], cwd: string): Promise<CliRun> {
  return cliHere(argv, { ...createNodeDeps(), clock: new FakeClock(T0) }, { cwd });
}

describe('groundwork in-process over the real store', () => {
  test('listing a workspace that has no .groundwork folder creates nothing', async () => {
    const ws = await workspace();
    assert.deepEqual(await inProcess(['journal', 'list'], ws), {
      code: 0,
      stdout: 'The journal is empty.\n',
      stderr: '',
    });
    assert.deepEqual(await inProcess(['sleep', 'list', '--json'], ws), { code: 0, stdout: '[]\n', stderr: '' });
    assert.equal(existsSync(join(ws, '.groundwork')), false);
  });

  test('an append after a torn last line sets the torn bytes aside and stays readable', async () => {
    const ws = await workspace();
    await mkdir(join(ws, '.groundwork'));
    await writeFile(join(ws, '.groundwork/discoveries.jsonl'), '{"timestamp":"2025-01');
    const a = await inProcess(['journal', 'append', '--title', 'after the crash', '--description', ''], ws);
    assert.equal(a.code, 0, a.stderr);
    const l = await inProcess(['journal', 'list', '--json'], ws);
    assert.deepEqual(JSON.parse(l.stdout), [
      { timestamp: '2025-01-31T09:15:00.000Z', title: 'after the crash', description: '' },
    ]);
    assert.equal(l.stderr, '');
  });

  test('sleep list replays a real sleep log, relative --workspace from cwd', async () => {
    const ws = await workspace();
    await mkdir(join(ws, 'proj/.groundwork'), { recursive: true });
    const lines = [
      {
        event: 'started',
        agent: 'builder',
        mode: { kind: 'timer', durationMs: 120_000 },
        startedAt: T0 - 30_000,
        maxDurationMs: 120_000,
      },
      { event: 'started', agent: 'qa', mode: { kind: 'manual' }, startedAt: T0 - 30_000, maxDurationMs: 3_600_000 },
      { event: 'woken', agent: 'qa', reason: 'user', at: T0 - 1000 },
    ];
    await writeFile(join(ws, 'proj/.groundwork/sleep.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const r = await inProcess(['--workspace', 'proj', 'sleep', 'list'], ws);
    assert.deepEqual(r, { code: 0, stdout: 'builder  1m 30s  (since 2025-01-31 09:14:30 UTC)\n', stderr: '' });
  });

  test('a .groundwork that is a file, not a folder, is a failure (exit 1) with the store’s message', async () => {
    const ws = await workspace();
    await writeFile(join(ws, '.groundwork'), 'not a folder');
    const r = await inProcess(['journal', 'append', '--title', 't', '--description', 'd'], ws);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^groundwork: .*\.groundwork/);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });
});
