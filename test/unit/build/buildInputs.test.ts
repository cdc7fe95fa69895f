// What a build starts from, read before the gate: the brief (a file of the workspace, its path
// from the person or a cloned repository), a finished brainstorm, and the workflow file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  BRIEF_FILE_MAX_BYTES,
  BuildInputError,
  loadWorkflow,
  readBuildInput,
} from '../../../src/core/build/buildInputs';
import type { BuildRecord } from '../../../src/core/build/buildTypes';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { ROOT } from './buildFixtures';

const BUNDLED = readFileSync(join(ROOT, 'roles', 'build.workflow.yaml'), 'utf8');
const digest = (context: string) => `## Digest\n${context.length} characters of context`;

function workspace(files: Record<string, string> = {}) {
  const ws = new MemoryWorkspace();
  ws.fs.mkdir(ws.root);
  for (const [path, text] of Object.entries(files)) ws.fs.writeRaw(`${ws.root}/${path}`, text);
  return ws;
}

const brief = (path: string): BuildRecord['source'] => ({ kind: 'brief', path });

async function refused(
  ws: MemoryWorkspace,
  source: BuildRecord['source'],
  message: RegExp,
  digestOf = digest,
): Promise<void> {
  await assert.rejects(readBuildInput(ws.store, source, digestOf), (err: Error) => {
    assert.ok(err instanceof BuildInputError, `${err.name}: ${err.message}`);
    assert.match(err.message, message);
    return true;
  });
}

describe('readBuildInput: a brief file', () => {
  it("reads a brief inside the workspace, without its BOM, and names the build after the plan or the file's name", async () => {
    const ws = workspace({
      '.groundwork/plans/price-tracker/idea-brief.md': '\ufeff# Idea Brief: prices\n',
      'docs/My Brief.md': '# mine\n',
    });
    assert.deepEqual(await readBuildInput(ws.store, brief('.groundwork/plans/price-tracker/idea-brief.md'), digest), {
      input: '# Idea Brief: prices\n',
      name: 'price-tracker',
    });
    assert.deepEqual(await readBuildInput(ws.store, brief('docs/My Brief.md'), digest), {
      input: '# mine\n',
      name: 'my-brief',
    });
  });

  it('refuses a path that is not inside the workspace, saying so', async () => {
    const ws = workspace({ 'brief.md': 'x' });
    ws.fs.writeRaw('/etc/passwd', 'root');
    for (const path of ['../brief.md', 'docs/../../etc/passwd', '/etc/passwd', 'C:/brief.md', 'docs\\..\\..\\x', '']) {
      await refused(ws, brief(path), /is not a path inside the workspace\.$/);
    }
  });

  it('refuses a link that leads out of the workspace, a file or through a folder', async () => {
    const ws = workspace();
    ws.fs.writeRaw('/outside/secret.md', 'secret');
    ws.fs.symlink('/ws/link.md', '/outside/secret.md');
    ws.fs.symlink('/ws/docs', '/outside');
    await refused(ws, brief('link.md'), /^The brief 'link\.md' leads outside the workspace\.$/);
    await refused(ws, brief('docs/secret.md'), /leads outside the workspace/);
  });

  it('follows a link that stays inside the workspace', async () => {
    const ws = workspace({ 'plans/real.md': '# real\n' });
    ws.fs.symlink('/ws/brief.md', '/ws/plans/real.md');
    assert.equal((await readBuildInput(ws.store, brief('brief.md'), digest)).input, '# real\n');
  });

  it('refuses a folder, a missing file, an empty one and one over 200 KB', async () => {
    const ws = workspace({
      'specs/a.md': 'a',
      'blank.md': ' \n\n',
      'big.md': 'x'.repeat(BRIEF_FILE_MAX_BYTES + 1),
      'ok.md': 'y'.repeat(BRIEF_FILE_MAX_BYTES),
    });
    await refused(ws, brief('specs'), /^The brief 'specs' is not a file\.$/);
    await refused(ws, brief('missing.md'), /^The brief 'missing\.md' does not exist\.$/);
    await refused(ws, brief('blank.md'), /^blank\.md is empty: there is nothing to build\.$/);
    await refused(ws, brief('big.md'), /^The brief 'big\.md' is larger than 200000 bytes; shorten it\.$/);
    assert.equal((await readBuildInput(ws.store, brief('ok.md'), digest)).input.length, BRIEF_FILE_MAX_BYTES);
  });

  it('shows control characters of a path instead of printing them', async () => {
    const ws = workspace();
    await refused(ws, brief('a\u001b[2Jb.md'), /^The brief 'a\\x1b\[2Jb\.md' does not exist\.$/);
  });
});

