import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs/promises';
import { dirname } from 'node:path';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { StorageError } from '../../../src/core/storage/storageError';
import { WorkspaceStore, type WorkspaceStoreOptions } from '../../../src/core/storage/workspaceStore';
import { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import { parseTestRecord, makeRecord } from '../../support/storage/records';
import { tempFolder } from '../../support/tempDirs';

/** A workspace with a `.groundwork` folder, an `outside` folder and a `.groundwork-evil` sibling. */
interface World {
  ws: string;
  store: WorkspaceStore;
  write(abs: string, text: string): Promise<void>;
  read(abs: string): Promise<string | undefined>;
  link(abs: string, target: string): Promise<void>;
  mkdir(abs: string): Promise<void>;
}

const backends: { name: string; make(options?: WorkspaceStoreOptions): Promise<World> }[] = [
  {
    name: 'on disk',
    async make(options) {
      const ws = await tempFolder('gw-store-');
      const world: World = {
        ws,
        store: openWorkspaceStore(ws, options),
        write: async (abs, text) => {
          await nodeFs.mkdir(dirname(abs), { recursive: true });
          await nodeFs.writeFile(abs, text);
        },
        read: (abs) => nodeFs.readFile(abs, 'utf8').catch(() => undefined),
        link: async (abs, target) => {
          await nodeFs.mkdir(dirname(abs), { recursive: true });
          await nodeFs.symlink(target, abs);
        },
        mkdir: async (abs) => void (await nodeFs.mkdir(abs, { recursive: true })),
      };
      return world;
    },
  },
  {
    name: 'in memory',
    async make(options) {
      const fs = new MemoryWorkspaceFs();
      return {
        ws: '/ws',
        store: new WorkspaceStore(fs, '/ws', options),
        write: async (abs, text) => fs.writeRaw(abs, text),
        read: async (abs) => fs.text(abs),
        link: async (abs, target) => fs.symlink(abs, target),
        mkdir: async (abs) => fs.mkdir(abs),
      };
    },
  },
];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function unsafe(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof StorageError, `expected a StorageError, got ${String(err)}`);
    assert.equal(err.code, 'unsafe-path');
    assert.match(err.message, pattern);
    return true;
  };
}

