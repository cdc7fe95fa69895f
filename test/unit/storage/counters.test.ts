import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { StorageError } from '../../../src/core/storage/storageError';
import { WorkspaceStore } from '../../../src/core/storage/workspaceStore';
import { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import { bundleChild, runChild, type ChildBundle } from './helpers/childProcess';

const COUNTERS = '/ws/.groundwork/metrics/counters.json';

function setup() {
  const fs = new MemoryWorkspaceFs();
  return { fs, store: new WorkspaceStore(fs, '/ws') };
}

describe('counters', () => {
  test('next is max(counter file, highest id in the data) + 1', async () => {
    const { fs, store } = setup();
    assert.equal(await store.counters.next('discovery', 0), 1);
    assert.equal(await store.counters.next('discovery', 0), 2);
    // The data holds ids the counter never gave (a restored backup, a hand edit).
    assert.equal(await store.counters.next('discovery', 41), 42);
    // An old highest id does not move it back.
    assert.equal(await store.counters.next('discovery', 5), 43);
    assert.equal(await store.counters.next('audit', 0), 1);
    assert.deepEqual(JSON.parse(fs.text(COUNTERS) ?? ''), { discovery: 43, audit: 1 });
  });

  test('the counter file wins when it is ahead of the data (deleted cases keep their ids)', async () => {
    const { fs, store } = setup();
    fs.writeRaw(COUNTERS, '{"discovery": 100}');
    assert.equal(await store.counters.next('discovery', 7), 101);
  });

  test('the new value is on disk, under the lock, before it is returned', async () => {
    const { fs, store } = setup();
    let lockedWhileWriting = false;
    fs.failOn = (op, path) => {
      if (op === 'writeAtomic' && path === COUNTERS) lockedWhileWriting = fs.holdsLock('/ws/.groundwork/.lock');
      return undefined;
    };
    const value = await store.counters.next('discovery', 0);
    assert.equal(lockedWhileWriting, true);
    assert.equal(JSON.parse(fs.text(COUNTERS) ?? '').discovery, value);
  });

  test('when the value cannot be persisted, no value is handed out', async () => {
    const { fs, store } = setup();
    fs.failOn = (op) => (op === 'writeAtomic' ? Object.assign(new Error('disk full'), { code: 'ENOSPC' }) : undefined);
    await assert.rejects(store.counters.next('discovery', 0), (err: unknown) => err instanceof StorageError && /disk space/.test(err.message));
    fs.failOn = undefined;
    assert.equal(await store.counters.next('discovery', 0), 1);
  });

  const corrupt: [string, RegExp][] = [
    ['{"discovery": 12', /not valid JSON/],
    ['[1,2]', /not a JSON object/],
    ['{"discovery": "12"}', /"discovery" is not a non-negative integer/],
    ['{"discovery": -3}', /"discovery" is not a non-negative integer/],
    ['{"discovery": 1.5}', /"discovery" is not a non-negative integer/],
  ];
  for (const [content, why] of corrupt) {
    test(`a corrupt counter file (${content}) is an error that names it and says how to fix it`, async () => {
      const { fs, store } = setup();
      fs.writeRaw(COUNTERS, content);
      await assert.rejects(
        store.counters.next('discovery', 3),
        (err: unknown) =>
          err instanceof StorageError &&
          err.code === 'corrupt' &&
          err.message.includes("'.groundwork/metrics/counters.json'") &&
          why.test(err.message) &&
          /will not reset/.test(err.message) &&
          /Fix the file by hand/.test(err.message),
      );
      // Never silently reset.
      assert.equal(fs.text(COUNTERS), content);
    });
  }

  test('a counter named like an Object property is just a counter', async () => {
    const { store } = setup();
    assert.equal(await store.counters.next('constructor', 0), 1);
    assert.equal(await store.counters.next('constructor', 0), 2);
  });

  test('next inside withLock re-enters the lock instead of waiting for itself', async () => {
    const { store } = setup();
    const value = await store.withLock(() => store.counters.next('discovery', 0));
    assert.equal(value, 1);
  });
});

describe('counters across processes', () => {
  let bundle: ChildBundle;
  let dir: string;
  before(async () => {
    bundle = await bundleChild();
    dir = await mkdtemp(join(tmpdir(), 'gw-counters-'));
  });
  after(async () => {
    await bundle.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  test('two processes taking ids at once never get the same one, and each sees them grow', async () => {
    const perProcess = 150;
    const results = await Promise.all([runChild(bundle, ['counter', dir, String(perProcess)]), runChild(bundle, ['counter', dir, String(perProcess)])]);
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const all: number[] = [];
    for (const r of results) {
      const ids = r.stdout.map(Number);
      assert.equal(ids.length, perProcess);
      for (let i = 1; i < ids.length; i++) assert.ok((ids[i] as number) > (ids[i - 1] as number), 'monotonic within a process');
      all.push(...ids);
    }
    assert.deepEqual(
      all.sort((a, b) => a - b),
      Array.from({ length: 2 * perProcess }, (_, i) => i + 1),
    );
    const file = JSON.parse(await readFile(join(dir, '.groundwork/metrics/counters.json'), 'utf8'));
    assert.equal(file.discovery, 2 * perProcess);
    assert.equal(await openWorkspaceStore(dir).counters.next('discovery', 0), 2 * perProcess + 1);
  });
});
