// `groundwork build` as a person uses it: the built CLI (dist/cli.js) as a real process against the
// scripted model server playing all seven roles with real tool calls, real files in a temporary
// workspace, and Groundwork's own re-run of `node --test`.
import assert from 'node:assert/strict';
import type { FinalVerification } from '../../../src/core/build/buildTypes';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { BRIEF_MD, FIXED, PROJECT, VERIFY, buildRules } from '../../support/buildScript';
import type { BuildScriptOptions } from '../../support/buildScript';
import { startScriptedModelServer, systemText } from '../../support/scriptedModelServer';
import type { MessagesBody } from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import { repo } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';
import { cli } from '../agent/agentCliHarness';
import { scriptedBuild } from './buildHarness';
import type { ScriptedBuild } from './buildHarness';

interface Yaml {
  status: string;
  reason?: string;
  projectDir?: string;
  phases: {
    name: string;
    status: string;
    attempts: { cause: string; status: string; reason?: string; runId?: string }[];
  }[];
  verified: { phase: string; command: string; exitCode: number | null; output?: string }[];
  final?: FinalVerification;
}

async function workspace(): Promise<string> {
  const ws = await tempFolder('groundwork-build-');
  await writeFile(join(ws, 'brief.md'), BRIEF_MD);
  return ws;
}

async function theBuild(ws: string): Promise<{ id: string; yaml: Yaml; report: string; log: string }> {
  const [id] = await readdir(join(ws, '.groundwork/builds'));
  assert.ok(id, 'a build folder');
  const dir = join(ws, '.groundwork/builds', id);
  const yaml = parse(await readFile(join(dir, 'build.yaml'), 'utf8')) as Yaml;
  return {
    id,
    yaml,
    report: await readFile(join(dir, 'report.md'), 'utf8').catch(() => ''),
    log: await readFile(join(dir, 'build.log'), 'utf8'),
  };
}

async function build(options: BuildScriptOptions, extra: string[] = ['--approve', VERIFY]): Promise<ScriptedBuild> {
  return scriptedBuild(options, (ws) => ['--brief', join(ws, 'brief.md'), ...extra]);
}

const phaseOf = (body: MessagesBody) => /^Groundwork build phase: ([a-z-]+)\n/.exec(systemText(body))?.[1];

