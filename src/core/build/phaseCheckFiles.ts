// The project folder as a phase check reads it: what is at a path, and a file's text, with every
// symbolic link followed only while it stays inside the project folder (its agent wrote them all).
// Apart from phaseChecks.ts, which judges what is read.
import { StorageError, formatBytes } from '../storage/storageError';
import { checkProjectPath, isWindowsRoot, joinUnder, relativeInside } from '../tools/projectPaths';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { CheckInput } from './phaseChecks';
import type { ReadProject } from './testContract';
import { cap, shownLine } from './phaseCheckText';

/** The most specs/architecture.md may be (and the most of docs/USAGE.md read to see it is not blank). */
export const SPEC_MAX_BYTES = 1024 * 1024;

const decoder = new TextDecoder();

type Lookup =
  { ok: true; kind: 'file' | 'directory' | 'other'; real: string; size: number } | { ok: false; why: string };
type FileRead = { ok: true; text: string } | { ok: false; reason: string };

/**
 * What is at `rel` (a path relative to the project folder), following links only while they stay
 * inside the real project folder. A path that leaves it, is not a plain relative path, or is a link
 * to nothing is reported, never read.
 */
export async function lookUp(input: Pick<CheckInput, 'fs' | 'projectRoot'>, rel: string): Promise<Lookup> {
  let segments: string[];
  try {
    segments = checkProjectPath(rel);
  } catch {
    return { ok: false, why: 'is not a plain path inside the project folder' };
  }
  const { fs, projectRoot } = input;
  const windows = isWindowsRoot(projectRoot);
  try {
    const rootReal = await fs.realpath(projectRoot).catch(() => undefined);
    if (rootReal === undefined) return { ok: false, why: 'is missing: the project folder itself is not there' };
    const lexical = joinUnder(projectRoot, segments);
    const info = await fs.info(lexical);
    if (info === undefined) {
      // A missing file under a link that leads out says so: nothing outside is looked at.
      for (let depth = segments.length - 1; depth >= 1; depth--) {
        const ancestor = joinUnder(projectRoot, segments.slice(0, depth));
        if ((await fs.info(ancestor)) === undefined) continue;
        const real = await fs.realpath(ancestor).catch(() => undefined);
        if (real !== undefined && relativeInside(real, rootReal, windows) === undefined)
          return { ok: false, why: 'leads outside the project folder through a symbolic link' };
        break;
      }
      return { ok: false, why: 'is missing' };
    }
    const real = await fs.realpath(lexical).catch(() => undefined);
    if (real === undefined) return { ok: false, why: 'is a symbolic link to nothing' };
    if (relativeInside(real, rootReal, windows) === undefined)
      return { ok: false, why: 'leads outside the project folder through a symbolic link' };
    const target = info.kind === 'symlink' ? await fs.info(real) : info;
    if (target === undefined) return { ok: false, why: 'is missing' };
    const kind = target.kind === 'file' || target.kind === 'directory' ? target.kind : 'other';
    return { ok: true, kind, real, size: target.size };
  } catch (err) {
    if (err instanceof StorageError) return { ok: false, why: `could not be looked at (${shownLine(err.message)})` };
    throw err;
  }
}

/** The text of `rel` in the project folder, at most SPEC_MAX_BYTES (over it: refused, or with `big` a placeholder that is not blank). */
export async function readProjectFile(
  input: Pick<CheckInput, 'fs' | 'projectRoot'>,
  rel: string,
  big = false,
): Promise<FileRead> {
  const found = await lookUp(input, rel);
  if (!found.ok) return { ok: false, reason: `${rel} ${found.why}.` };
  if (found.kind !== 'file')
    return {
      ok: false,
      reason: `${rel} is ${found.kind === 'directory' ? 'a folder' : 'a special file'}, not a regular file.`,
    };
  if (found.size > SPEC_MAX_BYTES) {
    if (big) return { ok: true, text: `(${formatBytes(found.size)})` };
    return {
      ok: false,
      reason: `${rel} is ${found.size} bytes, over the limit of ${formatBytes(SPEC_MAX_BYTES)} (${SPEC_MAX_BYTES} bytes).`,
    };
  }
  try {
    const bytes = await input.fs.read(found.real, SPEC_MAX_BYTES);
    if (bytes === undefined) return { ok: false, reason: `${rel} is missing.` };
    return { ok: true, text: decoder.decode(bytes).replace(/^\ufeff/, '') };
  } catch (err) {
    if (err instanceof StorageError)
      return { ok: false, reason: cap(`${rel} could not be read: ${shownLine(err.message)}`) };
    throw err;
  }
}

/** The most of a file the test contract hashes: a test or config file past it is read as unreadable. */
export const CONTRACT_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** The project folder as the test contract reads it (testContract.ts's ReadProject): links only inside it. */
export function contractReader(fs: WorkspaceFs, projectRoot: string): ReadProject {
  return async (rel) => {
    const found = await lookUp({ fs, projectRoot }, rel);
    if (!found.ok) return { ok: false, missing: found.why === 'is missing', why: `${rel} ${found.why}` };
    if (found.kind !== 'file') return { ok: false, missing: false, why: `${rel} is not a regular file` };
    if (found.size > CONTRACT_FILE_MAX_BYTES)
      return { ok: false, missing: false, why: `${rel} is over ${formatBytes(CONTRACT_FILE_MAX_BYTES)}` };
    try {
      const bytes = await fs.read(found.real, CONTRACT_FILE_MAX_BYTES);
      if (bytes === undefined) return { ok: false, missing: true, why: `${rel} is missing` };
      // Where it really is, when a link on the way leads elsewhere in the folder (part of its hash).
      const rootReal = await fs.realpath(projectRoot);
      const real = relativeInside(found.real, rootReal, isWindowsRoot(projectRoot))?.join('/');
      return real === undefined || real === rel ? { ok: true, bytes } : { ok: true, bytes, via: real };
    } catch (err) {
      if (err instanceof StorageError) return { ok: false, missing: false, why: `${rel} could not be read` };
      throw err;
    }
  };
}
