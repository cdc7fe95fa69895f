// `groundwork annotations FILE.md` in-process: the spec is a real file in a temporary folder, the
// workspace's cases an in-memory store (nothing may be written there).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ANNOTATIONS_FILE_MAX_BYTES } from '../../../src/cli/commands/annotations';
import { line } from '../cases/casesHarness';
import { cliHere, harness } from './cliHarness';
import { tempFolder } from '../../support/tempDirs';
import type { Harness } from './cliHarness';
import type { CliRun } from '../../support/processes';

const REGION = '<!--@ax:0-45:green:task-001-->Users can log in with email.<!--/@ax-->';
const NOTE = (id: string, task = 'task-001') =>
  `<!--@ax-discovery:${task}:${id}-->Safari needs SameSite=None<!--/@ax-->`;
const SPEC = `# Login\n\n${REGION}\n\nIntro ${NOTE('disc-012')}\n${NOTE('disc-099')}\n`;

async function specFile(text: string | Buffer, name = 'spec.md'): Promise<string> {
  const dir = await tempFolder('groundwork-annotations-');
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

function withCases(h: Harness): void {
  h.ws.plant('cases.jsonl', [
    line('disc-012', {
      status: 'outdated',
      metadata: { outdatedAt: '2025-01-31T09:15:00.000Z', outdatedReason: 'marked by user' },
    }),
    line('disc-007'),
  ]);
}

function assertUsage(r: CliRun, message: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, message);
  assert.ok(r.stderr.includes("Run 'groundwork help annotations' for usage."), r.stderr);
}

