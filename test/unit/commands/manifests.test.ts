// The manifest rule's names: which files are manifests (every kind, at any depth, and the path
// tricks a model could try), which commands run their scripts, what a Makefile includes, and how
// the rule sits in approvalNeeded with --approve, the person's answers and Groundwork's own
// frozen re-runs (docs/build-phases.md, "Manifests").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approvalNeeded } from '../../../src/core/commands/commandPolicy';
import type { ApprovalState } from '../../../src/core/commands/commandPolicy';
import { includeNames, makefileIncludes } from '../../../src/core/commands/makeIncludes';
import {
  MANIFEST_FILES,
  MANIFEST_TOOLS,
  isManifestFile,
  manifestToolCommand,
} from '../../../src/core/commands/manifests';
import { cpuMsSince } from '../../support/cpuTime';

describe('isManifestFile: by name, at any depth', () => {
  test('every kind of manifest, at the root and in a workspace member', () => {
    const kinds = [
      'package.json',
      'package.yaml',
      'package.json5',
      '.npmrc',
      '.yarnrc',
      '.yarnrc.yml',
      '.pnpmfile.cjs',
      'pnpm-workspace.yaml',
      'deno.json',
      'deno.jsonc',
      'bunfig.toml',
      'Makefile',
      'makefile',
      'GNUmakefile',
      'rules.mk',
      'build/common.mak',
      'pyproject.toml',
      'Cargo.toml',
      'turbo.json',
      'nx.json',
      'lerna.json',
      '.cargo/config.toml',
      '.cargo/config',
      '.yarn/releases/yarn-4.1.0.cjs',
      '.yarn/plugins/@yarnpkg/plugin-x.cjs',
    ];
    for (const path of kinds) {
      assert.equal(isManifestFile(path), true, path);
      assert.equal(isManifestFile(`packages/a/${path}`), true, `packages/a/${path}`);
    }
    for (const name of MANIFEST_FILES) assert.equal(isManifestFile(`x/${name}`), true, name);
  });

  test('the path tricks: ./, ../, backslashes, case, Unicode forms, trailing dots and NTFS streams', () => {
    for (const path of [
      './package.json',
      '././package.json',
      '../package.json',
      'src/../package.json',
      'packages//a/./package.json',
      'packages\\a\\package.json',
      '.\\Makefile',
      'C:\\work\\proj\\package.json',
      '/abs/proj/Cargo.toml',
      'PACKAGE.JSON',
      'Package.Json',
      'MAKEFILE',
      'PyProject.TOML',
      'package.json'.normalize('NFD'),
      'ｐａｃｋａｇｅ.json', // fullwidth: NFKC makes it package.json
      'pack\u200bage.json', // a zero-width space some file systems ignore
      'package.json.',
      'package.json ',
      'package.json::$DATA',
      'package.json/',
      'RULES.MK',
    ])
      assert.equal(isManifestFile(path), true, JSON.stringify(path));
  });

  test('what is not a manifest', () => {
    for (const path of [
      'package-lock.json',
      'src/package.ts',
      'package.json/index.js',
      'tsconfig.json',
      'Makefile.am.txt',
      'notes.txt',
      'cargo.lock',
      '.mk',
      'mk',
      '',
      '.',
      '..',
      'packages/a/..',
      '.yarn/cache/x.zip',
      'config.toml',
    ])
      assert.equal(isManifestFile(path), false, JSON.stringify(path));
  });
});

describe('manifestToolCommand: commands that run a manifest’s scripts', () => {
  test('every tool, as a word anywhere in the command', () => {
    for (const tool of MANIFEST_TOOLS) {
      for (const command of [`${tool} test`, `${tool}`, `FOO=1 ${tool} run x`, `sh -c "${tool} test"`])
        assert.equal(manifestToolCommand(command), true, command);
    }
  });

  test('the forms a program name takes', () => {
    for (const command of [
      'npm.cmd test',
      'NPM.CMD test',
      'npx.exe jest',
      '/usr/local/bin/pnpm test',
      'C:\\Program Files\\nodejs\\npm test',
      '.\\node_modules\\.bin\\turbo run test',
      'n\\pm test',
      '"npm" test',
      "$'npm' test",
      'env CI=1 npm test',
      'cross-env CI=1 npm test',
      'nodemon --exec "npm test"',
      'concurrently "npm:test" "npm:lint"',
      'timeout 60 make check',
      'deno task test',
      'bun run test',
      'bunx vitest',
      'corepack yarn test',
      'uv run pytest',
      'poetry run pytest',
      'cargo test',
      'node --run test',
      'node --run=test',
      'node --no-warnings --run test',
    ])
      assert.equal(manifestToolCommand(command), true, command);
  });

  test('interpreters and test runners keep their pre-approval', () => {
    for (const command of [
      'node --test',
      'node src/index.js',
      'python -m pytest',
      'pytest -q',
      'jest',
      'go test ./...',
      'cmake --build .',
      'makeself x',
      'npmx',
      'cargo-like x',
      'ls package.json',
    ])
      assert.equal(manifestToolCommand(command), false, command);
  });

  test('a 100 KB command is read in linear time', () => {
    const start = process.cpuUsage();
    for (const command of ['a'.repeat(100_000), 'npm '.repeat(25_000), '"\\'.repeat(50_000), 'x:'.repeat(50_000)])
      manifestToolCommand(command);
    const ms = cpuMsSince(start);
    assert.ok(ms < 10_000, `took ${ms} ms`);
  });
});

