import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Journal, JournalInputError } from '../../../src/core/journal/journal';
import {
  DESCRIPTION_MAX_BYTES,
  TITLE_MAX_CHARS,
  checkJournalInput,
  parseJournalEntry,
} from '../../../src/core/journal/journalEntry';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { JOURNAL_FILE } from '../../../src/core/plan/layout';

const T0 = Date.UTC(2025, 0, 31, 9, 15, 0);

/** A journal on the real JSONL log over an in-memory workspace; `lines()` is the file as it is. */
function setup(lines?: string[]) {
  const ws = new MemoryWorkspace();
  if (lines) ws.plant(JOURNAL_FILE, lines);
  const clock = new FakeClock(T0);
  const journal = new Journal(ws.store.log(JOURNAL_FILE, parseJournalEntry), clock);
  return { ws, clock, journal, lines: () => ws.lines(JOURNAL_FILE) };
}

describe('Journal (append and load)', () => {
  test('append then load round trips', async () => {
    const { journal } = setup();
    const stored = await journal.append({ title: 'Cache is per window', description: 'Two windows do not share it.' });
    assert.deepEqual(stored, {
      timestamp: '2025-01-31T09:15:00.000Z',
      title: 'Cache is per window',
      description: 'Two windows do not share it.',
    });
    assert.deepEqual(await journal.load(), { records: [stored], problems: [] });
  });

  test('a missing file loads as empty', async () => {
    const { journal, lines } = setup();
    assert.equal(lines(), undefined);
    assert.deepEqual(await journal.load(), { records: [], problems: [] });
  });

  test('lenient parsing skips corrupt lines and keeps the valid ones around them', async () => {
    const good = (n: number) =>
      JSON.stringify({ timestamp: '2025-01-31T09:15:00.000Z', title: `t${n}`, description: `d${n}` });
    const { journal } = setup([
      good(1),
      '{"timestamp": "2025-01-31T09',
      good(3),
      '[1,2]',
      good(5),
      '{"title":"no time","description":""}',
    ]);
    const { records, problems } = await journal.load();
    assert.deepEqual(
      records.map((r) => r.title),
      ['t1', 't3', 't5'],
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.reason.split(' (')[0]]),
      [
        [2, 'not valid JSON'],
        [4, 'not a JSON object'],
        [6, 'missing field timestamp'],
      ],
    );
  });

  test('multiple appends produce one JSON line each, in order', async () => {
    const { journal, ws, clock } = setup();
    await journal.append({ title: 'first', description: 'a' });
    clock.advance(1500);
    await journal.append({ title: 'second', description: 'b', scope: 'global' });
    clock.advance(1);
    await journal.append({ title: 'third', description: 'c' });
    const text = ws.fs.text(ws.path(JOURNAL_FILE));
    assert.equal(
      text,
      '{"timestamp":"2025-01-31T09:15:00.000Z","title":"first","description":"a"}\n' +
        '{"timestamp":"2025-01-31T09:15:01.500Z","title":"second","description":"b","scope":"global"}\n' +
        '{"timestamp":"2025-01-31T09:15:01.501Z","title":"third","description":"c"}\n',
    );
    assert.deepEqual(
      (await journal.load()).records.map((r) => r.title),
      ['first', 'second', 'third'],
    );
  });
});

