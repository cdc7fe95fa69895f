// The lines of stdin for `groundwork brainstorm`, one answer per line, read as they come and kept
// in order; see MessageReader (messageReader.ts) for discover's blank-line-ended messages.
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';

/** What `LineReader.next` returns when its signal aborts first. */
export const INTERRUPTED = Symbol('interrupted');

/**
 * The lines of stdin, buffered from the start so that an empty input is seen before any model call.
 * No terminal mode, as MessageReader: line editing and Ctrl-C stay the system's.
 */
export class LineReader {
  readonly #rl: Interface;
  readonly #lines: string[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(input: NodeJS.ReadableStream) {
    this.#rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.#rl.on('line', (line) => {
      this.#lines.push(line);
      this.#wake?.();
    });
    this.#rl.on('close', () => {
      this.#ended = true;
      this.#wake?.();
    });
  }

  /** The input ended and every line was read. */
  get exhausted(): boolean {
    return this.#ended && this.#lines.length === 0;
  }

  /** Resolves once a line is waiting, the input ended, or `ms` passed. */
  async settle(ms: number): Promise<void> {
    if (this.#ended || this.#lines.length > 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
    this.#wake = undefined;
  }

  /** The next line; undefined at the end of input; INTERRUPTED when `signal` aborts first. */
  async next(signal: AbortSignal): Promise<string | undefined | typeof INTERRUPTED> {
    while (this.#lines.length === 0 && !this.#ended) {
      if (signal.aborted) return INTERRUPTED;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        signal.addEventListener('abort', done, { once: true });
        this.#wake = done;
      });
      this.#wake = undefined;
    }
    if (signal.aborted) return INTERRUPTED;
    return this.#lines.shift();
  }

  /** Lets the process exit (stops reading a terminal). */
  close(): void {
    this.#rl.close();
  }
}
