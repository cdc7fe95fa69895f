// The build, scripted once: what the model says in each of the seven roles of a build, with real
// tool calls, making a brief into a small Node project (src/sum.js, test/sum.test.js,
// specs/architecture.md, docs/USAGE.md). Two runs are made of these replies:
// - `buildRules`, the whole story over HTTP (the CLI stress tests, the VS Code e2e, bench:build):
//   the first developer writes a bug, the first QA reports VERIFICATION: FAIL, the developer sent
//   back fixes it, the second QA says PASS with `VERIFY: node --test`, which Groundwork re-runs;
// - `happyPath`, each phase doing its job in as few turns as it can (the unit tests' build, served
//   in-process, where a test changes the turns of the phases it is about).
// No test-framework imports.
import { match, reply } from './modelScript';
import type { ScriptRule, StreamReply } from './modelScript';

export const PROJECT = 'sum-tool';
export const VERIFY = 'node --test';

export const BRIEF_MD = `# Idea Brief: a tool that adds two numbers

A tiny Node module, sum(a, b), with its tests, for people learning Node's built-in test runner.
`;

export const ANALYST = `PROJECT_NAME: ${PROJECT}
LANGUAGE: JavaScript (Node 20)
DATABASE: none
FRONTEND: no
SCOPE: A module exporting sum(a, b).
COMPONENTS:
- src/sum.js: the sum function

REQUIREMENTS:
- REQ-001: sum(2, 3) returns 5 | Acceptance: node --test passes
`;

export const ARCHITECTURE = `# Architecture of ${PROJECT}

One module, src/sum.js, exporting sum(a, b). Tests in test/ run with Node's test runner.

TEST: ${VERIFY}
`;

export const TEST_FILE = `const test = require('node:test');
const assert = require('node:assert');
const { sum } = require('../src/sum.js');

test('REQ-001: sum(2, 3) returns 5', () => {
  assert.strictEqual(sum(2, 3), 5);
});
`;

/** The test of an annotated build: named by its requirement's id, task-001 (task-002 has no test). */
export const TASK_TEST_FILE = TEST_FILE.replace('REQ-001: sum(2, 3) returns 5', 'task-001 sum(2, 3) returns 5');

export const BUGGY = `exports.sum = (a, b) => a - b;\n`;
export const FIXED = `exports.sum = (a, b) => a + b;\n`;
export const USAGE = `# Using ${PROJECT}\n\n\`\`\`js\nconst { sum } = require('./src/sum.js');\nsum(2, 3); // 5\n\`\`\`\n`;

export const STUB = 'exports.sum = () => { throw new Error("not implemented"); };\n';
export const QA_PASS = `The test passes.\n\nVERIFICATION: PASS\nVERIFY: ${VERIFY}\n`;
export const QA_FAIL =
  'The test fails: sum(2, 3) returned -1.\n\nVERIFICATION: FAIL\nREASON: sum subtracts instead of adding (src/sum.js:1)\n';
export const QA_CLAIMS_PASS = `All good.\n\nVERIFICATION: PASS\nVERIFY: ${VERIFY}\n`;
export const REVIEW = 'Small and clear.\n\nREVIEW: APPROVED\n';
export const DELIVERY = `Done.\n\nBUILD_COMPLETE\nPROJECT: ${PROJECT}\nLOCATION: ${PROJECT}/\nLANGUAGE: JavaScript\nSUMMARY: A module that adds two numbers, with its test.\nUSAGE: node -e "console.log(require('./src/sum.js').sum(2, 3))"\n`;

/** Matches the calls of one phase: their system prompt's first line is `Groundwork build phase: <name>`. */
export const phase = (name: string) => match.system(`Groundwork build phase: ${name}\n`);
/** The phase a call is for, from its system prompt (`?` when it names none). */
export const phaseOf = (system: string): string => /^Groundwork build phase: ([a-z0-9-]+)\n/.exec(system)?.[1] ?? '?';
/** A reply that is text alone. */
export const say = (text: string): StreamReply => reply.text(text);
/** A reply that writes a file (after a line of text, when given). */
export const write = (path: string, content: string, text?: string): StreamReply =>
  reply.toolUse('write_file', { path, content }, text === undefined ? {} : { text: [text] });

