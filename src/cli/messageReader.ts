import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';

/**
 * Messages from a stream of lines, for the CLI's interactive conversations: a message is one or more
 * lines ended by an empty line (or the end of input), so an answer to several questions can span
 * lines and the same text works typed or piped. Empty lines before a message are skipped.
 *
 * No terminal mode: on a terminal the line discipline stays the system's (line editing, and Ctrl-C
 * as a real SIGINT rather than a keypress that readline would swallow).
 */
export class MessageReader {
  readonly #rl: Interface;
  readonly #lines: AsyncIterator<string>;
  #ended = false;

  constructor(input: NodeJS.ReadableStream) {
    this.#rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.#lines = this.#rl[Symbol.asyncIterator]();
  }

  /** The next message, or undefined at the end of input. */
  async next(): Promise<string | undefined> {
    const block: string[] = [];
    while (!this.#ended) {
      const line = await this.#lines.next();
      if (line.done === true) {
        this.#ended = true;
        break;
      }
      if (line.value.trim() !== '') block.push(line.value);
      else if (block.length > 0) break;
    }
    return block.length > 0 ? block.join('\n') : undefined;
  }

  /** Lets the process exit (stops reading a terminal). */
  close(): void {
    this.#rl.close();
  }
}
