// The CLI as a user runs it: a real child process (Node started with tsx on src/cli/main.ts) on a
// real temporary workspace. Kept few, since each child costs a Node start; the same commands
// in-process over the real store are in test/unit/cli/cliProcess.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repo, runCliProcess, tsx, type CliRun } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';

async function workspace(): Promise<string> {
  return tempFolder();
}

function groundwork(args: string[], cwd = repo): Promise<CliRun> {
  return runCliProcess(args, { cwd });
}

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

describe('groundwork as a child process', () => {
  test('journal append then journal list --json round trips', async () => {
    const ws = await workspace();
    const a = await groundwork([
      '--workspace',
      ws,
      'journal',
      'append',
      '--title',
      'Locks are per file',
      '--description',
      'Two lines\nof detail',
      '--scope',
      'local',
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.stdout, 'Added to .groundwork/discoveries.jsonl: Locks are per file\n');
    const l = await groundwork(['journal', 'list', '--json'], ws);
    assert.equal(l.code, 0, l.stderr);
    assert.equal(l.stderr, '');
    const entries = JSON.parse(l.stdout) as { title: string; description: string; scope: string; timestamp: string }[];
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.title, 'Locks are per file');
    assert.equal(entries[0]?.description, 'Two lines\nof detail');
    assert.equal(entries[0]?.scope, 'local');
    assert.match(entries[0]?.timestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('a corrupt middle line and a torn last line: valid entries printed, bad ones on stderr, exit 0', async () => {
    const ws = await workspace();
    const entry = (title: string) => JSON.stringify({ timestamp: '2025-01-31T09:15:00.000Z', title, description: 'd' });
    await mkdir(join(ws, '.groundwork'));
    await writeFile(
      join(ws, '.groundwork/discoveries.jsonl'),
      `${entry('one')}\n{"title": oops\n${entry('two')}\n${entry('three')}\n{"timestamp":"2025-01`,
    );
    const r = await groundwork(['--workspace', ws, 'journal', 'list', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      (JSON.parse(r.stdout) as { title: string }[]).map((e) => e.title),
      ['one', 'two', 'three'],
    );
    assert.match(r.stderr, /\.groundwork\/discoveries\.jsonl:2: skipped, not valid JSON/);
    assert.match(r.stderr, /\.groundwork\/discoveries\.jsonl:5: skipped, torn last line/);
    assert.match(r.stderr, /2 lines of \.groundwork\/discoveries\.jsonl could not be read/);
    const human = await groundwork(['--workspace', ws, 'journal', 'list']);
    assert.equal(human.code, 0);
    assert.equal(human.stdout.match(/^2025-01-31 09:15:00 UTC {2}/gm)?.length, 3);
  });

  test('bad usage exits 2 with a one-line error and a hint', async () => {
    const r = await groundwork(['journal', 'list', '--frob']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, "groundwork: unknown option '--frob'. Run 'groundwork help journal list' for usage.\n");
  });

  test('piped into a reader that stops early (| head), it exits 0 and prints no error', async () => {
    const ws = await workspace();
    await mkdir(join(ws, '.groundwork'));
    const entry = (i: number) =>
      JSON.stringify({ timestamp: '2025-01-31T09:15:00.000Z', title: `entry ${i}`, description: 'x'.repeat(200) });
    // About 1.3 MB of output: far more than a pipe holds, so the writer is still writing when the reader leaves.
    await writeFile(
      join(ws, '.groundwork/discoveries.jsonl'),
      Array.from({ length: 5000 }, (_, i) => `${entry(i)}\n`).join(''),
    );
    const child = spawn(
      process.execPath,
      ['--import', tsx, join(repo, 'src/cli/main.ts'), '--workspace', ws, 'journal', 'list'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  test('--workspace on a missing folder is a clear error, exit 2, and creates nothing', async () => {
    const missing = join(await workspace(), 'does-not-exist');
    const r = await groundwork(['--workspace', missing, 'journal', 'append', '--title', 't', '--description', 'd']);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `groundwork: the workspace folder '${missing}' does not exist or is not a folder; pass an existing folder with --workspace. Run 'groundwork help' for usage.\n`,
    );
    assert.equal(existsSync(missing), false);
  });

  test('unsafe values are stored escaped and never reach the terminal raw', async () => {
    const ws = await workspace();
    const title = 'quote " and\nnewline \u001b[31mred\u001b[0m';
    const a = await groundwork([
      '--workspace',
      ws,
      'journal',
      'append',
      '--title',
      title,
      '--description',
      '\u001b]0;pwned\u0007body',
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.doesNotMatch(a.stdout, RAW_CONTROL);
    const file = await readFile(join(ws, '.groundwork/discoveries.jsonl'), 'utf8');
    assert.equal(file.split('\n').length, 2, 'one line and the final newline');
    assert.ok(file.includes('"quote \\" and\\nnewline \\u001b[31mred\\u001b[0m"'), file);
    const l = await groundwork(['--workspace', ws, 'journal', 'list']);
    assert.doesNotMatch(l.stdout, RAW_CONTROL);
    assert.match(l.stdout, /quote " and\\nnewline \\x1b\[31mred\\x1b\[0m\n {4}\\x1b\]0;pwned\\x07body\n/);
  });
});
