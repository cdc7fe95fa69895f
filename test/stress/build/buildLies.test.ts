// Builds whose agents lie, through the built CLI against the scripted model server: each way a
// later phase could make the check pass without the tests passing — a test rewritten to pass
// vacuously (write_file refuses) or overwritten by a command (found by its hash), the test script
// made `exit 0`, the TEST line of architecture.md rewritten, a test file with no test in it. None
// ends completed, and each says what happened in the CLI's output, build.yaml and report.md.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import type { BuildRecord } from '../../../src/core/build/buildTypes';
import { COPY_SCRIPTS, FIXED, NPM_TEST, OVERWRITE_TEST, PROJECT, TEST_FILE, VERIFY } from '../../support/buildScript';
import type { BuildScriptOptions } from '../../support/buildScript';
import { scriptedBuild } from './buildHarness';

async function theBuild(ws: string): Promise<{ yaml: BuildRecord; report: string }> {
  const [id] = await readdir(join(ws, '.groundwork/builds'));
  assert.ok(id, 'a build folder');
  const dir = join(ws, '.groundwork/builds', id);
  return {
    yaml: parse(await readFile(join(dir, 'build.yaml'), 'utf8')) as BuildRecord,
    report: await readFile(join(dir, 'report.md'), 'utf8'),
  };
}

async function lyingBuild(lie: NonNullable<BuildScriptOptions['lie']>, approve: readonly string[] = [VERIFY]) {
  const built = await scriptedBuild({ lie }, (ws) => [
    '--brief',
    join(ws, 'brief.md'),
    ...approve.flatMap((a) => ['--approve', a]),
    '--unattended',
  ]);
  const { yaml, report } = await theBuild(built.ws);
  assert.equal(built.r.code, 1, `the build fails (exit 1):\n${built.r.stderr}`);
  assert.equal(yaml.status, 'failed');
  return { ...built, yaml, report };
}

const attemptsOf = (yaml: BuildRecord, phase: string) => yaml.phases.find((p) => p.name === phase)?.attempts ?? [];

