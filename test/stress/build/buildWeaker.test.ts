// What a build's workspace or its model can weaken, through the built CLI against the scripted model
// server: a workspace workflow whose QA checks nothing, one whose delivery may write the code (and
// breaks it after QA and the reviewer), and a cost ceiling over a model Groundwork has no price for.
// None ends completed; each says why in the CLI's output, build.yaml and report.md.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import type { BuildRecord } from '../../../src/core/build/buildTypes';
import { BRIEF_MD, BUGGY, VERIFY, buildRules, phase, write } from '../../support/buildScript';
import type { BuildScriptOptions } from '../../support/buildScript';
import type { ScriptRule } from '../../support/modelScript';
import { repo } from '../../support/processes';
import type { ProcessRun } from '../../support/processes';
import { startScriptedModelServer } from '../../support/scriptedModelServer';
import { tempFolder } from '../../support/tempDirs';
import { cli } from '../agent/agentCliHarness';

const WORKFLOW = (qaCheck: string, deliveryRole: string) =>
  [
    'phases:',
    '  - { name: analyst, role: build-analyst, check: brief }',
    '  - { name: architect, role: build-architect, check: architecture }',
    '  - { name: test-writer, role: build-test-writer, check: tests-created }',
    '  - { name: developer, role: build-developer, check: build-command }',
    `  - { name: qa, role: build-qa, check: ${qaCheck} }`,
    '  - { name: reviewer, role: build-reviewer, check: review }',
    `  - { name: delivery, role: ${deliveryRole}, check: delivery }`,
    '',
  ].join('\n');

async function build(
  script: ScriptRule[],
  args: string[],
  options: { workflow?: string; env?: Record<string, string> } = {},
): Promise<{ ws: string; r: ProcessRun; yaml?: BuildRecord; report?: string }> {
  assert.ok(existsSync(join(repo, 'dist/cli.js')), 'dist/cli.js is missing: run npm run build');
  const server = await startScriptedModelServer(script);
  try {
    const ws = await tempFolder('groundwork-weaker-');
    await writeFile(join(ws, 'brief.md'), BRIEF_MD);
    if (options.workflow !== undefined) {
      await mkdir(join(ws, '.groundwork/workflows'), { recursive: true });
      await writeFile(join(ws, '.groundwork/workflows/build.yaml'), options.workflow);
    }
    const r = await cli(
      ['--workspace', ws, 'build', '--brief', join(ws, 'brief.md'), ...args, '--yes'],
      server,
      options.env,
    );
    const builds = existsSync(join(ws, '.groundwork/builds')) ? await readdir(join(ws, '.groundwork/builds')) : [];
    const id = builds.find((n) => /^\d{8}-/.test(n));
    if (id === undefined) return { ws, r };
    const dir = join(ws, '.groundwork/builds', id);
    return {
      ws,
      r,
      yaml: parse(await readFile(join(dir, 'build.yaml'), 'utf8')) as BuildRecord,
      report: await readFile(join(dir, 'report.md'), 'utf8'),
    };
  } finally {
    await server.close();
  }
}

/** The scripted build whose developer never fixes the bug (the second QA claims a PASS). */
function buggy(options: BuildScriptOptions = {}): ScriptRule[] {
  return buildRules({ ...options, qaFirst: 'claim-pass', qaAlwaysFails: false }).map((rule) =>
    rule.name === 'developer 3' ? { ...rule, reply: write('src/sum.js', BUGGY, 'Nothing to fix.') } : rule,
  );
}