describe('Journal validation', () => {
  test('optional fields round trip and absent ones stay absent', async () => {
    const { journal } = setup();
    const full = await journal.append({
      title: 't',
      description: 'd',
      scope: 'local',
      agent: 'architect',
      task: 'phase-2',
    });
    assert.deepEqual(full, {
      timestamp: '2025-01-31T09:15:00.000Z',
      title: 't',
      description: 'd',
      scope: 'local',
      agent: 'architect',
      task: 'phase-2',
    });
    const bare = await journal.append({ title: 't2', description: '' });
    assert.equal('scope' in bare || 'agent' in bare || 'task' in bare, false);
    assert.deepEqual((await journal.load()).records, [full, bare]);
  });

  test('explicitly undefined optional fields are treated as absent', async () => {
    const { journal, lines } = setup();
    await journal.append({ title: 't', description: 'd', scope: undefined, agent: undefined });
    assert.equal(lines()?.[0], '{"timestamp":"2025-01-31T09:15:00.000Z","title":"t","description":"d"}');
  });

  const rejected: [string, unknown, RegExp][] = [
    ['not an object', 'hello', /must be an object/],
    ['missing title', { description: 'd' }, /title is required/],
    ['empty title', { title: '', description: 'd' }, /title is empty/],
    ['blank title', { title: ' \n\t', description: 'd' }, /title is empty/],
    ['a title of one zero-width space', { title: '\u200b', description: 'd' }, /title is only invisible characters/],
    [
      'a title of direction marks and joiners',
      { title: '\u202e\u2066 \u200d\ufeff', description: 'd' },
      /title is only invisible characters/,
    ],
    [
      'an agent of invisible characters',
      { title: 't', description: 'd', agent: '\u200b\u200c' },
      /agent is only invisible characters/,
    ],
    ['numeric title', { title: 42, description: 'd' }, /title must be text \(got number 42\)/],
    ['missing description', { title: 't' }, /description is required/],
    ['null description', { title: 't', description: null }, /description must be text \(got null\)/],
    ['bad scope', { title: 't', description: 'd', scope: 'team' }, /scope must be one of local, global \(got "team"\)/],
    ['empty agent', { title: 't', description: 'd', agent: '' }, /agent is empty; leave it out/],
    ['non-text task', { title: 't', description: 'd', task: ['x'] }, /task must be text \(got a list\)/],
    [
      'an agent name over 200 characters',
      { title: 't', description: 'd', agent: 'a'.repeat(201) },
      /agent is 201 characters; the limit is 200/,
    ],
  ];
  for (const [name, input, message] of rejected) {
    test(`refuses ${name}`, async () => {
      const checked = checkJournalInput(input);
      assert.equal(checked.ok, false);
      const { journal, lines } = setup();
      await assert.rejects(journal.append(input as never), (e: unknown) => {
        assert.ok(e instanceof JournalInputError);
        assert.match(e.message, message);
        return true;
      });
      assert.equal(lines(), undefined, 'nothing written');
    });
  }

  test('title cap counts characters, not UTF-16 units', async () => {
    const { journal } = setup();
    await journal.append({ title: '🦀'.repeat(TITLE_MAX_CHARS), description: '' });
    await assert.rejects(
      journal.append({ title: 'x'.repeat(TITLE_MAX_CHARS + 1), description: '' }),
      /title is 201 characters; the limit is 200\. Keep the title to one short summary and move the detail into the description/,
    );
  });

  test('agent and task caps count characters too', async () => {
    const { journal } = setup();
    const stored = await journal.append({
      title: 't',
      description: '',
      agent: '🦀'.repeat(200),
      task: 'т'.repeat(200),
    });
    assert.deepEqual((await journal.load()).records, [stored]);
  });

  test('a huge description is refused with what to do', async () => {
    const { journal, lines } = setup();
    await journal.append({ title: 'at the cap', description: 'x'.repeat(DESCRIPTION_MAX_BYTES) });
    await assert.rejects(journal.append({ title: 'huge', description: 'x'.repeat(1_000_000) }), (e: unknown) => {
      assert.ok(e instanceof JournalInputError);
      assert.match(e.message, /description is 1000000 bytes; the limit is 8192 bytes \(8 KB\)/);
      assert.match(e.message, /write the details to a file in the workspace and give its path/);
      return true;
    });
    // Bytes, not characters: 2731 three-byte characters are 8193 bytes.
    await assert.rejects(journal.append({ title: 'cjk', description: '界'.repeat(2731) }), /8193 bytes/);
    assert.equal(lines()?.length, 1);
  });

  test('unicode, newlines, quotes and control characters stay on one escaped line', async () => {
    const { journal, lines } = setup();
    const title = 'Ünïcødé "quoted" \u001b[31mred\u001b[0m 🦀';
    const description = 'line one\nline two\r\n\ttabbed\u2028sep\u0000nul \\ backslash';
    await journal.append({ title, description });
    assert.equal(lines()?.length, 1);
    const line = lines()?.[0] ?? '';
    assert.doesNotMatch(line, /[\n\r\u0000\u001b]/);
    assert.match(line, /\\u001b\[31m/);
    const { records } = await journal.load();
    assert.equal(records[0]?.title, title);
    assert.equal(records[0]?.description, description);
  });
});

describe('parseJournalEntry', () => {
  const base = { timestamp: '2025-01-31T09:15:00.000Z', title: 't', description: 'd' };

  test('ignores unknown fields and does not carry them', () => {
    const parsed = parseJournalEntry({ ...base, severity: 'high', scope: 'global' });
    assert.deepEqual(parsed, { ok: true, record: { ...base, scope: 'global' } });
  });

  test('accepts timestamps without or with more fractional digits', () => {
    assert.equal(parseJournalEntry({ ...base, timestamp: '2025-01-31T09:15:00Z' }).ok, true);
    assert.equal(parseJournalEntry({ ...base, timestamp: '2025-01-31T09:15:00.123456Z' }).ok, true);
  });

  test('refuses timestamps that are not ISO-8601 UTC', () => {
    for (const timestamp of ['yesterday', '2025-01-31 09:15:00', '2025-01-31T09:15:00+02:00', '2025-13-45T99:99:99Z']) {
      const parsed = parseJournalEntry({ ...base, timestamp });
      assert.equal(parsed.ok, false, timestamp);
      if (!parsed.ok) assert.match(parsed.reason, /timestamp is not an ISO-8601 UTC time/);
    }
    assert.deepEqual(parseJournalEntry({ ...base, timestamp: 17 }), { ok: false, reason: 'missing field timestamp' });
  });

  test('applies the write rules to read lines, so an oversized line is reported, not cut', () => {
    const parsed = parseJournalEntry({ ...base, description: 'x'.repeat(DESCRIPTION_MAX_BYTES + 1) });
    assert.equal(parsed.ok, false);
  });
});
