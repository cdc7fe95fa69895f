// Runs an approved command as a child process (the CommandRunner port of core/commands). The shell
// leads a process group of its own (POSIX), so stopping it reaches everything it started: SIGINT to
// the group, SIGKILL after a grace period, and SIGKILL again for whatever is left once the shell
// has exited (a 'sleep 100 &' that outlived it). The environment is a short allow-list: the agent's
// commands never see the API key or anything else the editor's process holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { KILL_GRACE_MS, type CommandRequest, type CommandResult, type CommandRunner } from '../commands/commandRunner';

export interface NodeCommandRunnerOptions {
  /** POSIX: run as `<shell> -c <command>` (default /bin/sh). Windows: `<shell> /d /s /c` (default %ComSpec%). */
  shell?: string;
  /** The environment the minimal one is picked from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Between SIGINT and SIGKILL (default KILL_GRACE_MS). */
  graceMs?: number;
  /** Output kept in the result; beyond it the middle is left out, head and tail kept (default 16 MiB). */
  maxCapturedBytes?: number;
}

const DEFAULT_MAX_CAPTURED_BYTES = 16 * 1024 * 1024;
/** How long a group killed with SIGKILL may take to disappear (a process in uninterruptible I/O, an init slow to reap). */
const GROUP_GONE_MAX_MS = 5000;
/** How long the pipes may stay open after the group is gone (held by a process that left the group). */
const PIPES_MAX_MS = 1000;
/** setTimeout's largest delay; beyond it Node fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const POSIX_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
];
const WINDOWS_ENV = ['SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA'];

/**
 * The variables a command gets: what finds programs, the user, the locale and temp folders, and
 * GROUNDWORK_AGENT=1 so a script can tell. Names compare case-insensitively (Windows' 'Path').
 */
export function minimalEnv(
  base: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const allowed = new Set(platform === 'win32' ? [...POSIX_ENV, ...WINDOWS_ENV] : POSIX_ENV);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && allowed.has(name.toUpperCase())) env[name] = value;
  }
  if (!Object.keys(env).some((name) => name.toUpperCase() === 'TERM')) env['TERM'] = 'dumb';
  env['GROUNDWORK_AGENT'] = '1';
  // cmd.exe looks for a program in the current folder first: a node.cmd the agent wrote would run for `node`.
  if (platform === 'win32') env['NoDefaultCurrentDirectoryInExePath'] = '1';
  return env;
}

/** Process groups started and not yet gone: killed if this process exits first, so none outlives it. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function track(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

/** The environment variable that marks every process of one command (see killMarked). */
export const MARK_VARIABLE = 'GROUNDWORK_COMMAND';

/**
 * SIGKILL to every process of this user that carries the command's mark in its environment: what
 * left the command's process group (setsid, a `detached` child, a daemon) is not left behind. Linux
 * only (/proc); elsewhere, and for a process that cleared its environment, the group kill is all.
 */
export async function killMarked(mark: string): Promise<number> {
  if (process.platform !== 'linux') return 0;
  const needle = Buffer.from(`${MARK_VARIABLE}=${mark}\0`);
  let killed = 0;
  const names = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .map(async (name) => {
        // Another user's process cannot be read: it is not ours to kill either.
        const environ = await readFile(`/proc/${name}/environ`).catch(() => undefined);
        if (
          environ === undefined ||
          !(
            environ.subarray(0, needle.length).equals(needle) ||
            environ.includes(Buffer.concat([Buffer.from('\0'), needle]))
          )
        )
          return;
        try {
          process.kill(Number(name), 'SIGKILL');
          killed++;
        } catch {
          // Gone meanwhile.
        }
      }),
  );
  return killed;
}

/** Sends `signal` to the whole group; false when the group is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** stdout and stderr merged in arrival order; past `max` bytes only the first and last halves are kept. */
class OutputCapture {
  private readonly chunks: string[] = [];
  private head = '';
  private tail: string[] = [];
  private tailStart = 0;
  private tailBytes = 0;
  private total = 0;
  private cut = false;

  constructor(private readonly max: number) {}