describe('readBuildInput: a brainstorm', () => {
  const plan = '.groundwork/plans/bakery-crm';
  const finished = {
    [`${plan}/00-brainstorming.md`]: '# Result\n\nA CRM.\n',
    [`${plan}/00-brainstorming.context.md`]: 'context',
    [`${plan}/.brainstorm-complete`]: '',
  };

  it('a finished brainstorm: its result followed by its digest, named after the plan', async () => {
    const ws = workspace(finished);
    const read = await readBuildInput(ws.store, { kind: 'brainstorm', slug: 'bakery-crm' }, digest);
    assert.deepEqual(read, { input: '# Result\n\nA CRM.\n\n## Digest\n7 characters of context\n', name: 'bakery-crm' });
  });

  it('a brainstorm that has not finished is refused: finish it first', async () => {
    const ws = workspace({ [`${plan}/00-brainstorming.md`]: '# half', [`${plan}/00-brainstorming.context.md`]: 'c' });
    await refused(
      ws,
      { kind: 'brainstorm', slug: 'bakery-crm' },
      /^The brainstorm bakery-crm has not finished \(\.groundwork\/plans\/bakery-crm\/\.brainstorm-complete is missing\): finish it first\.$/,
    );
  });

  it('a brainstorm without its result or context, a name that is not a plan, a context that cannot be read', async () => {
    await refused(
      workspace({ [`${plan}/.brainstorm-complete`]: '' }),
      { kind: 'brainstorm', slug: 'bakery-crm' },
      /missing its result or its context file/,
    );
    await refused(workspace(), { kind: 'brainstorm', slug: '../etc' }, /^'\.\.\/etc' is not a plan's name\.$/);
    const broken = () => {
      throw new Error('00-brainstorming.context.md:3: the digest section is missing');
    };
    await refused(
      workspace(finished),
      { kind: 'brainstorm', slug: 'bakery-crm' },
      /context\.md:3: the digest section is missing/,
      broken,
    );
  });
});

describe('loadWorkflow', () => {
  it('the bundled workflow when the workspace has none', async () => {
    const { workflow, file } = await loadWorkflow(workspace().store, async () => BUNDLED);
    assert.equal(file, 'roles/build.workflow.yaml');
    assert.equal(workflow.phases.length, 7);
  });

  it("the workspace's own workflow when it has one", async () => {
    const ws = workspace({
      '.groundwork/workflows/build.yaml':
        'phases:\n  - name: analyst\n    role: build-analyst\n    check: brief\n  - name: developer\n    role: my-dev\n    check: none\n',
    });
    const { workflow, file } = await loadWorkflow(ws.store, async () => BUNDLED);
    assert.equal(file, '.groundwork/workflows/build.yaml');
    assert.deepEqual(
      workflow.phases.map((p) => [p.name, p.role, p.check]),
      [
        ['analyst', 'build-analyst', 'brief'],
        ['developer', 'my-dev', 'none'],
      ],
    );
  });

  it('an override with problems lists each with its file, line and field', async () => {
    const ws = workspace({
      '.groundwork/workflows/build.yaml':
        'phases:\n  - name: analyst\n    role: build-analyst\n    check: brief\n  - name: Dev\n    role: build-developer\n    check: compile\n',
    });
    await assert.rejects(
      loadWorkflow(ws.store, async () => BUNDLED),
      (err: Error) => {
        assert.ok(err instanceof BuildInputError);
        const lines = err.message.split('\n');
        assert.equal(lines[0], 'The build workflow cannot be used:');
        assert.match(lines[1] ?? '', /^ {2}\.groundwork\/workflows\/build\.yaml:5: name: "Dev" is not a phase name/);
        assert.match(
          lines[2] ?? '',
          /^ {2}\.groundwork\/workflows\/build\.yaml:7: check: "compile" is not one of brief, architecture/,
        );
        return true;
      },
    );
  });

  it('an override too large to be a workflow is refused by its size', async () => {
    const ws = workspace({ '.groundwork/workflows/build.yaml': `# ${'x'.repeat(70 * 1024)}\nphases: []\n` });
    await assert.rejects(
      loadWorkflow(ws.store, async () => BUNDLED),
      (err: Error) =>
        err instanceof BuildInputError && /workflows\/build\.yaml'.* over the cap of 64 KiB/.test(err.message),
    );
  });
});
