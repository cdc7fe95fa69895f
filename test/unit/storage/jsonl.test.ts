import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonlLog, TORN_LINE_REASON, parseJsonl, serializeRecord } from '../../../src/core/storage/jsonl';
import type { RecordParser } from '../../../src/core/storage/recordLog';
import { StorageError } from '../../../src/core/storage/storageError';
import { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';

interface Item {
  n: number;
  text: string;
}

const parseItem: RecordParser<Item> = (value) => {
  if (typeof value !== 'object' || value === null) return { ok: false, reason: 'not an object' };
  const v = value as Record<string, unknown>;
  if (typeof v.n !== 'number') return { ok: false, reason: 'missing field n' };
  if (typeof v.text !== 'string') return { ok: false, reason: 'missing field text' };
  return { ok: true, record: { n: v.n, text: v.text } };
};

const PATH = '/ws/.groundwork/items.jsonl';
const LOCK = '/ws/.groundwork/.lock';

function line(n: number, text = `item ${n}`): string {
  return serializeRecord({ n, text });
}

describe('parseJsonl', () => {
  test('reads every record of a clean file', () => {
    const result = parseJsonl(line(1) + line(2) + line(3), parseItem);
    assert.deepEqual(
      result.records.map((r) => r.n),
      [1, 2, 3],
    );
    assert.deepEqual(result.problems, []);
    assert.equal(result.tornTail, undefined);
  });

  test('keeps the valid lines around corrupt ones and reports each with its line number', () => {
    const text = `${line(1)}{"n": 2, "text": "cut\n${line(3)}[1,2]\n{"text":"no n"}\n${line(6)}`;
    const result = parseJsonl(text, parseItem);
    assert.deepEqual(
      result.records.map((r) => r.n),
      [1, 3, 6],
    );
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.reason.split(' (')[0]]),
      [
        [2, 'not valid JSON'],
        [4, 'missing field n'],
        [5, 'missing field n'],
      ],
    );
    assert.equal(result.problems[0]?.excerpt, '{"n": 2, "text": "cut');
  });

  test('ignores blank lines silently, a BOM, and CRLF line ends', () => {
    const text = `\uFEFF${line(1)}\n   \n${line(2).replace('\n', '\r\n')}\n`;
    const result = parseJsonl(text, parseItem);
    assert.deepEqual(
      result.records.map((r) => r.n),
      [1, 2],
    );
    assert.deepEqual(result.problems, []);
  });

  test('a last line without a newline is a torn line, never a record, even if it parses', () => {
    const tail = line(2).trimEnd();
    const result = parseJsonl(line(1) + tail, parseItem);
    assert.deepEqual(
      result.records.map((r) => r.n),
      [1],
    );
    assert.deepEqual(result.problems, [{ line: 2, reason: TORN_LINE_REASON, excerpt: tail }]);
    assert.equal(result.tornTail, tail);
  });

  test('a parser that throws costs only its line', () => {
    const throwing: RecordParser<Item> = (value) => {
      if ((value as Item).n === 2) throw new Error('boom');
      return parseItem(value);
    };
    const result = parseJsonl(line(1) + line(2) + line(3), throwing);
    assert.deepEqual(
      result.records.map((r) => r.n),
      [1, 3],
    );
    assert.match(result.problems[0]?.reason ?? '', /boom/);
  });

  test('caps the excerpt of a huge line', () => {
    const result = parseJsonl(`${'x'.repeat(100_000)}\n`, parseItem);
    assert.ok((result.problems[0]?.excerpt.length ?? 0) < 200);
  });

  test('a file cut at every byte offset yields exactly the records whose newline made it', () => {
    const text = [
      line(1),
      line(2, 'ünïcödé ✓ and "quotes" and \\ and\nnewline'),
      '\n',
      line(3),
      'not json\n',
      line(4, '🙂'.repeat(5)),
    ].join('');
    const bytes = new TextEncoder().encode(text);
    const decoder = new TextDecoder();
    const endOfRecord: [number, number][] = [];
    let offset = 0;
    for (const l of text.split('\n').slice(0, -1)) {
      offset += new TextEncoder().encode(`${l}\n`).length;
      const parsed = parseItem(tryJson(l));
      if (parsed.ok) endOfRecord.push([offset, parsed.record.n]);
    }
    assert.equal(endOfRecord.length, 4);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const result = parseJsonl(decoder.decode(bytes.subarray(0, cut)), parseItem);
      const expected = endOfRecord.filter(([end]) => end <= cut).map(([, n]) => n);
      assert.deepEqual(
        result.records.map((r) => r.n),
        expected,
        `cut at ${cut}`,
      );
      const endsAtNewline = cut === 0 || bytes[cut - 1] === 0x0a;
      assert.equal(result.tornTail === undefined, endsAtNewline, `torn tail at ${cut}`);
    }
  });
});

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('serializeRecord', () => {
  test('is one line whatever the strings hold', () => {
    const out = serializeRecord({ text: 'a\nb\r\nc\u2028d' });
    assert.equal(out.indexOf('\n'), out.length - 1);
    assert.deepEqual(JSON.parse(out), { text: 'a\nb\r\nc\u2028d' });
  });

  test('refuses what JSON cannot hold', () => {
    assert.throws(() => serializeRecord(undefined), TypeError);
  });
});

