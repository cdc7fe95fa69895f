// `groundwork annotations FILE.md`: the annotations of a spec document (regions and discovery
// notes), where each is, the status of each note's case in the workspace, and what is wrong. FILE
// is the person's own argument, relative to the current folder and not confined to the
// workspace; it must be a regular file of at most ANNOTATIONS_FILE_MAX_BYTES. The workspace's
// `.groundwork/cases.jsonl` is only read: no lock, nothing written, nothing created.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import { caseProblems } from '../../core/annotations/annotationCheck';
import { parseAnnotations } from '../../core/annotations/annotationParser';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import { CaseStore } from '../../core/cases/caseStore';
import { CASES_FILE } from '../../core/plan/layout';
import { displayPath } from '../../core/storage/workspaceStore';
import { visibleText } from '../../core/visibleText';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';
import { ANNOTATIONS_HELP } from '../help';
import { reportProblems } from '../readProblems';
import { annotationLines, annotationsJson, problemLines } from './annotationsOutput';
import type { CaseLookup, Problem } from './annotationsOutput';

/** The largest spec document read: 20 MiB. */
export const ANNOTATIONS_FILE_MAX_BYTES = 20 * 1024 * 1024;
const TOPIC = 'annotations';
const CASES_SHOWN = displayPath(CASES_FILE);
const MIB = 1024 * 1024;

/** Why `path` cannot be read as a spec, as a usage error that says what to do. */
function fileError(given: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const shown = `'${visibleText(given)}'`;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new UsageError(
      `${shown} does not exist; give the path of a markdown file, relative to the current folder`,
      TOPIC,
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new UsageError(`${shown} cannot be read: permission denied; check its permissions`, TOPIC);
  const why = err instanceof Error ? err.message : String(err);
  return new UsageError(`${shown} cannot be read (${why})`, TOPIC);
}

function kindProblem(given: string, info: Stats): UsageError | undefined {
  const shown = `'${visibleText(given)}'`;
  if (info.isDirectory())
    return new UsageError(
      `${shown} is a folder; give a markdown file in it, e.g. ${visibleText(given.replace(/[\\/]+$/, ''))}/spec.md`,
      TOPIC,
    );
  if (!info.isFile())
    return new UsageError(`${shown} is not a regular file (a device, a pipe or a socket); give a markdown file`, TOPIC);
  if (info.size > ANNOTATIONS_FILE_MAX_BYTES) return tooBig(given, info.size);
  return undefined;
}

function tooBig(given: string, size: number): UsageError {
  const mib = (size / MIB).toFixed(1);
  return new UsageError(
    `'${visibleText(given)}' is ${mib} MiB; annotations reads files of at most ${ANNOTATIONS_FILE_MAX_BYTES / MIB} MiB: split the spec into smaller files`,
    TOPIC,
  );
}

/** The file's text: a regular file, at most the cap, read through one handle (checked again once open). */
export async function readSpec(cwd: string, given: string): Promise<string> {
  const path = resolve(cwd, given);
  // stat before open: opening a FIFO would wait for a writer.
  const before = await stat(path).catch((err: unknown) => {
    throw fileError(given, err);
  });
  const refused = kindProblem(given, before);
  if (refused !== undefined) throw refused;
  const handle = await open(path, 'r').catch((err: unknown) => {
    throw fileError(given, err);
  });
  try {
    const info = await handle.stat();
    const changed = kindProblem(given, info);
    if (changed !== undefined) throw changed;
    // One byte past the cap tells a file that grew since the stat.
    const buffer = Buffer.alloc(Math.min(info.size, ANNOTATIONS_FILE_MAX_BYTES) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > ANNOTATIONS_FILE_MAX_BYTES) throw tooBig(given, length);
    // As VS Code opens it: UTF-8, a byte order mark dropped, a byte that is not UTF-8 as U+FFFD.
    return new TextDecoder('utf-8').decode(buffer.subarray(0, length));
  } catch (err) {
    throw err instanceof UsageError ? err : fileError(given, err);
  } finally {
    await handle.close();
  }
}

/**
 * The workspace's cases by id, or undefined when it has no cases file. A file that cannot be read
 * is said on stderr, and the command goes on without statuses; lines that are not cases are
 * reported as `groundwork cases list` reports them.
 */
async function workspaceCases(ctx: CommandContext): Promise<CaseLookup> {
  const { store } = await ctx.workspace();
  try {
    if ((await store.info(CASES_FILE)) === undefined) return undefined;
    const { cases, problems } = await new CaseStore(store, ctx.deps.clock, (bytes) => ctx.deps.hash(bytes)).load();
    reportProblems(ctx.io, CASES_SHOWN, problems);
    const byId = new Map<string, DiscoveryCase>(cases.map((c) => [c.id, c]));
    return (id) => byId.get(id);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    ctx.io.stderr(
      `groundwork: warning: ${CASES_SHOWN} could not be read (${visibleText(why)}); case statuses are not shown and case ids are not checked\n`,
    );
    return undefined;
  }
}

export const annotations: CliCommand = {
  path: ['annotations'],
  summary: "List a spec document's annotations and their problems",
  usage: 'annotations FILE.md [--json]',
  details: ANNOTATIONS_HELP,
  args: { min: 1, max: 1, name: 'a markdown file (FILE.md)' },
  async run(ctx) {
    const given = ctx.args[0] ?? '';
    if (given === '') throw new UsageError('the file name is empty; give the path of a markdown file', TOPIC);
    const text = await readSpec(ctx.io.cwd, given);
    const lookup = await workspaceCases(ctx);
    const parse = parseAnnotations(text);
    const problems: Problem[] = [...parse.problems, ...(lookup !== undefined ? caseProblems(parse, lookup) : [])];
    // The parser's problems and the case problems, merged in the order of the text.
    problems.sort((a, b) => a.offsets.start - b.offsets.start);
    if (ctx.json) ctx.io.stdout(`${annotationsJson(given, parse, lookup, problems)}\n`);
    else {
      const lines =
        parse.annotations.length > 0 ? annotationLines(parse, lookup) : [`No annotations in ${visibleText(given)}.`];
      ctx.io.stdout([...lines, ...problemLines(given, problems)].map((l) => `${l}\n`).join(''));
    }
    return problems.length > 0 ? EXIT_FAILURE : EXIT_OK;
  },
};
