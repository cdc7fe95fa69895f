import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { COMMANDS } from './commandTable';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './cliTypes';
import type { CliCommand, CliDeps, CliIo, CommandContext, OptionValues } from './cliTypes';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import { VERSION, commandHelp, generalHelp, groupHelp } from './help';
import { visibleText } from '../core/visibleText';
import { blockText } from './terminalText';
import { chooseWorkspaceFolder, WORKSPACE_FILE_SUFFIX, workspaceFolders } from './workspaceChoice';

type Options = NonNullable<ParseArgsConfig['options']>;

const GLOBAL_OPTIONS: Options = {
  workspace: { type: 'string' },
  folder: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};

/**
 * Runs one `groundwork` invocation in-process and returns the exit code: 0 success, 1 failure,
 * 2 bad usage or bad input. Never throws and never exits the process, so tests call it directly.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  deps: CliDeps,
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  try {
    return await dispatch([...argv], io, deps, commands);
  } catch (err) {
    return reportError(err, io);
  }
}

async function dispatch(argv: string[], io: CliIo, deps: CliDeps, commands: readonly CliCommand[]): Promise<number> {
  // First pass, lenient, only to find the command words: it knows every command's options so
  // that an option's value (`--title journal`) is not taken for a command word.
  const allOptions: Options = Object.assign({}, ...commands.map((c) => c.options ?? {}), GLOBAL_OPTIONS);
  const first = parseArgs({ args: argv, options: allOptions, strict: false, allowPositionals: true });
  const words = first.positionals;

  if (first.values['version'] === true) {
    io.stdout(`${VERSION}\n`);
    return EXIT_OK;
  }
  if (words[0] === 'help') return printHelp(words.slice(1), io, commands);
  if (words.length === 0) {
    if (first.values['help'] === true) return printHelp([], io, commands);
    io.stderr(generalHelp(commands));
    io.stderr(`groundwork: no command given\n`);
    return EXIT_USAGE;
  }

  const command = match(words, commands);
  if (command === undefined) {
    if (first.values['help'] === true) return printHelp(words, io, commands);
    throw unknownCommand(words, commands);
  }
  const topic = command.path.join(' ');

  let parsed: { values: OptionValues; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      strict: true,
      allowPositionals: true,
    }) as typeof parsed;
  } catch (err) {
    throw new UsageError(parseArgsMessage(err, argv), topic);
  }
  if (parsed.values['help'] === true) {
    io.stdout(commandHelp(command));
    return EXIT_OK;
  }
  const args = parsed.positionals.slice(command.path.length);
  const allowed = command.args ?? { min: 0, max: 0, name: '' };
  if (args.length > allowed.max) throw new UsageError(`unexpected argument '${args[allowed.max]}'`, topic);
  if (args.length < allowed.min) throw new UsageError(`${topic} needs ${allowed.name}`, topic);

  let opened: Promise<{ root: string; store: WorkspaceStore }> | undefined;
  const ctx: CommandContext = {
    io,
    deps,
    values: parsed.values,
    args,
    json: parsed.values['json'] === true,
    workspace: () => (opened ??= openWorkspace(parsed.values['workspace'], parsed.values['folder'], io, deps)),
  };
  return await command.run(ctx);
}

async function openWorkspace(
  option: string | boolean | undefined,
  folder: string | boolean | undefined,
  io: CliIo,
  deps: CliDeps,
) {
  if (option === '') throw new UsageError('--workspace is empty; give a folder');
  let root = resolve(io.cwd, typeof option === 'string' ? option : '.');
  // A folder may be named like a workspace file: it is still a folder.
  if (root.endsWith(WORKSPACE_FILE_SUFFIX) && deps.readTextFile && !(await deps.isDirectory(root))) {
    const text = await deps.readTextFile(root);
    if (text === undefined) throw new UsageError(`the workspace file '${root}' cannot be read`);
    root = await chooseWorkspaceFolder(
      workspaceFolders(text, root),
      typeof folder === 'string' ? folder : undefined,
      root,
      deps.isDirectory,
    );
  } else if (typeof folder === 'string') {
    throw new UsageError(
      `--folder picks a folder of a ${WORKSPACE_FILE_SUFFIX} file; pass one with --workspace FILE${WORKSPACE_FILE_SUFFIX}`,
    );
  }
  if (!(await deps.isDirectory(root))) {
    const how =
      option === undefined
        ? 'run groundwork inside the workspace or pass --workspace DIR'
        : 'pass an existing folder with --workspace';
    throw new UsageError(`the workspace folder '${root}' does not exist or is not a folder; ${how}`);
  }
  return { root, store: deps.openStore(root) };
}

/** The command whose words start the positionals; the longest wins. */
function match(words: readonly string[], commands: readonly CliCommand[]): CliCommand | undefined {
  let best: CliCommand | undefined;
  for (const c of commands) {
    if (c.path.every((w, i) => words[i] === w) && (best === undefined || c.path.length > best.path.length)) best = c;
  }
  return best;
}

