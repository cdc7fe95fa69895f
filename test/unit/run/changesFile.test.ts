import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ChangeLog,
  decodeBefore,
  encodeBefore,
  parseChangesFile,
  readChanges,
} from '../../../src/core/run/changesFile';
import { RUN_FILES, runFile } from '../../../src/core/plan/layout';
import { StorageError } from '../../../src/core/storage/storageError';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { sha256 } from './runFixtures';

const ID = '20250102-030405-builder-0a1f';
const REL = runFile(ID, RUN_FILES.changes);
const utf8 = (text: string) => new TextEncoder().encode(text);

function setup() {
  const ws = new MemoryWorkspace();
  const onDisk = () =>
    JSON.parse(ws.fs.text(ws.path(REL)) ?? 'null') as { version: number; files: Record<string, unknown>[] } | null;
  return { ws, log: new ChangeLog(ws.store, ID, sha256), onDisk };
}

describe('encodeBefore', () => {
  test('keeps UTF-8 as text, a BOM included', () => {
    for (const text of ['', 'hello\n', 'héllo — ✓ 😀', '\uFEFFwith a BOM']) {
      const bytes = utf8(text);
      const encoded = encodeBefore(bytes);
      assert.deepEqual(encoded, { encoding: 'utf8', data: text });
      assert.deepEqual(decodeBefore(encoded), bytes);
    }
  });

  test('keeps other bytes as base64, the same base64 Node writes, and decodes them back', () => {
    for (const bytes of [
      [0xff],
      [0xc3],
      [0x80, 0x00],
      [0xed, 0xa0, 0x80],
      [0, 1, 2, 0xfe],
      Array.from({ length: 257 }, (_, i) => 255 - (i % 256)),
    ]) {
      const data = Uint8Array.from(bytes);
      const encoded = encodeBefore(data);
      assert.deepEqual(encoded, { encoding: 'base64', data: Buffer.from(data).toString('base64') });
      assert.deepEqual(decodeBefore(encoded), data);
    }
  });

  test('decodes strict base64 only', () => {
    for (const data of ['QQ', 'QQ=', 'Q===', 'QUJD\n', 'QU JD', 'QUJD!A==', '=QUJ'])
      assert.equal(decodeBefore({ encoding: 'base64', data }), undefined, data);
    assert.deepEqual(decodeBefore({ encoding: 'base64', data: '' }), new Uint8Array());
    assert.deepEqual(decodeBefore({ encoding: 'base64', data: 'QUI=' }), utf8('AB'));
  });
});

describe('ChangeLog', () => {
  test('saves the before of a file before it is written, then its after', async () => {
    const { log, onDisk } = setup();
    await log.beforeChange('src/a.ts', utf8('old\n'));
    assert.deepEqual(onDisk(), {
      version: 1,
      files: [
        {
          path: 'src/a.ts',
          before: { encoding: 'utf8', data: 'old\n' },
          beforeSha256: sha256(utf8('old\n')),
          afterSha256: sha256(utf8('old\n')),
        },
      ],
    });
    await log.afterChange('src/a.ts', utf8('new\n'));
    assert.equal(onDisk()?.files[0]?.['afterSha256'], sha256(utf8('new\n')));
  });

  test('records a created file with no before, and keeps only the first before of a path', async () => {
    const { log } = setup();
    await log.beforeChange('new.txt', undefined);
    await log.afterChange('new.txt', utf8('one'));
    await log.beforeChange('new.txt', utf8('one'));
    await log.afterChange('new.txt', utf8('two'));
    await log.beforeChange('bin.dat', Uint8Array.from([0xff, 0xfe]));
    await log.afterChange('bin.dat', utf8('text now'));
    assert.deepEqual(log.entries(), [
      { path: 'new.txt', before: null, beforeSha256: null, afterSha256: sha256(utf8('two')) },
      {
        path: 'bin.dat',
        before: { encoding: 'base64', data: '//4=' },
        beforeSha256: sha256(Uint8Array.from([0xff, 0xfe])),
        afterSha256: sha256(utf8('text now')),
      },
    ]);
  });

  test('round-trips through load, as a resumed run reads it', async () => {
    const { ws, log } = setup();
    await log.beforeChange('a.txt', utf8('a'));
    await log.afterChange('a.txt', utf8('b'));
    await log.beforeChange('c.txt', undefined);
    const again = new ChangeLog(ws.store, ID, sha256);
    await again.load();
    assert.deepEqual(again.entries(), log.entries());
    await again.beforeChange('a.txt', utf8('b'));
    assert.deepEqual(again.entries()[0]?.before, { encoding: 'utf8', data: 'a' });
  });

  test('a missing changes.json is no changes', async () => {
    const { log } = setup();
    await log.load();
    assert.deepEqual(log.entries(), []);
  });

  test('a damaged changes.json is not loaded, and so not overwritten', async () => {
    const { ws, log } = setup();
    ws.fs.writeRaw(ws.path(REL), '{"version":1,"files":[');
    await assert.rejects(
      log.load(),
      (err: unknown) =>
        err instanceof StorageError &&
        err.code === 'corrupt' &&
        /changes\.json' is damaged: it is not valid JSON/.test(err.message),
    );
  });

  test('saves of changes made at once land in order, none lost', async () => {
    const { ws, log } = setup();
    await Promise.all(Array.from({ length: 20 }, (_, i) => log.beforeChange(`f${i}.txt`, utf8(String(i)))));
    const read = await readChanges(ws.store, ID, sha256);
    assert.ok(read.ok);
    assert.equal(read.changes.files.length, 20);
  });

  test('a save that fails leaves the log as it is on disk', async () => {
    const { ws, log } = setup();
    await log.beforeChange('a.txt', utf8('a'));
    ws.fs.failOn = (op) => (op === 'writeAtomic' ? Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) : undefined);
    await assert.rejects(log.beforeChange('b.txt', utf8('b')), StorageError);
    ws.fs.failOn = undefined;
    assert.deepEqual(
      log.entries().map((e) => e.path),
      ['a.txt'],
    );
  });

  test('refuses an after without a before, and paths that are not plain', async () => {
    const { log } = setup();
    await assert.rejects(log.afterChange('a.txt', utf8('x')), /No before was recorded/);
    for (const path of ['../x', '/etc/passwd', 'a\\b', ''])
      await assert.rejects(log.beforeChange(path, undefined), RangeError);
  });
});