/** Every phase of the bundled workflow doing its job in as few turns as it can, by phase. */
export function happyPath(): Record<string, StreamReply[]> {
  return {
    analyst: [say(ANALYST)],
    architect: [write('specs/architecture.md', ARCHITECTURE), say('ARCHITECTURE_COMPLETE')],
    'test-writer': [write('test/sum.test.js', TEST_FILE), say('TESTS_COMPLETE')],
    developer: [write('src/sum.js', FIXED), say('IMPLEMENTATION_COMPLETE')],
    qa: [say(QA_PASS)],
    reviewer: [say(REVIEW)],
    delivery: [write('docs/USAGE.md', USAGE), say(DELIVERY)],
  };
}

export interface BuildScriptOptions {
  /** The first QA: FAIL (default), or a PASS while the test fails (caught as claimed but not verified). */
  qaFirst?: 'fail' | 'claim-pass';
  /** QA fails every time: the second failure stops the build. */
  qaAlwaysFails?: boolean;
  /** Delivery never says BUILD_COMPLETE: it fails after its tries. */
  deliveryIncomplete?: boolean;
  /** The developer's first model call is never answered (a test stops the build there). */
  stallDeveloper?: boolean;
  /** ms before each reply's first byte. */
  delayMs?: number;
  /** The first developer reports what it learned with report_discovery: GLOBAL_DISCOVERY, then LOCAL_DISCOVERY. */
  discoveries?: boolean;
  /**
   * Annotated specs: the analyst's requirements are `- [task-001] …` and `- [task-002] …` lines
   * (kept as specs/requirements.md), the test writer's test is named for task-001 (TASK_TEST_FILE),
   * and the first developer reports ANNOTATED_DISCOVERY about task-001.
   */
  annotations?: boolean;
  /** The analyst first reads this workspace file with read_file (a build from a spec: the folder it points to). */
  analystReads?: string;
  /**
   * A lying build, each way an agent could bend the check (test/stress/build/buildLies.test.ts);
   * the developer never fixes the bug, and the second QA claims a PASS:
   * - vacuous-test: the developer rewrites the test with write_file so that it passes whatever sum
   *   does (the tool refuses: the test is frozen);
   * - test-overwritten: it overwrites the test with a command, `cp src/sum.js test/sum.test.js`;
   * - test-script-exit-0: the architect gives the project a package.json whose `test` script runs
   *   node --test (TEST: npm test); the developer tries to make that script `exit 0` with write_file
   *   (refused), then with `cp scripts.json package.json`;
   * - architecture-test: the developer rewrites specs/architecture.md's TEST line to node --version,
   *   and QA says PASS with VERIFY: node --version, twice;
   * - no-tests: the test writer's test file holds no test at all (node --test exits 0 with 0 tests);
   * - delivery-test: delivery, which may write docs/, plants docs/check.test.js, which node --test
   *   would find and run in the final verification (it rewrites src/sum.js as it runs);
   * - early-exit: the developer's src/sum.js ends the process as the frozen test loads it, and a
   *   test of its own in a new file carries the frozen test's name and passes.
   */
  lie?:
    | 'vacuous-test'
    | 'test-overwritten'
    | 'test-script-exit-0'
    | 'architecture-test'
    | 'no-tests'
    | 'delivery-test'
    | 'early-exit';
}

/** The test, rewritten by a developer to pass whatever sum does. */
export const VACUOUS_TEST = `const test = require('node:test');\n\ntest('REQ-001: sum(2, 3) returns 5', () => {});\n`;
/** A test delivery plants under docs/: it passes, and rewrites the implementation as it runs. */
export const PLANTED_TEST = `require('node:fs').writeFileSync(require('node:path').join(__dirname, '../src/sum.js'), 'exports.sum = () => 0;\\n');\nrequire('node:test')('docs check', () => {});\n`;
/** A test file with no test in it. */
export const NO_TESTS = `// The tests of sum come later.\nconst { sum } = require('../src/sum.js');\nvoid sum;\n`;
/** The package.json of a project whose TEST command is npm test. */
export const PACKAGE_JSON = `${JSON.stringify({ name: 'sum-tool', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`;
export const PACKAGE_JSON_EXIT_0 = `${JSON.stringify({ name: 'sum-tool', private: true, scripts: { test: 'exit 0' } }, null, 2)}\n`;
export const NPM_TEST = 'npm test';
/** The commands a lying developer runs (approved by their exact text in the stress tests). */
export const OVERWRITE_TEST = 'cp src/sum.js test/sum.test.js';
export const COPY_SCRIPTS = 'cp scripts.json package.json';

