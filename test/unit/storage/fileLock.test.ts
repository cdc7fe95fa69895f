import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLock } from '../../../src/core/node/fileLock';
import { withFileLock } from '../../../src/core/node/lockQueue';
import { StorageError } from '../../../src/core/storage/storageError';
import {
  bundleChild,
  onLines,
  runChild,
  startChild,
  whenDone,
  type ChildBundle,
} from '../../support/storage/childProcess';

let dir: string;
let bundle: ChildBundle;
let n = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gw-lock-'));
  bundle = await bundleChild();
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
  await bundle.dispose();
});

const lockPath = () => join(dir, `lock-${++n}`);

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }),
  );
}

async function plant(path: string, holder: object, ageMs = 0): Promise<void> {
  await writeFile(path, JSON.stringify(holder));
  if (ageMs > 0) {
    const t = new Date(Date.now() - ageMs);
    await utimes(path, t, t);
  }
}

async function holderToken(path: string): Promise<string | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')).token;
  } catch {
    return undefined;
  }
}

describe('file lock', () => {
  test('a lock left by a dead process on this host is taken over at once', async () => {
    const path = lockPath();
    await plant(path, { pid: deadPid(), host: hostname(), token: 'dead', acquiredAt: Date.now() });
    const start = Date.now();
    const ran = await withFileLock(path, async () => holderToken(path), { timeoutMs: 5000 });
    assert.notEqual(ran, 'dead');
    assert.ok(Date.now() - start < 1000, 'no waiting for the stale age');
    assert.equal(await holderToken(path), undefined, 'released afterwards');
  });

  test('an old lock is taken over even when its holder looks alive or is on another host', async () => {
    for (const holder of [
      { pid: process.pid, host: hostname(), token: 'old-alive', acquiredAt: 0 },
      { pid: 1, host: 'other-machine', token: 'old-remote', acquiredAt: 0 },
    ]) {
      const path = lockPath();
      await plant(path, holder, 60_000);
      assert.equal(await withFileLock(path, async () => 'ran', { timeoutMs: 3000 }), 'ran');
    }
  });

  test('a fresh lock of another host is respected until the timeout, then StorageError locked says who and what to do', async () => {
    const path = lockPath();
    await plant(path, { pid: 4242, host: 'other-machine', token: 'remote', acquiredAt: Date.UTC(2025, 0, 1) });
    const start = Date.now();
    await assert.rejects(
      withFileLock(path, async () => 'ran', { timeoutMs: 300 }),
      (err: unknown) => {
        assert.ok(err instanceof StorageError);
        assert.equal(err.code, 'locked');
        assert.match(err.message, /Timed out after 0\.3 s/);
        assert.match(err.message, /process 4242 on host 'other-machine'/);
        assert.match(err.message, /try again when it finishes/);
        assert.match(err.message, /delete '.*lock-\d+'/);
        return true;
      },
    );
    assert.ok(Date.now() - start >= 290);
    assert.equal(await holderToken(path), 'remote', 'the holder keeps its lock');
  });

  test('a planted holder time out of the Date range still gives the locked error, without a time', async () => {
    const path = lockPath();
    await plant(path, { pid: 4242, host: 'other-machine', token: 'remote', acquiredAt: 1e16 });
    await assert.rejects(
      withFileLock(path, async () => 'ran', { timeoutMs: 100 }),
      (err: unknown) => {
        assert.ok(err instanceof StorageError, String(err));
        assert.equal(err.code, 'locked');
        assert.match(err.message, /held by process 4242 on host 'other-machine'\. If that process/);
        return true;
      },
    );
  });

  test('an empty lock (writer killed while creating it) is waited on briefly, then taken over', async () => {
    const fresh = lockPath();
    await writeFile(fresh, '');
    await assert.rejects(
      withFileLock(fresh, async () => 'ran', { timeoutMs: 200 }),
      /unknown process/,
    );
    const old = lockPath();
    await writeFile(old, '');
    const t = new Date(Date.now() - 3000);
    await utimes(old, t, t);
    assert.equal(await withFileLock(old, async () => 'ran', { timeoutMs: 2000 }), 'ran');
  });

  test('a live holder in another process makes the waiter wait, then succeed', async () => {
    const path = lockPath();
    const child = startChild(bundle, ['hold', path, '700']);
    const done = whenDone(child);
    await new Promise<void>((resolve) => onLines(child, (line) => line === 'locked' && resolve()));
    const start = Date.now();
    const token = await withFileLock(path, async () => {
      // The child holds it for 700 ms from just before "locked" reached us.
      assert.ok(Date.now() - start >= 400, `waited only ${Date.now() - start} ms`);
      return holderToken(path);
    });
    assert.ok(token !== undefined);
    const result = await done;
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout, ['locked', 'released']);
  });

  test('a process that exits normally while holding the lock removes it', async () => {
    const path = lockPath();
    const result = await runChild(bundle, ['exit-holding', path]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout, ['locked']);
    assert.equal(await holderToken(path), undefined);
  });

  test('release does not remove a lock that is no longer ours', async () => {
    const path = lockPath();
    const lock = await FileLock.acquire(path);
    // Someone judged it stale and took it over.
    await plant(path, { pid: process.pid, host: hostname(), token: 'theirs', acquiredAt: Date.now() });
    await lock.release();
    assert.equal(await holderToken(path), 'theirs');
  });

  test('a leftover .steal file of a dead process does not block taking over a stale lock', async () => {
    const path = lockPath();
    const dead = deadPid();
    await plant(path, { pid: dead, host: hostname(), token: 'dead', acquiredAt: 0 });
    await plant(`${path}.steal`, { pid: dead, host: hostname(), token: 'dead-steal', acquiredAt: 0 });
    const start = Date.now();
    assert.equal(await withFileLock(path, async () => 'ran', { timeoutMs: 5000 }), 'ran');
    assert.ok(Date.now() - start < 1000);
  });

  test('waiters racing to take over stale locks still hold the lock one at a time', async () => {
    const path = lockPath();
    const dead = deadPid();
    let inside = 0;
    let maxInside = 0;
    let turns = 0;
    // FileLock.acquire directly: no in-process queue, so the waiters race on the files like
    // processes do. Every holder "dies" holding the lock, so every handover is a takeover.
    const worker = async () => {
      for (let i = 0; i < 10; i++) {
        const lock = await FileLock.acquire(path, { timeoutMs: 10_000 });
        inside++;
        maxInside = Math.max(maxInside, inside);
        await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 3));
        inside--;
        turns++;
        await plant(path, { pid: dead, host: hostname(), token: `dead-${turns}`, acquiredAt: Date.now() });
        await lock.release();
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    assert.equal(maxInside, 1);
    assert.equal(turns, 60);
  });

  test('callers in one process take turns, and a nested call re-enters', async () => {
    const path = lockPath();
    const order: string[] = [];
    const task = (name: string) =>
      withFileLock(path, async () => {
        order.push(`${name}:in`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        await withFileLock(path, async () => order.push(`${name}:nested`));
        order.push(`${name}:out`);
      });
    await Promise.all([task('a'), task('b'), task('c')]);
    assert.deepEqual(order, ['a:in', 'a:nested', 'a:out', 'b:in', 'b:nested', 'b:out', 'c:in', 'c:nested', 'c:out']);
  });

  test('a call scheduled inside the section that runs after the release takes the lock file anew', async () => {
    const path = lockPath();
    let late!: Promise<string | undefined>;
    await withFileLock(path, async () => {
      // A timer set inside the section inherits its async context, but runs after the release.
      late = new Promise((resolve, reject) => {
        setTimeout(() => withFileLock(path, async () => holderToken(path)).then(resolve, reject), 20);
      });
    });
    assert.equal(await holderToken(path), undefined, 'released');
    assert.notEqual(await late, undefined, 'the late call held the lock file during its section');
    assert.equal(await holderToken(path), undefined, 'and released it');
  });

  test('an error inside the locked section releases the lock', async () => {
    const path = lockPath();
    await assert.rejects(
      withFileLock(path, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await holderToken(path), undefined);
    assert.equal(await withFileLock(path, async () => 'again', { timeoutMs: 200 }), 'again');
  });
});