describe('parseChangesFile', () => {
  const entry = (text: string, after = 'after') => ({
    path: 'a.txt',
    before: { encoding: 'utf8', data: text },
    beforeSha256: sha256(utf8(text)),
    afterSha256: sha256(utf8(after)),
  });
  const parse = (files: unknown[]) => parseChangesFile({ version: 1, files }, sha256);

  test('takes what ChangeLog writes', () => {
    const created = { path: 'b/c.txt', before: null, beforeSha256: null, afterSha256: sha256(utf8('x')) };
    assert.deepEqual(parse([entry('one'), created]), {
      ok: true,
      value: { version: 1, files: [entry('one'), created] },
    });
  });

  const hostile: [string, unknown[], RegExp][] = [
    [
      'a before whose hash does not match',
      [{ ...entry('one'), before: { encoding: 'utf8', data: 'tampered' } }],
      /does not match its beforeSha256/,
    ],
    [
      'base64 that does not decode',
      [{ ...entry('one'), before: { encoding: 'base64', data: 'not base64!' } }],
      /not valid base64/,
    ],
    ['an unknown encoding', [{ ...entry('one'), before: { encoding: 'hex', data: '00' } }], /before is not null or/],
    ['a before null with a hash', [{ ...entry('one'), before: null }], /beforeSha256 must be null/],
    ['a before without a hash', [{ ...entry('one'), beforeSha256: null }], /beforeSha256 is not a SHA-256/],
    ['an after that is not a hash', [{ ...entry('one'), afterSha256: 'ABC' }], /afterSha256/],
    ['a path that climbs', [{ ...entry('one'), path: '../../.bashrc' }], /has a '\.\.' segment/],
    ['an absolute path', [{ ...entry('one'), path: '/etc/passwd' }], /absolute/],
    ['a path listed twice', [entry('one'), entry('two')], /listed twice/],
    ['an entry that is not an object', ['a.txt'], /files\[0\] is not an object/],
  ];
  for (const [name, files, reason] of hostile) {
    test(`refuses ${name}`, () => {
      const parsed = parse(files);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { reason: string }).reason, reason);
    });
  }

  test('refuses another version or a files field that is not a list', () => {
    assert.equal(parseChangesFile({ version: 2, files: [] }, sha256).ok, false);
    assert.equal(parseChangesFile({ version: 1, files: {} }, sha256).ok, false);
  });

  test('readChanges names the file and says what is wrong', async () => {
    const { ws } = setup();
    ws.fs.writeRaw(
      ws.path(REL),
      JSON.stringify({ version: 1, files: [{ ...entry('one'), before: { encoding: 'utf8', data: 'evil' } }] }),
    );
    const read = await readChanges(ws.store, ID, sha256);
    assert.equal(read.ok, false);
    assert.match(
      (read as { problem: string }).problem,
      /^'\.groundwork\/runs\/20250102-030405-builder-0a1f\/changes\.json' is damaged: files\[0\]\.before does not match/,
    );
  });
});