  add(chunk: string): void {
    const bytes = Buffer.byteLength(chunk);
    this.total += bytes;
    if (!this.cut) {
      this.chunks.push(chunk);
      if (this.total <= this.max) return;
      // Over the limit for the first time: split what is kept into a head and a tail.
      this.cut = true;
      const all = this.chunks.join('');
      this.chunks.length = 0;
      this.head = prefixBytes(all, Math.floor(this.max / 2));
      this.pushTail(all);
    } else this.pushTail(chunk);
  }

  text(): string {
    if (!this.cut) return this.chunks.join('');
    const tail = this.tail.slice(this.tailStart).join('');
    const left = this.total - Buffer.byteLength(this.head) - Buffer.byteLength(tail);
    return `${this.head}\n[… ${left} bytes of output left out …]\n${tail}`;
  }

  private pushTail(chunk: string): void {
    const limit = this.max - Math.floor(this.max / 2);
    this.tail.push(chunk);
    this.tailBytes += Buffer.byteLength(chunk);
    while (this.tailBytes > limit) {
      const first = this.tail[this.tailStart] as string;
      const firstBytes = Buffer.byteLength(first);
      if (this.tailBytes - firstBytes >= limit) {
        this.tailStart++;
        this.tailBytes -= firstBytes;
      } else {
        const kept = suffixBytes(first, firstBytes - (this.tailBytes - limit));
        this.tail[this.tailStart] = kept;
        this.tailBytes -= firstBytes - Buffer.byteLength(kept);
        break;
      }
    }
    if (this.tailStart > 1024) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }
}

