// What the hostile tests of agent runs share: a workspace on the real disk (links, modes and FIFOs
// behave as they do for people), run folders planted the way a cloned repository would hold them,
// the agent runtime over that disk with a scripted model, the CLI in-process over it, and a
// snapshot of every entry under a folder so a test can say "nothing else was written".
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliDeps } from '../../../../src/cli/cliTypes';
import { systemClock } from '../../../../src/core/clock';
import type { CommandRunner } from '../../../../src/core/commands/commandRunner';
import { NodeWorkspaceFs } from '../../../../src/core/node/nodeWorkspaceFs';
import { AgentRunner } from '../../../../src/core/run/agentRun';
import type { AgentRunDeps } from '../../../../src/core/run/agentRun';
import type { ApprovalAnswer } from '../../../../src/core/run/commandGate';
import { RunStore } from '../../../../src/core/run/runStore';
import type { RunEvent } from '../../../../src/core/run/runTypes';
import type { WorkspaceFs } from '../../../../src/core/storage/workspaceFs';
import { WorkspaceStore } from '../../../../src/core/storage/workspaceStore';
import { FakeCommands, agentDeps } from '../../agent/agentHarness';
import { cliHere, scriptedDeps } from '../../cli/cliHarness';
import type { CliRun } from '../../../support/processes';
import { tempFolder } from '../../../support/tempDirs';
import type { ScriptedModel } from '../../../support/scriptedModel';
import { toolScript, type Turn } from '../../session/toolScript';

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A fresh folder under the system's temp folder, removed when the process ends. */
export const tempDir = (prefix = 'gw-hostile-'): Promise<string> => tempFolder(prefix);

/** A run id of `role` (the folder name a run gets). */
export function runId(n: number, role = 'build-developer'): string {
  return `20250101-0000${String(n).padStart(2, '0')}-${role}-${n.toString(16).padStart(4, '0')}`;
}

/** A valid run.json for `id`, with `extra` fields over it (which may make it invalid on purpose). */
export function runJson(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const role = /^\d{8}-\d{6}-(.+)-[0-9a-f]{4}$/.exec(id)?.[1] ?? 'build-developer';
  return {
    version: 1,
    id,
    role,
    task: 'Do the task',
    root: '.',
    status: 'failed',
    turns: 1,
    startedAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    origin: 'cli',
    ...extra,
  };
}

/** One transcript line. */
export function message(role: 'user' | 'assistant', content: unknown, turn = 0): string {
  return JSON.stringify({ type: 'message', at: '2025-01-02T03:04:05.000Z', turn, message: { role, content } });
}

/** Plants `.groundwork/runs/<id>/` as a cloned repository could hold it: run.json (an object or raw text) and other files as given. */
export async function plantRun(
  ws: string,
  id: string,
  record: Record<string, unknown> | string,
  files: Record<string, string | Uint8Array> = {},
): Promise<string> {
  const dir = join(ws, '.groundwork/runs', id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'run.json'), typeof record === 'string' ? record : `${JSON.stringify(record, null, 2)}\n`);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

/** A changes.json entry for a file the run created (`after` is what it wrote). */
export function created(path: string, after: string): Record<string, unknown> {
  return { path, before: null, beforeSha256: null, afterSha256: sha256(after) };
}

/** A changes.json entry for a file the run changed from `before` to `after`. */
export function changed(path: string, before: string, after: string): Record<string, unknown> {
  return { path, before: { encoding: 'utf8', data: before }, beforeSha256: sha256(before), afterSha256: sha256(after) };
}

export function changesJson(files: unknown[]): string {
  return JSON.stringify({ version: 1, files });
}

/**
 * Every entry under `dir` (links not followed) with what identifies its content: a file's hash and
 * mode, a link's target, a folder. Lock files come and go with every store call, so `.groundwork/locks`
 * is left out; so are the paths `skip` names (relative, '/'-separated, prefixes).
 */
export async function snapshot(dir: string, skip: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const name of await readdir(join(dir, rel)).catch(() => [] as string[])) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (path === '.groundwork/locks' || skip.some((s) => path === s || path.startsWith(`${s}/`))) continue;
      const st = await lstat(join(dir, path));
      if (st.isSymbolicLink()) out[path] = `link ${await readlink(join(dir, path))}`;
      else if (st.isDirectory()) {
        out[path] = 'dir';
        await walk(path);
      } else if (st.isFile())
        out[path] = `file ${(st.mode & 0o777).toString(8)} ${sha256(await readFile(join(dir, path)))}`;
      else out[path] = 'other';
    }
  };
  await walk('');
  return out;
}

export interface DiskRun {
  store: WorkspaceStore;
  runs: RunStore;
  runner: AgentRunner;
  script: ScriptedModel;
  commands: FakeCommands;
  events: RunEvent[];
  asked: string[];
}

/** The agent runtime over the real disk at `ws` with a scripted model, a fake command runner (unless given) and nobody to ask (unless `answers`). */
export function diskRun(
  ws: string,
  turns: Turn[],
  options: Partial<AgentRunDeps> & {
    answers?: ApprovalAnswer[];
    commandRunner?: CommandRunner;
    wrapFs?: (fs: WorkspaceFs) => WorkspaceFs;
  } = {},
): DiskRun {
  const { answers, commandRunner, wrapFs, ...rest } = options;
  const fs = new NodeWorkspaceFs();
  const store = new WorkspaceStore(wrapFs ? wrapFs(fs) : fs, ws);
  const script = toolScript(turns);
  const commands = new FakeCommands();
  const events: RunEvent[] = [];
  const { deps, asked } = agentDeps(store, script, systemClock, {
    commands: commandRunner ?? commands,
    ...(answers ? { answers } : {}),
    randomStep: 37,
    sleepMaxSeconds: 5,
    wait: async () => undefined,
  });
  const runs = deps.runs;
  const runner = new AgentRunner({ ...deps, ...rest });
  return { store, runs, runner, script, commands, events, asked };
}

/** `groundwork …` in-process with the real adapters over the disk, the current folder `ws`. */
export async function cliIn(
  ws: string,
  argv: string[],
  env: Record<string, string> = {},
  overrides: Partial<CliDeps> = {},
): Promise<CliRun> {
  return cliHere(argv, scriptedDeps({}, overrides), { env, cwd: ws });
}

/** C0/C1 controls, bidi controls and zero-width characters: none may reach a terminal raw. */
export const RAW_UNSAFE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
