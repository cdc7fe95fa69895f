// write_file: creates a file or replaces its content. The run is told before and after each change
// (ActingPorts) so it keeps the content as it was before the run first changed the file (Revert
// Run) and shows the write; a file too large for that record is never overwritten.
import { CHANGE_BEFORE_MAX_BYTES } from '../../run/runTypes';
import { formatBytes, StorageError } from '../../storage/storageError';
import { visibleText } from '../../visibleText';
import { quoted } from '../projectPaths';
import {
  ToolInputError,
  type ActingPorts,
  type ToolContext,
  type ToolImplementation,
  type ToolRunCache,
} from '../toolTypes';
import { resolveWritePath, type WriteTarget } from '../writePaths';
import { requireActing } from './acting';
import { decodeText, isBinary, optionalString, plural, splitLines } from './common';

/** Lines as a person counts them: '' has 0, 'a' and 'a\n' have 1, 'a\nb' has 2. */
export function countLines(text: string): number {
  return splitLines(text).length;
}

function tooLarge(shown: string, tool: string): ToolInputError {
  return new ToolInputError(
    `${quoted(shown)} is larger than ${formatBytes(CHANGE_BEFORE_MAX_BYTES)}, too large for ${tool} to change while keeping what it held for undo. ` +
      'Leave it as it is, or say in your answer what should change in it.',
  );
}

/** The file's bytes now (undefined: it is not there), within what the run can keep for undo. */
export async function readBefore(
  target: WriteTarget,
  context: ToolContext,
  tool: string,
): Promise<Uint8Array | undefined> {
  if (!target.exists) return undefined;
  try {
    return await context.fs.read(target.real, CHANGE_BEFORE_MAX_BYTES);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'too-large') throw tooLarge(target.shown, tool);
    throw err;
  }
}

/**
 * Tells the run, writes, tells the run again. Nothing is written when beforeChange refuses, or when
 * the file changed since it was read (another run, the person's editor): its change is not lost.
 * An existing file keeps its permissions (a script stays executable).
 */
export async function writeChange(
  acting: ActingPorts,
  target: WriteTarget,
  context: ToolContext,
  before: Uint8Array | undefined,
  after: Uint8Array,
): Promise<void> {
  const path = target.realSegments.join('/');
  const refused = context.writeGuard?.(target.segments.join('/'), after) ?? context.writeGuard?.(path, after);
  if (refused !== undefined)
    throw new ToolInputError(`Writing ${visibleText(target.shown)} was refused: ${visibleText(refused)}`);
  await acting.beforeChange({ path, before, after });
  const info = await context.fs.info(target.real);
  const now =
    info?.kind === 'file' ? await readBefore(target, context, 'write_file').catch(() => undefined) : undefined;
  if (
    (info === undefined) !== (before === undefined) ||
    (before !== undefined && (now === undefined || !sameBytes(now, before)))
  ) {
    throw new ToolInputError(
      `${visibleText(target.shown)} changed while it was being written (another run or an editor wrote it); nothing was written. Read it again, then make the change.`,
    );
  }
  await context.fs.writeAtomic(target.real, after, info?.mode);
  await acting.afterChange({ path, after, created: before === undefined });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What the file held before, for the result: "replaced the previous 10 lines". */
function previousText(before: Uint8Array): string {
  if (isBinary(before)) return `replaced a binary file of ${formatBytes(before.length)}`;
  return `replaced the previous ${plural(countLines(decodeText(before)), 'line')}`;
}

async function run(input: Record<string, unknown>, context: ToolContext, cache: ToolRunCache): Promise<string> {
  const acting = requireActing(context, 'write_file');
  const content = optionalString(input, 'content', '');
  const target = await resolveWritePath(optionalString(input, 'path', ''), context, cache);
  const before = await readBefore(target, context, 'write_file');
  const after = new TextEncoder().encode(content);
  await writeChange(acting, target, context, before, after);
  const what = before === undefined ? 'created' : previousText(before);
  return `Wrote ${visibleText(target.shown)} (${plural(countLines(content), 'line')}, ${plural(after.length, 'byte')}); ${what}.`;
}

export const writeFile: ToolImplementation = {
  target: (input) => (typeof input.path === 'string' ? input.path : '?'),
  run,
};
