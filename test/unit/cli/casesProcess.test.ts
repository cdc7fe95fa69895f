// `groundwork cases` as a user runs it: a real child process on a real temporary workspace (one
// test, since each child costs a Node start).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCase } from '../../../src/core/cases/caseRecord';
import { runCliProcess } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';

test('groundwork cases add, then cases list --json, as child processes', async () => {
  const ws = await tempFolder();
  const a = await runCliProcess([
    '--workspace',
    ws,
    'cases',
    'add',
    '--scope',
    'global',
    '--content',
    'Money is stored in cents, never as floats',
  ]);
  assert.deepEqual(a, { code: 0, stdout: 'disc-001\n', stderr: '' });
  const l = await runCliProcess(['cases', 'list', '--json'], { cwd: ws });
  assert.equal(l.code, 0, l.stderr);
  assert.equal(l.stderr, '');
  const list = JSON.parse(l.stdout) as unknown[];
  assert.equal(list.length, 1);
  const parsed = parseCase(list[0]);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.deepEqual(
    [parsed.value.id, parsed.value.status, parsed.value.metadata.scope, parsed.value.content],
    ['disc-001', 'active', 'global', 'Money is stored in cents, never as floats'],
  );
  assert.match(
    await readFile(join(ws, '.groundwork/discoveries.md'), 'utf8'),
    /- \[disc-001\] Money is stored in cents, never as floats/,
  );
  assert.match(
    await readFile(join(ws, '.groundwork/discoveries.jsonl'), 'utf8'),
    /"title":"Money is stored in cents, never as floats"/,
  );
});
