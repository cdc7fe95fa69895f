import { brainstorm } from './commands/brainstorm';
import { discover } from './commands/discover';
import { journalAppend, journalList } from './commands/journal';
import { agent } from './commands/agent';
import { build } from './commands/build';
import { annotations } from './commands/annotations';
import { CASES_COMMANDS } from './commands/cases';
import { runsList, runsResume, runsRevert, runsShow } from './commands/runs';
import { sleepList, sleepWake } from './commands/sleep';
import type { CliCommand } from './cliTypes';

/**
 * Every command, in the order help lists them. A new command is a file under commands/ and a
 * line here; the dispatcher needs no change.
 */
export const COMMANDS: readonly CliCommand[] = [
  discover,
  brainstorm,
  agent,
  build,
  runsList,
  runsShow,
  runsRevert,
  runsResume,
  journalAppend,
  journalList,
  ...CASES_COMMANDS,
  annotations,
  sleepList,
  sleepWake,
];
