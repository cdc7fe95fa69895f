// A record appended to something that is not a regular file (a FIFO planted in a cloned
// repository, a socket, a folder, a device behind a link) used to be reported as written while
// the FIFO swallowed it. Appends refuse what reads refuse, saying what the path is.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { link, lstat, mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { StorageError } from '../../../src/core/storage/storageError';
import { cliHere } from '../cli/cliHarness';

const posix = process.platform !== 'win32';
let dir: string;
let n = 0;
const fs = new NodeWorkspaceFs();
const servers: Server[] = [];
const fifos: string[] = [];

/** A FIFO at `path`. */
function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
  fifos.push(path);
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gw-special-'));
});
after(async () => {
  // A writer that opened a FIFO without O_NONBLOCK waits for a reader: be one, so it ends.
  for (const fifo of fifos)
    await (await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined))?.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function fresh(): Promise<string> {
  const d = join(dir, `case-${++n}`);
  await mkdir(d, { recursive: true });
  return d;
}

function refusedAs(kind: RegExp, verb: string) {
  return (err: unknown) => {
    assert.ok(err instanceof StorageError, String(err));
    assert.equal(err.code, 'io');
    assert.match(err.message, new RegExp(`^Refused to ${verb} '.*': it is `));
    assert.match(err.message, kind);
    assert.match(err.message, /, not a regular file\. Move it away\.$/);
    return true;
  };
}

describe('appendRecord on what is not a regular file', () => {
  test('a FIFO is refused, named as one, and stays a FIFO', { skip: !posix, timeout: 20_000 }, async () => {
    const fifo = join(await fresh(), 'discoveries.jsonl');
    mkfifo(fifo);
    await assert.rejects(fs.appendRecord(fifo, '{"a":1}\n'), refusedAs(/it is a FIFO \(named pipe\)/, 'append to'));
    assert.ok((await lstat(fifo)).isFIFO());
    // Reads say the same, in the same words.
    await assert.rejects(fs.read(fifo, 100), refusedAs(/it is a FIFO \(named pipe\)/, 'read'));
  });

  test(
    'a socket, a folder and a device behind a link are refused by what they are',
    { skip: !posix, timeout: 20_000 },
    async () => {
      const d = await fresh();
      const socket = join(d, 'socket.jsonl');
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      await assert.rejects(fs.appendRecord(socket, '{"a":1}\n'), refusedAs(/it is a socket/, 'append to'));
      await assert.rejects(fs.read(socket, 100), refusedAs(/it is a socket/, 'read'));

      const folder = join(d, 'folder.jsonl');
      await mkdir(folder);
      await assert.rejects(fs.appendRecord(folder, '{"a":1}\n'), refusedAs(/it is a folder/, 'append to'));
      await assert.rejects(fs.read(folder, 100), refusedAs(/it is a folder/, 'read'));

      // Links are followed as reads follow them (the store checks where they lead beforehand).
      const device = join(d, 'device.jsonl');
      await symlink('/dev/null', device);
      await assert.rejects(fs.appendRecord(device, '{"a":1}\n'), refusedAs(/it is a character device/, 'append to'));
      await assert.rejects(fs.read(device, 100), refusedAs(/it is a character device/, 'read'));
    },
  );

  test(
    'a FIFO where a torn tail is set aside is refused without hanging, and nothing is cut',
    { skip: !posix, timeout: 20_000 },
    async () => {
      const file = join(await fresh(), 'log.jsonl');
      await writeFile(file, '{"a":1}\n{"a":');
      mkfifo(`${file}.corrupt`);
      await assert.rejects(fs.appendRecord(file, '{"a":2}\n'), (err: unknown) => {
        assert.ok(err instanceof StorageError, String(err));
        assert.equal(err.path, `${file}.corrupt`);
        assert.match(
          err.message,
          /^Refused to set aside the torn last line of '.*log\.jsonl' in '.*log\.jsonl\.corrupt': it is a FIFO \(named pipe\)/,
        );
        return true;
      });
      assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"a":');
    },
  );

  test('a regular file behind a link is still appended to', { skip: !posix }, async () => {
    const d = await fresh();
    await fs.appendRecord(join(d, 'real.jsonl'), '{"a":1}\n');
    await symlink('real.jsonl', join(d, 'link.jsonl'));
    await fs.appendRecord(join(d, 'link.jsonl'), '{"a":2}\n');
    assert.equal(Buffer.from((await fs.read(join(d, 'real.jsonl'), 100)) ?? []).toString(), '{"a":1}\n{"a":2}\n');
  });
});

describe('groundwork journal append', () => {
  test(
    'on a journal that is a FIFO: exit 1 with what the path is, without hanging',
    { skip: !posix, timeout: 20_000 },
    async () => {
      const ws = await fresh();
      await mkdir(join(ws, '.groundwork'));
      mkfifo(join(ws, '.groundwork/discoveries.jsonl'));
      const { code, stdout, stderr } = await cliHere(
        ['journal', 'append', '--title', 'Lost?', '--description', 'Not into a pipe'],
        createNodeDeps(),
        { cwd: ws },
      );
      assert.equal(code, 1, stdout);
      assert.equal(stdout, '');
      assert.equal(
        stderr,
        "groundwork: Refused to append to '.groundwork/discoveries.jsonl': it is a FIFO (named pipe), not a regular file. Move it away\n",
      );
    },
  );
});

describe('appending to a hard link', () => {
  test('is refused, and the file it shares with (outside the workspace) is unchanged', { skip: !posix }, async () => {
    const base = await fresh();
    const outside = join(base, 'outside.txt');
    await writeFile(outside, "someone else's file, no newline at the end");
    await mkdir(join(base, '.groundwork'), { recursive: true });
    await link(outside, join(base, '.groundwork', 'discoveries.jsonl'));
    await assert.rejects(
      fs.appendRecord(join(base, '.groundwork', 'discoveries.jsonl'), '{"x":1}\n'),
      (e: unknown) => e instanceof StorageError && /it has 1 other name\(s\) \(a hard link\)/.test(e.message),
    );
    assert.equal(await readFile(outside, 'utf8'), "someone else's file, no newline at the end");
    assert.equal(
      await lstat(join(base, '.groundwork', 'discoveries.jsonl.corrupt')).catch(() => undefined),
      undefined,
      'no torn tail was set aside',
    );
  });
});