/** The longest start of `text` within `max` UTF-8 bytes, not cutting a character. */
function prefixBytes(text: string, max: number): string {
  const bytes = Buffer.from(text);
  let end = Math.min(max, bytes.length);
  while (end > 0 && end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString();
}

/** The longest end of `text` within `max` UTF-8 bytes, not cutting a character. */
function suffixBytes(text: string, max: number): string {
  const bytes = Buffer.from(text);
  let start = Math.max(0, bytes.length - max);
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString();
}

export class NodeCommandRunner implements CommandRunner {
  private readonly windows = process.platform === 'win32';
  private readonly shell: string;
  private readonly env: Record<string, string>;
  private readonly graceMs: number;
  private readonly maxCapturedBytes: number;

  constructor(options: NodeCommandRunnerOptions = {}) {
    const base = options.env ?? process.env;
    this.shell = options.shell ?? (this.windows ? (base['ComSpec'] ?? base['COMSPEC'] ?? 'cmd.exe') : '/bin/sh');
    this.env = minimalEnv(base);
    this.graceMs = options.graceMs ?? KILL_GRACE_MS;
    this.maxCapturedBytes = options.maxCapturedBytes ?? DEFAULT_MAX_CAPTURED_BYTES;
  }

  run(request: CommandRequest): Promise<CommandResult> {
    const started = performance.now();
    if (request.signal.aborted)
      return Promise.resolve({ exitCode: undefined, timedOut: false, cancelled: true, output: '', durationMs: 0 });
    return new Promise<CommandResult>((resolve, reject) => {
      // Every process the command starts inherits this mark, also one that leaves the group (setsid, a daemon).
      const mark = randomBytes(12).toString('hex');
      const child = spawn(
        this.shell,
        this.windows ? ['/d', '/s', '/c', `"${request.command}"`] : ['-c', request.command],
        {
          cwd: request.cwd,
          env: { ...this.env, [MARK_VARIABLE]: mark },
          detached: !this.windows,
          stdio: ['ignore', 'pipe', 'pipe'],
          windowsHide: true,
          // As Node's own `shell: true` does on Windows: cmd.exe parses the quoted line itself.
          windowsVerbatimArguments: this.windows,
        },
      );
      const capture = new OutputCapture(this.maxCapturedBytes);
      let finished = false;
      const emit = (chunk: string) => {
        if (chunk === '' || finished) return;
        capture.add(chunk);
        try {
          request.onOutput?.(chunk);
        } catch {
          // A listener that throws must not keep the command's processes alive.
        }
      };
      const pipes = [child.stdout, child.stderr].map((stream) => {
        const decoder = new TextDecoder('utf-8');
        stream.on('data', (data: Buffer) => emit(decoder.decode(data, { stream: true })));
        return new Promise<void>((done) => {
          stream.once('close', () => {
            emit(decoder.decode());
            done();
          });
        });
      });

      let spawned = false;
      let stoppedBy: 'timeout' | 'abort' | undefined;
      let killAt = Infinity;
      let killTimer: NodeJS.Timeout | undefined;
      const stop = (why: 'timeout' | 'abort') => {
        if (stoppedBy !== undefined) return;
        stoppedBy = why;
        this.interrupt(child, 'SIGINT');
        killAt = performance.now() + this.graceMs;
        killTimer = setTimeout(() => this.interrupt(child, 'SIGKILL'), this.graceMs);
      };
      const onAbort = () => stop('abort');
      let timeout: NodeJS.Timeout | undefined;

      child.on('error', (error: NodeJS.ErrnoException) => {
        if (spawned) return; // A failed kill of a process already gone: nothing to do.
        reject(new Error(this.startFailure(error, request.cwd)));
      });
      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined && !this.windows) track(child.pid);
        timeout = setTimeout(() => stop('timeout'), Math.min(Math.max(0, request.timeoutMs), MAX_TIMER_MS));
        request.signal.addEventListener('abort', onAbort, { once: true });
        if (request.signal.aborted) stop('abort');
      });
      child.once('exit', (code, signal) => {
        if (!spawned) return;
        clearTimeout(timeout);
        request.signal.removeEventListener('abort', onAbort);
        void this.afterExit(child, stoppedBy !== undefined, killAt)
          .then(() => killMarked(mark))
          .then(() => {
            clearTimeout(killTimer);
            return Promise.race([Promise.all(pipes), delay(PIPES_MAX_MS)]);
          })
          .then(() => {
            // A process outside the group may still hold a pipe: stop reading rather than wait for it.
            finished = true;
            child.stdout?.destroy();
            child.stderr?.destroy();
            resolve({
              exitCode: code ?? undefined,
              ...(signal ? { signal } : {}),
              timedOut: stoppedBy === 'timeout',
              cancelled: stoppedBy === 'abort',
              output: capture.text(),
              durationMs: performance.now() - started,
            });
          });
      });
    });
  }

  /**
   * After the shell exited: whatever it left in its group is killed. A command that ended by itself
   * leaves nothing to wait for, so its leftovers get SIGKILL at once; a stopped one's keep the rest
   * of their grace period after SIGINT. Resolves when the group is gone.
   */
  private async afterExit(child: ChildProcess, stopping: boolean, killAt: number): Promise<void> {
    const pid = child.pid;
    if (pid === undefined || this.windows) return;
    let killedAt: number | undefined;
    const kill = () => {
      signalGroup(pid, 'SIGKILL');
      killedAt = performance.now();
    };
    if (!stopping && signalGroup(pid, 0)) kill();
    let wait = 5;
    while (signalGroup(pid, 0)) {
      const now = performance.now();
      if (killedAt === undefined && now >= killAt) kill();
      // Killed processes wait for their reaper (init); past this bound the group is left to it.
      if (killedAt !== undefined && now - killedAt > GROUP_GONE_MAX_MS) break;
      await delay(wait);
      wait = Math.min(wait * 2, 50);
    }
    liveGroups.delete(pid);
  }

  /** SIGINT or SIGKILL to everything the command started. */
  private interrupt(child: ChildProcess, signal: 'SIGINT' | 'SIGKILL'): void {
    if (child.pid === undefined) return;
    if (!this.windows) {
      signalGroup(child.pid, signal);
      return;
    }
    // Windows has no process groups: taskkill walks the tree (/F when it must be forced).
    const args = signal === 'SIGKILL' ? ['/T', '/F', '/PID', String(child.pid)] : ['/T', '/PID', String(child.pid)];
    spawn('taskkill', args, { stdio: 'ignore', windowsHide: true }).on('error', () => child.kill());
  }

  private startFailure(error: NodeJS.ErrnoException, cwd: string): string {
    if (!existsSync(cwd))
      return `The command could not start: the folder ${cwd} does not exist. Open or create the folder the run works in, then try again.`;
    return `The command could not start (${error.code ?? error.message}): check that the shell ${this.shell} exists and can be run, and that ${cwd} is a folder you may enter.`;
  }
}
