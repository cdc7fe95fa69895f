// The backstop of Restricted Mode (see trust.ts): the workspace store of this window sits on a file
// system port that refuses every change while the folder is not trusted. Each action is gated
// where it starts, with a message for the person; this catches whatever path was missed, so that
// an untrusted folder is never changed by Groundwork, whatever triggered the write.
// No vscode import: unit-tested (test/unit/vscode/base/writeGuard.test.ts).
import type { WorkspaceFs } from '../../core/storage/workspaceFs';

export class RestrictedModeError extends Error {
  override readonly name = 'RestrictedModeError';

  constructor(readonly path: string) {
    super(
      'Groundwork changes nothing in Restricted Mode: this folder is not trusted, so nothing under .groundwork/ is written, moved, removed or locked. Trust the folder (Manage Workspace Trust) to continue.',
    );
  }
}

/**
 * The port's methods that only read. Every other method, including any the port gains later, is
 * taken for a write: the guard fails closed.
 */
const READS: ReadonlySet<string> = new Set([
  'read',
  'readNewestLines',
  'list',
  'info',
  'realpath',
] satisfies (keyof WorkspaceFs)[]);

/**
 * `fs` with every method but its reads refused (a rejected promise, nothing touched) while
 * `mayWrite()` is false. `mayWrite` is asked at each call, so the same store writes once the
 * folder is trusted. The lock counts as a write: taking it creates a file.
 */
export function writeGuardedFs(fs: WorkspaceFs, mayWrite: () => boolean): WorkspaceFs {
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof key === 'string' && READS.has(key)) return method.bind(target);
      return (...args: unknown[]) => {
        if (!mayWrite()) return Promise.reject(new RestrictedModeError(typeof args[0] === 'string' ? args[0] : ''));
        return method.apply(target, args);
      };
    },
  });
}
