import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { StorageError } from '../../../src/core/storage/storageError';

let dir: string;
const fs = new NodeWorkspaceFs();

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gw-nodefs-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fresh(name: string): Promise<string> {
  const d = join(dir, name);
  await mkdir(d, { recursive: true });
  return d;
}

describe('read', () => {
  test('returns the bytes, or undefined when the file or its folder is missing', async () => {
    const d = await fresh('read');
    await writeFile(join(d, 'a.txt'), 'hello');
    assert.equal(Buffer.from((await fs.read(join(d, 'a.txt'), 100)) ?? []).toString(), 'hello');
    assert.equal(await fs.read(join(d, 'missing.txt'), 100), undefined);
    assert.equal(await fs.read(join(d, 'no/such/folder.txt'), 100), undefined);
  });

  test('a file over the cap is refused with its name, its size and the cap', async () => {
    const d = await fresh('cap');
    await writeFile(join(d, 'big.jsonl'), Buffer.alloc(3 * 1024 * 1024, 0x61));
    await assert.rejects(fs.read(join(d, 'big.jsonl'), 2 * 1024 * 1024), (err: unknown) => {
      assert.ok(err instanceof StorageError);
      assert.equal(err.code, 'too-large');
      assert.match(err.message, /big\.jsonl/);
      assert.match(err.message, /3 MiB/);
      assert.match(err.message, /cap of 2 MiB/);
      return true;
    });
    // Exactly at the cap is fine.
    assert.equal((await fs.read(join(d, 'big.jsonl'), 3 * 1024 * 1024))?.length, 3 * 1024 * 1024);
  });

  test('a folder or a FIFO is refused instead of read (or hung on)', async () => {
    const d = await fresh('notfile');
    await assert.rejects(fs.read(d, 100), (err: unknown) => err instanceof StorageError && err.code === 'io');
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(d, 'fifo')]);
      await assert.rejects(fs.read(join(d, 'fifo'), 100), /not a regular file/);
    }
  });
});

describe('readNewestLines', () => {
  const text = (r: { data: Uint8Array } | undefined) => Buffer.from(r?.data ?? []).toString();

  test('the whole file when it fits, from line 1', async () => {
    const d = await fresh('newest-fits');
    await writeFile(join(d, 'log.jsonl'), 'a\nb\ntorn');
    const r = await fs.readNewestLines(join(d, 'log.jsonl'), 8);
    assert.equal(text(r), 'a\nb\ntorn');
    assert.equal(r?.firstLine, 1);
    assert.equal(r?.size, 8);
    assert.equal(await fs.readNewestLines(join(d, 'missing.jsonl'), 100), undefined);
  });

  test('of a larger file, the whole lines within the last maxBytes, numbered across many read chunks', async () => {
    const d = await fresh('newest-big');
    // 30,000 lines of 10 bytes: 300 KB, several 64 KiB chunks before the part that is kept.
    const lines = Array.from({ length: 30_000 }, (_, i) => `${String(i + 1).padStart(9, '0')}\n`);
    await writeFile(join(d, 'log.jsonl'), lines.join(''));
    const cut = await fs.readNewestLines(join(d, 'log.jsonl'), 25);
    // 25 bytes from the end start inside line 29,998: it is left out.
    assert.equal(text(cut), '000029999\n000030000\n');
    assert.equal(cut?.firstLine, 29_999);
    assert.equal(cut?.size, 300_000);
    const onBoundary = await fs.readNewestLines(join(d, 'log.jsonl'), 30);
    assert.equal(text(onBoundary), '000029998\n000029999\n000030000\n');
    assert.equal(onBoundary?.firstLine, 29_998);
  });

  test('a last line longer than maxBytes leaves nothing, numbered past the end', async () => {
    const d = await fresh('newest-long');
    await writeFile(join(d, 'log.jsonl'), `a\n${'x'.repeat(100)}\n`);
    const r = await fs.readNewestLines(join(d, 'log.jsonl'), 50);
    assert.equal(text(r), '');
    assert.equal(r?.firstLine, 3);
  });

  test('a folder or a FIFO is refused', async () => {
    const d = await fresh('newest-notfile');
    await assert.rejects(
      fs.readNewestLines(d, 100),
      (err: unknown) => err instanceof StorageError && err.code === 'io',
    );
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(d, 'fifo')]);
      await assert.rejects(fs.readNewestLines(join(d, 'fifo'), 100), /not a regular file/);
    }
  });
});

