// read_file: some lines of one text file of the workspace, with a header saying which lines of
// how many, and how to read on when there is more.
import { formatBytes, StorageError } from '../../storage/storageError';
import { visibleText } from '../../visibleText';
import { READ_DEFAULT_LINES } from '../definitions';
import { excludedError, loadProjectFilter, namedEntrySkipReason } from '../projectFilter';
import { quoted, resolveProjectPath } from '../projectPaths';
import { ToolInputError, type ToolContext, type ToolImplementation, type ToolRunCache } from '../toolTypes';
import { decodeText, fitFenced, isBinary, MAX_OUTPUT_BYTES, optionalString, splitLines } from './common';

/** Files over this size are refused whole: reading part of one would still read all of it. */
export const READ_MAX_FILE_BYTES = 2 * 1024 * 1024;

function tooLarge(shown: string, size: number): ToolInputError {
  return new ToolInputError(
    `${quoted(shown)} is ${formatBytes(size)}, too large for read_file, which reads files of up to ${formatBytes(READ_MAX_FILE_BYTES)} ` +
      '(offset and limit do not help: the whole file would still be read). Use search to find the lines you need elsewhere, ' +
      'or look for a smaller file with the same information.',
  );
}

async function run(input: Record<string, unknown>, context: ToolContext, cache: ToolRunCache): Promise<string> {
  const path = optionalString(input, 'path', '');
  const offset = typeof input.offset === 'number' ? input.offset : 1;
  const limit = typeof input.limit === 'number' ? input.limit : READ_DEFAULT_LINES;

  const entry = await resolveProjectPath(path, context, cache);
  const { shown } = entry;
  if (entry.kind === 'directory')
    throw new ToolInputError(`${quoted(shown)} is a folder: use list_files to see what is in it.`);
  if (entry.kind !== 'file')
    throw new ToolInputError(
      `${quoted(shown)} is not a regular file (a device, a socket or a pipe), so it cannot be read.`,
    );
  const reason = await namedEntrySkipReason(await loadProjectFilter(context, cache), entry);
  if (reason !== undefined) throw excludedError(shown, reason);
  if (entry.size > READ_MAX_FILE_BYTES) throw tooLarge(shown, entry.size);

  let data: Uint8Array | undefined;
  try {
    data = await context.fs.read(entry.real, READ_MAX_FILE_BYTES);
  } catch (err) {
    // It grew since it was looked at.
    if (err instanceof StorageError && err.code === 'too-large') throw tooLarge(shown, READ_MAX_FILE_BYTES + 1);
    throw err;
  }
  if (data === undefined)
    throw new ToolInputError(
      `${quoted(shown)} was removed while it was being read. Call list_files to see what is there now.`,
    );
  if (isBinary(data)) {
    throw new ToolInputError(
      `${quoted(shown)} is a binary file (${formatBytes(data.length)}); read_file reads text files only.`,
    );
  }

  const lines = splitLines(decodeText(data));
  const total = lines.length;
  if (total === 0) return `${visibleText(shown)} is empty (0 lines).`;
  if (offset > total) {
    throw new ToolInputError(
      `offset ${offset} is past the end of ${quoted(shown)}, which has ${total} lines: use an offset from 1 to ${total}.`,
    );
  }
  const wanted = lines.slice(offset - 1, offset - 1 + limit);
  const fitted = fitFenced(wanted, `file ${shown}`, context, (count, cutFirstLine) => {
    const last = offset - 1 + Math.max(count, cutFirstLine ? 1 : 0);
    let head = `${visibleText(shown)}, lines ${offset}–${last} of ${total}`;
    if (cutFirstLine)
      head += `; line ${offset} is longer than ${formatBytes(MAX_OUTPUT_BYTES)} and only its start is shown`;
    else if (count < wanted.length) head += ` (cut at ${formatBytes(MAX_OUTPUT_BYTES)})`;
    if (last < total) head += `; call again with offset ${last + 1} to read on`;
    return head;
  });
  return fitted.text;
}

export const readFile: ToolImplementation = {
  target: (input) => (typeof input.path === 'string' && input.path !== '' ? input.path : '.'),
  run,
};
