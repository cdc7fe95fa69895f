// Issue 26: an exact `--approve "npm test"` stops applying once a phase of the build has written a
// manifest, through the built CLI (dist/cli.js) run unattended against the scripted model server.
// A developer that rewrites package.json's test script to `exit 0` and runs `npm test`; a
// package.json written through a link; a workspace member's package.json; a file a Makefile
// includes. What the test contract freezes (the scripts npm test runs, a Makefile's includes) is
// refused by write_file itself; any other manifest write makes the phase's own npm test asked
// again (refused, unattended) while Groundwork's re-run of the frozen TEST command, whose scripts
// are unchanged, still runs; a monorepo root ("workspaces") keeps even that under the manifest rule.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { ANALYST, BRIEF_MD, PROJECT, REVIEW, TEST_FILE, phase, say, write } from '../../support/buildScript';
import { match, reply } from '../../support/modelScript';
import type { MessagesBody, ScriptRule, StreamReply } from '../../support/modelScript';
import { repo } from '../../support/processes';
import type { ProcessRun } from '../../support/processes';
import { startScriptedModelServer } from '../../support/scriptedModelServer';
import { tempFolder } from '../../support/tempDirs';
import { cli } from '../agent/agentCliHarness';

interface Built {
  ws: string;
  r: ProcessRun;
  yaml: Yaml;
}

interface Yaml {
  status: string;
  reason?: string;
  phases: { name: string; status: string; attempts: { cause: string; status: string }[] }[];
}

const architecture = (test: string) => `# Architecture of ${PROJECT}\n\nOne module, src/sum.js.\n\nTEST: ${test}\n`;
const SUM = 'exports.sum = (a, b) => a + b;\n';
const CHEAT = '{\n  "name": "sum-tool",\n  "scripts": { "test": "exit 0" }\n}\n';
const qaPass = (command: string) => `The tests pass.\n\nVERIFICATION: PASS\nVERIFY: ${command}\n`;
const DELIVERY = `BUILD_COMPLETE\nPROJECT: ${PROJECT}\nLOCATION: ${PROJECT}/\nLANGUAGE: JavaScript\nSUMMARY: sum.\nUSAGE: require it.\n`;
const run = (command: string): StreamReply => reply.toolUse('run_command', { command });

/** Turn i of every run of `name` (a run's i-th model call has 2i+1 messages): the same replies for each try. */
function turns(name: string, replies: StreamReply[]): ScriptRule[] {
  return replies.map((r, i) => ({
    name: `${name} ${i + 1}`,
    times: Infinity,
    match: match.all(phase(name), (body: MessagesBody) => body.messages.length === 2 * i + 1),
    reply: r,
  }));
}

/** The whole build: the architect writes `architect` (and its TEST: line), the developer does `developer`, QA claims a PASS. */
function rules(test: string, architect: StreamReply[], developer: StreamReply[]): ScriptRule[] {
  return [
    ...turns('analyst', [say(ANALYST)]),
    ...turns('architect', [
      write('specs/architecture.md', architecture(test)),
      ...architect,
      say('ARCHITECTURE_COMPLETE'),
    ]),
    ...turns('test-writer', [write('test/sum.test.js', TEST_FILE), say('TESTS_COMPLETE')]),
    ...turns('developer', [write('src/sum.js', SUM), ...developer, say('IMPLEMENTATION_COMPLETE')]),
    ...turns('qa', [say(qaPass(test))]),
    ...turns('reviewer', [say(REVIEW)]),
    ...turns('delivery', [write('docs/USAGE.md', '# Usage\n'), say(DELIVERY)]),
  ];
}

async function theBuild(ws: string): Promise<Yaml> {
  const [id] = await readdir(join(ws, '.groundwork/builds'));
  assert.ok(id, 'a build folder');
  return parse(await readFile(join(ws, '.groundwork/builds', id, 'build.yaml'), 'utf8')) as Yaml;
}

/** `groundwork build --brief … --approve <command> --unattended --yes` (and `--into <ws>/proj` when `into`). */
async function unattended(
  script: ScriptRule[],
  command: string,
  options: { into?: boolean; prepare?: (ws: string) => Promise<void> } = {},
): Promise<Built> {
  assert.ok(existsSync(join(repo, 'dist/cli.js')), 'dist/cli.js is missing: run npm run build');
  const server = await startScriptedModelServer(script);
  try {
    const ws = await tempFolder('groundwork-manifest-');
    await writeFile(join(ws, 'brief.md'), BRIEF_MD);
    await options.prepare?.(ws);
    const into = options.into ? ['--into', join(ws, 'proj')] : [];
    const args = ['--brief', join(ws, 'brief.md'), ...into, '--approve', command, '--unattended', '--yes'];
    const r = await cli(['--workspace', ws, 'build', ...args], server);
    assert.deepEqual(
      server.unmatched.map((u) => u.seq),
      [],
      'every model call was scripted',
    );
    return { ws, r, yaml: await theBuild(ws) };
  } finally {
    await server.close();
  }
}

/**
 * What every case shows: the command never ran, was refused with why, and the build failed saying
 * so — at QA, whose re-run of the command is refused, or, when the file written is part of the test
 * contract the test writer's phase froze, at the developer's phase itself (`contract`).
 */
