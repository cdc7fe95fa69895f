// Two builds of the test contract (src/core/build/testContract.ts), scripted over HTTP for the VS
// Code e2e (test/e2e/buildContract.e2e.ts), from the replies of buildScript.ts:
// - `acceptedChangeRules`: the developer implements sum correctly, then writes a better test
//   (test/sum.v2.js: task-001 for negative numbers too) and moves it over the frozen
//   test/sum.test.js with a command (MOVE_TEST). The developer's phase fails on the contract; once
//   the person accepts the change, the resumed developer has nothing left to do and the build
//   completes with the new test, which passes.
// - `evidenceRules`: three requirements. A test naming task-001 passes, none names task-002, and
//   the test naming task-003 checks the example of docs/USAGE.md once it is there: it passes in QA
//   and fails at the final verification, after the delivery wrote a wrong example.
// No test-framework imports.
import {
  ANALYST,
  ARCHITECTURE,
  DELIVERY,
  FIXED,
  PROJECT,
  QA_PASS,
  REVIEW,
  STUB,
  USAGE,
  phase,
  say,
  write,
} from './buildScript';
import { reply } from './modelScript';
import type { ScriptRule, StreamReply } from './modelScript';

/** The developer's command that replaces the frozen test with its own. */
export const MOVE_TEST = 'mv test/sum.v2.js test/sum.test.js';

/** The test writer's test: one test, named for task-001. */
export const FROZEN_TEST = `const test = require('node:test');
const assert = require('node:assert');
const { sum } = require('../src/sum.js');

test('task-001 sum(2, 3) returns 5', () => {
  assert.strictEqual(sum(2, 3), 5);
});
`;

/** The developer's test: the test writer's, and negative numbers. */
export const BETTER_TEST = `${FROZEN_TEST}
test('task-001 sum(-2, 3) returns 1', () => {
  assert.strictEqual(sum(-2, 3), 1);
});
`;

/** The test writer's tests of the evidence build: task-001, and task-003 (the usage example, once written). */
export const EVIDENCE_TESTS = `${FROZEN_TEST}
test('task-003 the usage example shows what sum returns', () => {
  const { existsSync, readFileSync } = require('node:fs');
  const usage = require('node:path').join(__dirname, '..', 'docs', 'USAGE.md');
  if (!existsSync(usage)) return; // the delivery writes it
  const example = /sum\\((\\d+), (\\d+)\\); \\/\\/ (\\d+)/.exec(readFileSync(usage, 'utf8'));
  assert.ok(example, 'docs/USAGE.md shows an example');
  assert.strictEqual(sum(Number(example[1]), Number(example[2])), Number(example[3]));
});
`;

const REQUIREMENT = '- REQ-001: sum(2, 3) returns 5 | Acceptance: node --test passes\n';
export const TASK_001 = '[task-001] sum(2, 3) returns 5';
export const TASK_002 = '[task-002] sum is exported from src/sum.js';
export const TASK_003 = '[task-003] docs/USAGE.md shows a right example';

type Rule = [string, ReturnType<typeof phase>, StreamReply];

/** The analyst, architect and test writer of a project named `project`, the test writer writing `test`. */
function upToTests(project: string, requirements: string[], test: string): Rule[] {
  const analyst = ANALYST.replaceAll(PROJECT, project).replace(
    REQUIREMENT,
    requirements.map((r) => `- ${r}\n`).join(''),
  );
  return [
    ['analyst', phase('analyst'), say(analyst)],
    ['architect 1', phase('architect'), write('specs/architecture.md', ARCHITECTURE.replaceAll(PROJECT, project))],
    ['architect 2', phase('architect'), write('src/sum.js', STUB, 'And the stub.')],
    ['architect 3', phase('architect'), say('The architecture is in specs/architecture.md.\n\nARCHITECTURE_COMPLETE')],
    ['test-writer 1', phase('test-writer'), write('test/sum.test.js', test, 'Writing the tests.')],
    ['test-writer 2', phase('test-writer'), say('The tests name their requirements.\n\nTESTS_COMPLETE')],
  ];
}

/** QA, the reviewer and the delivery, the delivery writing `usage`. */
function fromQa(project: string, usage: string): Rule[] {
  return [
    ['qa', phase('qa'), say(QA_PASS)],
    ['reviewer', phase('reviewer'), say(REVIEW)],
    ['delivery 1', phase('delivery'), write('docs/USAGE.md', usage.replaceAll(PROJECT, project), 'The usage.')],
    ['delivery 2', phase('delivery'), say(DELIVERY.replaceAll(PROJECT, project))],
  ];
}

/** The rules named `<prefix> <name>`, answering only while `live()` says so (a test that failed leaves none for the next). */
const named = (rules: Rule[], prefix: string, live: () => boolean): ScriptRule[] =>
  rules.map(([name, m, r]) => ({ name: `${prefix} ${name}`, match: (body) => live() && m(body), reply: r }));

/** The build whose developer replaces the frozen test with a better one (named `contract …`). */
export function acceptedChangeRules(project: string, live: () => boolean = () => true): ScriptRule[] {
  return named(
    [
      ...upToTests(project, [`${TASK_001} | Acceptance: node --test passes`], FROZEN_TEST),
      ['developer 1', phase('developer'), write('src/sum.js', FIXED, 'Implementing sum.')],
      [
        'developer 2',
        phase('developer'),
        write('test/sum.v2.js', BETTER_TEST, 'The test checks one sum only: a test of negative numbers too.'),
      ],
      ['developer 3', phase('developer'), reply.toolUse('run_command', { command: MOVE_TEST })],
      [
        'developer 4',
        phase('developer'),
        say('sum is implemented, and its test covers more.\n\nIMPLEMENTATION_COMPLETE'),
      ],
      ['developer resumed', phase('developer'), say('Nothing left to do.\n\nIMPLEMENTATION_COMPLETE')],
      ...fromQa(project, USAGE),
    ],
    'contract',
    live,
  );
}

/** The build whose requirements end green, blue and red (named `evidence …`). */
export function evidenceRules(project: string, live: () => boolean = () => true): ScriptRule[] {
  return named(
    [
      ...upToTests(
        project,
        [
          `${TASK_001} | Acceptance: node --test passes`,
          `${TASK_002} | Acceptance: require works`,
          `${TASK_003} | Acceptance: its result is sum's`,
        ],
        EVIDENCE_TESTS,
      ),
      ['developer 1', phase('developer'), write('src/sum.js', FIXED, 'Implementing sum.')],
      ['developer 2', phase('developer'), say('sum is implemented.\n\nIMPLEMENTATION_COMPLETE')],
      ...fromQa(project, USAGE.replace('// 5', '// 6')),
    ],
    'evidence',
    live,
  );
}
