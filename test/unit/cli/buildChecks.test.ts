// `groundwork build` and a workspace whose workflow or role files weaken Groundwork's checks: each
// weakening is printed with the gate; under --unattended the build is refused (exit 2, saying what
// to pass) unless --allow-weaker-checks is given; the bundled set prints nothing and is not refused.
// The build runner is a stand-in here: what is tested is whether the build is started.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { BuildRequest, BuildRunner } from '../../../src/core/build/buildRunner';
import { sampleBuild, ROOT } from '../build/buildFixtures';
import { serializeBuildRecord } from '../../../src/core/build/buildRecord';
import type { CliDeps } from '../../../src/cli/cliTypes';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { cliHere, harness, T0, terminal } from './cliHarness';

const WORKFLOW = readFileSync(join(ROOT, 'roles', 'build.workflow.yaml'), 'utf8');
const DELIVERY = readFileSync(join(ROOT, 'roles', 'build-delivery.md'), 'utf8');

/** A workspace with `files`, and a CLI whose build runner records the requests it is given and ends each build completed. */
function withWorkspace(files: Record<string, string>) {
  const started: BuildRequest[] = [];
  const resumed: string[] = [];
  const runner = {
    start: async (request: BuildRequest) => {
      started.push(request);
      return sampleBuild({ status: 'completed' });
    },
    resume: async (id: string) => {
      resumed.push(id);
      return sampleBuild({ status: 'completed' });
    },
  } as unknown as BuildRunner;
  const ws = new MemoryWorkspace();
  ws.fs.writeRaw('/ws/brief.md', '# Idea Brief: sum\n\nA function that sums two numbers.\n');
  for (const [path, text] of Object.entries(files)) ws.fs.writeRaw(`/ws/${path}`, text);
  const deps: CliDeps = {
    ...createNodeDeps(),
    terminal: terminal(),
    clock: new FakeClock(T0),
    openStore: () => ws.store,
    isDirectory: async (p) => p === '/ws',
    buildRunner: async () => runner,
  };
  const run = (...argv: string[]) => cliHere(argv, deps, { env: { ANTHROPIC_API_KEY: 'sk-test' } });
  return { h: { ws, run }, started, resumed };
}

const WEAKER = {
  '.groundwork/workflows/build.yaml': WORKFLOW.replace('check: verification', 'check: none').replace(
    '  - name: reviewer\n    role: build-reviewer\n    check: review\n',
    '',
  ),
  '.groundwork/roles/build-delivery.md': DELIVERY.replace('  - docs/**\n', '  - docs/**\n  - src/**\n'),
};

describe('groundwork build: weaker checks', () => {
  test('the bundled workflow and roles: no warning, and --unattended --yes starts the build', async () => {
    const { h, started } = withWorkspace({});
    const r = await h.run('--workspace', '/ws', 'build', '--brief', 'brief.md', '--unattended', '--yes');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /weaker/);
    assert.equal(started.length, 1);
  });

  test('each weakening is named before the build starts, with a warning', async () => {
    const { h, started } = withWorkspace(WEAKER);
    const r = await h.run('--workspace', '/ws', 'build', '--brief', 'brief.md', '--yes');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        [
          "  warning: this build's checks are weaker than Groundwork's own \\(the workspace's workflow or role files\\):",
          "    - \\.groundwork/workflows/build\\.yaml: qa's check is none instead of verification",
          '    - \\.groundwork/workflows/build\\.yaml: phase reviewer removed; no phase makes its check review',
          "    - \\.groundwork/roles/build-delivery\\.md lets delivery also write src/\\*\\* \\(Groundwork's: only README\\.md, docs/\\*\\*\\)",
        ].join('\n'),
      ),
    );
    assert.ok(r.stderr.indexOf('weaker') < r.stderr.indexOf('build 20250102'), 'said before the build');
    assert.equal(started.length, 1);
  });

  test('under --unattended it is refused, exit 2, saying to pass --allow-weaker-checks; nothing starts', async () => {
    const { h, started } = withWorkspace(WEAKER);
    const r = await h.run('--workspace', '/ws', 'build', '--brief', 'brief.md', '--unattended', '--yes');
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /groundwork: not started: under --unattended a build whose checks are weaker than Groundwork's own does not start \(the 3 weakenings above\); pass --allow-weaker-checks to build with them/,
    );
    assert.equal(started.length, 0);
    assert.deepEqual(await h.ws.fs.list('/ws/.groundwork/builds').catch(() => []), []);
  });

  test('under --unattended with --allow-weaker-checks it starts, still naming them', async () => {
    const { h, started } = withWorkspace(WEAKER);
    const r = await h.run(
      '--workspace',
      '/ws',
      'build',
      '--brief',
      'brief.md',
      '--unattended',
      '--allow-weaker-checks',
      '--yes',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /qa's check is none instead of verification/);
    assert.equal(started.length, 1);
    assert.deepEqual(
      started[0]?.phases.map((p) => `${p.name}:${p.check}`),
      [
        'analyst:brief',
        'architect:architecture',
        'test-writer:tests-created',
        'developer:build-command',
        'qa:none',
        'delivery:delivery',
      ],
    );
  });

  test('help documents --allow-weaker-checks', async () => {
    const r = await harness().run('help', 'build');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /\[--unattended \[--allow-weaker-checks\]\]/);
    assert.match(
      r.stdout,
      /--allow-weaker-checks +with --unattended: start even when the workspace's workflow or role files weaken/,
    );
  });
});

describe('groundwork build --resume: weaker checks planted since the start', () => {
  test('a role file that widens delivery, planted after the build started: the resume is refused unattended, allowed with --allow-weaker-checks', async () => {
    const build = sampleBuild({ status: 'failed' });
    const { h, resumed } = withWorkspace({
      '.groundwork/roles/build-delivery.md': DELIVERY.replace('  - docs/**\n', '  - docs/**\n  - src/**\n'),
      [`.groundwork/builds/${build.id}/build.yaml`]: serializeBuildRecord(build),
    });
    const refused = await h.run('--workspace', '/ws', 'build', '--resume', build.id, '--unattended');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /lets delivery also write src\/\*\*/);
    assert.match(refused.stderr, /groundwork: not resumed: under --unattended/);
    assert.deepEqual(resumed, []);
    const allowed = await h.run(
      '--workspace',
      '/ws',
      'build',
      '--resume',
      build.id,
      '--unattended',
      '--allow-weaker-checks',
    );
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.deepEqual(resumed, [build.id]);
  });
});
