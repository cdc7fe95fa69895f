// Fuzzing the parsers of the workspace's record files and small state files: the journal, sleep,
// audit and worker records (one JSON value per line), the JSONL reader itself, the lock file's
// holder, the panel's pending brief and the role files. Random values, valid records with one
// field replaced, and mutated text: each parser returns a record in its schema or a reason,
// never throws, and a record it returns is read back the same after it is written again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseAuditEntry } from '../../../src/core/audit/auditLog';
import { parseCaseRecord } from '../../../src/core/cases/caseRecord';
import { parseWorkerRecord } from '../../../src/core/brainstorm/workerLog';
import { parseJournalEntry, TITLE_MAX_CHARS } from '../../../src/core/journal/journalEntry';
import { parseHolder } from '../../../src/core/node/lockFile';
import { isBlankText } from '../../../src/core/prompt/untrustedText';
import { parseRoleFile } from '../../../src/core/roles/roleFile';
import { parseSleepRecord } from '../../../src/core/sleep/sleepRecord';
import { parseJsonl, serializeRecord } from '../../../src/core/storage/jsonl';
import type { RecordParser } from '../../../src/core/storage/recordLog';
import { countChars } from '../../../src/core/inputChecks';
import { parsePendingBrief } from '../../../src/vscode/discovery/pendingBrief';
import { RUNS, anyJson, hostileText, jsonMutation, mutation } from './arbitraries';
import { BRIEF_FIELDS } from '../../support/brief';

const T = '2026-11-24T10:00:00.000Z';
const USAGE = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheCreationTokens: 0 };

interface RecordCase<R> {
  name: string;
  parser: RecordParser<R>;
  /** A valid record, to mutate. */
  valid: Record<string, unknown>;
  /** What the schema promises beyond "the parser said ok". */
  check?: (record: R) => void;
}

const CASES: RecordCase<any>[] = [
  {
    name: 'journal entry (.groundwork/discoveries.jsonl)',
    parser: parseJournalEntry,
    valid: {
      timestamp: T,
      title: 'Retry the upload',
      description: 'It fails once in ten.',
      scope: 'local',
      agent: 'developer',
      task: 'upload',
    },
    check: (r) => {
      assert.ok(!isBlankText(r.title) && countChars(r.title) <= TITLE_MAX_CHARS);
      assert.equal(typeof r.description, 'string');
    },
  },
  {
    name: 'sleep record, woken (.groundwork/sleep.jsonl)',
    parser: parseSleepRecord,
    valid: { event: 'woken', agent: 'developer', reason: 'woken from the plan explorer', at: Date.parse(T) },
  },
  {
    name: 'sleep record, started (.groundwork/sleep.jsonl)',
    parser: parseSleepRecord,
    valid: {
      event: 'started',
      agent: 'developer',
      mode: { kind: 'event', target: { type: 'phase', id: 'qa' } },
      startedAt: Date.parse(T),
      maxDurationMs: 3_600_000,
    },
  },
  {
    name: 'audit entry (.groundwork/audit.jsonl)',
    parser: parseAuditEntry,
    valid: {
      timestamp: T,
      kind: 'brainstorm.round',
      input: '[BRAINSTORM:x] topic',
      status: 'ok',
      detail: 'round 1',
      usage: USAGE,
      model: 'claude-haiku-4-5',
      costUsd: 0.001,
    },
  },
  {
    name: 'discovery case (.groundwork/cases.jsonl)',
    parser: parseCaseRecord,
    valid: {
      id: 'disc-030',
      type: 'discovery',
      status: 'active',
      content: 'rehype requires explicit config for GFM in src/render.ts',
      parentId: 'task-1',
      metadata: {
        scope: 'global',
        sourceTaskId: 'task-1',
        sourceAgentId: 'developer',
        impact: 'medium',
        category: 'Architecture',
        validated: false,
        appliedTo: ['task-2'],
      },
      createdAt: T,
      updatedAt: T,
    },
  },
  {
    name: 'worker record (.workers/<agent>.ndjson)',
    parser: parseWorkerRecord,
    valid: {
      timestamp: T,
      round: 1,
      task: 'answers',
      answers: ['yes', null],
      status: 'success',
      text: 'reply',
      model: 'claude-haiku-4-5',
      usage: USAGE,
    },
  },
];

/** The record the parser returns, written and parsed again, is the same record. */
function assertStable<R>(c: RecordCase<R>, value: unknown): void {
  let result: ReturnType<RecordParser<R>>;
  try {
    result = c.parser(value);
  } catch (err) {
    assert.fail(`${c.name}: the parser threw ${String(err)} for ${JSON.stringify(value)?.slice(0, 300)}`);
  }
  if (!result.ok) {
    assert.ok(
      typeof result.reason === 'string' && result.reason.length > 0 && result.reason.length < 2000,
      'a reason a person can read',
    );
    return;
  }
  c.check?.(result.record);
  const again = c.parser(JSON.parse(serializeRecord(result.record)));
  assert.ok(again.ok, `${c.name}: a record it returned does not read back`);
  assert.deepEqual(again.record, result.record);
}

