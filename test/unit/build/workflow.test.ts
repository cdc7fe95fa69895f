// The workflow file: the bundled one, and the mistakes and attacks a workspace's own may hold, each
// reported with its file, line and field.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_PHASES, PHASE_CHECKS, WORKFLOW_PHASES_MAX } from '../../../src/core/build/buildTypes';
import type { WorkflowProblem } from '../../../src/core/build/buildTypes';
import {
  BUNDLED_WORKFLOW_FILE,
  parseWorkflow,
  WORKFLOW_FILE_MAX_BYTES,
  workflowProblemText,
} from '../../../src/core/build/workflow';
import { BUNDLED_ROLE_NAMES } from '../../../src/core/roles/roleSchema';
import { ROOT } from './buildFixtures';
import { cpuMsSince } from '../../support/cpuTime';

const FILE = '.groundwork/workflows/build.yaml';

function problems(text: string): WorkflowProblem[] {
  const parsed = parseWorkflow(text, FILE);
  assert.equal(parsed.ok, false, 'the workflow was accepted');
  const found = (parsed as { problems: WorkflowProblem[] }).problems;
  for (const p of found) assert.equal(p.file, FILE);
  return found;
}
const texts = (text: string): string[] => problems(text).map(workflowProblemText);

const phase = (name: string, role: string, check: string) =>
  `  - name: ${name}\n    role: ${role}\n    check: ${check}\n`;

describe('the bundled workflow', () => {
  const text = readFileSync(join(ROOT, 'roles', BUNDLED_WORKFLOW_FILE), 'utf8');

  test('parses, and lists the seven default phases with their build roles and checks', () => {
    const parsed = parseWorkflow(text, `roles/${BUNDLED_WORKFLOW_FILE}`);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.problems.map(workflowProblemText).join('\n'));
    assert.equal(parsed.workflow.file, 'roles/build.workflow.yaml');
    assert.deepEqual(
      parsed.workflow.phases.map((p) => [p.name, p.role, p.check]),
      [
        ['analyst', 'build-analyst', 'brief'],
        ['architect', 'build-architect', 'architecture'],
        ['test-writer', 'build-test-writer', 'tests-created'],
        ['developer', 'build-developer', 'build-command'],
        ['qa', 'build-qa', 'verification'],
        ['reviewer', 'build-reviewer', 'review'],
        ['delivery', 'build-delivery', 'delivery'],
      ],
    );
    assert.deepEqual(
      parsed.workflow.phases.map((p) => p.name),
      [...DEFAULT_PHASES],
    );
  });

  test('names only roles that ship in roles/', () => {
    const parsed = parseWorkflow(text, 'roles/build.workflow.yaml');
    assert.ok(parsed.ok);
    for (const p of parsed.workflow.phases) {
      assert.ok((BUNDLED_ROLE_NAMES as readonly string[]).includes(p.role), p.role);
      assert.ok(existsSync(join(ROOT, 'roles', `${p.role}.md`)), `roles/${p.role}.md`);
    }
  });

  test('its comments explain every check there is', () => {
    for (const check of PHASE_CHECKS)
      assert.match(text, new RegExp(`^#\\s+(?:check: what.*\\n#\\s+)?${check}\\b`, 'm'), check);
  });
});

