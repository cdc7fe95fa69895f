// The lock as this process uses it: callers queue in order rather than race on the file, and a
// call made inside a locked section re-enters instead of waiting for itself.
import { AsyncLocalStorage } from 'node:async_hooks';
import { StorageError, quotePath } from '../storage/storageError';
import { FileLock } from './fileLock';
import { settings } from './lockFile';
import type { FileLockOptions } from './lockFile';

/**
 * One per acquisition, cleared when the section ends. Async context is inherited by everything
 * scheduled inside the section (a timer, an event listener, a debounced refresh), including
 * what runs after the release; such a call sees `held: false` and takes the lock like any other.
 */
interface Hold {
  held: boolean;
}

const heldInChain = new AsyncLocalStorage<ReadonlyMap<string, Hold>>();
const queues = new Map<string, Promise<void>>();

/** Waits for the turn of this process; returns the function that ends it. */
async function enterQueue(path: string, deadline: number, timeoutMs: number): Promise<() => void> {
  const previous = queues.get(path) ?? Promise.resolve();
  let leave!: () => void;
  const mine = new Promise<void>((resolve) => (leave = resolve));
  const tail = previous.then(() => mine);
  queues.set(path, tail);
  const end = () => {
    leave();
    if (queues.get(path) === tail) queues.delete(path);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = await Promise.race([
    previous.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now())))),
  ]);
  clearTimeout(timer);
  if (!timedOut) return end;
  end();
  throw new StorageError(
    'locked',
    path,
    `Timed out after ${Math.round(timeoutMs / 100) / 10} s waiting for the lock ${quotePath(path)}: this ` +
      `process is still using it for another operation. Try again when that finishes.`,
  );
}

/**
 * Runs `fn` holding the lock file at `path`. Waiters in this process queue in order; a call
 * made inside `fn` (in its async call chain) that asks for the same lock while `fn` still runs
 * goes ahead without waiting.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const outer = heldInChain.getStore();
  if (outer?.get(path)?.held) return fn();
  const s = settings(options);
  const deadline = Date.now() + s.timeoutMs;
  const leave = await enterQueue(path, deadline, s.timeoutMs);
  try {
    const lock = await FileLock.acquireBy(path, s, deadline);
    const hold: Hold = { held: true };
    try {
      return await heldInChain.run(new Map([...(outer ?? []), [path, hold]]), fn);
    } finally {
      hold.held = false;
      await lock.release();
    }
  } finally {
    leave();
  }
}
