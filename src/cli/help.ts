import { version } from '../../package.json';
import type { CliCommand } from './cliTypes';

export const VERSION: string = version;

const GLOBAL_HELP = [
  'Options:',
  '  --workspace DIR  the workspace folder (default: the current folder)',
  '  --json           machine-readable output on stdout',
  '  --help, -h       show help (also: groundwork help COMMAND)',
  '  --version        print the version',
  '',
  'Exit codes: 0 success, 1 failure, 2 bad usage or bad input.',
];

export function generalHelp(commands: readonly CliCommand[]): string {
  const names = commands.map((c) => c.path.join(' '));
  const width = Math.max('help [COMMAND]'.length, ...names.map((n) => n.length));
  const rows = commands.map((c, i) => `  ${(names[i] ?? '').padEnd(width)}  ${c.summary}`);
  rows.push(`  ${'help [COMMAND]'.padEnd(width)}  Show help for a command`);
  return [
    `groundwork ${VERSION}: plan, build and keep a journal of discoveries, headless.`,
    '',
    'Usage: groundwork [--workspace DIR] [--json] <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    ...GLOBAL_HELP,
    '',
  ].join('\n');
}

export function commandHelp(command: CliCommand): string {
  return [`Usage: groundwork ${command.usage}`, '', command.summary + '.', ...(command.details ?? []), '', ...GLOBAL_HELP, ''].join('\n');
}

/** Help for a word that groups commands, e.g. `groundwork journal --help`. */
export function groupHelp(group: string, commands: readonly CliCommand[]): string {
  const lines = commands.map((c) => `  groundwork ${c.usage}\n      ${c.summary}`);
  return [`Commands under '${group}':`, ...lines, '', `Run 'groundwork help ${group} <command>' for details.`, ''].join('\n');
}
