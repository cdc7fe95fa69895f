import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { caseNumber, formatCaseId, isCaseId } from '../../../src/core/cases/caseId';
import { parseCase, serializeCase } from '../../../src/core/cases/caseRecord';
import { caseJson } from './casesHarness';

describe('case ids', () => {
  test('are disc- and three digits, zero-padded, growing past 999', () => {
    assert.equal(formatCaseId(1), 'disc-001');
    assert.equal(formatCaseId(30), 'disc-030');
    assert.equal(formatCaseId(142), 'disc-142');
    assert.equal(formatCaseId(999), 'disc-999');
    assert.equal(formatCaseId(1000), 'disc-1000');
    assert.equal(formatCaseId(1001), 'disc-1001');
    assert.equal(caseNumber('disc-1000'), 1000);
  });

  test('only the one spelling of a number is an id', () => {
    for (const id of ['disc-001', 'disc-999', 'disc-1000', 'disc-123456789']) assert.equal(isCaseId(id), true, id);
    for (const id of [
      'disc-000',
      'disc-01',
      'disc-0001',
      'disc-01000',
      'DISC-001',
      'disc-1e3',
      'disc--01',
      ' disc-001',
      'disc-001\n',
      'disc-1234567890',
      42,
      null,
    ]) {
      assert.equal(isCaseId(id), false, String(id));
    }
    assert.throws(() => formatCaseId(0), RangeError);
    assert.throws(() => formatCaseId(1.5), RangeError);
  });
});

describe('the case line', () => {
  test('round trips in the line format, keys in a fixed order', () => {
    const parsed = parseCase(
      caseJson('disc-030', {
        content: 'rehype requires explicit config for GFM',
        metadata: { appliedTo: ['task-021', 'task-022'], validated: true },
        validatedAt: '2025-02-01T00:00:00.000Z',
      }),
    );
    assert.ok(parsed.ok);
    assert.equal(
      serializeCase(parsed.value),
      '{"id":"disc-030","type":"discovery","status":"active","content":"rehype requires explicit config for GFM","parentId":"task-1",' +
        '"metadata":{"scope":"global","sourceTaskId":"task-1","sourceAgentId":"developer","impact":"medium","category":"Architecture","validated":true,' +
        '"appliedTo":["task-021","task-022"],"supersededBy":null},"createdAt":"2025-01-31T09:15:00.000Z","validatedAt":"2025-02-01T00:00:00.000Z",' +
        '"updatedAt":"2025-01-31T09:15:00.000Z"}\n',
    );
  });

  test('a line without a category (from before categories were stored) gets the heuristic', () => {
    const value = caseJson('disc-040', { content: 'Tests use Vitest, not Jest' });
    delete (value['metadata'] as Record<string, unknown>)['category'];
    const parsed = parseCase(value);
    assert.ok(parsed.ok);
    assert.equal(parsed.value.metadata.category, 'Testing');
  });

  test('cases read are frozen: a caller cannot change the cached one', () => {
    const parsed = parseCase(caseJson('disc-001'));
    assert.ok(parsed.ok);
    assert.equal(Reflect.set(parsed.value, 'status', 'deleted'), false);
    assert.equal(Reflect.set(parsed.value.metadata, 'scope', 'local'), false);
    assert.throws(() => (parsed.value.metadata.appliedTo as string[]).push('x'));
    assert.equal(parsed.value.status, 'active');
  });

  const hostile: [string, Record<string, unknown>, RegExp][] = [
    ['an id that is not one', { id: '../../etc' }, /field id "..\/..\/etc" is not a case id/],
    ['another type', { type: 'task' }, /field type "task" is not discovery/],
    [
      'an unknown status',
      { status: 'pwned' },
      /field status "pwned" is not one of active, outdated, archived, deleted/,
    ],
    ['empty content', { content: '   ' }, /field content: the content is empty/],
    ['content of zero-width characters', { content: '\u200b\u200b' }, /the content is empty/],
    ['content over the cap', { content: 'x'.repeat(8001) }, /8001 characters; the limit is 8000/],
    ['content that is not text', { content: { $gt: '' } }, /the content must be text \(got an object\)/],
    ['a parent with a line break', { parentId: 'task\n# injected' }, /parentId holds a control character/],
    ['a bad time', { createdAt: 'yesterday' }, /field createdAt "yesterday" is not an ISO-8601 UTC time/],
    ['a missing updatedAt', { updatedAt: undefined }, /field updatedAt is missing/],
    ['metadata that is a list', { metadata: undefined }, /./],
    ['a scope of its own', { metadata: { scope: 'team' } }, /field metadata.scope "team" is not local or global/],
    [
      'an impact of its own',
      { metadata: { impact: 'urgent' } },
      /field metadata.impact "urgent" is not one of low, medium, high, critical/,
    ],
    ['an unknown category', { metadata: { category: 'Misc' } }, /field metadata.category "Misc"/],
    ['validated as text', { metadata: { validated: 'yes' } }, /field metadata.validated "yes" is not true or false/],
    ['appliedTo not a list', { metadata: { appliedTo: 'task-1' } }, /field metadata.appliedTo "task-1" is not a list/],
    ['appliedTo with a number', { metadata: { appliedTo: ['a', 7] } }, /metadata.appliedTo\[1\] must be text/],
    [
      'a huge appliedTo',
      { metadata: { appliedTo: Array.from({ length: 1001 }, (_, i) => `t${i}`) } },
      /1001 entries; the limit is 1000/,
    ],
    [
      'superseded by itself',
      { metadata: { supersededBy: 'disc-005' } },
      /field metadata.supersededBy "disc-005" is not the id of another case/,
    ],
    ['a commit that is not a hash', { metadata: { outdatedCommit: '--exec=rm' } }, /field metadata.outdatedCommit/],
    [
      'an archive reason of its own',
      { metadata: { archivedReason: 'because' } },
      /field metadata.archivedReason "because"/,
    ],
    [
      'an agent name over 200 characters',
      { metadata: { sourceAgentId: 'a'.repeat(201) } },
      /201 characters; the limit is 200/,
    ],
  ];
  for (const [name, over, reason] of hostile) {
    test(`refuses ${name}, naming the field`, () => {
      const value = caseJson('disc-005', over);
      if ('metadata' in over && over['metadata'] === undefined) value['metadata'] = ['not', 'an', 'object'];
      for (const [k, v] of Object.entries(over)) if (v === undefined && k !== 'metadata') delete value[k];
      const parsed = parseCase(value);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { reason: string }).reason, reason);
    });
  }

  test('fields it does not know are not kept', () => {
    const parsed = parseCase({ ...caseJson('disc-001'), extra: '<script>', __proto__: { status: 'deleted' } });
    assert.ok(parsed.ok);
    assert.equal('extra' in parsed.value, false);
    assert.equal(parsed.value.status, 'active');
  });
});