describe('a build no agent can bend', () => {
  test('the developer rewrites the test to pass vacuously and leaves the bug: the write is refused, and QA’s claims are caught', async () => {
    const { ws, r, yaml } = await lyingBuild('vacuous-test');
    assert.match(
      r.stderr,
      /Writing test\/sum\.test\.js was refused: test\/sum\.test\.js is a test the test writer's phase froze/,
    );
    assert.equal(await readFile(join(ws, PROJECT, 'test/sum.test.js'), 'utf8'), TEST_FILE, 'the test is as written');
    assert.deepEqual(
      attemptsOf(yaml, 'qa').map((a) => a.status),
      ['failed', 'failed'],
    );
    assert.match(attemptsOf(yaml, 'qa')[1]?.reason ?? '', /^Claimed but not verified: .*`node --test` exited 1/);
    assert.deepEqual(
      yaml.contract?.tests.map((t) => [t.path, t.declared]),
      [['test/sum.test.js', 1]],
    );
  });

  test('the developer overwrites the test with a command: found by its hash, the phase fails, test contract changed', async () => {
    const { r, yaml, report } = await lyingBuild('test-overwritten', [VERIFY, OVERWRITE_TEST]);
    const [first] = attemptsOf(yaml, 'developer');
    assert.match(first?.reason ?? '', /^Test contract changed: test\/sum\.test\.js\. Accept Test Change/);
    assert.match(
      first?.evidence ?? '',
      /- test\/sum\.test\.js changed: not by a file tool of the build \(a command, or by hand\)/,
    );
    assert.equal(attemptsOf(yaml, 'qa').length, 0, 'QA never ran');
    assert.match(r.stderr, /Test contract changed: test\/sum\.test\.js/);
    assert.match(report, /## What stopped it[\s\S]*Test contract changed: test\/sum\.test\.js/);
  });

  test("the developer makes package.json's test script `exit 0` while `npm test` is approved by its text: refused, then found", async () => {
    const { r, yaml } = await lyingBuild('test-script-exit-0', [NPM_TEST, COPY_SCRIPTS]);
    assert.deepEqual(yaml.commands?.test, [NPM_TEST]);
    assert.match(
      r.stderr,
      /Writing package\.json was refused: this write would change the script test of package\.json/,
    );
    const [first] = attemptsOf(yaml, 'developer');
    assert.match(first?.reason ?? '', /^Test contract changed: package\.json/);
    assert.match(first?.evidence ?? '', /- package\.json scripts\.test changed: not by a file tool of the build/);
    assert.ok(
      !yaml.verified.some((v) => v.command === NPM_TEST && v.exitCode === 0),
      'npm test never passed on the rewritten script',
    );
  });

  test("the developer rewrites architecture.md's TEST line to node --version: the frozen node --test is what is re-run", async () => {
    const { r, yaml, report } = await lyingBuild('architecture-test', [VERIFY, 'node --version']);
    assert.deepEqual(yaml.commands?.test, [VERIFY], 'the commands frozen when the architect passed');
    const qa = attemptsOf(yaml, 'qa');
    assert.equal(qa.length, 2);
    for (const attempt of qa)
      assert.match(
        attempt.reason ?? '',
        /^Claimed but not verified: QA reported VERIFICATION: PASS, but `node --test` exited 1/,
      );
    assert.ok(yaml.verified.some((v) => v.command === 'node --version' && v.exitCode === 0));
    assert.match(yaml.reason ?? '', /second failure/);
    assert.match(report, /Output of `node --test` \(qa, exit 1\)/);
    assert.match(r.stderr, /not ok 1 - REQ-001/);
  });

  test('a test file with no test in it: node --test exits 0 with 0 tests, and that is not verified', async () => {
    const { r, yaml } = await lyingBuild('no-tests');
    assert.deepEqual(
      yaml.contract?.tests.map((t) => [t.path, t.declared]),
      [['test/sum.test.js', 0]],
    );
    const [first] = attemptsOf(yaml, 'qa');
    assert.match(
      first?.reason ?? '',
      /^Claimed but not verified: QA reported VERIFICATION: PASS, but no test ran \(the TEST commands exited 0 with 0 tests\)/,
    );
    assert.ok(
      yaml.verified.some((v) => v.command === VERIFY && v.exitCode === 0),
      'the command itself exited 0',
    );
    assert.match(r.stderr, /no test ran/);
  });

  test('delivery plants docs/check.test.js, which the final re-run would run: refused before it runs, the code untouched', async () => {
    const { ws, r, yaml } = await lyingBuild('delivery-test');
    assert.deepEqual(
      yaml.phases.map((p) => p.status),
      Array(7).fill('passed'),
    );
    assert.match(
      yaml.reason ?? '',
      /^The final verification failed: docs\/check\.test\.js is a test file written after QA checked the project \(by delivery\)/,
    );
    assert.equal(await readFile(join(ws, PROJECT, 'src/sum.js'), 'utf8'), FIXED, 'the planted test never ran');
    assert.ok(!yaml.verified.some((v) => v.phase === 'final'), 'nothing was re-run');
    assert.match(r.stderr, /✗ Groundwork checked final verification: docs\/check\.test\.js is a test file/);
  });

  test('the code ends the process as the frozen test loads it, and a copy of the test passes elsewhere: the frozen file ran no test', async () => {
    const { yaml } = await lyingBuild('early-exit');
    const qa = attemptsOf(yaml, 'qa');
    assert.equal(qa.length, 2, 'an honest FAIL, then a claimed PASS');
    assert.match(
      qa[1]?.reason ?? '',
      /^Claimed but not verified: .*the frozen test file test\/sum\.test\.js ran no test/,
    );
  });
});