function refusedAndFailed(b: Built, command: string, wrote: RegExp, contract?: string): void {
  const { r, yaml } = b;
  assert.equal(r.code, 1, r.stderr);
  assert.equal(yaml.status, 'failed');
  assert.ok(!r.stderr.includes(`▶ ${command}\n`), `${command} ran:\n${r.stderr.slice(-3000)}`);
  const notRun = r.stderr.split('\n').filter((l) => l.includes(`⊘ Not run: ${command} (`));
  assert.ok(notRun.length > 0, r.stderr.slice(-3000));
  for (const line of notRun) assert.match(line, /nobody can approve it in this run \(unattended\), and /);
  assert.ok(
    notRun.some(
      (l) =>
        wrote.test(l) && /was written by this run, so script runners \(npm, make, cargo…\) are asked again/.test(l),
    ),
    notRun.join('\n'),
  );
  if (contract !== undefined)
    assert.match(yaml.reason ?? '', new RegExp(`^Phase developer failed: Test contract changed: ${contract}\\.`));
  else
    assert.match(
      yaml.reason ?? '',
      new RegExp(`Phase qa failed: .*\`${command}\` was not run \\(nobody can approve it`),
    );
  assert.match(r.stderr, /groundwork: build \S+ failed/);
}

/** What a run's write that the test contract refused prints. */
const contractRefusal = (path: string) =>
  new RegExp(
    `Writing ${path.replace(/\./g, '\\.')} was refused: this write would change .* which the TEST commands run`,
  );

describe('groundwork build --approve … --unattended: a manifest written by a phase', () => {
  test('the developer tries to make the test script exit 0: write_file refuses (the script is frozen); the build completes on the real tests', async () => {
    const b = await unattended(
      rules(
        'npm test',
        [write('package.json', '{ "scripts": { "test": "node --test" } }\n')],
        [write('package.json', CHEAT), run('npm test')],
      ),
      'npm test',
    );
    assert.equal(b.r.code, 0, b.r.stderr);
    assert.equal(b.yaml.status, 'completed');
    assert.match(b.r.stderr, contractRefusal('package.json'));
    // The developer's own npm test is asked again (refused, unattended): the architect wrote package.json in this build.
    assert.match(
      b.r.stderr,
      /⊘ Not run: npm test \(nobody can approve it in this run \(unattended\), and package\.json was written in this build \(phase architect\)/,
    );
    assert.equal(
      await readFile(join(b.ws, PROJECT, 'package.json'), 'utf8'),
      '{ "scripts": { "test": "node --test" } }\n',
    );
    assert.match(b.r.stderr, /final verification: passed \(node: 1 ran, 1 passed/);
  });

  test('package.json written through a link named package.json to notes.json: judged by the path written; the developer’s npm test is refused, Groundwork’s frozen re-run is not', async () => {
    const harmless = '{ "scripts": { "test": "node --test" }, "description": "adds" }\n';
    const b = await unattended(rules('npm test', [], [write('package.json', harmless), run('npm test')]), 'npm test', {
      into: true,
      prepare: async (ws) => {
        await mkdir(join(ws, 'proj'));
        await writeFile(join(ws, 'proj/notes.json'), '{ "scripts": { "test": "node --test" } }\n');
        await symlink('notes.json', join(ws, 'proj/package.json'));
      },
    });
    assert.equal(b.r.code, 0, b.r.stderr);
    assert.match(b.r.stderr, /! package\.json is written by this run/);
    assert.match(
      b.r.stderr,
      /⊘ Not run: npm test \(nobody can approve it in this run \(unattended\), and package\.json was written by this run/,
    );
    assert.equal(await readFile(join(b.ws, 'proj/notes.json'), 'utf8'), harmless, 'written through the link');
    // The scripts npm test runs are as the test writer's phase froze them: QA's re-run and the final one run.
    assert.match(b.r.stderr, /final verification: passed/);
  });

  test("a workspace member's package.json: npm test at the root is asked again", async () => {
    const b = await unattended(
      rules('npm test', [], [write('packages/a/package.json', CHEAT), run('npm test')]),
      'npm test',
      {
        into: true,
        prepare: async (ws) => {
          await mkdir(join(ws, 'proj'));
          await writeFile(join(ws, 'proj/package.json'), '{ "workspaces": ["packages/*"] }\n');
        },
      },
    );
    refusedAndFailed(b, 'npm test', /and packages\/a\/package\.json was written by this run/);
    assert.match(b.r.stderr, /! packages\/a\/package\.json is written by this run/);
    assert.match(b.yaml.reason ?? '', /packages\/a\/package\.json was written in this build \(phase developer\)/);
  });

  test('a file the Makefile includes (include rules.inc) is frozen with it: the write is refused', async () => {
    const b = await unattended(
      rules('make test', [], [write('rules.inc', 'test:\n\t@exit 0\n'), run('make test')]),
      'make test',
      {
        into: true,
        prepare: async (ws) => {
          await mkdir(join(ws, 'proj'));
          await writeFile(join(ws, 'proj/Makefile'), 'include rules.inc\n');
          await writeFile(join(ws, 'proj/rules.inc'), 'test:\n\tnode --test\n');
        },
      },
    );
    assert.match(b.r.stderr, /Writing rules\.inc was refused: this write would change its text of rules\.inc/);
    assert.equal(await readFile(join(b.ws, 'proj/rules.inc'), 'utf8'), 'test:\n\tnode --test\n');
    assert.equal(b.r.code, 0, b.r.stderr);
  });
});