describe('parseWorkflow', () => {
  test('takes a workspace workflow with CRLF, a BOM and comments', () => {
    const text = `\ufeff# mine\r\nphases:\r\n${phase('analyst', 'build-analyst', 'brief').replace(/\n/g, '\r\n')}${phase('lint', 'my-linter', 'none').replace(/\n/g, '\r\n')}`;
    const parsed = parseWorkflow(text, FILE);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.workflow, {
      file: FILE,
      phases: [
        { name: 'analyst', role: 'build-analyst', check: 'brief' },
        { name: 'lint', role: 'my-linter', check: 'none' },
      ],
    });
  });

  test('an unknown check names the file, the line and the field, and lists the checks', () => {
    const text = `phases:\n${phase('analyst', 'build-analyst', 'brief')}  - name: qa\n    role: build-qa\n    check: verify\n`;
    assert.deepEqual(texts(text), [`${FILE}:7: check: "verify" is not one of ${PHASE_CHECKS.join(', ')}`]);
  });

  const cases: [string, string, string[]][] = [
    [
      'an unknown field in a phase',
      `phases:\n  - name: qa\n    role: build-qa\n    check: review\n    model: opus\n`,
      [`${FILE}:5: model: unknown field in phase 1 (known: name, role, check)`],
    ],
    [
      'an unknown top-level field',
      `version: 2\nphases:\n${phase('qa', 'build-qa', 'verification')}`,
      [`${FILE}:1: version: unknown field; a workflow has only phases`],
    ],
    [
      'a missing check',
      `phases:\n  - name: qa\n    role: build-qa\n`,
      [`${FILE}:2: check: missing in phase 1; every phase has name, role, check`],
    ],
    [
      'a name with spaces',
      `phases:\n${phase('Test Writer', 'build-test-writer', 'tests-created')}`,
      [
        `${FILE}:2: name: "Test Writer" is not a phase name: lower-case words of a-z and 0-9 joined by '-', at most 64 characters, e.g. test-writer`,
      ],
    ],
    [
      'a role with capitals',
      `phases:\n${phase('qa', 'Build_QA', 'verification')}`,
      [
        `${FILE}:3: role: "Build_QA" is not a role name: lower-case words joined by '-', at most 64 characters, e.g. build-qa`,
      ],
    ],
    [
      'a role that is a path',
      `phases:\n${phase('qa', '../../etc/passwd', 'verification')}`,
      [
        `${FILE}:3: role: "../../etc/passwd" is not a role name: lower-case words joined by '-', at most 64 characters, e.g. build-qa`,
      ],
    ],
    [
      'a name that is a number',
      `phases:\n${phase('42', 'build-qa', 'verification')}`,
      [
        `${FILE}:2: name: number 42 is not a phase name: lower-case words of a-z and 0-9 joined by '-', at most 64 characters, e.g. test-writer`,
      ],
    ],
    [
      'a check that is a list',
      `phases:\n  - name: qa\n    role: build-qa\n    check: [verification]\n`,
      [`${FILE}:4: check: "a list or fields" is not one of ${PHASE_CHECKS.join(', ')}`],
    ],
    [
      'an empty check',
      `phases:\n  - name: qa\n    role: build-qa\n    check:\n`,
      [`${FILE}:4: check: null is not one of ${PHASE_CHECKS.join(', ')}`],
    ],
    [
      'a duplicate name',
      `phases:\n${phase('qa', 'build-qa', 'verification')}${phase('qa', 'build-reviewer', 'review')}`,
      [`${FILE}:5: name: "qa" is already the name of the phase on line 2; phase names are unique`],
    ],
    [
      'a brief phase that is not first',
      `phases:\n${phase('architect', 'build-architect', 'architecture')}${phase('analyst', 'build-analyst', 'brief')}`,
      [
        `${FILE}:7: check: the brief phase must be the first phase: it names the project folder every later phase works in`,
      ],
    ],
    [
      'two brief phases',
      `phases:\n${phase('analyst', 'build-analyst', 'brief')}${phase('again', 'build-analyst', 'brief')}`,
      [`${FILE}:7: check: only one phase may have check brief`],
    ],
    [
      'a phase that is a word',
      `phases:\n  - analyst\n`,
      [`${FILE}:2: phase 1 must be fields name, role and check (e.g. "- name: qa"), got "analyst"`],
    ],
    [
      'phases as fields',
      `phases:\n  analyst: build-analyst\n`,
      [`${FILE}:1: phases: must be a list of phases (each line starting with '- '), got fields`],
    ],
    ['no phases', `phases: []\n`, [`${FILE}:1: phases: has no phases; a workflow needs at least one`]],
    [
      'no phases field',
      `# nothing\nother: 1\n`,
      [
        `${FILE}:2: other: unknown field; a workflow has only phases`,
        `${FILE}:1: phases: missing: a workflow is \`phases:\` followed by a list of phases, each with name, role and check`,
      ],
    ],
    [
      'an empty file',
      '',
      [
        `${FILE}:1: the file is empty: a workflow is \`phases:\` followed by a list of phases, each with name, role and check`,
      ],
    ],
    [
      'a list at the top',
      '- name: qa\n',
      [
        `${FILE}:1: the file must be fields, not a list or a single value: a workflow is \`phases:\` followed by a list of phases, each with name, role and check`,
      ],
    ],
    [
      'a key set twice',
      `phases:\n  - name: qa\n    role: build-qa\n    role: build-reviewer\n    check: review\n`,
      [`${FILE}:4: a field is set twice; keep one of them`],
    ],
  ];
  for (const [name, text, expected] of cases) {
    test(`reports ${name}`, () => assert.deepEqual(texts(text), expected));
  }

  test('reports every problem at once, each on its line', () => {
    const text = `phases:\n${phase('Bad Name', 'build-qa', 'verify')}${phase('ok', 'Bad Role', 'review')}`;
    assert.deepEqual(
      problems(text).map((p) => [p.line, p.field]),
      [
        [2, 'name'],
        [4, 'check'],
        [6, 'role'],
      ],
    );
  });

  test(`refuses more than ${WORKFLOW_PHASES_MAX} phases`, () => {
    const many = Array.from({ length: WORKFLOW_PHASES_MAX + 1 }, (_, i) => phase(`p${i}`, 'build-qa', 'none')).join('');
    assert.deepEqual(texts(`phases:\n${many}`), [
      `${FILE}:1: phases: has ${WORKFLOW_PHASES_MAX + 1} phases; the limit is ${WORKFLOW_PHASES_MAX}`,
    ]);
  });

  test('refuses YAML aliases, and a billion-laughs file fails at once', () => {
    const alias = `phases:\n  - name: qa\n    role: &r build-qa\n    check: verification\n  - name: qa2\n    role: *r\n    check: review\n`;
    assert.deepEqual(texts(alias), [
      `${FILE}:6: YAML aliases (*name) are not allowed in a workflow; write each value out`,
    ]);
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const started = process.cpuUsage();
    const found = problems(`${levels.join('\n')}\nphases: *j\n`);
    assert.ok(cpuMsSince(started) < 1000);
    assert.deepEqual(
      found.map((p) => [p.line, p.message]),
      [[2, 'YAML aliases (*name) are not allowed in a workflow; write each value out']],
    );
  });

  test('reports a YAML syntax error on its line', () => {
    const found = problems(`phases:\n  - name: qa\n    role: "build-qa\n    check: review\n`);
    assert.ok(found.length > 0);
    assert.match(found[0]?.message ?? '', /^YAML: /);
    assert.ok((found[0]?.line ?? 0) >= 3);
  });

  test('refuses two documents and a file over the cap, before reading it', () => {
    assert.match(texts(`phases: []\n---\nphases: []\n`)[0] ?? '', /YAML: Source contains multiple documents/);
    assert.deepEqual(texts(`# ${'x'.repeat(WORKFLOW_FILE_MAX_BYTES)}\n`), [
      `${FILE}:1: the file is ${WORKFLOW_FILE_MAX_BYTES + 3} bytes, over the cap of ${WORKFLOW_FILE_MAX_BYTES} bytes for a workflow; a workflow needs a few hundred`,
    ]);
  });

  test('shows hostile field names and values escaped, never raw', () => {
    const text = `phases:\n  - name: qa\n    role: build-qa\n    check: "\\e[2J"\n    "\\u202Eevil": 1\n`;
    const shown = texts(text).join('\n');
    assert.doesNotMatch(shown, /[\u001b\u202e]/);
    assert.match(shown, /\\u001b\[2J/);
    assert.match(shown, /\\u202eevil/);
  });

  test('problems without a line or field read as file: message', () => {
    assert.equal(workflowProblemText({ file: 'a\u0007.yaml', message: 'x' }), 'a\\x07.yaml: x');
  });
});