describe('writeAtomic', () => {
  test('replaces the content, creates folders, and gives mode 0644 whatever the umask', async () => {
    const d = await fresh('write');
    const target = join(d, 'deep/er/file.md');
    const old = process.umask(0o077);
    try {
      await fs.writeAtomic(target, 'first');
      await fs.writeAtomic(target, new TextEncoder().encode('second'));
    } finally {
      process.umask(old);
    }
    assert.equal(await readFile(target, 'utf8'), 'second');
    if (process.platform !== 'win32') assert.equal((await stat(target)).mode & 0o777, 0o644);
    await fs.writeAtomic(join(d, 'secret'), 'x', 0o600);
    if (process.platform !== 'win32') assert.equal((await stat(join(d, 'secret'))).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(join(d, 'deep/er')), ['file.md']);
  });

  test('a failing write leaves the target and the folder as they were, with no temp file', async () => {
    const d = await fresh('fail');
    await mkdir(join(d, 'target-is-a-folder'));
    await writeFile(join(d, 'target-is-a-folder', 'keep'), 'kept');
    await assert.rejects(fs.writeAtomic(join(d, 'target-is-a-folder'), 'data'), (err: unknown) => {
      assert.ok(err instanceof StorageError);
      assert.equal(err.code, 'io');
      assert.match(err.message, /Could not write '.*target-is-a-folder'.*folder is in the way/);
      return true;
    });
    assert.deepEqual(await readdir(d), ['target-is-a-folder']);
    assert.equal(await readFile(join(d, 'target-is-a-folder', 'keep'), 'utf8'), 'kept');
  });

  test('temp files a killed writer left are swept on the next write once over a minute old', async () => {
    const d = await fresh('sweep');
    const old = join(d, '.state.json.tmp-99999-0123abcd');
    const recent = join(d, '.state.json.tmp-99998-89abcdef');
    await writeFile(old, 'half');
    await writeFile(recent, 'in flight');
    const longAgo = new Date(Date.now() - 2 * 60_000);
    await utimes(old, longAgo, longAgo);
    assert.deepEqual(await fs.list(d), [], 'temp files are never listed');
    await new NodeWorkspaceFs().writeAtomic(join(d, 'state.json'), '{}');
    assert.deepEqual((await readdir(d)).sort(), ['.state.json.tmp-99998-89abcdef', 'state.json']);
  });
});

