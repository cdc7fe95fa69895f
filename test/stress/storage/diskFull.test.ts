// Writes that fail after their temp file exists (a full disk, a file size limit) must remove
// that file. An append on a full disk used to leave 128 empty `..lock.steal.tmp-*` files: the
// lock's temp file was never removed when writing it failed, and the release tried again and
// again for seconds, leaving one more each time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleChild, whenDone, type ChildBundle } from '../../support/storage/childProcess';

let bundle: ChildBundle;
const temps: string[] = [];
const children: ChildProcess[] = [];

before(async () => {
  bundle = await bundleChild();
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await bundle.dispose();
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const ws = await mkdtemp(join(tmpdir(), 'gw-full-'));
  temps.push(ws);
  return ws;
}

/**
 * The `unshare` options that give a child a mount namespace of its own, where it can mount a
 * small tmpfs, or undefined where this machine allows none (not Linux, no user namespaces).
 */
function namespaceOptions(probe: string): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  for (const options of [['--user', '--map-root-user', '--mount'], ['--mount']]) {
    const r = spawnSync('unshare', [...options, 'sh', '-c', 'mount -t tmpfs -o size=4k tmpfs "$1"', 'sh', probe], {
      stdio: 'ignore',
    });
    if (r.status === 0) return options;
  }
  return undefined;
}

interface Step {
  step: string;
  error?: string;
  /** The files left in .groundwork, with their sizes. */
  left: Record<string, number>;
}

const TEMP = /\.tmp-/;

describe('a full disk', () => {
  test(
    'failed appends and replaces remove their temp files, and nothing waits for a lock it cannot create',
    { timeout: 60_000 },
    async (t) => {
      const ws = await workspace();
      const options = namespaceOptions(ws);
      if (options === undefined) {
        t.skip(
          'needs `unshare` with mount namespaces (Linux) to mount a small tmpfs; the file size limit test below still runs',
        );
        return;
      }
      // The child's waits are 10 minutes (see storageChild.ts): a step that waits or retries instead of failing times this test out.
      const child = spawn(
        'unshare',
        [
          ...options,
          'sh',
          '-c',
          'mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" "$3" full-disk "$1"',
          'sh',
          ws,
          process.execPath,
          bundle.file,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.push(child);
      const result = await whenDone(child);
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.map((line) => JSON.parse(line) as Step & { ids?: string[]; problems?: number });
      t.diagnostic(lines.map((s) => `${s.step}: ${s.error ?? 'ok'}`).join('\n'));
      const readBack = lines.pop();
      const steps = new Map(lines.map((s) => [s.step, s]));
      const error = (name: string) => steps.get(name)?.error ?? '';
      assert.equal(lines.length, 7, result.stderr);

      for (const s of lines) {
        const names = Object.keys(s.left);
        assert.deepEqual(
          names.filter((name) => TEMP.test(name.replace(/^locks\//, ''))),
          [],
          `temp files left after "${s.step}"`,
        );
        assert.deepEqual(
          names.filter((name) => name.startsWith('.lock') || /^locks\/.*\.lock/.test(name)),
          [],
          `lock files left after "${s.step}"`,
        );
        assert.ok(!('state.json' in s.left), `a failed replace created nothing, after "${s.step}"`);
      }
      assert.equal(error('append'), '');
      // The lock fits; the record is cut short.
      const cut =
        /^Could not append to '\.groundwork\/records\.jsonl': only (\d+) of \d+ bytes were written\. Check the free disk space/.exec(
          error('append, two blocks free'),
        );
      assert.ok(cut !== null, error('append, two blocks free'));
      const tornLength = Number(cut[1]);
      assert.match(
        error('replace, one block free'),
        /^Could not write '\.groundwork\/state\.json' \(ENOSPC\)\. Free some disk space/,
      );
      // The torn tail does not fit in .corrupt: nothing of it is kept there, and it stays in the log.
      assert.match(
        error('append over the torn tail, two blocks free'),
        /^Could not set aside the torn last line of '\.groundwork\/records\.jsonl' in '\.groundwork\/records\.jsonl\.corrupt' \(ENOSPC\)\. Free some disk space/,
      );
      assert.equal(steps.get('append over the torn tail, two blocks free')?.left['records.jsonl.corrupt'] ?? 0, 0);
      // Waiting for the lock cannot help when it cannot even be written: fail at once, saying why.
      assert.match(
        error('append, disk full'),
        /^Could not create the lock '\.groundwork\/locks\/log-records\.jsonl\.lock' \(ENOSPC\)\. Free some disk space/,
      );
      assert.match(
        error('replace, disk full'),
        /^Could not write '\.groundwork\/state\.json' \(ENOSPC\)\. Free some disk space/,
      );
      // With space again the log carries on, and the torn tail was set aside once, whole.
      assert.equal(error('append, disk freed'), '');
      assert.equal(steps.get('append, disk freed')?.left['records.jsonl.corrupt'], tornLength + 1);
      assert.deepEqual(readBack, { step: 'read back', ids: ['w-1', 'w-5'], problems: 0 });
    },
  );
});

describe('a file size limit', () => {
  test(
    'a lock or a replacement that cannot be written (EFBIG under ulimit -f 0) leaves no temp file',
    { skip: process.platform === 'win32' },
    async () => {
      const ws = await workspace();
      // A shell sets the limit for the child it becomes; Node ignores SIGXFSZ, so the write fails with EFBIG.
      const limited = (args: string[]) =>
        whenDone(
          spawn('sh', ['-c', 'ulimit -f 0 && exec "$0" "$@"', process.execPath, bundle.file, ...args], {
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
        );

      const append = await limited(['append', ws, 'w', '1']);
      assert.equal(append.code, 1, append.stderr);
      assert.match(
        append.stderr,
        /Could not create the lock '\.groundwork\/locks\/log-records\.jsonl\.lock' \(EFBIG\)/,
      );
      // The locks folder may stay (a folder needs no file space), but nothing in it.
      assert.deepEqual(await readdir(join(ws, '.groundwork')), ['locks']);
      assert.deepEqual(await readdir(join(ws, '.groundwork', 'locks')), []);

      const replace = await limited(['rewrite', ws, 'w']);
      assert.equal(replace.code, 1, replace.stderr);
      assert.match(replace.stderr, /Could not write '\.groundwork\/state\.json' \(EFBIG\)/);
      assert.deepEqual(await readdir(join(ws, '.groundwork')), ['locks']);
    },
  );
});