for (const backend of backends) {
  describe(`WorkspaceStore ${backend.name}`, () => {
    test('writes, reads, lists and removes inside .groundwork, creating it on first write', async () => {
      const { store, ws, read } = await backend.make();
      assert.deepEqual(await store.list(), []);
      assert.deepEqual(await store.list('plans'), []);
      assert.equal(await store.readText('plans/a/idea-brief.md'), undefined);
      await store.writeText('plans/a/idea-brief.md', '# Brief\n');
      await store.writeText('plans/b/idea-brief.md', '# B\n');
      assert.equal(await store.readText('plans/a/idea-brief.md'), '# Brief\n');
      assert.equal(await read(`${ws}/.groundwork/plans/a/idea-brief.md`), '# Brief\n');
      assert.deepEqual(await store.list('plans'), ['a', 'b']);
      assert.equal(await store.resolve('plans/a/idea-brief.md'), `${ws}/.groundwork/plans/a/idea-brief.md`);
      await store.remove('plans/a');
      assert.deepEqual(await store.list('plans'), ['b']);
    });

    test('logs append and read back through the store', async () => {
      const { store } = await backend.make();
      const log = store.log('records.jsonl', parseTestRecord);
      await log.append(makeRecord('w', 1, 3));
      await log.append(makeRecord('w', 2, 3));
      assert.deepEqual(
        (await log.readAll()).records.map((r) => r.id),
        ['w-1', 'w-2'],
      );
    });

    const lexical: [string, RegExp][] = [
      ['../x', /'\.\.\/x'.*'\.\.' segment/],
      ['/etc/passwd', /'\/etc\/passwd'.*absolute path/],
      ['a/../../x', /'\.\.' segment/],
      ['../.groundwork-evil/x', /'\.\.' segment/],
      ['plans/x\0/y', /NUL byte/],
      ['plans\\..\\..\\x', /backslash/],
    ];
    for (const [rel, pattern] of lexical) {
      test(`refuses ${JSON.stringify(rel)} for every operation`, async () => {
        const { store } = await backend.make();
        await assert.rejects(store.readText(rel), unsafe(pattern));
        await assert.rejects(store.writeText(rel, 'x'), unsafe(pattern));
        await assert.rejects(store.list(rel), unsafe(pattern));
        await assert.rejects(store.remove(rel), unsafe(pattern));
        await assert.rejects(store.resolve(rel), unsafe(pattern));
        assert.throws(() => store.log(rel, parseTestRecord), unsafe(pattern));
      });
    }

    test('refuses a symbolic link inside .groundwork that points outside, naming the link', async () => {
      const { store, ws, write, read, link } = await backend.make();
      await write(`${ws}/outside/secret.txt`, 'secret');
      await link(`${ws}/.groundwork/plans/evil`, `${ws}/outside`);
      const names =
        /'\.groundwork\/plans\/evil' is a symbolic link to '.*outside', outside the \.groundwork folder\. Remove the link/;
      await assert.rejects(store.readText('plans/evil/secret.txt'), unsafe(names));
      await assert.rejects(store.writeText('plans/evil/secret.txt', 'overwritten'), unsafe(names));
      await assert.rejects(store.writeText('plans/evil/new/deeper.md', 'x'), unsafe(names));
      await assert.rejects(store.list('plans/evil'), unsafe(names));
      await assert.rejects(store.remove('plans/evil/secret.txt'), unsafe(names));
      await assert.rejects(
        store.log('plans/evil/log.jsonl', parseTestRecord).append(makeRecord('w', 1, 0)),
        unsafe(names),
      );
      assert.equal(await read(`${ws}/outside/secret.txt`), 'secret');
      assert.equal(await read(`${ws}/outside/log.jsonl`), undefined);
    });

    test('refuses a file symlink pointing outside, and a folder one, for logs', async () => {
      const { store, ws, write, read, link } = await backend.make();
      await write(`${ws}/outside/passwd`, 'root:x:0:0');
      await link(`${ws}/.groundwork/records.jsonl`, `${ws}/outside/passwd`);
      await link(`${ws}/.groundwork/metrics`, `${ws}/outside`);
      await assert.rejects(
        store.log('records.jsonl', parseTestRecord).readAll(),
        unsafe(/'\.groundwork\/records\.jsonl' is a symbolic link/),
      );
      await assert.rejects(
        store.log('records.jsonl', parseTestRecord).append(makeRecord('w', 1, 0)),
        unsafe(/symbolic link/),
      );
      await assert.rejects(
        store.log('metrics/usage.jsonl', parseTestRecord).append(makeRecord('w', 1, 0)),
        unsafe(/'\.groundwork\/metrics' is a symbolic link/),
      );
      assert.equal(await read(`${ws}/outside/passwd`), 'root:x:0:0');
      assert.equal(await read(`${ws}/outside/usage.jsonl`), undefined);
    });

    test('a link target that holds the workspace path further on is shown whole, not cut', async () => {
      const { store, ws, mkdir, link } = await backend.make();
      await mkdir(`${ws}/outside${ws}/data`);
      await link(`${ws}/.groundwork/plans`, `${ws}/outside${ws}/data`);
      await assert.rejects(store.readText('plans/x.md'), (err: unknown) => {
        unsafe(
          new RegExp(`'\\.groundwork/plans' is a symbolic link to '(.*/)?outside${escapeRegExp(ws)}/data', outside`),
        )(err);
        assert.equal((err as StorageError).path, '.groundwork/plans/x.md');
        return true;
      });
    });

    test('a link to a sibling whose name starts with ".groundwork" is outside (segments, not prefixes)', async () => {
      const { store, ws, write, link } = await backend.make();
      await write(`${ws}/.groundwork-evil/x`, 'evil');
      await link(`${ws}/.groundwork/sneaky`, `${ws}/.groundwork-evil`);
      await assert.rejects(
        store.readText('sneaky/x'),
        unsafe(/'\.groundwork\/sneaky' is a symbolic link to '.*\.groundwork-evil'/),
      );
    });

    test('a link planted after earlier checks passed is still refused (the quick check of a known folder)', async () => {
      const { store, ws, write, read, link } = await backend.make();
      await store.writeText('metrics/counters.json', '{}');
      await store.writeText('locks/x.txt', 'ok');
      await write(`${ws}/outside/counters.json`, 'theirs');
      await store.remove('metrics');
      await link(`${ws}/.groundwork/metrics`, `${ws}/outside`);
      await assert.rejects(
        store.writeText('metrics/counters.json', '{"discovery": 1}'),
        unsafe(/'\.groundwork\/metrics' is a symbolic link/),
      );
      await link(`${ws}/.groundwork/locks/y.txt`, `${ws}/outside/not-yet`);
      await assert.rejects(store.writeText('locks/y.txt', 'x'), unsafe(/target that does not exist/));
      assert.equal(await read(`${ws}/outside/counters.json`), 'theirs');
      assert.equal(await read(`${ws}/outside/not-yet`), undefined);
    });

    test('refuses a dangling link, which a write could follow out later', async () => {
      const { store, ws, link } = await backend.make();
      await link(`${ws}/.groundwork/cases.jsonl`, `${ws}/outside/not-yet`);
      await assert.rejects(
        store.log('cases.jsonl', parseTestRecord).append(makeRecord('w', 1, 0)),
        unsafe(/target that does not exist/),
      );
    });

    test('allows a link that stays inside .groundwork', async () => {
      const { store, ws, write, link } = await backend.make();
      await write(`${ws}/.groundwork/plans/real/idea-brief.md`, 'inside');
      await link(`${ws}/.groundwork/plans/alias`, `${ws}/.groundwork/plans/real`);
      assert.equal(await store.readText('plans/alias/idea-brief.md'), 'inside');
    });

    test('refuses .groundwork itself when it is a symbolic link to elsewhere', async () => {
      const { store, ws, write, read, link, mkdir } = await backend.make();
      await mkdir(`${ws}/elsewhere`);
      await write(`${ws}/elsewhere/cases.jsonl`, 'x\n');
      await link(`${ws}/.groundwork`, `${ws}/elsewhere`);
      const message = /'\.groundwork': it is a symbolic link \(to '.*elsewhere'\).*Replace the link with a folder/;
      await assert.rejects(store.readText('cases.jsonl'), unsafe(message));
      await assert.rejects(store.writeText('new.md', 'x'), unsafe(message));
      await assert.rejects(store.list(), unsafe(message));
      await assert.rejects(
        store.withLock(async () => 'ran'),
        unsafe(message),
      );
      assert.equal(await read(`${ws}/elsewhere/new.md`), undefined);
    });

    test('refuses .groundwork when it is a file', async () => {
      const { store, ws, write } = await backend.make();
      await write(`${ws}/.groundwork`, 'not a folder');
      await assert.rejects(store.list(), unsafe(/it is a file, not a folder/));
    });

    test('reading text over the cap names the file (relative to the workspace), the cap and what to do', async () => {
      const { store } = await backend.make();
      await store.writeText('notes.md', 'x'.repeat(5000));
      await assert.rejects(store.readText('notes.md', 4096), (err: unknown) => {
        assert.ok(err instanceof StorageError);
        assert.equal(err.code, 'too-large');
        assert.match(err.message, /^Refused to read '\.groundwork\/notes\.md': it is 4\.9 KiB, over the cap of 4 KiB/);
        // No setting raises the cap, so the message does not suggest it.
        assert.match(err.message, /Make it smaller, e\.g\. by moving old content to another file, then try again\.$/);
        assert.equal(err.path, '.groundwork/notes.md');
        return true;
      });
      assert.equal((await store.readText('notes.md', 5000))?.length, 5000);
    });

    test('a log that outgrew its cap still loads: its newest records, and one problem for the rest', async () => {
      const { store } = await backend.make({ maxJsonlBytes: 4096 });
      const log = store.log('records.jsonl', parseTestRecord);
      for (let seq = 1; seq <= 60; seq++) await log.append(makeRecord('w', seq, 100));
      const { records, problems } = await log.readAll();
      const seqs = records.map((r) => r.seq);
      assert.ok(seqs.length > 10 && seqs.length < 60, `${seqs.length} records`);
      assert.deepEqual(
        seqs,
        Array.from({ length: seqs.length }, (_, i) => 61 - seqs.length + i),
        'the newest, in order',
      );
      assert.deepEqual(
        problems.map((p) => [p.line, p.unreadLines]),
        [[1, 60 - seqs.length]],
      );
      assert.match(
        problems[0]?.reason ?? '',
        /^the file is \d+\.\d KiB; only its newest 4 KiB were read \(its first \d+ lines are kept in the file but not shown\)$/,
      );
    });

    test('a torn tail that cannot be set aside names the .corrupt path in the way', async () => {
      const { store, ws, write, read, link } = await backend.make();
      await write(`${ws}/outside/passwd`, 'root:x:0:0');
      await write(`${ws}/.groundwork/records.jsonl`, '{"id":"torn');
      await link(`${ws}/.groundwork/records.jsonl.corrupt`, `${ws}/outside/passwd`);
      await assert.rejects(
        store.log('records.jsonl', parseTestRecord).append(makeRecord('w', 1, 0)),
        (err: unknown) => {
          assert.ok(err instanceof StorageError);
          assert.equal(err.path, '.groundwork/records.jsonl.corrupt');
          assert.match(
            err.message,
            /^Could not set aside the torn last line of '\.groundwork\/records\.jsonl' in '\.groundwork\/records\.jsonl\.corrupt' \(ELOOP\)\. A symbolic link is in the way; remove it\.$/,
          );
          return true;
        },
      );
      assert.equal(await read(`${ws}/outside/passwd`), 'root:x:0:0');
    });

    test('a call scheduled inside withLock that runs after the release waits for the lock like any other', async () => {
      const { store } = await backend.make();
      const events: string[] = [];
      let late!: Promise<void>;
      await store.withLock(async () => {
        // An event listener or a debounced refresh, set up inside the section, fires after it.
        late = new Promise((resolve, reject) => {
          setTimeout(() => {
            store
              .withLock(async () => {
                events.push('late:in');
                events.push('late:out');
              })
              .then(resolve, reject);
          }, 20);
        });
      });
      const other = store.withLock(async () => {
        events.push('other:in');
        await delay(80);
        events.push('other:out');
      });
      await Promise.all([late, other]);
      assert.deepEqual(events, ['other:in', 'other:out', 'late:in', 'late:out']);
    });

    test('the default text cap is 2 MiB', async () => {
      const { store } = await backend.make();
      await store.writeText('big.md', 'x'.repeat(2 * 1024 * 1024 + 1));
      await assert.rejects(store.readText('big.md'), /over the cap of 2 MiB/);
    });
  });
}

test('a relative workspace root is refused by the core store', () => {
  assert.throws(() => new WorkspaceStore(new MemoryWorkspaceFs(), 'relative/ws'), RangeError);
});
