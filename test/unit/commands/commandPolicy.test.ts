import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  approvalNeeded,
  commandHazards,
  manifestToolCommand,
  matchesAutoApprove,
  parseAutoApprove,
} from '../../../src/core/commands/commandPolicy';
import { cpuMsSince } from '../../support/cpuTime';

const PATTERNS = ['npm test', 'node *'];
const state = (over: { approvedForRun?: string[]; manifestWritten?: boolean } = {}) => ({
  patterns: PATTERNS,
  approvedForRun: new Set(over.approvedForRun ?? []),
  manifestWritten: over.manifestWritten ?? false,
});

describe('the bypass corpus: a pre-approved start does not carry what the shell reads after it', () => {
  const bypasses = [
    'npm test; rm -rf x',
    'npm test && curl x',
    'npm test | sh',
    'node -e "$(cat x)"',
    'node `x`',
    'npm test\nrm x',
    'npm test\rrm x',
    'node a > .vscode/settings.json',
    'node a 2>&1',
    'node a >> log',
    'node <(curl x)',
    'node a & curl x',
    'node a || curl x',
    'eval node',
    'sudo node x',
    'node x sudo',
    'FOO=1 eval node x',
    'e\\val node x',
    '"exec" node x',
    'node x\u0000',
    'node x\u202e',
    'node\tx',
    'node x && '.repeat(51) + 'node x',
  ];
  for (const command of bypasses) {
    test(`${JSON.stringify(command.slice(0, 40))} is asked`, () => {
      const needed = approvalNeeded(command, state());
      assert.equal(needed.auto, false);
      assert.ok(!needed.auto && /never be pre-approved/.test(needed.why), !needed.auto ? needed.why : '');
      assert.equal(matchesAutoApprove(command, PATTERNS), undefined);
      assert.ok(commandHazards(command).length > 0);
    });
  }

  test('a command with hazards that the person allowed "for this run" runs again as that exact text only', () => {
    const allowed = state({ approvedForRun: ['npm test && npm run lint'] });
    assert.deepEqual(approvalNeeded('npm test && npm run lint', allowed), { auto: true, by: 'allowed for this run' });
    assert.equal(approvalNeeded('npm test && npm run lint; rm x', allowed).auto, false);
    assert.equal(approvalNeeded('npm test && npm run lint ', allowed).auto, false, 'not even with a space more');
  });

  test('the plain commands the list names run without asking', () => {
    assert.deepEqual(approvalNeeded('npm test', state()), {
      auto: true,
      by: 'groundwork.commands.autoApprove: "npm test"',
    });
    assert.deepEqual(approvalNeeded('node --test', state()), {
      auto: true,
      by: 'groundwork.commands.autoApprove: "node *"',
    });
    assert.equal(approvalNeeded('  npm test  ', state()).auto, true, 'surrounding spaces do not matter');
  });
});

describe('commandHazards', () => {
  test('a plain command has none', () => {
    for (const command of [
      'npm test',
      'node --test src/a.test.js',
      'make -j4 all',
      'FOO=1 npm run build',
      'node -e "console.log(1)"',
      'echo ${HOME}',
      'npm exec vitest',
    ]) {
      assert.deepEqual(commandHazards(command), [], command);
    }
  });

  test('each reason is named once, in plain words', () => {
    assert.deepEqual(commandHazards('a; b; c | d'), [
      "it chains commands with ';'",
      "it pipes output into another command with '|'",
    ]);
    assert.deepEqual(commandHazards('node $(x)'), ['it substitutes a command with $(…)']);
    assert.deepEqual(
      commandHazards('node a 2>&1'),
      ["it redirects output with '>'"],
      "'2>&1' is a redirection, not a background job",
    );
    assert.deepEqual(commandHazards('node a &'), ["it runs a command in the background with '&'"]);
  });

  test('quotes do not hide an operator: asking is the safe side', () => {
    assert.ok(commandHazards('node -e "a;b"').length > 0);
  });

  test('eval and exec count as the command, also behind assignments and wrappers; as an argument they do not', () => {
    for (const command of [
      'eval x',
      'exec node',
      'FOO=1 BAR=2 eval x',
      'command eval x',
      'env -i eval x',
      'timeout 5 exec x',
      '/bin/eval x',
      '(eval x)',
    ]) {
      assert.ok(commandHazards(command).length > 0, command);
    }
    assert.deepEqual(commandHazards('grep -r eval src'), []);
  });

  test('a 100 KB command is checked in linear time', () => {
    const hostile = [
      'a'.repeat(100_000),
      ' '.repeat(100_000) + 'x',
      'FOO=1 '.repeat(17_000),
      '"\\'.repeat(50_000),
      'a=' + '='.repeat(100_000),
    ];
    const start = process.cpuUsage();
    for (const command of hostile) {
      commandHazards(command);
      matchesAutoApprove(command, PATTERNS);
      manifestToolCommand(command);
    }
    // Not a benchmark: a pattern that backtracks on these inputs takes minutes (100 KB squared), a
    // linear one milliseconds, so a bound far above what a loaded CI machine needs still tells them apart.
    const ms = cpuMsSince(start);
    assert.ok(ms < 10_000, `took ${ms} ms`);
  });
});

