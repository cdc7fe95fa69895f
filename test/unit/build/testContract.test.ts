// The test contract a build freezes when its test writer passes: what the TEST commands depend on
// (the scripts they reach, a Makefile and what it includes, the runners' config files, present or
// not), the frozen test files, and every way a later phase can change them — each found, named,
// and acceptable only by the person.
import assert from 'node:assert/strict';
import { mkdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { contractReader } from '../../../src/core/build/phaseCheckFiles';
import {
  makeIncludes,
  reachedScripts,
  scriptsNamed,
  shellCommands,
  tomlSections,
} from '../../../src/core/build/contractEntries';
import {
  acceptChange,
  changeText,
  contractChanges,
  declaredTests,
  freezeContract,
} from '../../../src/core/build/testContract';
import { contractRefusal } from '../../../src/core/build/contractGuards';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { sha256 } from '../../support/sha256';
import { tempFolder } from '../../support/tempDirs';

const PACKAGE = {
  name: 'p',
  scripts: { pretest: 'node prep.js', test: 'node --test && npm run lint', lint: 'eslint .', build: 'tsc' },
  dependencies: {},
};
const TEST =
  "const test = require('node:test');\ntest('task-001 adds', () => {});\n  it.skip('task-002 later', () => {});\n// test('not one', ...)\n";

async function project(files: Record<string, string>): Promise<string> {
  const dir = await tempFolder('groundwork-contract-');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

async function frozen(dir: string, commands = { test: ['npm test'] }, testFiles = ['test/a.test.js']) {
  const read = contractReader(new NodeWorkspaceFs(), dir);
  const contract = await freezeContract(
    { phase: 'test-writer', at: '2026-01-01T00:00:00.000Z', commands, testFiles },
    read,
    sha256,
  );
  return { contract, changes: () => contractChanges(contract, read, sha256), read };
}

describe('what a command depends on', () => {
  test('the scripts npm, yarn, pnpm, bun and node --run name', () => {
    const named = (line: string) => shellCommands(line).flatMap(scriptsNamed);
    assert.deepEqual(named('npm test'), ['test']);
    assert.deepEqual(named('npm t'), ['test']);
    assert.deepEqual(named('CI=1 npm run build -- --watch'), ['build']);
    assert.deepEqual(named('yarn lint && pnpm run check; bun run e2e'), ['lint', 'check', 'e2e']);
    assert.deepEqual(named('node --run test'), ['test']);
    assert.deepEqual(named('node --test'), []);
    assert.deepEqual(named('npm install'), []);
    assert.deepEqual(named('bun test'), [], "bun test is bun's runner, not a script");
    assert.deepEqual(named('/usr/bin/npm.cmd test'), ['test']);
  });

  test("npm's pre and post scripts and the scripts a script runs, missing ones too; a loop ends", () => {
    assert.deepEqual(reachedScripts(['npm test'], PACKAGE.scripts), [
      'test',
      'pretest',
      'posttest',
      'lint',
      'prelint',
      'postlint',
    ]);
    assert.deepEqual(reachedScripts(['npm run a'], { a: 'npm run b', b: 'npm run a' }).slice(0, 4), [
      'a',
      'prea',
      'posta',
      'b',
    ]);
    assert.ok(
      reachedScripts(
        ['npm run a'],
        Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`a${i === 0 ? '' : i}`, `npm run a${i + 1}`])),
      ).length <= 200,
    );
    assert.deepEqual(
      reachedScripts(['npm run all'], { all: 'npm-run-all lint unit' }).filter((s) => !/^(pre|post)/.test(s)),
      ['all', 'lint', 'unit'],
    );
  });

  test('makefile includes and TOML test sections', () => {
    assert.deepEqual(makeIncludes('include rules.mk common.mk\n-include local.mk\nsinclude $(X).mk\n\tinclude not\n'), [
      'rules.mk',
      'common.mk',
      'local.mk',
      '$(X).mk',
      'not',
    ]);
    const toml = '[project]\nname = "x"\n[tool.pytest.ini_options]\naddopts = "-q"\n[tool.black]\nline = 1\n';
    assert.equal(tomlSections(toml, ['tool.pytest']), '[tool.pytest.ini_options]\naddopts = "-q"');
    assert.equal(tomlSections(toml, ['tool.mypy']), '');
  });

  test('the tests a file declares: at the start of a line, by language; comments and strings are not tests', () => {
    assert.equal(declaredTests('t.test.js', TEST), 1, 'it.skip is not a test that must pass');
    assert.equal(
      declaredTests('test_a.py', 'def test_one():\n    pass\nasync def test_two():\n  pass\ndef helper(): pass\n'),
      2,
    );
    assert.equal(declaredTests('a_test.go', 'func TestA(t *testing.T) {}\nfunc helper() {}\n'), 1);
    assert.equal(declaredTests('lib.rs', '#[test]\nfn a() {}\n#[tokio::test]\nasync fn b() {}\n'), 2);
    assert.equal(declaredTests('README.md', 'test("x")\n'), 0);
  });
});

