// The port through which an agent's approved command runs. The Node adapter
// (core/node/nodeCommandRunner.ts) starts it as a child process in a process group of its own, in
// the run's root, with a minimal environment (no API key); tests may use a fake.

/** How one command should run. */
export interface CommandRequest {
  /** The exact text the person approved; run by the platform's shell (`/bin/sh -c`, `cmd.exe /d /s /c`). */
  command: string;
  /** The absolute folder it runs in: the run's root. */
  cwd: string;
  /** After this long the whole group gets SIGINT, then SIGKILL after a grace period. */
  timeoutMs: number;
  /** Aborting stops it the same way (SIGINT, then SIGKILL of the group). */
  signal: AbortSignal;
  /** Each chunk of stdout and stderr as it arrives, merged in arrival order (UTF-8 decoded). */
  onOutput?: (chunk: string) => void;
}

/** How a command ended. */
export interface CommandResult {
  /** The exit code, or undefined when a signal ended it. */
  exitCode: number | undefined;
  /** The signal that ended it ('SIGINT', 'SIGKILL'…), when one did. */
  signal?: string;
  /** It ran past its timeout and was stopped. */
  timedOut: boolean;
  /** It was stopped because the request's signal was aborted. */
  cancelled: boolean;
  /** All its output, stdout and stderr merged in arrival order (the log keeps it whole). */
  output: string;
  durationMs: number;
}

export interface CommandRunner {
  /**
   * Runs one command to its end, leaving no process of its group behind. Rejects only when it
   * could not start (no shell, a missing folder); a command that fails is a result with its exit code.
   */
  run(request: CommandRequest): Promise<CommandResult>;
}

/** The default per-command timeout. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10 * 60 * 1000;
/** How long a group has between SIGINT and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** What the model is sent of a command's output; the run's log keeps all of it. */
export const MODEL_OUTPUT_MAX_BYTES = 8 * 1024;