describe('what a workspace or a model can weaken', () => {
  test('a workspace workflow whose QA checks nothing: refused unattended; allowed, the final verification still fails the buggy build', async () => {
    const workflow = WORKFLOW('none', 'build-delivery');
    const refused = await build(buggy(), ['--approve', VERIFY, '--unattended'], { workflow });
    assert.equal(refused.r.code, 2, refused.r.stderr);
    assert.match(refused.r.stderr, /qa's check is none instead of verification/);
    assert.match(refused.r.stderr, /--allow-weaker-checks/);
    assert.equal(refused.yaml, undefined, 'nothing started');

    const allowed = await build(buggy(), ['--approve', VERIFY, '--unattended', '--allow-weaker-checks'], { workflow });
    assert.equal(allowed.r.code, 1, allowed.r.stderr);
    assert.equal(allowed.yaml?.status, 'failed');
    assert.deepEqual(
      allowed.yaml?.phases.map((p) => p.status),
      Array(7).fill('passed'),
      'every phase passed its check',
    );
    assert.match(
      allowed.yaml?.reason ?? '',
      /^The final verification failed: Not verified: `node --test` exited 1 after the last phase/,
    );
    assert.match(allowed.report ?? '', /## Weaker checks[\s\S]*qa's check is none instead of verification/);
    assert.match(allowed.report ?? '', /## Final verification[\s\S]*\*\*failed\*\*/);
    assert.ok(allowed.yaml?.weaker?.some((l) => /qa's check is none/.test(l)));
  });

  test('a workspace workflow that lets delivery write the code: it breaks src/ after QA and the reviewer, and the final verification fails the build', async () => {
    const workflow = WORKFLOW('verification', 'build-developer');
    const script = buildRules({}).map((rule) =>
      rule.name === 'delivery 1' ? { ...rule, reply: write('src/sum.js', BUGGY, 'Tidying up.') } : rule,
    );
    script.splice(
      script.findIndex((r) => r.name === 'delivery 2'),
      0,
      {
        name: 'delivery writes the usage',
        match: phase('delivery'),
        reply: write('docs/USAGE.md', '# Usage\n'),
      },
    );
    const b = await build(script, ['--approve', VERIFY, '--unattended', '--allow-weaker-checks'], { workflow });
    assert.equal(b.r.code, 1, b.r.stderr);
    assert.match(b.r.stderr, /delivery runs role build-developer instead of build-delivery/);
    assert.equal(await readFile(join(b.ws, 'sum-tool/src/sum.js'), 'utf8'), BUGGY, 'delivery wrote the bug');
    assert.equal(b.yaml?.status, 'failed');
    assert.match(
      b.yaml?.reason ?? '',
      /The final verification failed: Not verified: `node --test` exited 1 after the last phase/,
    );
    assert.match(b.r.stderr, /✗ Groundwork checked final verification: Not verified: `node --test` exited 1/);
    assert.deepEqual(
      b.yaml?.verified.map((v) => [v.phase, v.exitCode]),
      [
        ['qa', 0],
        ['final', 1],
      ],
      'QA’s re-run passed on the fixed code; the final one failed on what delivery wrote after it',
    );
  });

  test('a cost ceiling over a model Groundwork has no price for: the build does not start', async () => {
    const b = await build(buildRules({}), ['--approve', VERIFY, '--max-cost', '5'], {
      env: { GROUNDWORK_MODEL_FAST: 'claude-mystery-9' },
    });
    assert.equal(b.r.code, 2, b.r.stderr);
    assert.match(
      b.r.stderr,
      /not started: The build has a cost ceiling of \$5\.00, but Groundwork knows no price for claude-mystery-9, so what the build spends could not be counted/,
    );
    assert.equal(b.yaml, undefined, 'nothing started');
  });

  test('a model the server names mid-build that has no price: the build stops at its next call', async () => {
    const script = buildRules({}).map((rule) =>
      rule.name === 'architect 1' ? { ...rule, reply: { ...(rule.reply as object), model: 'claude-mystery-9' } } : rule,
    ) as ScriptRule[];
    const b = await build(script, ['--approve', VERIFY, '--max-cost', '5', '--unattended']);
    assert.equal(b.r.code, 1, b.r.stderr);
    assert.equal(b.yaml?.status, 'failed');
    assert.match(
      b.yaml?.reason ?? '',
      /The build has a cost ceiling of \$5\.00, but claude-mystery-9 has no price Groundwork knows, so what it costs cannot be counted: the build stopped before the next model call/,
    );
    const architect = b.yaml?.phases.find((p) => p.name === 'architect');
    assert.equal(architect?.status, 'failed');
    assert.equal(b.yaml?.phases.find((p) => p.name === 'test-writer')?.attempts.length, 0, 'no later phase ran');
  });
});