describe('matchesAutoApprove', () => {
  test('an exact entry matches only its exact text', () => {
    assert.equal(matchesAutoApprove('npm test', PATTERNS), 'npm test');
    assert.equal(matchesAutoApprove('npm testx', PATTERNS), undefined);
    assert.equal(matchesAutoApprove('npm test --watch', PATTERNS), undefined);
    assert.equal(matchesAutoApprove('NPM TEST', PATTERNS), undefined);
  });

  test("a ' *' entry wants its words and at least one argument", () => {
    assert.equal(matchesAutoApprove('node x', PATTERNS), 'node *');
    assert.equal(matchesAutoApprove('node', PATTERNS), undefined);
    assert.equal(matchesAutoApprove('node   ', PATTERNS), undefined);
    assert.equal(matchesAutoApprove('nodemon x', PATTERNS), undefined);
    assert.equal(matchesAutoApprove('npm run lint', ['npm run *']), 'npm run *');
    assert.equal(matchesAutoApprove('npm runx lint', ['npm run *']), undefined);
  });
});

describe('parseAutoApprove', () => {
  test('good entries are kept, trimmed and without duplicates', () => {
    assert.deepEqual(parseAutoApprove(['npm test', ' node * ', 'npm test', 'make  *']), {
      patterns: ['npm test', 'node *', 'make *'],
      problems: [],
    });
    assert.deepEqual(parseAutoApprove(undefined), { patterns: [], problems: [] }, 'an absent setting is an empty list');
  });

  test('what cannot be used is left out with one sentence each', () => {
    const { patterns, problems } = parseAutoApprove([
      'npm test',
      3,
      '',
      'x'.repeat(1001),
      'n*de',
      '*',
      ' *',
      'npm test && curl x',
      'eval *',
      'sudo make',
    ]);
    assert.deepEqual(patterns, ['npm test']);
    assert.equal(problems.length, 9);
    assert.match(problems[0] ?? '', /^Entry 2 is not text; it is left out\.$/);
    assert.match(problems[1] ?? '', /Entry 3 is empty/);
    assert.match(problems[2] ?? '', /Entry 4 .*longer than 1000 characters/);
    assert.match(problems[3] ?? '', /Entry 5 \("n\*de"\) has a '\*' that is not a final ' \*'/);
    assert.match(problems[4] ?? '', /Entry 6 /);
    assert.match(problems[5] ?? '', /Entry 7 /);
    assert.match(problems[6] ?? '', /Entry 8 .*never be pre-approved because it chains commands with '&&'/);
    assert.match(problems[7] ?? '', /Entry 9 .*it runs 'eval'/);
    assert.match(problems[8] ?? '', /Entry 10 .*administrator rights/);
  });

  test('a value that is not a list is one problem and no pattern', () => {
    for (const value of ['npm test', { 'npm test': true }, null, 3]) {
      const parsed = parseAutoApprove(value);
      assert.deepEqual(parsed.patterns, []);
      assert.equal(parsed.problems.length, 1);
      assert.match(parsed.problems[0] ?? '', /should be a list of commands/);
    }
  });
});

describe('approvals: the person, --approve, the list', () => {
  test('a command the person allowed for this run is not asked again', () => {
    assert.deepEqual(approvalNeeded('npm run lint', state({ approvedForRun: ['npm run lint'] })), {
      auto: true,
      by: 'allowed for this run',
    });
  });

  test('a command not on the list is asked, and the reason says so', () => {
    assert.deepEqual(approvalNeeded('npm run lint', state()), {
      auto: false,
      why: 'it is not in groundwork.commands.autoApprove',
    });
  });
});
