import { StorageError, quotePath } from './storageError';
import type { WorkspaceFs } from './workspaceFs';

const COUNTERS_MAX_BYTES = 1024 * 1024;
const COUNTER_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

export interface CountersOptions {
  /** The lock every writer of the workspace takes. */
  lockPath: string;
  /** How the file is named in messages (default: its path). */
  displayPath?: string;
}

/**
 * Monotonic counters for ids (`disc-NNN`...), kept in one JSON object `{"discovery": N, ...}`.
 * An id is never reused: the next value is above both the counter and the highest id the data
 * holds (in case the counter file was lost or restored from an old copy), and it is on disk
 * before anyone can use it.
 */
export class Counters {
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly fs: WorkspaceFs,
    readonly path: string,
    private readonly options: CountersOptions,
  ) {}

  /** `max(counter, highestIdInData) + 1`, persisted before it is returned. */
  async next(name: string, highestIdInData: number): Promise<number> {
    if (!COUNTER_NAME.test(name)) throw new RangeError(`Invalid counter name ${JSON.stringify(name)}.`);
    if (!Number.isSafeInteger(highestIdInData) || highestIdInData < 0) {
      throw new RangeError(`highestIdInData must be a non-negative integer, got ${highestIdInData}.`);
    }
    return this.fs.withLock(this.options.lockPath, async () => {
      const counters = await this.read();
      const value = Math.max(counters[name] ?? 0, highestIdInData) + 1;
      counters[name] = value;
      await this.fs.writeAtomic(this.path, `${JSON.stringify(counters, null, 2)}\n`);
      return value;
    });
  }

  /** The current values ({} when the file does not exist yet). */
  async read(): Promise<Record<string, number>> {
    const bytes = await this.fs.read(this.path, COUNTERS_MAX_BYTES);
    if (bytes === undefined) return Object.create(null) as Record<string, number>;
    const text = this.decoder.decode(bytes).replace(/^\uFEFF/, '');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw this.corrupt(`it is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.corrupt('it is not a JSON object');
    }
    // No prototype: a counter named "constructor" or "__proto__" must be just a counter.
    const counters: Record<string, number> = Object.create(null) as Record<string, number>;
    for (const [key, n] of Object.entries(value)) {
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
        throw this.corrupt(`the value of "${key}" is not a non-negative integer`);
      }
      counters[key] = n;
    }
    return counters;
  }

  private corrupt(why: string): StorageError {
    const shown = this.options.displayPath ?? this.path;
    return new StorageError(
      'corrupt',
      shown,
      `Cannot read the id counters in ${quotePath(shown)}: ${why}. Groundwork will not reset them, since ` +
        `that could reuse ids. Fix the file by hand so that it is an object like {"discovery": 12}, each ` +
        `value at least the highest id in use; or delete it to restart every counter from the highest id ` +
        `found in the data.`,
    );
  }
}
