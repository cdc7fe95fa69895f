import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CaseTransitionError, applyCaseAction } from '../../../src/core/cases/caseActions';
import type { CaseAction } from '../../../src/core/cases/caseActions';
import { parseCase } from '../../../src/core/cases/caseRecord';
import type { CaseStatus, DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { caseJson } from './casesHarness';

const NOW = '2025-02-02T10:00:00.000Z';

function caseIn(status: CaseStatus, over: Record<string, unknown> = {}): DiscoveryCase {
  const parsed = parseCase(caseJson('disc-007', { status, ...over }));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

const ACTIONS: Record<string, CaseAction> = {
  edit: { kind: 'edit', content: 'what holds now' },
  delete: { kind: 'delete' },
  validate: { kind: 'validate' },
  outdated: { kind: 'outdated' },
  archive: { kind: 'archive' },
  resurrect: { kind: 'resurrect' },
  supersede: { kind: 'supersede', by: 'disc-009' },
};

/**
 * The status diagram (docs/discovery-cases.md, "Status transitions") as a table: for each status, where each action leads, or the refusal's
 * sentence. Nothing else is allowed.
 */
const TABLE: Record<CaseStatus, Record<string, CaseStatus | RegExp>> = {
  active: {
    edit: 'active',
    delete: /^disc-007 is active; only an outdated case can be deleted\. Mark it outdated first, then delete it\.$/,
    validate: 'active',
    outdated: 'outdated',
    archive: 'archived',
    resurrect: /^disc-007 is active; only an archived case can be resurrected\.$/,
    supersede: 'outdated',
  },
  outdated: {
    edit: 'active',
    delete: 'deleted',
    validate: 'active',
    outdated: /^disc-007 is marked outdated already; validate it if it still holds, or delete it\.$/,
    archive: 'archived',
    resurrect: /^disc-007 is outdated; only an archived case can be resurrected\.$/,
    supersede: /^disc-007 is outdated; only an active case can be superseded by a newer one\.$/,
  },
  archived: {
    edit: /^disc-007 is archived, so its content cannot be edited; resurrect it first if it is still relevant\.$/,
    delete: /archived, which keeps it out of every prompt already; there is nothing to delete/,
    validate: /^disc-007 is archived; resurrect it first if it still holds\.$/,
    outdated: /archived and no prompt carries it; resurrect it first/,
    archive: /^disc-007 is archived already\.$/,
    resurrect: 'active',
    supersede: /only an active case can be superseded/,
  },
  deleted: {
    edit: /deleted, so its content cannot be edited; add a new discovery instead/,
    delete: /^disc-007 is deleted already\.$/,
    validate: /deleted, so it cannot be validated/,
    outdated: /^disc-007 is deleted; a deleted case can only be archived\.$/,
    archive: 'archived',
    resurrect: /^disc-007 is deleted; only an archived case can be resurrected\.$/,
    supersede: /only an active case can be superseded/,
  },
};

describe('the status diagram', () => {
  for (const [status, row] of Object.entries(TABLE) as [CaseStatus, Record<string, CaseStatus | RegExp>][]) {
    for (const [name, expected] of Object.entries(row)) {
      const title =
        typeof expected === 'string'
          ? `${status} --${name}--> ${expected}`
          : `${status}: ${name} is refused, saying why`;
      test(title, () => {
        const before = caseIn(status);
        if (typeof expected === 'string') {
          const after = applyCaseAction(before, ACTIONS[name]!, NOW);
          assert.equal(after.status, expected);
          assert.equal(after.updatedAt, NOW);
          assert.equal(before.status, status, 'the case itself is unchanged');
        } else {
          assert.throws(
            () => applyCaseAction(before, ACTIONS[name]!, NOW),
            (e: unknown) => e instanceof CaseTransitionError && expected.test(e.message),
          );
        }
      });
    }
  }
});

describe('what each action records', () => {
  test('promote turns a local case global, keeping its id; twice is refused', () => {
    const promoted = applyCaseAction(caseIn('active', { metadata: { scope: 'local' } }), { kind: 'promote' }, NOW);
    assert.equal(promoted.id, 'disc-007');
    assert.equal(promoted.metadata.scope, 'global');
    assert.throws(
      () => applyCaseAction(promoted, { kind: 'promote' }, NOW),
      /^CaseTransitionError: disc-007 is global already\.$/,
    );
    assert.throws(
      () => applyCaseAction(caseIn('archived', { metadata: { scope: 'local' } }), { kind: 'promote' }, NOW),
      /resurrect it before promoting it to global/,
    );
  });

  test('validate sets validated and validatedAt; on an outdated case it is the person confirming it', () => {
    const outdated = applyCaseAction(caseIn('active'), { kind: 'supersede', by: 'disc-009' }, NOW);
    assert.equal(outdated.metadata.supersededBy, 'disc-009');
    assert.equal(outdated.metadata.outdatedReason, 'superseded by newer discovery');
    const confirmed = applyCaseAction(outdated, { kind: 'validate' }, '2025-02-03T00:00:00.000Z');
    assert.equal(confirmed.status, 'active');
    assert.equal(confirmed.metadata.validated, true);
    assert.equal(confirmed.validatedAt, '2025-02-03T00:00:00.000Z');
    assert.equal(confirmed.metadata.supersededBy, null);
    assert.equal(confirmed.metadata.outdatedReason, undefined);
  });

  test('marking outdated names the commit when a commit did it', () => {
    const c = applyCaseAction(
      caseIn('active'),
      { kind: 'outdated', reason: 'affected files modified', commit: 'a1b2c3d4e5' },
      NOW,
    );
    assert.deepEqual(
      [c.status, c.metadata.outdatedReason, c.metadata.outdatedCommit, c.metadata.outdatedAt],
      ['outdated', 'affected files modified', 'a1b2c3d4e5', NOW],
    );
    assert.throws(
      () => applyCaseAction(caseIn('active'), { kind: 'outdated', commit: '$(reboot)' }, NOW),
      /"\$\(reboot\)" is not a commit hash/,
    );
  });

  test('archive and resurrect record when, why and by whom', () => {
    const archived = applyCaseAction(caseIn('active'), { kind: 'archive', reason: 'parent_task_completed' }, NOW);
    assert.deepEqual([archived.metadata.archivedAt, archived.metadata.archivedReason], [NOW, 'parent_task_completed']);
    const back = applyCaseAction(archived, { kind: 'resurrect' }, '2025-02-04T00:00:00.000Z');
    assert.deepEqual(
      [back.status, back.metadata.resurrectedAt, back.metadata.resurrectedBy],
      ['active', '2025-02-04T00:00:00.000Z', 'user'],
    );
  });

  test('edit refuses empty content, and the same text is no change at all', () => {
    const c = caseIn('active');
    assert.throws(
      () => applyCaseAction(c, { kind: 'edit', content: '' }, NOW),
      /^CaseTransitionError: disc-007 was not changed: the content is empty; say what was learned\.$/,
    );
    assert.equal(applyCaseAction(c, { kind: 'edit', content: c.content }, NOW), c);
  });

  test('impact and category are editable, within their lists', () => {
    const c = applyCaseAction(
      applyCaseAction(caseIn('active'), { kind: 'set-impact', impact: 'critical' }, NOW),
      { kind: 'set-category', category: 'Errors' },
      NOW,
    );
    assert.deepEqual([c.metadata.impact, c.metadata.category], ['critical', 'Errors']);
    assert.throws(
      () => applyCaseAction(c, { kind: 'set-impact', impact: 'huge' as never }, NOW),
      /"huge" is not an impact; use low, medium, high or critical/,
    );
    assert.throws(
      () => applyCaseAction(c, { kind: 'set-category', category: 'Misc' as never }, NOW),
      /"Misc" is not a category/,
    );
  });

  test('a case cannot supersede itself', () => {
    assert.throws(
      () => applyCaseAction(caseIn('active'), { kind: 'supersede', by: 'disc-007' }, NOW),
      /disc-007 cannot supersede itself/,
    );
  });
});
