// The parts of the process a conversing command reaches besides CliIo: stdin, whether stdin and
// stderr are terminals, and Ctrl-C. Shared by `discover` and `brainstorm`; tests hand in their own
// through CliDeps.terminal.
import { EXIT_INTERRUPTED } from './cliTypes';

export interface CliTerminal {
  /** The input of an interactive loop; only touched when the command reads answers. */
  stdin(): NodeJS.ReadableStream;
  stdinIsTTY(): boolean;
  stderrIsTTY(): boolean;
  /** Calls `handler` on Ctrl-C until the returned function is called. */
  onInterrupt(handler: () => void): () => void;
  /** Calls `handler` on SIGTERM (and SIGHUP: the terminal closed) until the returned function is called. */
  onTerminate(handler: () => void): () => void;
}

export const processTerminal: CliTerminal = {
  stdin: () => process.stdin,
  stdinIsTTY: () => process.stdin.isTTY === true,
  stderrIsTTY: () => process.stderr.isTTY === true,
  onInterrupt(handler) {
    let count = 0;
    // The first Ctrl-C stops the model call cleanly; a second one, if that hangs, does not wait.
    const listener = () => (++count > 1 ? process.exit(EXIT_INTERRUPTED) : handler());
    process.on('SIGINT', listener);
    return () => void process.off('SIGINT', listener);
  },
  onTerminate(handler) {
    const listener = () => handler();
    process.on('SIGTERM', listener);
    process.on('SIGHUP', listener);
    return () => {
      process.off('SIGTERM', listener);
      process.off('SIGHUP', listener);
    };
  },
};
