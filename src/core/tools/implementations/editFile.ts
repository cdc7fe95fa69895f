// edit_file: replaces one exact piece of a text file. Exactly one match is required, so that a
// model working from a stale or partial view cannot change the wrong place: no match and several
// matches are both refused, saying which.
import { formatBytes } from '../../storage/storageError';
import { visibleText } from '../../visibleText';
import { quoted } from '../projectPaths';
import { ToolInputError, type ToolContext, type ToolImplementation, type ToolRunCache } from '../toolTypes';
import { resolveWritePath } from '../writePaths';
import { requireActing } from './acting';
import { isBinary, optionalString, plural } from './common';
import { countLines, readBefore, writeChange } from './writeFile';

/** Where `needle` occurs in `text`, literally and without overlaps. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** The file as text; a byte order mark is kept (ignoreBOM) so that writing it back does not drop it. */
function textOf(data: Uint8Array, shown: string): string {
  if (isBinary(data))
    throw new ToolInputError(
      `${quoted(shown)} is a binary file (${formatBytes(data.length)}); edit_file changes text files only.`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    throw new ToolInputError(
      `${quoted(shown)} is not valid UTF-8 text, so edit_file cannot change it without damaging it. Leave it, or rewrite it whole with write_file.`,
    );
  }
}

/**
 * The match of old_text, and the texts as they go in. read_file shows lines joined by '\n', so a
 * model's old_text has '\n' where a Windows file has '\r\n': when the literal text is not found in
 * such a file, it is looked for with '\r\n', and new_text then gets the file's line ends too.
 */
function findMatch(text: string, oldText: string, newText: string): { at: number[]; oldText: string; newText: string } {
  const literal = occurrences(text, oldText);
  if (literal.length > 0 || !text.includes('\r\n') || oldText.includes('\r') || !oldText.includes('\n'))
    return { at: literal, oldText, newText };
  const crlfOld = oldText.replace(/\n/g, '\r\n');
  return { at: occurrences(text, crlfOld), oldText: crlfOld, newText: newText.replace(/\r?\n/g, '\r\n') };
}

async function run(input: Record<string, unknown>, context: ToolContext, cache: ToolRunCache): Promise<string> {
  const acting = requireActing(context, 'edit_file');
  const target = await resolveWritePath(optionalString(input, 'path', ''), context, cache);
  const { shown } = target;
  const missing = () =>
    new ToolInputError(
      `${quoted(shown)} does not exist, so it cannot be edited. Use write_file to create it, or list_files to find the right path.`,
    );
  if (!target.exists) throw missing();
  const before = await readBefore(target, context, 'edit_file');
  if (before === undefined) throw missing();
  const text = textOf(before, shown);

  const requestedOld = optionalString(input, 'old_text', '');
  const requestedNew = optionalString(input, 'new_text', '');
  if (requestedOld === requestedNew)
    throw new ToolInputError('new_text is the same as old_text, so there is nothing to change.');
  const match = findMatch(text, requestedOld, requestedNew);
  if (match.at.length === 0)
    throw new ToolInputError(
      `old_text was not found in ${quoted(shown)}; read the file again and copy the text exactly.`,
    );
  if (match.at.length > 1) {
    throw new ToolInputError(
      `old_text matches ${match.at.length} places in ${quoted(shown)}; include more surrounding lines so it matches exactly one.`,
    );
  }
  // Sliced rather than String.replace, whose replacement would read '$&' and '$1' in new_text as patterns.
  const at = match.at[0] as number;
  const edited = text.slice(0, at) + match.newText + text.slice(at + match.oldText.length);
  await writeChange(acting, target, context, before, new TextEncoder().encode(edited));
  const replaced = `replaced ${plural(countLines(match.oldText), 'line')} with ${countLines(match.newText)}`;
  return `Edited ${visibleText(shown)}: ${replaced} (now ${plural(countLines(edited), 'line')}).`;
}

export const editFile: ToolImplementation = {
  target: (input) => (typeof input.path === 'string' ? input.path : '?'),
  run,
};
