// The audit log `.groundwork/audit.jsonl`: stamped entries, the session tag, caps,
// and reads that skip damaged lines without dropping good ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AUDIT_DETAIL_MAX_CHARS,
  AUDIT_INPUT_MAX_CHARS,
  AuditLog,
  auditInput,
  parseAuditEntry,
} from '../../../src/core/audit/auditLog';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { AUDIT_FILE } from '../../../src/core/plan/layout';

const T0 = Date.UTC(2025, 0, 31, 9, 15, 0);
const USAGE = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheCreationTokens: 0 };

function setup() {
  const ws = new MemoryWorkspace();
  const clock = new FakeClock(T0);
  return { ws, clock, audit: AuditLog.of(ws.store, clock) };
}

describe('AuditLog', () => {
  test('appends one stamped line per entry, optional fields only when given', async () => {
    const { ws, audit, clock } = setup();
    await audit.append({
      kind: 'discovery.start',
      input: '[DISCOVERY:s1] build me a CRM',
      status: 'ok',
      usage: USAGE,
      model: 'claude-sonnet-4-6',
      costUsd: 0.0012,
    });
    clock.advance(1000);
    await audit.append({
      kind: 'discovery.cancel',
      input: '[DISCOVERY:s1]',
      status: 'error',
      detail: 'cancel word: no',
    });
    assert.deepEqual(ws.lines(AUDIT_FILE), [
      '{"timestamp":"2025-01-31T09:15:00.000Z","kind":"discovery.start","input":"[DISCOVERY:s1] build me a CRM","status":"ok","usage":{"inputTokens":10,"outputTokens":5,"cacheReadTokens":100,"cacheCreationTokens":0},"model":"claude-sonnet-4-6","costUsd":0.0012}',
      '{"timestamp":"2025-01-31T09:15:01.000Z","kind":"discovery.cancel","input":"[DISCOVERY:s1]","status":"error","detail":"cancel word: no"}',
    ]);
    const read = await audit.read();
    assert.equal(read.records.length, 2);
    assert.deepEqual(read.problems, []);
  });

  test('long inputs and details are cut', async () => {
    const { audit } = setup();
    const entry = await audit.append({
      kind: 'build.phase',
      input: 'x'.repeat(5000),
      status: 'ok',
      detail: 'y'.repeat(5000),
    });
    assert.ok(entry.input.length <= AUDIT_INPUT_MAX_CHARS + 100);
    assert.equal([...entry.detail!].length, AUDIT_DETAIL_MAX_CHARS);
    assert.ok(entry.detail!.endsWith('…'));
  });

  test('a kind that is not dotted lower-case words is refused', async () => {
    const { audit } = setup();
    await assert.rejects(audit.append({ kind: 'Discovery Start', input: '', status: 'ok' }), RangeError);
  });

  test('damaged lines are reported, good ones kept', async () => {
    const { ws, audit } = setup();
    ws.plant(AUDIT_FILE, [
      '{"timestamp":"2025-01-31T09:15:00.000Z","kind":"discovery.start","input":"[DISCOVERY:a]","status":"ok"}',
      'not json',
      '{"timestamp":"2025-01-31T09:15:00.000Z","kind":"discovery.start","input":"x","status":"maybe"}',
      '{"timestamp":"2025-01-31T09:15:00.000Z","kind":"discovery.round","input":"[DISCOVERY:a]","status":"error","usage":{"inputTokens":-1}}',
      '{"timestamp":"2025-01-31T09:16:00.000Z","kind":"discovery.complete","input":"[DISCOVERY:a]","status":"ok"}',
    ]);
    const read = await audit.read();
    assert.deepEqual(
      read.records.map((r) => r.kind),
      ['discovery.start', 'discovery.complete'],
    );
    assert.deepEqual(
      read.problems.map((p) => p.line),
      [2, 3, 4],
    );
  });
});

describe('auditInput', () => {
  test('the session tag, then the text on one line', () => {
    assert.equal(auditInput('DISCOVERY', 's1', 'build me\na CRM'), '[DISCOVERY:s1] build me a CRM');
    assert.equal(auditInput('DISCOVERY', 's1'), '[DISCOVERY:s1]');
  });

  test('invisible characters in the session or the text are made visible', () => {
    assert.equal(auditInput('DISCOVERY', 'a\u202eb', 'x\u0007'), '[DISCOVERY:a\\u202eb] x\\x07');
  });

  test('a long text is cut', () => {
    const input = auditInput('DISCOVERY', 's', 'z'.repeat(1000));
    assert.ok(input.endsWith('…'));
    assert.equal([...input].length, '[DISCOVERY:s] '.length + AUDIT_INPUT_MAX_CHARS);
  });
});

describe('parseAuditEntry', () => {
  test('rejects what is not an entry', () => {
    assert.equal(parseAuditEntry([]).ok, false);
    assert.equal(parseAuditEntry({ timestamp: 'x', kind: 'a', input: '', status: 'ok' }).ok, false);
    assert.equal(
      parseAuditEntry({ timestamp: '2025-01-01T00:00:00Z', kind: 'a', input: '', status: 'ok', costUsd: -1 }).ok,
      false,
    );
    assert.equal(parseAuditEntry({ timestamp: '2025-01-01T00:00:00Z', kind: 'a', input: '', status: 'ok' }).ok, true);
  });
});
