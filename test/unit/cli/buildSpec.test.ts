// `groundwork build --spec PATH` before anything runs: the flag's exclusivity, a spec outside the
// workspace or unusable (exit 2 with the sentence saying what to do), the gate naming the spec, and
// the help. A whole build from a spec is test/stress/build/buildExternalSpec.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { harness } from './cliHarness';

const SPEC_KIT = {
  'specs/001-todo/spec.md': '# Feature: todo\n',
  'specs/001-todo/plan.md': '# Plan\n',
  'specs/001-todo/tasks.md': '- T001 list\n',
};

function withFiles(files: Record<string, string>) {
  const h = harness();
  for (const [path, text] of Object.entries(files)) h.ws.fs.writeRaw(`/ws/${path}`, text);
  return h;
}

describe('groundwork build --spec', () => {
  test('goes with none of --brief, --from-brainstorm, --resume: exit 2, naming the four', async () => {
    const h = withFiles(SPEC_KIT);
    for (const other of [
      ['--brief', 'brief.md'],
      ['--from-brainstorm', 'crm'],
      ['--resume', '20250102-030405-x-0a1f'],
    ]) {
      const r = await h.run('--workspace', '/ws', 'build', '--spec', 'specs/001-todo', ...other, '--yes');
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /give exactly one of --brief FILE, --from-brainstorm SLUG, --spec PATH or --resume BUILD-ID/,
      );
    }
  });

  test('a path outside the workspace is a usage error', async () => {
    const r = await withFiles(SPEC_KIT).run('--workspace', '/ws', 'build', '--spec', '/other/specs/001-todo', '--yes');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--spec '\/other\/specs\/001-todo' is not a folder or file inside the workspace \/ws/);
  });

  test('a spec that cannot be used is a usage error with the sentence saying what to do', async () => {
    const h = withFiles({ ...SPEC_KIT, 'specs/002-half/plan.md': '# Plan\n', 'docs/readme.md': 'x' });
    for (const [path, message] of [
      ['specs/009-none', /The spec 'specs\/009-none' does not exist: give a Spec Kit feature folder/],
      [
        'specs/002-half',
        /'specs\/002-half' looks like a Spec Kit feature folder but has no spec\.md: write spec\.md first/,
      ],
      ['docs', /'docs' is neither a Spec Kit feature folder .* nor a Kiro spec/],
    ] as const) {
      const r = await h.run('--workspace', '/ws', 'build', '--spec', path, '--yes');
      assert.equal(r.code, 2, path);
      assert.match(r.stderr, message);
      assert.deepEqual(await h.ws.fs.list('/ws/.groundwork/builds'), []);
    }
  });

  test('the gate names the spec, relative to the current folder too; without a terminal or --yes nothing starts', async () => {
    const h = withFiles({
      '.kiro/specs/todo/requirements.md': '# Requirements\n',
      '.kiro/specs/todo/design.md': '# Design\n',
    });
    const r = await h.run('--workspace', '/ws', 'build', '--spec', './.kiro/specs/todo/requirements.md');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^Build from the Kiro spec \.kiro\/specs\/todo\n/);
    assert.match(r.stderr, /not started: confirm with --yes/);
  });

  test('help documents --spec and both formats', async () => {
    const r = await harness().run('help', 'build');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--spec PATH/);
    assert.match(
      r.stdout,
      /--spec PATH +a Spec Kit feature folder \(specs\/<feature>\/: spec\.md, plan\.md, tasks\.md\) or a Kiro\n +spec \(\.kiro\/specs\/<feature>\/: requirements\.md, design\.md, tasks\.md\) in the workspace/,
    );
  });
});