describe('makefileIncludes and includeNames', () => {
  const MAKEFILE = [
    'include rules.mk common.inc',
    '-include $(DEPS)',
    'sinclude config/local.make  # the person’s own',
    '  include  spaced.inc',
    'include \\',
    '  continued.inc',
    'included.inc: ; @echo not a directive',
    'all:',
    '\t@echo include not-this-either.inc',
    '# include commented.inc',
  ].join('\n');

  test('include, -include and sinclude, continued lines, comments left out', () => {
    const names = makefileIncludes(MAKEFILE);
    for (const name of ['rules.mk', 'common.inc', '$(DEPS)', 'config/local.make', 'spaced.inc', 'continued.inc'])
      assert.ok(names.includes(name), name);
    assert.ok(!names.includes('commented.inc'));
    assert.ok(!names.includes('included.inc:'));
  });

  test('names are matched lexically and case-insensitively; a variable or glob stands for anything', () => {
    assert.equal(includeNames('common.inc', 'common.inc'), true);
    assert.equal(includeNames('./common.inc', 'COMMON.INC'), true);
    assert.equal(includeNames('config/local.make', 'config/local.make'), true);
    assert.equal(includeNames('sub/../common.inc', 'common.inc'), true);
    assert.equal(includeNames('$(TOP)/rules.inc', 'x/rules.inc'), true);
    assert.equal(includeNames('build/*.inc', 'build/a.inc'), true);
    assert.equal(includeNames('build/?.inc', 'build/a.inc'), true);
    assert.equal(includeNames('$(patsubst %.o,%.d,$(OBJS))', 'main.d'), true, 'a variable may be anything');
    assert.equal(includeNames('common.inc', 'other.inc'), false);
    assert.equal(includeNames('build/*.inc', 'build/a.c'), false);
    assert.equal(includeNames('../common.inc', 'common.inc'), false, 'above the Makefile’s folder');
    assert.equal(includeNames('/usr/include/x.mk', 'x.mk'), false, 'absolute: not in the project');
  });

  test('a hostile include line is matched in linear time', () => {
    const start = process.cpuUsage();
    const pattern = `${'*a'.repeat(450)}b`;
    assert.equal(includeNames(pattern, 'a'.repeat(4000)), false);
    makefileIncludes(`include ${'x '.repeat(100_000)}`);
    const ms = cpuMsSince(start);
    assert.ok(ms < 10_000, `took ${ms} ms`);
  });
});

describe('approvalNeeded: the manifest rule', () => {
  const state = (over: Partial<ApprovalState> = {}): ApprovalState => ({
    patterns: ['npm test', 'node *', 'make *'],
    approvedForRun: new Set(),
    preApproved: new Set(['npm run build', 'cargo test']),
    manifestWritten: false,
    ...over,
  });
  const written = (over: Partial<ApprovalState> = {}) =>
    state({ manifestWritten: true, manifestWhy: 'package.json was written in this build (phase developer)', ...over });

  test('before any manifest write, --approve and the list hold', () => {
    assert.deepEqual(approvalNeeded('npm run build', state()), { auto: true, by: 'pre-approved (--approve)' });
    assert.equal(approvalNeeded('npm test', state()).auto, true);
    assert.equal(approvalNeeded('make check', state()).auto, true);
  });

  test('after it, --approve and the list no longer hold for script runners, and the reason says what was written', () => {
    for (const command of ['npm run build', 'cargo test', 'npm test', 'make check']) {
      const needed = approvalNeeded(command, written());
      assert.equal(needed.auto, false, command);
      assert.match(
        !needed.auto ? needed.why : '',
        /^package\.json was written in this build \(phase developer\), so script runners \(npm, make, cargo…\) are asked again$/,
      );
    }
    assert.equal(approvalNeeded('node --test', written()).auto, true, 'node itself reads no manifest');
  });

  test('the person’s answer given after the write holds (until the next write drops it)', () => {
    assert.deepEqual(approvalNeeded('npm test', written({ approvedForRun: new Set(['npm test']) })), {
      auto: true,
      by: 'allowed for this run',
    });
  });

  test('a command that was never pre-approved keeps its own reason', () => {
    assert.deepEqual(approvalNeeded('npm run lint', written()), {
      auto: false,
      why: 'it is not in groundwork.commands.autoApprove',
    });
    assert.match((approvalNeeded('npm test && x', written()) as { why: string }).why, /never be pre-approved/);
  });

  test('frozenContractHolds: the manifest rule is lifted, every other rule stays', () => {
    const frozen = { frozenContractHolds: true };
    assert.deepEqual(approvalNeeded('npm run build', written(), frozen), {
      auto: true,
      by: 'pre-approved (--approve)',
    });
    assert.equal(approvalNeeded('npm test', written(), frozen).auto, true);
    assert.equal(approvalNeeded('npm run lint', written(), frozen).auto, false, 'not pre-approved: still asked');
    assert.equal(approvalNeeded('npm test; curl x', written(), frozen).auto, false, 'hazards: still asked');
  });
});
