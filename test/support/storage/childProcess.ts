// Runs storageChild.ts in other processes: bundled once with esbuild, then started with plain
// `node`, since `node --import tsx` takes about half a second per start.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export interface ChildBundle {
  file: string;
  dispose(): Promise<void>;
}

export async function bundleChild(): Promise<ChildBundle> {
  const dir = await mkdtemp(join(tmpdir(), 'gw-child-'));
  const file = join(dir, 'storageChild.cjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'storageChild.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return { file, dispose: () => rm(dir, { recursive: true, force: true }) };
}

export function startChild(bundle: ChildBundle, args: string[]): ChildProcess {
  return spawn(process.execPath, [bundle.file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Calls `onLine` for each complete stdout line; a partial last line (a kill) is dropped. */
export function onLines(child: ChildProcess, onLine: (line: string) => void): void {
  let buffered = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      onLine(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  });
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string[];
  stderr: string;
}

/** Resolves once the process has exited and its output is read (so its pid is reaped). */
export function whenDone(child: ChildProcess): Promise<ChildResult> {
  const stdout: string[] = [];
  let stderr = '';
  onLines(child, (line) => stdout.push(line));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export async function runChild(bundle: ChildBundle, args: string[]): Promise<ChildResult> {
  return whenDone(startChild(bundle, args));
}