describe('appendRecord', () => {
  test('appends one line per call', async () => {
    const d = await fresh('append');
    const file = join(d, 'sub/log.jsonl');
    await fs.appendRecord(file, '{"a":1}\n');
    await fs.appendRecord(file, '{"a":2}\n');
    assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"a":2}\n');
  });

  test('refuses anything but whole lines; several whole lines go in one write', async () => {
    const d = await fresh('append-lines');
    await assert.rejects(fs.appendRecord(join(d, 'x'), '{"a":1}'), RangeError);
    await assert.rejects(fs.appendRecord(join(d, 'x'), '{"a":1}\n{"a":2}'), RangeError);
    await fs.appendRecord(join(d, 'x'), '{"a":1}\n{"a":2}\n');
    assert.equal(await readFile(join(d, 'x'), 'utf8'), '{"a":1}\n{"a":2}\n');
  });

  test('sets a torn tail aside in .corrupt and starts the record on a fresh line', async () => {
    const d = await fresh('torn');
    const file = join(d, 'log.jsonl');
    await writeFile(file, '{"a":1}\n{"a":2,"b":"cut sh');
    await fs.appendRecord(file, '{"a":3}\n');
    assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"a":3}\n');
    assert.equal(await readFile(`${file}.corrupt`, 'utf8'), '{"a":2,"b":"cut sh\n');
    // A second tear adds a second line to .corrupt.
    await writeFile(file, 'zzz', { flag: 'a' });
    await fs.appendRecord(file, '{"a":4}\n');
    assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"a":3}\n{"a":4}\n');
    assert.equal(await readFile(`${file}.corrupt`, 'utf8'), '{"a":2,"b":"cut sh\nzzz\n');
  });

  test('a torn tail longer than the read chunk is set aside whole', async () => {
    const d = await fresh('torn-long');
    const file = join(d, 'log.jsonl');
    const tail = 'y'.repeat(200_000);
    await writeFile(file, `{"a":1}\n${tail}`);
    await fs.appendRecord(file, '{"a":2}\n');
    assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"a":2}\n');
    assert.equal(await readFile(`${file}.corrupt`, 'utf8'), `${tail}\n`);
  });

  test(
    'never writes the torn tail through a .corrupt symbolic link',
    { skip: process.platform === 'win32' },
    async () => {
      const d = await fresh('corrupt-link');
      const outside = join(d, 'outside.txt');
      await writeFile(outside, 'precious');
      const file = join(d, 'log.jsonl');
      await writeFile(file, '{"a":1}\nrm -rf ~');
      await symlink(outside, `${file}.corrupt`);
      await assert.rejects(fs.appendRecord(file, '{"a":2}\n'), (err: unknown) => {
        // The error names the .corrupt link, which is what to remove, not the log, which is fine.
        assert.ok(err instanceof StorageError);
        assert.equal(err.path, `${file}.corrupt`);
        assert.equal(
          err.message,
          `Could not set aside the torn last line of '${file}' in '${file}.corrupt' (ELOOP). A symbolic link is in the way; remove it.`,
        );
        return true;
      });
      assert.equal(await readFile(outside, 'utf8'), 'precious');
      assert.equal(await readFile(file, 'utf8'), '{"a":1}\nrm -rf ~', 'nothing is cut when it cannot be set aside');
    },
  );
});

describe('list, info, realpath, remove', () => {
  test('work on files, folders and links', async () => {
    const d = await fresh('misc');
    await mkdir(join(d, 'folder'));
    await writeFile(join(d, 'b.txt'), '12345');
    await writeFile(join(d, 'a.txt'), '');
    await symlink(join(d, 'folder'), join(d, 'link'));
    assert.deepEqual(await fs.list(d), ['a.txt', 'b.txt', 'folder', 'link']);
    assert.deepEqual(await fs.list(join(d, 'missing')), []);
    assert.equal((await fs.info(join(d, 'b.txt')))?.kind, 'file');
    assert.equal((await fs.info(join(d, 'b.txt')))?.size, 5);
    assert.equal((await fs.info(join(d, 'folder')))?.kind, 'directory');
    assert.equal((await fs.info(join(d, 'link')))?.kind, 'symlink');
    assert.equal(await fs.info(join(d, 'missing')), undefined);
    assert.equal(await fs.info(join(d, 'b.txt', 'below-a-file')), undefined);
    assert.equal(await fs.realpath(join(d, 'link')), await fs.realpath(join(d, 'folder')));
    await assert.rejects(fs.realpath(join(d, 'missing')), StorageError);
    await fs.remove(join(d, 'link'));
    assert.equal((await fs.info(join(d, 'folder')))?.kind, 'directory', 'removing a link keeps its target');
    await fs.remove(join(d, 'folder'));
    await fs.remove(join(d, 'missing'));
    assert.deepEqual(await fs.list(d), ['a.txt', 'b.txt']);
  });
});
