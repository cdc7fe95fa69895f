// Manifest writes an agent run makes, as the disk shows them (links both ways, Makefile includes,
// a workspace member's package.json), and what they do to the run's pre-approved script runners:
// asked again for the rest of the run, after a Resume too, from the first command of a run whose
// build wrote one before; the person's answer after the write holds until the next write.
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { manifestWrite } from '../../../src/core/run/manifestWatch';
import { DEVELOPER, agentHarness, lastResults } from '../agent/agentHarness';
import type { Turn } from '../session/toolScript';
import { diskRun, tempDir } from './hostile/hostileFixtures';

const fs = new NodeWorkspaceFs();
const signal = () => new AbortController().signal;
const write = (path: string, content = '{"scripts":{"test":"exit 0"}}\n'): Turn => ({
  tools: [{ name: 'write_file', input: { path, content } }],
});
const run = (command: string): Turn => ({ tools: [{ name: 'run_command', input: { command } }] });

async function files(ws: string, entries: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(entries)) {
    await mkdir(join(ws, path, '..'), { recursive: true });
    await writeFile(join(ws, path), text);
  }
}

describe('manifestWrite: what the disk says about a write', () => {
  test('a link named package.json to a harmless name: judged by the path written', async () => {
    const ws = await tempDir();
    await files(ws, { 'notes.txt': '{}\n' });
    await symlink('notes.txt', join(ws, 'package.json'));
    assert.equal(await manifestWrite(fs, ws, 'notes.txt', 'package.json'), 'package.json');
    // Writing the target by its own name changes package.json all the same.
    assert.equal(await manifestWrite(fs, ws, 'notes.txt', 'notes.txt'), 'notes.txt (package.json is a link to it)');
  });

  test('a harmless name linked to package.json: judged by its real path', async () => {
    const ws = await tempDir();
    await files(ws, { 'package.json': '{}\n' });
    await symlink('package.json', join(ws, 'notes.json'));
    assert.equal(await manifestWrite(fs, ws, 'package.json', 'notes.json'), 'package.json');
  });

  test('a workspace member’s link and a dangling link named as a manifest', async () => {
    const ws = await tempDir();
    await files(ws, { 'packages/a/readme.txt': 'x\n' });
    await symlink('../../shared.json', join(ws, 'packages/a/package.json'));
    assert.equal(
      await manifestWrite(fs, ws, 'shared.json', 'shared.json'),
      undefined,
      'the link is not above shared.json: it is not looked for there',
    );
    await symlink('missing.json', join(ws, 'packages/a/deno.json'));
    assert.equal(
      await manifestWrite(fs, ws, 'packages/a/missing.json'),
      'packages/a/missing.json (packages/a/deno.json is a link to it)',
    );
  });

  test('files a Makefile includes: include, -include, sinclude, nested, in a subfolder, through a variable', async () => {
    const ws = await tempDir();
    await files(ws, {
      Makefile:
        'include common.inc\n-include config/local.cfg\nsinclude $(OUT)/gen.d\ninclude rules.mk\nall:\n\tcc x.c\n',
      'rules.mk': 'include deep/nested.inc\n',
      'sub/Makefile': 'include sub.inc\n',
      'src/main.c': 'int main(){}\n',
    });
    assert.equal(await manifestWrite(fs, ws, 'common.inc'), 'common.inc (Makefile includes it)');
    assert.equal(await manifestWrite(fs, ws, 'config/local.cfg'), 'config/local.cfg (Makefile includes it)');
    assert.equal(await manifestWrite(fs, ws, 'build/gen.d'), 'build/gen.d (Makefile includes it)');
    assert.equal(await manifestWrite(fs, ws, 'deep/nested.inc'), 'deep/nested.inc (Makefile includes it)');
    assert.equal(await manifestWrite(fs, ws, 'sub/sub.inc'), 'sub/sub.inc (sub/Makefile includes it)');
    assert.equal(await manifestWrite(fs, ws, 'rules.mk'), 'rules.mk', 'any *.mk by its name');
    assert.equal(await manifestWrite(fs, ws, 'src/main.c'), undefined);
    assert.equal(await manifestWrite(fs, ws, 'sub.inc'), undefined, 'sub/Makefile includes sub/sub.inc, not this');
  });

  test('without a file system, names alone', async () => {
    assert.equal(await manifestWrite(undefined, '/ws', 'packages/a/package.json'), 'packages/a/package.json');
    assert.equal(await manifestWrite(undefined, '/ws', 'common.inc'), undefined);
  });
});

