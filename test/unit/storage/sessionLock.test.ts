// A session's lock on a real disk, between real processes: while another process runs a step of a
// session, this one is refused at once (it must not wait, nor pay for a model call the other is
// making); once that process is killed, the lock is taken over without anyone deleting it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { StorageError } from '../../../src/core/storage/storageError';
import { bundleChild, onLines, startChild, whenDone, type ChildBundle } from '../../support/storage/childProcess';

describe('session lock across processes', () => {
  let bundle: ChildBundle;
  let ws: string;
  before(async () => {
    bundle = await bundleChild();
    ws = await mkdtemp(join(tmpdir(), 'gw-session-lock-'));
  });
  after(async () => {
    await bundle.dispose();
    await rm(ws, { recursive: true, force: true });
  });

  test('held by another process: refused at once as busy; after a kill -9: taken over', async () => {
    const child = startChild(bundle, ['hold-session', ws, 'brainstorm-invoices']);
    await new Promise<void>((resolve, reject) => {
      onLines(child, (line) => line === 'locked' && resolve());
      child.once('exit', () => reject(new Error('the child exited before it held the lock')));
    });
    const store = openWorkspaceStore(ws);
    let ran = false;
    await assert.rejects(
      store.withSessionLock('brainstorm-invoices', async () => void (ran = true)),
      (e: unknown) =>
        e instanceof StorageError &&
        e.code === 'busy' &&
        /A step of brainstorm-invoices is under way in another window or a groundwork command/.test(e.message),
    );
    assert.equal(ran, false);
    // Another session is not held by it.
    assert.equal(await store.withSessionLock('brainstorm-other', async () => 'ran'), 'ran');

    child.kill('SIGKILL');
    await whenDone(child);
    // The holder is dead: its lock is stale, and the next step takes it over.
    assert.equal(await store.withSessionLock('brainstorm-invoices', async () => 'ran'), 'ran');
  });

  test('held in this process: the second step is refused too, and the first one is not disturbed', async () => {
    const store = openWorkspaceStore(ws);
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const first = store.withSessionLock('discovery-s1', () => {
      held();
      return new Promise<string>((resolve) => (release = () => resolve('first')));
    });
    await holding;
    await assert.rejects(
      store.withSessionLock('discovery-s1', async () => 'second'),
      (e: unknown) => e instanceof StorageError && e.code === 'busy',
    );
    release();
    assert.equal(await first, 'first');
  });
});
