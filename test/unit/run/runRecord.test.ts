import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RUN_ID_PATTERN,
  isIsoDate,
  newRunId,
  parseRunRecord,
  relativePathProblem,
} from '../../../src/core/run/runRecord';
import { REASON_MAX_CHARS, SUMMARY_MAX_CHARS, TASK_MAX_CHARS } from '../../../src/core/run/runTypes';
import { sampleRun } from './runFixtures';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);

describe('newRunId', () => {
  test('is the UTC time, the role and the random part, and matches the pattern', () => {
    const id = newRunId('build-api', T0, '0a1f');
    assert.equal(id, '20250102-030405-build-api-0a1f');
    assert.match(id, RUN_ID_PATTERN);
  });

  test('refuses a role or a random part the pattern would not take', () => {
    assert.throws(() => newRunId('Builder', T0, '0a1f'), RangeError);
    assert.throws(() => newRunId('../x', T0, '0a1f'), RangeError);
    assert.throws(() => newRunId('builder', T0, '0A1F'), RangeError);
    assert.throws(() => newRunId('builder', T0, 'abcde'), RangeError);
    assert.throws(() => newRunId('builder', Date.UTC(10000, 0, 1), 'abcd'), RangeError);
  });
});

describe('relativePathProblem', () => {
  test('takes plain relative paths, and "." only where it means the folder', () => {
    assert.equal(relativePathProblem('src/a.ts'), undefined);
    assert.equal(relativePathProblem('.', true), undefined);
    assert.notEqual(relativePathProblem('.'), undefined);
  });

  for (const path of [
    '',
    '/etc/passwd',
    'C:/x',
    'a\\b',
    'a/../b',
    '..',
    'a//b',
    'a/',
    './a',
    'a\u0000b',
    'a\nb',
    'a\u0085b',
  ]) {
    test(`refuses ${JSON.stringify(path)}`, () => assert.notEqual(relativePathProblem(path, true), undefined));
  }
});

describe('parseRunRecord', () => {
  test('reads a whole record back as it was written', () => {
    const run = sampleRun({ reason: undefined, revertedAt: '2025-01-03T00:00:00Z' });
    delete run.reason;
    const parsed = parseRunRecord(JSON.parse(JSON.stringify(run)));
    assert.deepEqual(parsed, { ok: true, value: run });
  });

  test('reads a minimal running record, and drops unknown fields', () => {
    const {
      usage: _u,
      model: _m,
      costUsd: _c,
      endedAt: _e,
      summary: _s,
      ...minimal
    } = sampleRun({ status: 'running', root: 'packages/api' });
    const parsed = parseRunRecord({ ...minimal, extra: 'x', __proto__: { polluted: true } });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, minimal);
    assert.equal(Object.hasOwn(parsed.value, 'extra'), false);
  });

  const hostile: [string, Record<string, unknown>, RegExp][] = [
    ['a version other than 1', { version: 2 }, /version/],
    ['an id that is not one', { id: '../../etc' }, /field id/],
    ['an id with upper case', { id: '20250102-030405-Builder-0a1f' }, /field id/],
    ['a role with upper case', { role: 'Builder' }, /field role/],
    ['a role of path characters', { role: '../x' }, /field role/],
    ['a role too long', { role: `a${'b'.repeat(64)}` }, /field role/],
    ['a task that is not text', { task: 42 }, /field task/],
    ['an empty task', { task: '  ' }, /field task is empty/],
    ['a task too long', { task: 'x'.repeat(TASK_MAX_CHARS + 1) }, /field task is 20001 characters/],
    ['an absolute root', { root: '/etc' }, /field root is an absolute path/],
    ['a root that climbs', { root: 'a/../..' }, /field root has a '\.\.' segment/],
    ['a root with a backslash', { root: 'a\\b' }, /backslash/],
    ['a root with a control character', { root: 'a\u001bb' }, /control/],
    ['a root that is not text', { root: ['.'] }, /field root is not text/],
    ['an unknown status', { status: 'done' }, /field status/],
    ['negative turns', { turns: -1 }, /field turns/],
    ['fractional turns', { turns: 1.5 }, /field turns/],
    [
      'usage with a negative count',
      { usage: { inputTokens: -1, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 } },
      /field usage/,
    ],
    ['usage that is not an object', { usage: 'lots' }, /field usage/],
    ['a model with a space', { model: 'claude sonnet' }, /field model/],
    ['a model with a control character', { model: 'm\u0007' }, /field model/],
    ['a negative cost', { costUsd: -0.01 }, /field costUsd/],
    ['an infinite cost', { costUsd: 1e400 }, /field costUsd/],
    ['a cost as text', { costUsd: '0.1' }, /field costUsd/],
    ['a startedAt that is not ISO', { startedAt: 'yesterday' }, /field startedAt/],
    ['a startedAt that does not exist', { startedAt: '2025-13-45T00:00:00Z' }, /field startedAt/],
    ['a missing updatedAt', { updatedAt: undefined }, /field updatedAt/],
    ['an endedAt as a number', { endedAt: T0 }, /field endedAt/],
    ['a revertedAt that is not ISO', { revertedAt: 'now' }, /field revertedAt/],
    ['a reason too long', { reason: 'x'.repeat(REASON_MAX_CHARS + 1) }, /field reason/],
    ['a summary too long', { summary: 'x'.repeat(SUMMARY_MAX_CHARS + 1) }, /field summary/],
    ['a summary that is not text', { summary: { text: 'x' } }, /field summary/],
    ['an unknown origin', { origin: 'web' }, /field origin/],
  ];
  for (const [name, change, reason] of hostile) {
    test(`refuses ${name}`, () => {
      const parsed = parseRunRecord({ ...sampleRun(), ...change });
      assert.equal(parsed.ok, false);
      assert.match((parsed as { reason: string }).reason, reason);
    });
  }

  test('refuses what is not an object', () => {
    for (const value of [null, [], 'run', 1]) assert.equal(parseRunRecord(value).ok, false);
  });
});

describe('isIsoDate', () => {
  test('takes what toISOString writes, and nothing vaguer', () => {
    assert.ok(isIsoDate(new Date(T0).toISOString()));
    assert.ok(isIsoDate('2025-01-02T03:04:05Z'));
    assert.ok(!isIsoDate('2025-01-02'));
    assert.ok(!isIsoDate('2025-01-02T03:04:05+02:00'));
    assert.ok(!isIsoDate(T0));
  });
});
