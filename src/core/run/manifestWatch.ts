// Whether a write is a manifest write (core/commands/manifests.ts judges names; this looks at the
// disk for what names alone cannot tell: a file a Makefile includes, a file a link named
// package.json points to), and what a build's earlier runs did that makes its script runners be
// asked again: a manifest they wrote (run.json's `manifestWrite`, or changes.json for runs made
// before it was kept) or a command they ran (`ranCommand`: a command may write any file, and the
// write tools never see it). The build's gate state is made from that at Resume and kept up to date
// after each phase's run (docs/build-phases.md, "Manifests").
import { manifestToolCommand, isManifestFile, isMakefileName } from '../commands/manifests';
import { MAKEFILE_MAX_BYTES, includeNames, makefileIncludes } from '../commands/makeIncludes';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { readChanges } from './changesFile';
import type { Sha256 } from './changesFile';
import type { GateState } from './commandGate';
import type { RunStore } from './runStore';

/** The most folders above a written file looked at, names per folder, and Makefiles read per write. */
const MAX_FOLDERS = 32;
const MAX_NAMES = 5000;
const MAX_MAKEFILES = 16;

/** Lexically normalised '/'-joined names; undefined when the path leaves its root or is absolute. */
function inside(path: string): string[] | undefined {
  if (/^([\\/]|[A-Za-z]:)/.test(path)) return undefined;
  const out: string[] = [];
  for (const s of path.split(/[\\/]/)) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.pop() === undefined) return undefined;
    } else out.push(s);
  }
  return out.length > 0 ? out : undefined;
}

const same = (a: string, b: string) => a.replace(/\\/g, '/').toLowerCase() === b.replace(/\\/g, '/').toLowerCase();

/**
 * What makes writing this file a manifest write, in words ('package.json', 'rules.inc (Makefile
 * includes it)', 'notes.txt (package.json is a link to it)'), or undefined. `real`: its real path
 * relative to the root's real path; `given`: the path as the model wrote it. Without `fs`, names only.
 * A folder that cannot be read is passed over: the names were judged already.
 */
export async function manifestWrite(
  fs: WorkspaceFs | undefined,
  root: string,
  real: string,
  given?: string,
): Promise<string | undefined> {
  if (isManifestFile(real)) return real;
  if (given !== undefined && isManifestFile(given)) return given;
  if (fs === undefined) return undefined;
  const realRoot = await fs.realpath(root).catch(() => undefined);
  if (realRoot === undefined) return undefined;
  const paths = [inside(real), given === undefined ? undefined : inside(given)].filter(
    (p): p is string[] => p !== undefined,
  );
  const target = `${realRoot}/${real}`;
  const budget = { makefiles: MAX_MAKEFILES };
  // Each folder from the root down to the written file's: its Makefiles and its links named as manifests.
  for (const segments of paths) {
    for (let depth = 0; depth < segments.length && depth < MAX_FOLDERS; depth++) {
      const folder = segments.slice(0, depth);
      const rel = segments.slice(depth).join('/');
      const dir = [realRoot, ...folder].join('/');
      const names = (await fs.list(dir).catch(() => [] as string[])).slice(0, MAX_NAMES);
      for (const name of names) {
        if (isMakefileName(name) && budget.makefiles > 0) {
          const by = await includedBy(fs, dir, name, rel, budget, 0);
          if (by !== undefined) return `${segments.join('/')} (${[...folder, by].join('/')} includes it)`;
        }
        if (isManifestFile(name) && (await linksTo(fs, `${dir}/${name}`, target)))
          return `${segments.join('/')} (${[...folder, name].join('/')} is a link to it)`;
      }
    }
  }
  return undefined;
}

/** Whether the Makefile `dir/name` (or one it includes, a few deep) includes `rel`: the include chain's first file when it does. */
async function includedBy(
  fs: WorkspaceFs,
  dir: string,
  name: string,
  rel: string,
  budget: { makefiles: number },
  depth: number,
): Promise<string | undefined> {
  if (budget.makefiles-- <= 0 || depth > 3) return undefined;
  const bytes = await fs.read(`${dir}/${name}`, MAKEFILE_MAX_BYTES).catch(() => undefined);
  if (bytes === undefined) return undefined;
  const includes = makefileIncludes(new TextDecoder().decode(bytes));
  if (includes.some((include) => includeNames(include, rel))) return name;
  for (const include of includes) {
    const plain = inside(include);
    if (plain === undefined || /[$*?[]/.test(include)) continue;
    if ((await includedBy(fs, dir, plain.join('/'), rel, budget, depth + 1)) !== undefined) return name;
  }
  return undefined;
}

/** Whether `path` is a link that resolves to `target` (a dangling one counts: writing its target would make it). */
async function linksTo(fs: WorkspaceFs, path: string, target: string): Promise<boolean> {
  const info = await fs.info(path).catch(() => undefined);
  if (info?.kind !== 'symlink') return false;
  const resolved = await fs.realpath(path).catch(() => undefined);
  return resolved === undefined || same(resolved, target);
}

/** What a build's earlier runs did about manifests. */
export interface ManifestTrace {
  /** The first manifest written, in words, and the phase whose run wrote it. */
  manifest?: { what: string; phase: string };
  /** The first phase whose run ran a command (or whose record cannot be read). */
  commands?: { phase: string; unread?: boolean };
}

/** The trace of a build's runs, from their run.json and changes.json. */
export async function manifestTrace(
  deps: { runs: RunStore; store: WorkspaceStore; hash: Sha256 },
  runs: readonly { runId: string; phase: string }[],
): Promise<ManifestTrace> {
  const trace: ManifestTrace = {};
  for (const { runId, phase } of runs) {
    const read = await deps.runs.read(runId).catch(() => undefined);
    if (read?.ok !== true) {
      trace.commands ??= { phase, unread: true };
      continue;
    }
    if (read.run.manifestWrite !== undefined) trace.manifest ??= { what: read.run.manifestWrite, phase };
    if (read.run.ranCommand === true) trace.commands ??= { phase };
    if (trace.manifest !== undefined) continue;
    const changes = await readChanges(deps.store, runId, deps.hash).catch(() => undefined);
    const written = changes?.ok === true ? changes.changes.files.find((f) => isManifestFile(f.path)) : undefined;
    if (written !== undefined) trace.manifest = { what: written.path, phase };
  }
  return trace;
}

/** Why a build's script runners are asked again, in words; undefined when nothing in the trace makes them. */
export function traceWords(trace: ManifestTrace): string | undefined {
  if (trace.manifest !== undefined)
    return `${trace.manifest.what} was written in this build (phase ${trace.manifest.phase})`;
  if (trace.commands?.unread === true)
    return `the record of a run of this build (phase ${trace.commands.phase}) cannot be read, so a manifest may have been written`;
  if (trace.commands !== undefined)
    return `phase ${trace.commands.phase} of this build ran commands, and a command may have written a manifest`;
  return undefined;
}

/**
 * Takes what `trace` says into a build's gate state: from now on its script runners are asked again,
 * and the person's earlier "for this build" answers for them no longer hold. The reason kept is the
 * latest manifest written, else the first other one.
 */
export function noteTrace(state: GateState, trace: ManifestTrace): void {
  const words = traceWords(trace);
  if (words === undefined) return;
  for (const command of state.approvedForRun) if (manifestToolCommand(command)) state.approvedForRun.delete(command);
  if (trace.manifest !== undefined || !state.manifestWritten || state.manifestWhy === undefined)
    state.manifestWhy = words;
  state.manifestWritten = true;
}