describe('an agent run: pre-approved script runners after a manifest write', () => {
  test('--approve "npm test" holds until package.json is written; then refused unattended, saying why', async () => {
    const h = agentHarness([run('npm test'), write('package.json'), run('npm test'), { text: 'done' }]);
    const ended = await h.runner.start(
      { role: DEVELOPER, task: 't', root: h.ws.root, approve: ['npm test'] },
      signal(),
      h.onEvent,
    );
    assert.equal(h.commands.requests.length, 1, 'only the npm test before the write ran');
    const [result] = lastResults(h.script);
    assert.match(
      result?.content ?? '',
      /not run: nobody can approve it in this run \(unattended\), and package\.json was written by this run, so script runners \(npm, make, cargo…\) are asked again/,
    );
    assert.match(h.printed(), /package\.json is written by this run: script runners \(npm, yarn, pnpm/);
    assert.equal(ended.manifestWrite, 'package.json');
    assert.equal(ended.ranCommand, true);
    const saved = await h.runs.read(ended.id);
    assert.ok(saved.ok && saved.run.manifestWrite === 'package.json' && saved.run.ranCommand === true);
  });

  for (const [path, command, extra] of [
    ['packages/a/package.json', 'npm test', {}],
    ['pyproject.toml', 'uv run pytest', {}],
    ['Cargo.toml', 'cargo test', {}],
    ['deno.jsonc', 'deno task test', {}],
    ['bunfig.toml', 'bun test', {}],
    ['common.inc', 'make check', { Makefile: 'include common.inc\ncheck:\n\ttrue\n' }],
  ] as const) {
    test(`writing ${path} makes a pre-approved "${command}" asked again`, async () => {
      const h = agentHarness([write(path, 'x\n'), run(command), { text: 'done' }], { files: extra });
      await h.runner.start({ role: DEVELOPER, task: 't', root: h.ws.root, approve: [command] }, signal(), h.onEvent);
      assert.equal(h.commands.requests.length, 0, `${command} ran after ${path} was written`);
      assert.match(lastResults(h.script)[0]?.content ?? '', /was written by this run, so script runners/);
    });
  }

  test('the person’s "for this run" after the write holds until the next write', async () => {
    const h = agentHarness(
      [write('package.json'), run('npm test'), run('npm test'), write('package.json', '{}\n'), run('npm test')],
      { answers: ['run', 'deny'] },
    );
    await h.runner.start({ role: DEVELOPER, task: 't', root: h.ws.root, approve: ['npm test'] }, signal(), h.onEvent);
    assert.deepEqual(h.asked, ['npm test', 'npm test'], 'asked after the first write and again after the second');
    assert.equal(h.commands.requests.length, 2);
  });

  test('a run whose build wrote a manifest before asks from its first command', async () => {
    const h = agentHarness([run('npm test'), run('node --test'), { text: 'done' }]);
    await h.runner.start(
      {
        role: DEVELOPER,
        task: 't',
        root: h.ws.root,
        approve: ['npm test', 'node --test'],
        manifestBefore: 'package.json was written in this build (phase architect)',
      },
      signal(),
      h.onEvent,
    );
    assert.deepEqual(
      h.commands.requests.map((r) => r.command),
      ['node --test'],
    );
    assert.match(h.printed(), /Not run: npm test \(nobody can approve it.*package\.json was written in this build/);
  });

  test('a refused command is not a command that ran', async () => {
    const h = agentHarness([run('npm test'), { text: 'done' }]);
    const ended = await h.runner.start({ role: DEVELOPER, task: 't', root: h.ws.root }, signal(), h.onEvent);
    assert.equal(ended.ranCommand, undefined);
  });

  test('Resume: a run that wrote package.json before it stopped still asks', async () => {
    const h = agentHarness([write('package.json'), { hang: 'thinking…' }, run('npm test'), { text: 'done' }]);
    const abort = new AbortController();
    const started = h.runner.start(
      { role: DEVELOPER, task: 't', root: h.ws.root, approve: ['npm test'] },
      abort.signal,
      h.onEvent,
    );
    while (h.script.requests.length < 2) await new Promise((r) => setImmediate(r));
    abort.abort();
    const stopped = await started;
    assert.equal(stopped.status, 'stopped');
    await h.runner.resume(stopped.id, DEVELOPER, signal(), h.onEvent, ['npm test']);
    assert.equal(h.commands.requests.length, 0);
    assert.match(lastResults(h.script)[0]?.content ?? '', /package\.json was written by this run/);
  });

  test('on the disk: a write through a link named package.json, and one to the file such a link points to', async () => {
    for (const [target, link, written] of [
      ['notes.txt', 'package.json', 'package.json'],
      ['notes.txt', 'package.json', 'notes.txt'],
    ] as const) {
      const ws = await tempDir();
      await files(ws, { [target]: '{}\n' });
      await symlink(target, join(ws, link));
      const d = diskRun(ws, [write(written), run('npm test'), { text: 'done' }]);
      await d.runner.start({ role: DEVELOPER, task: 'x', root: ws, approve: ['npm test'] }, signal(), (e) =>
        d.events.push(e),
      );
      assert.equal(d.commands.requests.length, 0, `npm test ran after ${written} was written`);
    }
  });
});