function unknownCommand(words: readonly string[], commands: readonly CliCommand[]): UsageError {
  const group = words[0] ?? '';
  const under = commands.filter((c) => c.path[0] === group).map((c) => c.path[1] ?? '');
  if (under.length === 0) return new UsageError(`unknown command '${group}'`);
  const choices = under.join(', ');
  if (words.length === 1) return new UsageError(`'${group}' needs a subcommand: ${choices}`, group);
  return new UsageError(`unknown ${group} subcommand '${words[1]}'; expected one of: ${choices}`, group);
}

function printHelp(topic: readonly string[], io: CliIo, commands: readonly CliCommand[]): number {
  if (topic.length === 0) {
    io.stdout(generalHelp(commands));
    return EXIT_OK;
  }
  const command = commands.find((c) => c.path.length === topic.length && c.path.every((w, i) => topic[i] === w));
  if (command) {
    io.stdout(commandHelp(command));
    return EXIT_OK;
  }
  const group = commands.filter((c) => c.path[0] === topic[0]);
  if (topic.length === 1 && group.length > 0) {
    io.stdout(groupHelp(topic[0] ?? '', group));
    return EXIT_OK;
  }
  throw new UsageError(`no help for '${topic.join(' ')}': no such command`);
}

/**
 * Node's parseArgs messages, cut to their first sentence ("Unknown option '--foo'"), except for a
 * value that starts with '-' (`--description "- fixed X"`): Node refuses it as "ambiguous", and
 * the way out has to be said with the user's own option and value.
 */
function parseArgsMessage(err: unknown, argv: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  const ambiguous = /^Option '(?:-\w, )?(--[^']+)' argument is ambiguous/.exec(message)?.[1];
  if (ambiguous !== undefined) return dashValueMessage(ambiguous, argv);
  const first = message.split(/\.\s/)[0] ?? message;
  return first.charAt(0).toLowerCase() + first.slice(1);
}

const SHOWN_VALUE_CHARS = 60;

function dashValueMessage(option: string, argv: readonly string[]): string {
  const at = argv.findIndex((a, i) => a === option && argv[i + 1]?.startsWith('-'));
  const value = argv[at + 1];
  if (at < 0 || value === undefined) {
    return `option '${option}' is missing its value; to give a value that starts with '-', write ${option}=VALUE`;
  }
  const chars = [...value];
  const example = chars.length <= SHOWN_VALUE_CHARS ? shellWord(`${option}=${value}`) : `${option}=VALUE`;
  const shown = chars.length <= SHOWN_VALUE_CHARS ? value : `${chars.slice(0, SHOWN_VALUE_CHARS).join('')}…`;
  return (
    `option '${option}' is followed by '${shown}', which starts with '-' and so is not taken as its value; ` +
    `if it is the value, join the two with '=': ${example}`
  );
}

/**
 * One shell word the user can paste back: single-quoted, which sh, bash, zsh and PowerShell read
 * alike; double-quoted for POSIX shells when the text itself holds a single quote.
 */
function shellWord(text: string): string {
  return text.includes("'") ? `"${text.replace(/["$`\\]/g, '\\$&')}"` : `'${text}'`;
}

function reportError(err: unknown, io: CliIo): number {
  if (err instanceof UsageError) {
    const topic = err.helpTopic ? ` ${err.helpTopic}` : '';
    io.stderr(`groundwork: ${oneLine(err.message)}. Run 'groundwork help${topic}' for usage.\n`);
    return EXIT_USAGE;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.stderr(`groundwork: ${oneLine(message)}\n`);
  if (io.env['GROUNDWORK_DEBUG'] && err instanceof Error && err.stack) io.stderr(`${blockText(err.stack, '')}\n`);
  return EXIT_FAILURE;
}

function oneLine(text: string): string {
  return visibleText(text.trim().replace(/\s*\n\s*/g, ' ')).replace(/\.$/, '');
}