describe('the contract on the disk', () => {
  test('a frozen test rewritten, deleted, or a test script made to exit 0: each change named', async () => {
    const dir = await project({ 'package.json': JSON.stringify(PACKAGE), 'test/a.test.js': TEST, 'src/a.js': 'x' });
    const { contract, changes } = await frozen(dir);
    assert.deepEqual(
      contract.tests.map((t) => [t.path, t.declared]),
      [['test/a.test.js', 1]],
    );
    assert.deepEqual(
      contract.entries.filter((e) => e.file === 'package.json' && e.sha256 !== null).map((e) => e.key),
      ['scripts.test', 'scripts.pretest', 'scripts.lint'],
    );
    assert.deepEqual(await changes(), [], 'nothing changed yet');
    // The developer's own code and new dependencies are not the contract.
    await writeFile(join(dir, 'src/a.js'), 'y');
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ ...PACKAGE, dependencies: { left: '1' }, scripts: { ...PACKAGE.scripts, build: 'tsc -b' } }),
    );
    assert.deepEqual(await changes(), []);
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, test: 'exit 0' } }),
    );
    await writeFile(join(dir, 'test/a.test.js'), "test('task-001 adds', () => {});\n");
    assert.deepEqual((await changes()).map(changeText), [
      'test/a.test.js changed',
      'package.json scripts.test changed',
    ]);
    await unlink(join(dir, 'test/a.test.js'));
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, posttest: 'node cheat.js' } }),
    );
    assert.deepEqual((await changes()).map(changeText), [
      'test/a.test.js deleted',
      'package.json scripts.posttest created',
    ]);
    await writeFile(join(dir, 'package.json'), '{ not json');
    assert.ok(
      (await changes()).some((c) => c.file === 'package.json' && c.kind === 'changed'),
      'a manifest that no longer parses',
    );
  });

  test('a test config that appears later (a .mocharc that requires a cheat, a conftest.py) is a change', async () => {
    const dir = await project({ 'test/a.test.js': TEST });
    const { changes } = await frozen(dir, { test: ['node --test'] });
    await writeFile(join(dir, '.mocharc.yml'), 'require: cheat.js\n');
    await writeFile(join(dir, 'conftest.py'), 'def pytest_runtest_makereport(): pass\n');
    assert.deepEqual((await changes()).map(changeText), ['.mocharc.yml created', 'conftest.py created']);
  });

  test('a Makefile and the files it includes; a member package.json reached through cd', async () => {
    const dir = await project({
      Makefile: 'include rules.mk\ntest:\n\tnode --test\n',
      'rules.mk': 'X=1\n',
      'packages/a/package.json': JSON.stringify({ scripts: { test: 'node --test' } }),
      'test/a.test.js': TEST,
    });
    const { changes } = await frozen(dir, { test: ['make test', 'cd packages/a && npm test'] });
    await writeFile(join(dir, 'rules.mk'), 'test:\n\ttrue\n');
    await writeFile(join(dir, 'packages/a/package.json'), JSON.stringify({ scripts: { test: 'true' } }));
    assert.deepEqual((await changes()).map(changeText), [
      'packages/a/package.json scripts.test changed',
      'rules.mk changed',
    ]);
  });

  test('a frozen test replaced by a link is read through it only inside the folder; a link out cannot be read', async () => {
    const dir = await project({ 'test/a.test.js': TEST, 'test/b.js': 'other' });
    const { changes } = await frozen(dir, { test: ['node --test'] });
    await rm(join(dir, 'test/a.test.js'));
    await symlink(join(dir, 'test/b.js'), join(dir, 'test/a.test.js'));
    assert.deepEqual(
      (await changes()).map((c) => c.kind),
      ['changed'],
    );
    const outside = await tempFolder('groundwork-outside-');
    await writeFile(join(outside, 'a.test.js'), TEST);
    await rm(join(dir, 'test/a.test.js'));
    await symlink(join(outside, 'a.test.js'), join(dir, 'test/a.test.js'));
    const [c] = await changes();
    assert.equal(c?.kind, 'unreadable', 'the same bytes outside the folder are not the frozen file');
    assert.match(changeText(c!), /leads outside the project folder/);
  });

  test('Accept Test Change: the change becomes the contract and is listed; nothing to accept is said', async () => {
    const dir = await project({ 'package.json': JSON.stringify(PACKAGE), 'test/a.test.js': TEST });
    const { contract, read } = await frozen(dir);
    await writeFile(join(dir, 'test/a.test.js'), `${TEST}test('task-003 more', () => {});\n`);
    const done = await acceptChange(contract, 'test/a.test.js', 'developer', '2026-01-02T00:00:00.000Z', read, sha256);
    assert.equal(done.accepted.length, 1);
    assert.equal(done.contract.tests[0]?.declared, 2);
    assert.deepEqual(await contractChanges(done.contract, read, sha256), []);
    assert.deepEqual(
      done.contract.accepted.map((a) => [a.path, a.phase]),
      [['test/a.test.js', 'developer']],
    );
    const again = await acceptChange(
      done.contract,
      'test/a.test.js',
      'developer',
      '2026-01-02T00:00:00.000Z',
      read,
      sha256,
    );
    assert.equal(again.accepted.length, 0);
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, test: 'node --test test/' } }),
    );
    const manifest = await acceptChange(done.contract, 'package.json', 'qa', '2026-01-02T00:00:00.000Z', read, sha256);
    assert.deepEqual(
      manifest.accepted.map((a) => a.path),
      ['package.json scripts.test'],
    );
    assert.deepEqual(await contractChanges(manifest.contract, read, sha256), []);
  });

  test('the write tools refuse a frozen test, a frozen script, a frozen config; other changes to package.json pass', async () => {
    const dir = await project({ 'package.json': JSON.stringify(PACKAGE), 'test/a.test.js': TEST });
    const { contract } = await frozen(dir);
    const enc = (text: string) => new TextEncoder().encode(text);
    const refused = (path: string, text: string) => contractRefusal(contract, path, enc(text), sha256);
    assert.match(refused('test/a.test.js', TEST) ?? '', /is a test the test writer's phase froze/);
    assert.match(refused('TEST/A.test.js', 'x') ?? '', /froze/, 'as a case-insensitive file system compares names');
    assert.match(
      refused('package.json', JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, test: 'exit 0' } })) ?? '',
      /would change the script test of package\.json/,
    );
    assert.match(refused('package.json', '{') ?? '', /would change/);
    assert.equal(refused('package.json', JSON.stringify({ ...PACKAGE, dependencies: { a: '1' } })), undefined);
    assert.match(refused('.mocharc.yml', 'require: cheat.js') ?? '', /would change its creation of \.mocharc\.yml/);
    assert.equal(refused('src/a.js', 'anything'), undefined);
    assert.equal(refused('test/b.test.js', "test('new', () => {})"), undefined, 'later phases may add tests');
  });

  test('what the review found: a test folder made a link to an identical copy beside another implementation; a script that changes folder; a cargo runner config', async () => {
    const dir = await project({
      'test/a.test.js': TEST,
      'package.json': JSON.stringify({ scripts: { test: 'cd app && npm test' } }),
      'app/package.json': JSON.stringify({ scripts: { test: 'node --test' } }),
    });
    const { contract, changes } = await frozen(dir, { test: ['npm test'] });
    assert.ok(
      contract.entries.some((e) => e.file === 'app/package.json' && e.key === 'scripts.test' && e.sha256 !== null),
      'the folder a script changes to is followed',
    );
    // The same bytes elsewhere, the folder made a link to them: not the frozen file.
    await mkdir(join(dir, 'alt/test'), { recursive: true });
    await writeFile(join(dir, 'alt/test/a.test.js'), TEST);
    await rm(join(dir, 'test'), { recursive: true });
    await symlink(join(dir, 'alt/test'), join(dir, 'test'));
    await writeFile(join(dir, 'app/package.json'), JSON.stringify({ scripts: { test: 'exit 0' } }));
    await mkdir(join(dir, '.cargo'));
    await writeFile(join(dir, '.cargo/config.toml'), '[target.x86_64-unknown-linux-gnu]\nrunner = "sh fake.sh"\n');
    assert.deepEqual((await changes()).map(changeText), [
      'test/a.test.js changed',
      'app/package.json scripts.test changed',
      '.cargo/config.toml created',
    ]);
  });

  test('a config that is a link out of the folder cannot be frozen: it is marked unreadable (the test writer’s phase then fails)', async () => {
    const dir = await project({ 'test/a.test.js': TEST });
    const outside = await tempFolder('groundwork-outside-');
    await writeFile(join(outside, 'jest.config.js'), 'module.exports = {};');
    await symlink(join(outside, 'jest.config.js'), join(dir, 'jest.config.js'));
    const { contract } = await frozen(dir, { test: ['npx jest'] });
    assert.deepEqual(
      contract.entries.filter((e) => e.sha256 === 'unreadable').map((e) => e.file),
      ['jest.config.js'],
    );
  });
});