describe('JsonlLog', () => {
  function setup(maxBytes = 1024 * 1024) {
    const fs = new MemoryWorkspaceFs();
    const log = new JsonlLog(fs, PATH, parseItem, { maxBytes, lockPath: LOCK, displayPath: '.groundwork/items.jsonl' });
    return { fs, log };
  }

  test('appends records that read back in order', async () => {
    const { log } = setup();
    assert.deepEqual(await log.readAll(), { records: [], problems: [] });
    for (let n = 1; n <= 3; n++) await log.append({ n, text: `t${n}` });
    const result = await log.readAll();
    assert.deepEqual(result.records, [
      { n: 1, text: 't1' },
      { n: 2, text: 't2' },
      { n: 3, text: 't3' },
    ]);
  });

  test('a torn last line is set aside in .corrupt before the next append, which starts a fresh line', async () => {
    const { fs, log } = setup();
    fs.writeRaw(PATH, `${line(1)}{"n":2,"te`);
    const before = await log.readAll();
    assert.deepEqual(
      before.records.map((r) => r.n),
      [1],
    );
    assert.equal(before.problems[0]?.reason, TORN_LINE_REASON);

    await log.append({ n: 3, text: 'after' });
    assert.equal(fs.text(PATH), `${line(1)}${line(3, 'after')}`);
    assert.equal(fs.text(`${PATH}.corrupt`), '{"n":2,"te\n');
    const after = await log.readAll();
    assert.deepEqual(
      after.records.map((r) => r.n),
      [1, 3],
    );
    assert.deepEqual(after.problems, []);
  });

  test('a file that is all torn tail is set aside whole', async () => {
    const { fs, log } = setup();
    fs.writeRaw(PATH, 'garbage without newline');
    await log.append({ n: 1, text: 'x' });
    assert.equal(fs.text(PATH), line(1, 'x'));
    assert.equal(fs.text(`${PATH}.corrupt`), 'garbage without newline\n');
  });

  test('a corrupt middle line stays and is reported; the lines around it are read', async () => {
    const { fs, log } = setup();
    fs.writeRaw(PATH, `${line(1)}{oops}\n${line(3)}`);
    await log.append({ n: 4, text: 'item 4' });
    const result = await log.readAll();
    assert.deepEqual(
      result.records.map((r) => r.n),
      [1, 3, 4],
    );
    assert.deepEqual(
      result.problems.map((p) => p.line),
      [2],
    );
    assert.equal(fs.text(`${PATH}.corrupt`), undefined);
  });

  test('appends under the lock', async () => {
    const { fs, log } = setup();
    let lockedDuringAppend = false;
    fs.failOn = (op) => {
      if (op === 'appendRecord') lockedDuringAppend = fs.holdsLock(LOCK);
      return undefined;
    };
    await log.append({ n: 1, text: 'x' });
    assert.equal(lockedDuringAppend, true);
  });

  test('refuses to append a record its own parser would skip', async () => {
    const { fs, log } = setup();
    await assert.rejects(
      log.append({ n: 'one' } as unknown as Item),
      (err: unknown) =>
        err instanceof StorageError && /'\.groundwork\/items\.jsonl'.*missing field n/.test(err.message),
    );
    assert.equal(fs.text(PATH), undefined);
  });

  describe('a log over its read cap', () => {
    // Ten records of 25 bytes (items 1..9, then 10 with a longer text): 251 bytes in all.
    const lines = Array.from({ length: 10 }, (_, i) => line(i + 1, i === 9 ? 'item 10' : `item ${i + 1}`));
    const text = lines.join('');
    /** The records whose line lies wholly within the last `cap` bytes. */
    const newest = (cap: number) => {
      let offset = 0;
      const kept: number[] = [];
      lines.forEach((l, i) => {
        if (offset >= text.length - cap) kept.push(i + 1);
        offset += l.length;
      });
      return kept;
    };

    test('is read, not refused: the newest lines, and one problem first that says what was left out', async () => {
      const { fs, log } = setup(100);
      fs.writeRaw(PATH, text);
      const result = await log.readAll();
      const kept = newest(100);
      assert.ok(kept.length > 0 && kept.length < 10);
      assert.deepEqual(
        result.records.map((r) => r.n),
        kept,
      );
      const unread = (kept[0] ?? 0) - 1;
      assert.deepEqual(result.problems, [
        {
          line: 1,
          reason: `the file is ${text.length} bytes; only its newest 100 bytes were read (its first ${unread} lines are kept in the file but not shown)`,
          excerpt: '',
          unreadLines: unread,
        },
      ]);
    });

    test('a cut that falls on a line start loses no line, and the lines read keep their numbers', async () => {
      const head = lines.slice(0, 7).join('');
      const file = `${head}${lines[7]}{oops}\n${lines[9]}{"n":11`;
      const cap = file.length - head.length;
      const { fs, log } = setup(cap);
      fs.writeRaw(PATH, file);
      const result = await log.readAll();
      assert.deepEqual(
        result.records.map((r) => r.n),
        [8, 10],
      );
      assert.deepEqual(
        result.problems.map((p) => [p.line, p.unreadLines, p.reason.split(' (')[0]]),
        [
          [1, 7, `the file is ${file.length} bytes; only its newest ${cap} bytes were read`],
          [9, undefined, 'not valid JSON'],
          [11, undefined, TORN_LINE_REASON.split(' (')[0]],
        ],
      );
      assert.equal(result.tornTail, '{"n":11');
    });

    test('a newest line longer than the cap leaves nothing to show, and says so', async () => {
      const { fs, log } = setup(64);
      fs.writeRaw(PATH, lines[0] + line(2, 'x'.repeat(200)));
      const result = await log.readAll();
      assert.deepEqual(result.records, []);
      assert.deepEqual(
        result.problems.map((p) => [p.line, p.unreadLines]),
        [[1, 2]],
      );
      assert.match(result.problems[0]?.reason ?? '', /its first 2 lines are kept in the file but not shown/);
    });

    test('appends go on as before', async () => {
      const { fs, log } = setup(100);
      fs.writeRaw(PATH, text);
      await log.append({ n: 11, text: 'new' });
      assert.equal((await log.readAll()).records.at(-1)?.n, 11);
    });
  });

  test('I/O failures are errors, not empty logs', async () => {
    const { fs, log } = setup();
    fs.writeRaw(PATH, line(1));
    fs.failOn = (op) => (op === 'readNewestLines' ? Object.assign(new Error('EACCES'), { code: 'EACCES' }) : undefined);
    await assert.rejects(
      log.readAll(),
      (err: unknown) => err instanceof StorageError && err.code === 'io' && /permissions/.test(err.message),
    );
  });
});