describe('fuzz: record parsers', () => {
  for (const c of CASES) {
    test(`${c.name}: any JSON value, and a valid record with any field replaced`, () => {
      assert.ok(c.parser(c.valid).ok, `${c.name}: the sample is valid`);
      fc.assert(
        fc.property(anyJson, (value) => assertStable(c, value)),
        RUNS,
      );
      fc.assert(
        fc.property(jsonMutation(c.valid), (text) => assertStable(c, JSON.parse(text))),
        RUNS,
      );
      fc.assert(
        fc.property(hostileText, fc.constantFrom(...Object.keys(c.valid)), (text, key) =>
          assertStable(c, { ...c.valid, [key]: text }),
        ),
        RUNS,
      );
    });
  }

  test('the JSONL reader: every line is a record or a reported problem, whatever the text', () => {
    const journal = CASES[0]!;
    const valid = serializeRecord(journal.valid);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(valid.trimEnd()), hostileText, fc.string()), { maxLength: 8 }),
        fc.array(mutation, { maxLength: 3 }),
        (lines, changes) => {
          const text = changes.reduce((t, change) => change(t), lines.join('\n'));
          const read = parseJsonl(text, journal.parser);
          for (const r of read.records) assertStable(journal, r);
          for (const p of read.problems)
            assert.ok(Number.isSafeInteger(p.line) && p.line >= 1 && p.excerpt.length <= 200);
        },
      ),
      RUNS,
    );
  });

  test('the lock file’s holder: a holder with a whole pid and text fields, or none', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          anyJson.map((v) => JSON.stringify(v) ?? ''),
          jsonMutation({ pid: 42, host: 'h', token: 't', acquiredAt: Date.parse(T) }),
        ),
        (raw) => {
          const h = parseHolder(raw);
          if (h === undefined) return;
          assert.ok(Number.isSafeInteger(h.pid) && typeof h.host === 'string' && typeof h.token === 'string');
          assert.ok(h.acquiredAt === undefined || Number.isFinite(h.acquiredAt));
        },
      ),
      RUNS,
    );
  });
});

describe('fuzz: the panel’s pending brief (.groundwork/panel/brief.json)', () => {
  const VALID = {
    request: 'build me a CRM',
    message: 'Here is the brief.',
    brief: BRIEF_FIELDS,
    transcript: [{ round: 1, questions: ['Who?'], answer: 'Me' }],
    savedAt: '.groundwork/plans/crm/idea-brief.md',
  };

  function check(text: string): void {
    let parsed: ReturnType<typeof parsePendingBrief>;
    try {
      parsed = parsePendingBrief(text);
    } catch (err) {
      assert.fail(`parsePendingBrief threw ${String(err)}`);
    }
    if (!parsed.ok) return;
    const b = parsed.value;
    assert.ok(
      b.savedAt === undefined || /^\.groundwork\/plans\/[a-z0-9][a-z0-9-]{0,63}\/idea-brief\.md$/.test(b.savedAt),
      `savedAt ${b.savedAt}`,
    );
    assert.ok(
      Array.isArray(b.transcript) &&
        b.transcript.every(
          (r) =>
            Number.isSafeInteger(r.round) &&
            Array.isArray(r.questions) &&
            r.questions.every((q) => typeof q === 'string'),
        ),
    );
    assert.ok(Object.values(b.brief).every((v) => typeof v === 'string'));
    const again = parsePendingBrief(JSON.stringify(b));
    assert.ok(again.ok);
    assert.deepEqual(again.value, b);
  }

  test('random text, any field replaced, mutated text: a brief in its schema or a reason', () => {
    assert.ok(parsePendingBrief(JSON.stringify(VALID)).ok);
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), check), RUNS);
    fc.assert(fc.property(jsonMutation(VALID), check), RUNS);
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (changes) =>
        check(changes.reduce((t, c) => c(t), JSON.stringify(VALID))),
      ),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(
          '.groundwork/../../../../etc/passwd',
          '/etc/passwd',
          '.groundwork/plans/x/../../../y/idea-brief.md',
          '.groundwork\\plans\\x\\idea-brief.md',
          'C:/x',
          '.groundwork/plans/%2e%2e/idea-brief.md',
          `.groundwork/plans/x\u0000/idea-brief.md`,
        ),
        (savedAt) => check(JSON.stringify({ ...VALID, savedAt })),
      ),
      RUNS,
    );
  });
});

describe('fuzz: role files (.groundwork/roles/<name>.md)', () => {
  const bundled = readFileSync(join(__dirname, '..', '..', '..', 'roles', 'inquisitor-ux.md'), 'utf8');

  test('mutated and hostile role files: a role in its schema, or the problems, never a throw', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), hostileText, (changes, text) => {
        for (const input of [
          changes.reduce((t, c) => c(t), bundled),
          `---\nname: inquisitor-ux\ndescription: ${text}\n---\n${text}`,
          text,
        ]) {
          const parsed = parseRoleFile('.groundwork/roles/inquisitor-ux.md', input);
          if (parsed.role === undefined) {
            assert.ok(parsed.errors.length > 0 && parsed.errors.every((e) => typeof e.text === 'string'));
            continue;
          }
          const role = parsed.role;
          assert.ok(Number.isSafeInteger(role.maxTurns) && role.maxTurns >= 1);
          assert.ok(Array.isArray(role.tools) && typeof role.prompt === 'string' && typeof role.name === 'string');
        }
      }),
      RUNS,
    );
  });
});
