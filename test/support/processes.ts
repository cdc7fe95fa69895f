// Child processes of the tests: a TypeScript file of the repository run through tsx, and the
// `groundwork` CLI as people run it (src/cli/main.ts through tsx, or dist/cli.js as built), their
// output collected. One runner for the unit tests that need a real process, the stress tests and
// the benches.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const repo = join(__dirname, '../..');
// Resolved from the repository, since the child may run with a workspace as its current folder.
export const tsx = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('tsx')).href;

/** What a run of the CLI, in-process or as a child, printed and how it ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ProcessRun extends CliRun {
  /** -1 in `code` when a signal ended the process (and this names it), -2 when neither did. */
  signal: NodeJS.Signals | null;
  /** All the bytes written to stderr, when `stderrTail` kept only the last of them. */
  stderrBytes: number;
  /** From the spawn to the exit. */
  ms: number;
}

export interface ProcessOptions {
  /** Default: the repository. */
  cwd?: string;
  /** The child's whole environment (default: this process's), NO_COLOR added. */
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, which is then closed (default: no stdin). */
  stdin?: string;
  /** Keep only the last this many bytes of stderr (a command may print hundreds of MB). */
  stderrTail?: number;
  /** Once the child runs: a way to signal it (Ctrl-C mid-call), and its stderr so far. */
  onSpawn?: (kill: (signal: NodeJS.Signals) => void, stderr: () => string) => void;
}

/** `node [--import tsx] <script> <args>`, a .ts script through tsx. */
export function runNode(script: string, args: string[], options: ProcessOptions = {}): Promise<ProcessRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(script.endsWith('.ts') ? ['--import', tsx] : []), script, ...args], {
      cwd: options.cwd ?? repo,
      env: { ...(options.env ?? process.env), NO_COLOR: '1' },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    let stdout = '';
    let stderr = '';
    let stderrBytes = 0;
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      stderrBytes += Buffer.byteLength(s);
      stderr = options.stderrTail === undefined ? stderr + s : (stderr + s).slice(-options.stderrTail);
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal ? -1 : -2),
        signal,
        stdout,
        stderr,
        stderrBytes,
        ms: performance.now() - started,
      }),
    );
    options.onSpawn?.(
      (signal) => child.kill(signal),
      () => stderr,
    );
  });
}

/** The `groundwork` CLI: its source (run through tsx), and dist/cli.js as `npm run build` makes it. */
export const CLI = { source: join(repo, 'src/cli/main.ts'), built: join(repo, 'dist/cli.js') };

/** `groundwork <args>` as a child (src/cli/main.ts through tsx, or with `built` dist/cli.js): its exit and output. */
export async function runCliProcess(
  args: string[],
  options: ProcessOptions & { built?: boolean } = {},
): Promise<CliRun> {
  const { built, ...rest } = options;
  const { code, stdout, stderr } = await runNode(built ? CLI.built : CLI.source, args, rest);
  return { code, stdout, stderr };
}
