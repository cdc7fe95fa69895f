// What the fast load of cases.jsonl must never change: a line Groundwork wrote is read by one
// regular expression (caseLine.ts) and any other by JSON.parse and parseCase, and both must give
// the same case or the same refusal; the file is decoded in parts, and what a reader sees (cases
// in id order, the last line of an id winning, problems with their line numbers, a byte order mark,
// a torn last line) must be what reading the whole text at once gave. Timings are in
// `npm run bench:cases`, not here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCaseLine } from '../../../src/core/cases/caseLine';
import { caseNumber } from '../../../src/core/cases/caseId';
import { parseCase, serializeCase } from '../../../src/core/cases/caseRecord';
import type { Checked } from '../../../src/core/inputChecks';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { TORN_LINE_REASON } from '../../../src/core/storage/jsonl';
import { caseJson, casesSetup, line } from './casesHarness';

/** What every line went through before: JSON.parse, then parseCase. */
function slow(text: string): Checked<DiscoveryCase> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${(err as Error).message})` };
  }
  return parseCase(value);
}

function assertSameReading(text: string): void {
  const fast = parseCaseLine(text);
  const reference = slow(text);
  assert.deepStrictEqual(fast, reference, text);
  // The same keys in the same order too (a view may print them as they come).
  if (fast.ok && reference.ok) assert.equal(JSON.stringify(fast.value), JSON.stringify(reference.value), text);
  if (fast.ok)
    assert.ok(
      Object.isFrozen(fast.value) &&
        Object.isFrozen(fast.value.metadata) &&
        Object.isFrozen(fast.value.metadata.appliedTo),
    );
}

const written = (id: string, over: Record<string, unknown> = {}) => {
  const parsed = parseCase(caseJson(id, over));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
  return serializeCase(parsed.value).slice(0, -1);
};

const T = '2025-03-04T05:06:07.890Z';
const LINES = [
  written('disc-001'),
  written('disc-999', {
    parentId: null,
    metadata: { sourceTaskId: null, sourceAgentId: null, scope: 'local', impact: 'critical', category: 'API' },
  }),
  written('disc-1000', {
    status: 'archived',
    metadata: { archivedAt: T, archivedReason: 'user', appliedTo: ['build-1/qa', 'task 2', 'x'] },
  }),
  written('disc-123456789', {
    status: 'outdated',
    validatedAt: T,
    metadata: {
      validated: true,
      outdatedAt: T,
      outdatedReason: 'affected files modified',
      outdatedCommit: 'abc1234',
      supersededBy: 'disc-001',
    },
  }),
  written('disc-002', {
    status: 'deleted',
    metadata: {
      deletedAt: T,
      resurrectedAt: T,
      resurrectedBy: 'system',
      archivedAt: T,
      archivedReason: 'outdated_unreviewed',
    },
  }),
  written('disc-003', {
    content: 'Quotes "like this", a back\\slash, a tab\there,\na new line, \u0001, é, 日本, 🙂 and \u2028.',
  }),
  written('disc-004', {
    content: '\u200b\u00a0x',
    parentId: 'tâche-1',
    metadata: { sourceAgentId: 'développeur', appliedTo: ['ünïcode'] },
  }),
  written('disc-005', {
    createdAt: '2024-02-29T00:00:00.000Z',
    updatedAt: '2025-01-31T23:59:59Z',
    validatedAt: '2025-12-31T00:00:00.5Z',
  }),
  written('disc-006', {
    content: 'x'.repeat(8000),
    metadata: { appliedTo: Array.from({ length: 1000 }, (_, i) => `task-${i}`) },
  }),
  // A line from before categories were stored: no category (the heuristic gives one).
  JSON.stringify({
    ...caseJson('disc-007'),
    metadata: { ...(caseJson('disc-007')['metadata'] as object), category: undefined },
  }),
];

/** Lines the regular expression matches or nearly matches, whose reading must still be parseCase's. */
const HOSTILE = [
  line('disc-000'),
  line('disc-0001'),
  line('disc-01000'),
  line('disc-008', { metadata: { supersededBy: 'disc-008' } }),
  line('disc-008', { metadata: { supersededBy: 'disc-000' } }),
  line('disc-008', { createdAt: '2025-02-29T00:00:00.000Z' }),
  line('disc-008', { updatedAt: '2025-04-31T00:00:00.000Z' }),
  line('disc-008', { validatedAt: '2025-13-01T00:00:00.000Z' }),
  line('disc-008', { metadata: { archivedAt: '2023-02-29T00:00:00.000Z' } }),
  line('disc-008', { parentId: 'p'.repeat(201) }),
  line('disc-008', { parentId: '🙂'.repeat(150) }),
  line('disc-008', { parentId: 'a\u007fb' }),
  line('disc-008', { parentId: '   ' }),
  line('disc-008', { parentId: 'a"b' }),
  line('disc-008', { metadata: { sourceAgentId: 'tab\there' } }),
  line('disc-008', { metadata: { appliedTo: ['ok', ''] } }),
  line('disc-008', { metadata: { appliedTo: Array.from({ length: 1001 }, (_, i) => `t${i}`) } }),
  line('disc-008', { content: '   ' }),
  line('disc-008', { content: '\u200b' }),
  line('disc-008', { content: 'y'.repeat(8001) }),
  line('disc-008', { metadata: { outdatedCommit: 'ABC1234' } }),
  line('disc-008', { metadata: { archivedReason: 'whim' } }),
  line('disc-008', { metadata: { unknown: 'kept out' } }),
  line('disc-008', { extra: 1 }),
  written('disc-008').replace('"supersededBy":null', '"supersededBy":null,"scope":"local"'),
  written('disc-008').replace(
    '"supersededBy":null',
    '"supersededBy":null,"deletedAt":"2025-01-01T00:00:00.000Z","deletedAt":"x"',
  ),
  written('disc-008').replace('"supersededBy":null', '"supersededBy":null,"deletedAt":null'),
  written('disc-008').replace('"content":"learning disc-008"', '"content":"bad \\x escape"'),
  written('disc-008').replace('"content":"learning disc-008"', '"content":"lone \\ud800 surrogate"'),
  written('disc-008').replace('"content":"learning disc-008"', '"content":"raw\u0001control"'),
  written('disc-008').replace('"parentId":"task-1"', '"parentId":"task\\u002d1"'),
  written('disc-008').replace('"createdAt":"2025', '"createdAt":"\\u0032025'),
  `${written('disc-008')} `,
  `${written('disc-008')}\r`,
  ` ${written('disc-008')}`,
  `\uFEFF${written('disc-008')}`,
  written('disc-008').replace('{"id"', '{ "id"'),
  written('disc-008').slice(0, -1),
  `${written('disc-008')}}`,
  '[1,2,3]',
  'null',
  '',
];

describe('reading one line', () => {
  test('a written line, and any other, reads as JSON.parse and parseCase read it', () => {
    for (const text of [...LINES, ...HOSTILE]) assertSameReading(text);
  });

  test('lines changed at random, a character at a time, still read the same either way', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const noise = [
      '"',
      '\\',
      ',',
      '}',
      ']',
      ' ',
      '0',
      '9',
      'a',
      'Z',
      '-',
      ':',
      'T',
      '\u0000',
      '\u007f',
      '\u2028',
      'é',
      'null',
      '""',
      '\\u0041',
      '\\n',
    ];
    for (let i = 0; i < 20_000; i++) {
      const base = LINES[random(LINES.length - 2)]!;
      const at = random(base.length);
      const cut = random(3);
      assertSameReading(base.slice(0, at) + noise[random(noise.length)] + base.slice(at + cut));
    }
  });
});

/** The old reading: the whole text split at once, each line as slow() reads it, the last line of an id winning, sorted by id. */
function reference(text: string) {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const torn = lines.pop()!;
  const found = new Map<string, DiscoveryCase>();
  const problems: { line: number; reason: string }[] = [];
  lines.forEach((l, i) => {
    if (l.trim() === '') return;
    const parsed = slow(l);
    if (parsed.ok) {
      found.delete(parsed.value.id);
      found.set(parsed.value.id, parsed.value);
    } else problems.push({ line: i + 1, reason: parsed.reason });
  });
  if (torn !== '') problems.push({ line: lines.length + 1, reason: TORN_LINE_REASON });
  return { cases: [...found.values()].sort((a, b) => caseNumber(a.id) - caseNumber(b.id)), problems };
}

describe('reading the file in parts', () => {
  test('a file of several parts (over a mebibyte) loads as the whole text read at once did', async () => {
    const { store, ws } = casesSetup();
    const lines: string[] = [];
    for (let n = 1; n <= 4000; n++) {
      // Out of order here and there (two windows appending at once), some changed later, some damaged.
      const id = `disc-${String(n % 97 === 0 ? n + 5000 : n).padStart(3, '0')}`;
      const content = `${n % 5 === 0 ? 'Ünïcödé → ' : ''}learning ${n} ${'about the gateway and its retries '.repeat(10)}`;
      lines.push(n % 301 === 0 ? `{"id":"${id}", broken` : line(id, { content }));
      if (n % 13 === 0)
        lines.push(
          line(`disc-${String(n - 7).padStart(3, '0')}`, {
            status: 'archived',
            metadata: { archivedAt: T, archivedReason: 'user' },
          }),
        );
      if (n % 500 === 0) lines.push('   ');
    }
    const text = `\uFEFF${lines.join('\n')}\n{"id":"disc-9999","type":"disc`;
    assert.ok(text.length > 2 * 1024 * 1024);
    ws.fs.writeRaw(ws.path('cases.jsonl'), text);
    const { cases, problems } = await store.load();
    const expected = reference(text);
    assert.deepStrictEqual(cases, expected.cases);
    assert.deepStrictEqual(
      problems.map((p) => ({ line: p.line, reason: p.reason })),
      expected.problems,
    );
    assert.ok(problems.every((p) => p.excerpt.length <= 121));
  });

  test('a burst is appended in one write, each case its own whole line', async () => {
    const { store, ws, lines } = casesSetup();
    let appends = 0;
    ws.fs.failOn = (op) => {
      if (op === 'appendRecord') appends++;
      return undefined;
    };
    const drafts = Array.from({ length: 50 }, (_, i) => ({
      content: `learning ${i}`,
      scope: 'global' as const,
      impact: 'low' as const,
      category: 'API' as const,
    }));
    const added = await store.addMany(drafts);
    assert.equal(appends, 1);
    assert.equal(lines().length, 50);
    assert.deepStrictEqual(
      lines().map((l) => (JSON.parse(l) as { id: string }).id),
      added.map((r) => r.case.id),
    );
    await store.updateMany((cases, now) =>
      cases.map((c) => ({
        ...c,
        status: 'archived',
        updatedAt: now,
        metadata: { ...c.metadata, archivedAt: now, archivedReason: 'user' },
      })),
    );
    assert.equal(appends, 2);
    assert.ok((await store.load()).cases.every((c) => c.status === 'archived'));
  });
});