describe('groundwork build: the built CLI', () => {
  test('a brief becomes a verified Node project: QA fails once, the developer fixes it, Groundwork re-runs node --test', async () => {
    assert.ok(existsSync(join(repo, 'dist/cli.js')), 'dist/cli.js is missing: run npm run build');
    const { ws, r, bodies } = await build({});
    assert.equal(r.code, 0, r.stderr);
    const project = join(ws, PROJECT);
    assert.equal(await readFile(join(project, 'src/sum.js'), 'utf8'), FIXED);
    for (const f of [
      'test/sum.test.js',
      'specs/architecture.md',
      'specs/brief.md',
      'specs/verification.md',
      'specs/review.md',
      'docs/USAGE.md',
    ])
      assert.ok(existsSync(join(project, f)), f);
    // Each phase a fresh run whose system prompt begins with its phase line, in the workflow's order.
    const phases = bodies.map(phaseOf);
    assert.ok(
      phases.every((p) => p !== undefined),
      'every call names its phase',
    );
    assert.deepEqual(
      [...new Set(phases)],
      ['analyst', 'architect', 'test-writer', 'developer', 'qa', 'reviewer', 'delivery'],
    );
    assert.match(r.stderr, /── Groundwork build phase: developer · try 2 \(sent back: QA failed\) ──/);
    assert.match(r.stderr, /▶ node --test\n[\s\S]*# pass 1[\s\S]*✓ exit 0/);
    const { yaml, report, log } = await theBuild(ws);
    assert.equal(yaml.status, 'completed');
    assert.equal(yaml.projectDir, PROJECT);
    assert.deepEqual(
      yaml.phases.find((p) => p.name === 'qa')?.attempts.map((a) => a.status),
      ['failed', 'passed'],
    );
    assert.deepEqual(
      yaml.phases.find((p) => p.name === 'developer')?.attempts.map((a) => a.cause),
      ['first', 'qa-failed'],
    );
    assert.deepEqual(
      yaml.verified.map((v) => [v.phase, v.command, v.exitCode]),
      [
        ['qa', VERIFY, 0],
        ['final', VERIFY, 0],
      ],
    );
    assert.equal(yaml.final?.passed, true);
    assert.deepEqual(yaml.final?.tests, {
      runner: 'node',
      ran: 1,
      passed: 1,
      failed: 0,
      skipped: 0,
      complete: true,
      named: true,
    });
    assert.match(r.stderr, /✓ Groundwork checked final verification: 1 of 1 tests passed \(node\)/);
    assert.match(report, /## Final verification[\s\S]*Tests \(node\): 1 ran, 1 passed, 0 failed, 0 skipped\./);
    assert.match(report, /\| qa \| `node --test` \| 0 \|/);
    assert.match(report, /qa: QA reported VERIFICATION: FAIL: sum subtracts instead of adding/);
    assert.match(report, /- `test\/sum\.test\.js`/);
    assert.match(log, /phase qa failed[\s\S]*phase developer started \(try 2, qa-failed\)[\s\S]*build completed/);
    assert.match(await readFile(join(ws, '.groundwork/audit.jsonl'), 'utf8'), /"kind":"build.phase"/);
  });

  test('a QA that says VERIFICATION: PASS while the test fails is caught as claimed but not verified', async () => {
    const { ws, r } = await build({ qaFirst: 'claim-pass' });
    assert.equal(r.code, 0, r.stderr);
    const { yaml, report } = await theBuild(ws);
    const first = yaml.phases.find((p) => p.name === 'qa')?.attempts[0];
    assert.match(
      first?.reason ?? '',
      /^Claimed but not verified: QA reported VERIFICATION: PASS, but `node --test` exited 1/,
    );
    assert.deepEqual(
      yaml.verified.map((v) => v.exitCode),
      [1, 0, 0],
      'QA’s claim, the fixed QA, then the final verification',
    );
    assert.match(yaml.verified[0]?.output ?? '', /not ok 1 - REQ-001/);
    assert.match(report, /Output of `node --test` \(qa, exit 1\)/);
  });

  test('a second QA failure stops the build with which phase, what finished and where the partial results are', async () => {
    const { ws, r } = await build({ qaAlwaysFails: true });
    assert.equal(r.code, 1, r.stderr);
    const { yaml, report } = await theBuild(ws);
    assert.equal(yaml.status, 'failed');
    assert.match(yaml.reason ?? '', /^Phase qa failed: QA reported VERIFICATION: FAIL.* This is the second failure/);
    assert.match(
      yaml.reason ?? '',
      /Finished: analyst, architect, test-writer, developer\. Partial results are in sum-tool\/\.$/,
    );
    assert.match(report, /## What stopped it/);
    assert.match(r.stderr, /groundwork: build \S+ failed; report: /);
  });

  test('a delivery without BUILD_COMPLETE fails after its three tries', async () => {
    const { ws, r } = await build({ deliveryIncomplete: true });
    assert.equal(r.code, 1, r.stderr);
    const { yaml } = await theBuild(ws);
    assert.deepEqual(
      yaml.phases.find((p) => p.name === 'delivery')?.attempts.map((a) => `${a.cause}:${a.status}`),
      ['first:failed', 'retry:failed', 'retry:failed'],
    );
    assert.match(
      yaml.reason ?? '',
      /^Phase delivery failed: Delivery is not complete: the reply has no BUILD_COMPLETE line.*\(after 3 tries\)/,
    );
  });

  test('--unattended with a command that is not pre-approved: the check is refused, the build fails cleanly with exit 1', async () => {
    const { ws, r } = await build({ qaFirst: 'claim-pass' }, ['--unattended']);
    assert.equal(r.code, 1, r.stderr);
    const { yaml } = await theBuild(ws);
    assert.equal(yaml.status, 'failed');
    assert.deepEqual(
      yaml.verified.map((v) => v.exitCode),
      [null],
    );
    assert.match(
      yaml.reason ?? '',
      /Phase qa failed: Claimed but not verified: .*`node --test` was not run \(nobody can approve it/,
    );
  });

  test('without a terminal and without --yes nothing starts: exit 2', async () => {
    const server = await startScriptedModelServer([]);
    try {
      const ws = await workspace();
      const r = await cli(['--workspace', ws, 'build', '--brief', join(ws, 'brief.md')], server);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /an estimate\)[\s\S]*confirm with --yes/);
      assert.equal(existsSync(join(ws, '.groundwork/builds')), false);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });

  test('stopped mid-phase by SIGTERM, then --resume continues from that phase and finishes', async () => {
    const server = await startScriptedModelServer(buildRules({ stallDeveloper: true }));
    try {
      const ws = await workspace();
      const stopped = await cli(
        ['--workspace', ws, 'build', '--brief', join(ws, 'brief.md'), '--yes', '--approve', VERIFY],
        server,
        {},
        (stderr, kill) => {
          void until('the developer phase', () => stderr().includes('phase: developer · try 1')).then(() =>
            setTimeout(() => kill('SIGTERM'), 300),
          );
        },
      );
      assert.equal(stopped.code, 1, stopped.stderr);
      const before = await theBuild(ws);
      assert.equal(before.yaml.status, 'stopped');
      assert.equal(before.yaml.phases.find((p) => p.name === 'developer')?.status, 'stopped');
      const resumed = await cli(['--workspace', ws, 'build', '--resume', before.id, '--approve', VERIFY], server);
      assert.equal(resumed.code, 0, resumed.stderr);
      const after = await theBuild(ws);
      assert.equal(after.yaml.status, 'completed');
      assert.deepEqual(
        after.yaml.phases.find((p) => p.name === 'developer')?.attempts.map((a) => `${a.cause}:${a.status}`),
        ['first:stopped', 'resume:passed', 'qa-failed:passed'],
      );
      assert.equal(
        after.yaml.phases.find((p) => p.name === 'analyst')?.attempts.length,
        1,
        'the analyst did not run again',
      );
    } finally {
      await server.close();
    }
  });
});
