// When a lock left behind counts as stale. A lock whose mtime lies in the future used to look
// younger than any stale age forever, and a zombie holder passed kill(pid, 0) as alive, so every
// command timed out until someone deleted the file by hand.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { lstat, lutimes, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../../../src/core/node/lockQueue';
import { StorageError } from '../../../src/core/storage/storageError';

const HOUR = 60 * 60_000;
let dir: string;
let n = 0;
const children: ChildProcess[] = [];
const servers: Server[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gw-stale-'));
});
after(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const lockPath = () => join(dir, `lock-${++n}`);

async function plant(path: string, holder: object, mtimeMs = Date.now()): Promise<void> {
  await writeFile(path, JSON.stringify(holder));
  const t = new Date(mtimeMs);
  await utimes(path, t, t);
}

async function holderToken(path: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as { token?: string }).token;
  } catch {
    return undefined;
  }
}

/** Resolves with the first line the child prints. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('error', reject);
    child.on('exit', () => reject(new Error(`child exited before printing a line: ${out}`)));
  });
}

/** A live process of this host that is not this one, and not a Groundwork process. */
async function livePid(): Promise<number> {
  const child = spawn('sh', ['-c', 'echo $$; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return Number(await firstLine(child));
}

/**
 * The pid of a zombie: `sleep 0` started in the background by a shell that then becomes
 * `sleep 60`, which never waits for children, so the exited `sleep 0` is never reaped.
 */
async function zombiePid(): Promise<number> {
  // The background sleep must outlive the shell's `exec`: one that ended before it (`sleep 0` on a
  // loaded machine) could be reaped by the shell, and then there was no zombie to test.
  const child = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  const pid = Number(await firstLine(child));
  // The background sleep ends soon after; wait until the kernel says it is a zombie.
  for (let i = 0; i < 500 && procState(pid) !== 'Z'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return pid;
}

function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

describe('a lock with an mtime in the future', () => {
  test('held by a live-looking process of another host: taken over within the normal timeout', async () => {
    const path = lockPath();
    await plant(path, { pid: 1, host: 'other-machine', token: 'future', acquiredAt: Date.now() }, Date.now() + HOUR);
    const token = await withFileLock(path, async () => holderToken(path));
    assert.ok(token !== undefined && token !== 'future', `held by ${token}`);
    assert.equal(await holderToken(path), undefined, 'released afterwards');
  });

  test(
    'held by a live process of this host: taken over within the normal timeout',
    { skip: process.platform === 'win32' },
    async () => {
      const path = lockPath();
      await plant(
        path,
        { pid: await livePid(), host: hostname(), token: 'future', acquiredAt: Date.now() },
        Date.now() + HOUR,
      );
      assert.equal(await withFileLock(path, async () => holderToken(path)).then((t) => t !== 'future'), true);
    },
  );

  test('empty (unreadable): taken over within the normal timeout', async () => {
    const path = lockPath();
    await writeFile(path, '');
    const t = new Date(Date.now() + HOUR);
    await utimes(path, t, t);
    assert.equal(await withFileLock(path, async () => 'ran'), 'ran');
  });

  test('only slightly ahead, as a clock of another host may be: still respected', async () => {
    const path = lockPath();
    await plant(
      path,
      { pid: 4242, host: 'other-machine', token: 'ahead', acquiredAt: Date.now() },
      Date.now() + 10_000,
    );
    await assert.rejects(
      withFileLock(path, async () => 'ran', { timeoutMs: 300 }),
      (err: unknown) => {
        assert.ok(err instanceof StorageError, String(err));
        assert.equal(err.code, 'locked');
        return true;
      },
    );
    assert.equal(await holderToken(path), 'ahead');
  });
});

describe('the holder of a fresh lock on this host', () => {
  test('a zombie is dead: its lock is taken over at once', { skip: !existsSync('/proc/self/stat') }, async () => {
    const zombie = await zombiePid();
    assert.equal(procState(zombie), 'Z', 'the test needs a zombie');
    assert.doesNotThrow(() => process.kill(zombie, 0), 'kill(pid, 0) alone takes a zombie for alive');
    const path = lockPath();
    await plant(path, { pid: zombie, host: hostname(), token: 'zombie', acquiredAt: Date.now() });
    assert.equal(
      await withFileLock(path, async () => holderToken(path), { timeoutMs: 3000 }).then((t) => t !== 'zombie'),
      true,
    );
  });

  test('a pid no process can have (0, -1, over the pid range) is dead', async () => {
    for (const pid of [0, -1, 2 ** 40]) {
      const path = lockPath();
      await plant(path, { pid, host: hostname(), token: `pid ${pid}`, acquiredAt: Date.now() });
      const token = await withFileLock(path, async () => holderToken(path), { timeoutMs: 3000 });
      assert.ok(token !== undefined && token !== `pid ${pid}`, `pid ${pid}: held by ${token}`);
    }
  });

  test('a live process that is not a zombie keeps its lock', { skip: process.platform === 'win32' }, async () => {
    const path = lockPath();
    await plant(path, { pid: await livePid(), host: hostname(), token: 'live', acquiredAt: Date.now() });
    await assert.rejects(
      withFileLock(path, async () => 'ran', { timeoutMs: 300 }),
      /Timed out/,
    );
    assert.equal(await holderToken(path), 'live');
  });
});

describe('something else at the lock path', () => {
  test(
    'an old FIFO, socket or link is taken over like an unreadable lock',
    { skip: process.platform === 'win32' },
    async () => {
      const plants: Record<string, (path: string) => Promise<unknown>> = {
        FIFO: async (path) => execFileSync('mkfifo', [path]),
        socket: (path) => {
          const server = createServer();
          servers.push(server);
          return new Promise<void>((resolve) => server.listen(path, resolve));
        },
        link: (path) => symlink(join(dir, 'elsewhere'), path),
      };
      for (const [what, make] of Object.entries(plants)) {
        const path = lockPath();
        await make(path);
        const old = new Date(Date.now() - HOUR);
        await lutimes(path, old, old);
        assert.equal(
          await withFileLock(path, async () => (await lstat(path)).isFile(), { timeoutMs: 3000 }),
          true,
          what,
        );
      }
    },
  );

  test('a folder is refused, saying to move it', { skip: process.platform === 'win32' }, async () => {
    const path = lockPath();
    await mkdir(path);
    const old = new Date(Date.now() - HOUR);
    await utimes(path, old, old);
    await assert.rejects(
      withFileLock(path, async () => 'ran', { timeoutMs: 3000 }),
      (err: unknown) => {
        assert.ok(err instanceof StorageError, String(err));
        assert.match(err.message, /^Could not remove the stale lock '.*' \((EISDIR|EPERM)\)\. /);
        return true;
      },
    );
    assert.ok((await lstat(path)).isDirectory());
  });
});
