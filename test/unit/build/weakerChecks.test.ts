// weakerChecks: a workspace workflow or role file that weakens Groundwork's checks is named, each
// kind in its own sentence (file, phase, what changed), and the bundled set says nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Workflow } from '../../../src/core/build/buildTypes';
import { weakerChecks, weakerChecksReport } from '../../../src/core/build/weakerChecks';
import { BUNDLED_WORKFLOW_FILE, parseWorkflow } from '../../../src/core/build/workflow';
import { bundledRoleSource } from '../../../src/core/node/roleFiles';
import { loadRoles } from '../../../src/core/roles/roleLoader';
import type { Role } from '../../../src/core/roles/roleSchema';
import { ROOT } from './buildFixtures';

const OWN = '.groundwork/workflows/build.yaml';
const BUNDLED_TEXT = readFileSync(join(ROOT, 'roles', BUNDLED_WORKFLOW_FILE), 'utf8');

function workflow(text: string, file = OWN): Workflow {
  const parsed = parseWorkflow(text, file);
  assert.ok(parsed.ok, 'the test workflow must parse');
  return parsed.workflow;
}

/** The bundled workflow's text with `from` replaced by `to`. */
const edited = (from: string, to: string): string => {
  assert.ok(BUNDLED_TEXT.includes(from), from);
  return BUNDLED_TEXT.replace(from, to);
};

describe('weakerChecks', () => {
  let bundledRoles: Map<string, Role>;
  const bundled = () => workflow(BUNDLED_TEXT, `roles/${BUNDLED_WORKFLOW_FILE}`);
  const weaker = (own: Workflow, overrides: Record<string, Role> = {}) =>
    weakerChecks({
      workflow: own,
      bundledWorkflow: bundled(),
      roles: new Map([...bundledRoles, ...Object.entries(overrides)]),
      bundledRoles,
    });
  const role = (name: string): Role => bundledRoles.get(name) as Role;

  before(async () => {
    const loaded = await loadRoles(bundledRoleSource(ROOT));
    bundledRoles = new Map([...loaded.roles].map(([name, l]) => [name, l.role]));
  });

  test('the bundled workflow and roles weaken nothing; nor does a workspace copy of them', () => {
    assert.deepEqual(weaker(bundled()), []);
    assert.deepEqual(weaker(workflow(BUNDLED_TEXT)), []);
  });

  test("a phase's check changed", () => {
    const own = workflow(edited('check: verification', 'check: none'));
    assert.deepEqual(weaker(own), [`${OWN}: qa's check is none instead of verification`]);
  });

  test('a phase removed', () => {
    const own = workflow(edited('  - name: reviewer\n    role: build-reviewer\n    check: review\n', ''));
    assert.deepEqual(weaker(own), [`${OWN}: phase reviewer removed; no phase makes its check review`]);
  });

  test('a renamed phase that makes the same check with the same role is not a weakening', () => {
    assert.deepEqual(weaker(workflow(edited('name: qa', 'name: verify'))), []);
  });

  test('QA, reviewer or delivery given a role with write tools, by the workflow', () => {
    assert.deepEqual(weaker(workflow(edited('role: build-qa', 'role: build-developer'))), [
      `${OWN}: qa runs role build-developer instead of build-qa, which gives qa write_file, edit_file`,
    ]);
    assert.deepEqual(weaker(workflow(edited('role: build-reviewer', 'role: build-qa'))), [
      `${OWN}: reviewer runs role build-qa instead of build-reviewer, which gives reviewer run_command, lets reviewer run as workspaceWrite instead of readOnly`,
    ]);
    assert.deepEqual(weaker(workflow(edited('role: build-delivery', 'role: build-developer'))), [
      `${OWN}: delivery runs role build-developer instead of build-delivery, which gives delivery run_command, lets delivery run as workspaceWrite instead of askBeforeCommands, lets delivery write anywhere instead of only README.md, docs/**`,
    ]);
  });

  test('a role file that widens where delivery may write, or gives QA write tools', () => {
    const delivery = role('build-delivery');
    assert.deepEqual(
      weaker(bundled(), { 'build-delivery': { ...delivery, writes: ['README.md', 'docs/**', 'src/**'] } }),
      [".groundwork/roles/build-delivery.md lets delivery also write src/** (Groundwork's: only README.md, docs/**)"],
    );
    const { writes: _dropped, ...anywhere } = delivery;
    assert.deepEqual(weaker(bundled(), { 'build-delivery': anywhere }), [
      '.groundwork/roles/build-delivery.md lets delivery write anywhere instead of only README.md, docs/**',
    ]);
    assert.deepEqual(weaker(bundled(), { 'build-delivery': { ...delivery, writes: ['docs/api/**'] } }), []);
    // The loader refuses such an override (tools may only narrow); were one used, it would be said.
    const qa = role('build-qa');
    assert.deepEqual(weaker(bundled(), { 'build-qa': { ...qa, tools: [...qa.tools, 'write_file'] } }), [
      '.groundwork/roles/build-qa.md gives qa write_file',
    ]);
  });

  test('the phases reordered', () => {
    const qa = '  - name: qa\n    role: build-qa\n    check: verification\n';
    const own = workflow(edited(qa, '').replace('  - name: developer', `${qa}  - name: developer`));
    assert.deepEqual(weaker(own), [
      `${OWN}: the phases run in another order (analyst, architect, test-writer, qa, developer, reviewer, delivery; Groundwork's: analyst, architect, test-writer, developer, qa, reviewer, delivery)`,
    ]);
  });

  test('a phase that writes, added after the verification; one that only reads is fine', () => {
    const writer = `${BUNDLED_TEXT}  - name: polish\n    role: build-developer\n    check: none\n`;
    assert.deepEqual(weaker(workflow(writer)), [
      `${OWN}: phase polish (role build-developer), added after qa, has write_file, edit_file, run_command: it can change what qa checked`,
    ]);
    const reader = `${BUNDLED_TEXT}  - name: second-review\n    role: build-reviewer\n    check: none\n`;
    assert.deepEqual(weaker(workflow(reader)), []);
  });

  test('several weakenings at once, each said once; an unknown role is skipped', () => {
    const own = workflow(
      edited('check: verification', 'check: none')
        .replace('  - name: reviewer\n    role: build-reviewer\n    check: review\n', '')
        .replace('role: build-delivery', 'role: build-nobody'),
    );
    assert.deepEqual(weaker(own), [
      `${OWN}: qa's check is none instead of verification`,
      `${OWN}: phase reviewer removed; no phase makes its check review`,
    ]);
  });

  test('the report section: nothing for none; each line as plain text, markdown escaped', () => {
    assert.deepEqual(weakerChecksReport([]), []);
    const section = weakerChecksReport([
      '.groundwork/roles/build-delivery.md lets delivery also write src/** and <img src=x> ![a](b)',
    ]);
    assert.deepEqual(section, [
      '## Weaker checks',
      '',
      "This build ran with checks weaker than Groundwork's own (the workspace's workflow or role files):",
      '',
      '- .groundwork/roles/build-delivery.md lets delivery also write src/\\*\\* and \\<img src=x\\> \\!\\[a\\](b)',
      '',
    ]);
  });
});