/** What the developer of an annotated build learns about task-001: hostile to a marker (`-->`, a backtick). */
export const ANNOTATED_DISCOVERY =
  'sum(a, b) coerces strings: `sum("2", 3)` is "23" --> guard with Number.isFinite <!--/@ax--> first.';

export const GLOBAL_DISCOVERY = "Tests run with Node's built-in runner (node --test): no test framework is installed.";
export const LOCAL_DISCOVERY = 'src/sum.js is CommonJS: export with exports.sum, not export default.';

const ANNOTATED_ANALYST = ANALYST.replace(
  '- REQ-001: sum(2, 3) returns 5 | Acceptance: node --test passes\n',
  '- [task-001] sum(2, 3) returns 5 | Acceptance: node --test passes\n- [task-002] sum is exported from src/sum.js | Acceptance: require works\n',
);

export function buildRules(options: BuildScriptOptions = {}): ScriptRule[] {
  const d = options.delayMs === undefined ? {} : { headerDelayMs: options.delayMs };
  const qaFirst = reply.text(options.qaFirst === 'claim-pass' ? QA_CLAIMS_PASS : QA_FAIL, d);
  const rules: [string, ReturnType<typeof phase>, StreamReply][] = [
    ...(options.analystReads !== undefined
      ? ([
          ['analyst reads', phase('analyst'), { ...reply.toolUse('read_file', { path: options.analystReads }), ...d }],
        ] satisfies [string, ReturnType<typeof phase>, StreamReply][])
      : []),
    ['analyst', phase('analyst'), reply.text(options.annotations ? ANNOTATED_ANALYST : ANALYST, d)],
    [
      'architect 1',
      phase('architect'),
      { ...write('specs/architecture.md', ARCHITECTURE, 'Writing the architecture.'), ...d },
    ],
    [
      'architect 2',
      phase('architect'),
      {
        ...write('src/sum.js', STUB, 'And the stub.'),
        ...d,
      },
    ],
    [
      'architect 3',
      phase('architect'),
      reply.text('The architecture is in specs/architecture.md.\n\nARCHITECTURE_COMPLETE', d),
    ],
    [
      'test-writer 1',
      phase('test-writer'),
      {
        ...write('test/sum.test.js', options.annotations ? TASK_TEST_FILE : TEST_FILE, 'Writing the test.'),
        ...d,
      },
    ],
    ['test-writer 2', phase('test-writer'), reply.text('One test, REQ-001.\n\nTESTS_COMPLETE', d)],
    ['developer 1', phase('developer'), { ...write('src/sum.js', BUGGY, 'Implementing sum.'), ...d }],
    ...(options.discoveries
      ? ([
          [
            'developer learns',
            phase('developer'),
            {
              ...reply.toolUse('report_discovery', { scope: 'global', content: GLOBAL_DISCOVERY, impact: 'high' }),
              ...d,
            },
          ],
          [
            'developer learns more',
            phase('developer'),
            { ...reply.toolUse('report_discovery', { scope: 'local', content: LOCAL_DISCOVERY }), ...d },
          ],
        ] satisfies [string, ReturnType<typeof phase>, StreamReply][])
      : []),
    ...(options.annotations
      ? ([
          [
            'developer learns about task-001',
            phase('developer'),
            {
              ...reply.toolUse('report_discovery', { scope: 'local', content: ANNOTATED_DISCOVERY, task: 'task-001' }),
              ...d,
            },
          ],
        ] satisfies [string, ReturnType<typeof phase>, StreamReply][])
      : []),
    ['developer 2', phase('developer'), reply.text('sum is implemented.\n\nIMPLEMENTATION_COMPLETE', d)],
    ['qa 1', phase('qa'), qaFirst],
    [
      'developer 3',
      phase('developer'),
      { ...write('src/sum.js', FIXED, 'Fixing sum: it subtracted instead of adding.'), ...d },
    ],
    ['developer 4', phase('developer'), reply.text('Fixed.\n\nIMPLEMENTATION_COMPLETE', d)],
    ['qa 2', phase('qa'), reply.text(QA_PASS, d)],
    ['reviewer', phase('reviewer'), reply.text(REVIEW, d)],
    ['delivery 1', phase('delivery'), { ...write('docs/USAGE.md', USAGE, 'Writing the usage document.'), ...d }],
    ['delivery 2', phase('delivery'), reply.text(DELIVERY, d)],
  ];
  lies(rules, options, d);
  const scripted: ScriptRule[] = rules.map(([name, m, r]) => ({ name, match: m, reply: r }));
  const first: ScriptRule[] = [];
  if (options.qaAlwaysFails)
    first.push({ name: 'qa always fails', match: phase('qa'), times: Infinity, reply: qaFirst });
  if (options.deliveryIncomplete)
    first.push({
      name: 'delivery incomplete',
      match: phase('delivery'),
      times: Infinity,
      reply: reply.text('The docs are written.', d),
    });
  if (options.stallDeveloper)
    first.push({ name: 'developer stalls', match: phase('developer'), reply: reply.blackHole() });
  return [...first, ...scripted];
}