describe('groundwork annotations', () => {
  test('without a cases file: each annotation, 1-based, no statuses, and no case problems (exit 0)', async () => {
    const h = harness();
    const before = h.ws.fs.paths();
    const path = await specFile(SPEC);
    const r = await h.run('annotations', path);
    assert.deepEqual(r, {
      code: 0,
      stdout: [
        '3:1–3:70  region     task-001  green',
        '5:7–5:82  discovery  task-001  disc-012',
        '6:1–6:76  discovery  task-001  disc-099',
        '',
      ].join('\n'),
      stderr: '',
    });
    assert.deepEqual(h.ws.fs.paths(), before, 'nothing is created in the workspace');
  });

  test("with the workspace's cases: each note's status, an unknown id is a problem (exit 1)", async () => {
    const h = harness();
    withCases(h);
    const before = h.ws.fs.paths();
    const path = await specFile(SPEC);
    const r = await h.run('annotations', path);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      '3:1–3:70  region     task-001  green',
      '5:7–5:82  discovery  task-001  disc-012  outdated',
      '6:1–6:76  discovery  task-001  disc-099  unknown',
    ]);
    assert.equal(
      lines[3],
      `${path}:6:1: unknownCase: disc-099 is not one of this workspace's discoveries (see groundwork cases list): correct the case id, or remove this note.`,
    );
    assert.equal(lines.length, 4);
    assert.deepEqual(h.ws.fs.paths(), before, 'the cases are only read: no lock, no view, nothing new');
  });

  test('--json: 1-based line/column, 0-based ranges, statuses the workspace holds, the problems', async () => {
    const h = harness();
    withCases(h);
    const path = await specFile(SPEC);
    const r = await h.run('annotations', path, '--json');
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.file, path);
    assert.equal(out.casesFile, true);
    assert.deepEqual(out.annotations[0], {
      kind: 'region',
      task: 'task-001',
      color: 'green',
      from: 0,
      to: 45,
      line: 3,
      column: 1,
      endLine: 3,
      endColumn: 70,
      range: { start: { line: 2, character: 0 }, end: { line: 2, character: 69 } },
      contentRange: { start: { line: 2, character: 30 }, end: { line: 2, character: 58 } },
      depth: 0,
      parent: -1,
    });
    assert.deepEqual(
      out.annotations.slice(1).map((a: Record<string, unknown>) => [a['caseId'], a['status'], a['line'], a['column']]),
      [
        ['disc-012', 'outdated', 5, 7],
        ['disc-099', undefined, 6, 1],
      ],
    );
    assert.deepEqual(
      out.problems.map((p: Record<string, unknown>) => [
        p['kind'],
        p['caseId'],
        p['line'],
        p['column'],
        p['endColumn'],
      ]),
      [['unknownCase', 'disc-099', 6, 1, 39]],
    );
  });

  test('a deleted case and the parser’s problems, in the order of the text', async () => {
    const h = harness();
    h.ws.plant('cases.jsonl', [
      line('disc-004', { status: 'deleted', metadata: { deletedAt: '2025-01-31T09:15:00.000Z' } }),
    ]);
    const path = await specFile(`<!--/@ax-->\n${NOTE('disc-004')}\n<!--@ax:1-2:red:t-->never closed\n`);
    const r = await h.run('annotations', path);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/^.*spec\.md:/, '').split(': ')[0]),
      ['2:1–2:76  discovery  task-001  disc-004  deleted', '1:1', '2:1', '3:1'],
    );
    assert.match(r.stdout, /spec\.md:1:1: unopened: /);
    assert.match(r.stdout, /spec\.md:2:1: deletedCase: disc-004 was deleted/);
    assert.match(r.stdout, /spec\.md:3:1: unclosed: /);
  });

  test('no annotations: says so, exit 0', async () => {
    const h = harness();
    const path = await specFile('# Nothing here\n\n<!-- an ordinary comment -->\n');
    const r = await h.run('annotations', path);
    assert.deepEqual(r, { code: 0, stdout: `No annotations in ${path}.\n`, stderr: '' });
  });

  test('a CRLF file: the same lines and columns', async () => {
    const h = harness();
    const path = await specFile(SPEC.replace(/\n/g, '\r\n'));
    const r = await h.run('annotations', path, '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.annotations.map((a: Record<string, number>) => [a['line'], a['column'], a['endLine'], a['endColumn']]),
      [
        [3, 1, 3, 70],
        [5, 7, 5, 82],
        [6, 1, 6, 76],
      ],
    );
  });

  test('FILE is relative to the current folder, not to the workspace', async () => {
    const dir = await tempFolder('groundwork-annotations-cwd-');
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs', 'spec.md'), SPEC);
    const h = harness();
    const { code, stdout, stderr } = await cliHere(
      ['--workspace', '/ws', 'annotations', 'docs/spec.md'],
      {
        ...(await import('../../../src/cli/nodeDeps')).createNodeDeps(),
        openStore: () => h.ws.store,
        isDirectory: async (p) => p === '/ws',
      },
      { cwd: dir },
    );
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^3:1–3:70 {2}region/);
  });

  test('a missing file, a folder, an empty name: exit 2 with what to do', async () => {
    const h = harness();
    const dir = await tempFolder('groundwork-annotations-bad-');
    assertUsage(
      await h.run('annotations', join(dir, 'nope.md')),
      /nope\.md' does not exist; give the path of a markdown file, relative to the current folder/,
    );
    assertUsage(await h.run('annotations', dir), /is a folder; give a markdown file in it, e\.g\. .*\/spec\.md/);
    assertUsage(await h.run('annotations', ''), /the file name is empty/);
    assertUsage(await h.run('annotations'), /annotations needs a markdown file/);
  });

  test('a file over the cap is refused unread (exit 2)', async () => {
    const h = harness();
    const path = await specFile('');
    await truncate(path, ANNOTATIONS_FILE_MAX_BYTES + 1); // sparse: nothing is written
    assertUsage(
      await h.run('annotations', path),
      /is 20\.0 MiB; annotations reads files of at most 20 MiB: split the spec into smaller files/,
    );
  });

  test('a file of exactly the cap is read', async () => {
    const h = harness();
    const path = await specFile(`${REGION}\n`);
    await truncate(path, ANNOTATIONS_FILE_MAX_BYTES); // the rest is NUL bytes, read as text
    const r = await h.run('annotations', path);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^1:1–1:70 {2}region {2}task-001 {2}green\n$/);
  });

  test('a cases file that cannot be read: a warning on stderr, the rest without statuses', async () => {
    const h = harness();
    withCases(h);
    h.ws.fs.failOn = (op, p) =>
      p.endsWith('cases.jsonl') && op === 'read'
        ? Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
        : undefined;
    const path = await specFile(SPEC);
    const r = await h.run('annotations', path);
    assert.equal(r.code, 0);
    assert.match(
      r.stderr,
      /^groundwork: warning: \.groundwork\/cases\.jsonl could not be read \(.*\); case statuses are not shown and case ids are not checked\n$/,
    );
    assert.doesNotMatch(r.stdout, /outdated|unknown/);
  });

  test('lines of cases.jsonl that are not cases are reported; the others give statuses', async () => {
    const h = harness();
    h.ws.plant('cases.jsonl', ['{"not": "a case"}', line('disc-012')]);
    const r = await h.run('annotations', await specFile(NOTE('disc-012')));
    assert.equal(r.code, 0);
    assert.match(r.stdout, /disc-012 {2}active\n$/);
    assert.match(r.stderr, /\.groundwork\/cases\.jsonl:1: skipped/);
  });

  test('hostile task ids and file names are printed with their controls escaped', async () => {
    const h = harness();
    // A task id with bidi controls is a malformed marker (it would look like another task); a file name may hold anything.
    const path = await specFile(
      `${NOTE('disc-001', 'task-\u202e\u2066red')}\n<!--@ax:1-2:green:t-\u202e-->x\n`,
      'we\u001b[2Jird.md',
    );
    const r = await h.run('annotations', path);
    assert.equal(r.code, 1);
    assert.ok(!/[\u001b\u202e\u2066]/.test(r.stdout + r.stderr), JSON.stringify(r));
    assert.match(r.stdout, /we\\x1b\[2Jird\.md:1:1: malformed: .*invisible character/);
    assert.match(r.stdout, /we\\x1b\[2Jird\.md:2:1: malformed/);
    const json = await h.run('annotations', path, '--json');
    assert.ok(!/[\u001b\u202e\u2066]/.test(json.stdout), json.stdout);
    assert.deepEqual(JSON.parse(json.stdout).annotations, []);
    const missing = await h.run('annotations', `${path}\u001b[2J-missing`);
    assert.ok(!missing.stderr.includes('\u001b'), missing.stderr);
  });

  test('help names the command and documents the positions and --json', async () => {
    const h = harness();
    const general = await h.run('help');
    assert.match(general.stdout, /\n {2}annotations +List a spec document's annotations and their problems\n/);
    const help = await h.run('help', 'annotations');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: groundwork annotations FILE\.md \[--json\]/);
    assert.match(help.stdout, /counted from 0/);
    assert.match(help.stdout, /Exit codes here: 0 no problems, 1 the file has problems, 2/);
  });
});