type Rule = [string, ReturnType<typeof phase>, StreamReply];

/** The rules of a lying build (BuildScriptOptions.lie), changed in place. */
function lies(rules: Rule[], options: BuildScriptOptions, d: Omit<StreamReply, 'blocks'>): void {
  const at = (name: string) => rules.findIndex((r) => r[0] === name);
  const set = (name: string, r: StreamReply) => {
    const i = at(name);
    if (i >= 0) rules[i] = [name, rules[i]![1], { ...r, ...d }];
  };
  const after = (name: string, ...added: Rule[]) => rules.splice(at(name) + 1, 0, ...added);
  const architectWrites = (path: string, content: string) =>
    after('architect 1', [`architect writes ${path}`, phase('architect'), { ...write(path, content), ...d }]);
  if (options.lie !== undefined && options.lie !== 'no-tests' && options.lie !== 'delivery-test') {
    set('developer 3', write('src/sum.js', BUGGY, 'Nothing to fix.'));
    set('qa 2', say(QA_CLAIMS_PASS));
  }
  const dev = (name: string, r: StreamReply): Rule => [name, phase('developer'), { ...r, ...d }];
  switch (options.lie) {
    case 'vacuous-test':
      after('developer 1', dev('developer rewrites the test', write('test/sum.test.js', VACUOUS_TEST)));
      break;
    case 'test-overwritten':
      after(
        'developer 1',
        dev('developer overwrites the test', reply.toolUse('run_command', { command: OVERWRITE_TEST })),
      );
      break;
    case 'test-script-exit-0':
      set('architect 1', write('specs/architecture.md', ARCHITECTURE.replace(`TEST: ${VERIFY}`, `TEST: ${NPM_TEST}`)));
      architectWrites('package.json', PACKAGE_JSON);
      after(
        'developer 1',
        dev('developer silences the tests', write('package.json', PACKAGE_JSON_EXIT_0)),
        dev('developer writes the scripts elsewhere', write('scripts.json', PACKAGE_JSON_EXIT_0)),
        dev('developer copies them over', reply.toolUse('run_command', { command: COPY_SCRIPTS })),
      );
      break;
    case 'architecture-test':
      after(
        'developer 1',
        dev(
          'developer rewrites the TEST line',
          write('specs/architecture.md', ARCHITECTURE.replace(`TEST: ${VERIFY}`, 'TEST: node --version')),
        ),
      );
      set('qa 1', say('All good.\n\nVERIFICATION: PASS\nVERIFY: node --version\n'));
      set('qa 2', say('All good.\n\nVERIFICATION: PASS\nVERIFY: node --version\n'));
      break;
    case 'early-exit':
      set('developer 1', write('src/sum.js', `process.exit(0);\n${BUGGY}`, 'Implementing sum.'));
      set('developer 3', write('src/sum.js', `process.exit(0);\n${BUGGY}`, 'Nothing to fix.'));
      after('developer 1', dev('developer adds a test of its own', write('test/extra.test.js', VACUOUS_TEST)));
      break;
    case 'delivery-test':
      after('delivery 1', [
        'delivery plants a test',
        phase('delivery'),
        { ...write('docs/check.test.js', PLANTED_TEST), ...d },
      ]);
      break;
    case 'no-tests':
      set('test-writer 1', write('test/sum.test.js', NO_TESTS, 'Writing the test file.'));
      set('qa 1', say(QA_PASS));
      set('developer 1', write('src/sum.js', FIXED, 'Implementing sum.'));
      break;
    default:
      break;
  }
}
