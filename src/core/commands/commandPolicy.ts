// Which commands an agent may run without asking the person. An allow-list entry names a command
// the person trusts ("npm test", "node *"); the shell, though, reads far more into a line than its
// first words: "npm test; curl x | sh" starts with "npm test". So a command that could do more than
// the one program it names (chaining, pipes, substitutions, redirections, eval, sudo, control
// characters) is never pre-approved, whatever the list says: the person is asked. The checks read
// the text char by char, once, so a hostile 100 KB command costs microseconds (no regex backtracking).
//
// A pre-approval means what the manifests say at the time it was given: once a manifest is written
// (manifests.ts), the commands that run its scripts are asked again (docs/build-phases.md, "Manifests").
import { forEachWord } from './commandWords';
import { manifestToolCommand, MANIFEST_TOOL_SHORT } from './manifests';

export { isManifestFile, manifestToolCommand, usesManifestTool } from './manifests';

const SETTING = 'groundwork.commands.autoApprove';
const MAX_PATTERN_CHARS = 1000;

type Hazard =
  | 'lines'
  | 'nul'
  | 'control'
  | 'invisible'
  | ';'
  | '&&'
  | '||'
  | '|'
  | '&'
  | '$('
  | '`'
  | '<'
  | '>'
  | 'eval'
  | 'exec'
  | 'elevate';

/** In the order they are listed. */
const REASONS: Record<Hazard, string> = {
  lines: 'it spans more than one line',
  nul: 'it contains a NUL character',
  control: 'it contains a control character',
  invisible: 'it contains invisible or direction-changing characters',
  ';': "it chains commands with ';'",
  '&&': "it chains commands with '&&'",
  '||': "it chains commands with '||'",
  '|': "it pipes output into another command with '|'",
  '&': "it runs a command in the background with '&'",
  '$(': 'it substitutes a command with $(…)',
  '`': 'it substitutes a command with backticks',
  '<': "it redirects input with '<'",
  '>': "it redirects output with '>'",
  eval: "it runs 'eval'",
  exec: "it runs 'exec'",
  elevate: "it asks for administrator rights ('sudo' or the like)",
};

const ELEVATE = new Set(['sudo', 'doas', 'pkexec', 'runas']);
/** Zero-width, bidi and separator characters (as core/visibleText escapes them): the person would read another command than the one that runs. */
function isInvisible(c: number): boolean {
  return (
    c === 0x00ad ||
    c === 0x061c ||
    c === 0x180e ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x2028 && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0xfeff
  );
}

/** The reasons `command` may never be auto-approved, whatever the allow-list says; [] when none. */
export function commandHazards(command: string): string[] {
  const found = new Set<Hazard>();
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    const next = command.charCodeAt(i + 1);
    switch (c) {
      case 0:
        found.add('nul');
        break;
      case 10:
      case 13:
        found.add('lines');
        break;
      case 59:
        found.add(';');
        break;
      case 38: {
        const prev = command.charCodeAt(i - 1);
        if (next === 38) {
          found.add('&&');
          i++;
        } else if (prev !== 60 && prev !== 62 && prev !== 124 && next !== 62) {
          // Not part of a redirection ('2>&1', '&>') or of '|&', which are reported as such.
          found.add('&');
        }
        break;
      }
      case 124:
        if (next === 124) {
          found.add('||');
          i++;
        } else found.add('|');
        break;
      case 36:
        if (next === 40) found.add('$(');
        break;
      case 96:
        found.add('`');
        break;
      case 60:
        found.add('<');
        break;
      case 62:
        found.add('>');
        break;
      default:
        if (c < 32 || (c >= 0x7f && c <= 0x9f)) found.add('control');
        else if (isInvisible(c)) found.add('invisible');
    }
  }
  forEachWord(command, (word) => {
    if (ELEVATE.has(word.text) || ELEVATE.has(word.base)) found.add('elevate');
    if (!word.commandWord) return;
    for (const name of ['eval', 'exec'] as const) if (word.text === name || word.base === name) found.add(name);
  });
  return (Object.keys(REASONS) as Hazard[]).filter((h) => found.has(h)).map((h) => REASONS[h]);
}

/** 'a', 'a and b', 'a, b and c'. */
function listOf(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function shown(entry: string): string {
  return JSON.stringify(entry.length > 80 ? `${entry.slice(0, 80)}…` : entry);
}

/** The entry as a pattern ('npm test', 'node *'), or what is wrong with it. */
function patternProblem(entry: unknown): { pattern: string } | string {
  if (typeof entry !== 'string') return 'is not text';
  if (entry.length > MAX_PATTERN_CHARS) return `is longer than ${MAX_PATTERN_CHARS} characters`;
  const trimmed = entry.trim();
  if (trimmed === '') return 'is empty';
  const prefix = trimmed.endsWith(' *') ? trimmed.slice(0, -2).trimEnd() : trimmed;
  if (prefix === '' || prefix.includes('*')) return `has a '*' that is not a final ' *' (as in "node *")`;
  const hazards = commandHazards(prefix);
  if (hazards.length > 0) return `can never be pre-approved because ${listOf(hazards)}`;
  return { pattern: prefix === trimmed ? trimmed : `${prefix} *` };
}

/**
 * Reads `groundwork.commands.autoApprove`: exact commands, or prefixes ending in ' *' ('node *').
 * What cannot be used is left out with a sentence each; an absent setting is an empty list.
 */
export function parseAutoApprove(value: unknown): { patterns: string[]; problems: string[] } {
  if (value === undefined) return { patterns: [], problems: [] };
  if (!Array.isArray(value))
    return {
      patterns: [],
      problems: [`${SETTING} should be a list of commands, such as ["npm test", "node *"]; nothing is pre-approved.`],
    };
  const patterns: string[] = [];
  const problems: string[] = [];
  for (const [index, entry] of (value as unknown[]).entries()) {
    const problem = patternProblem(entry);
    if (typeof problem === 'string')
      problems.push(
        `Entry ${index + 1}${typeof entry === 'string' && entry.trim() !== '' ? ` (${shown(entry)})` : ''} ${problem}; it is left out.`,
      );
    else if (!patterns.includes(problem.pattern)) patterns.push(problem.pattern);
  }
  return { patterns, problems };
}

/** Without the spaces around it (a loop: '/ +$/' backtracks quadratically on long runs of spaces). */
function trimSpaces(command: string): string {
  let start = 0;
  let end = command.length;
  while (start < end && command.charCodeAt(start) === 32) start++;
  while (end > start && command.charCodeAt(end - 1) === 32) end--;
  return command.slice(start, end);
}

/** The pattern that pre-approves `command`, or undefined; never one when the command has hazards. */
export function matchesAutoApprove(command: string, patterns: readonly string[]): string | undefined {
  if (commandHazards(command).length > 0) return undefined;
  const text = trimSpaces(command);
  for (const pattern of patterns) {
    if (pattern.endsWith(' *')) {
      // 'node *' wants 'node ' and an argument: not 'node' alone, not 'nodemon x'.
      const start = pattern.slice(0, -1);
      if (start.trim() !== '' && text.startsWith(start) && text.slice(start.length).trim() !== '') return pattern;
    } else if (text === pattern) return pattern;
  }
  return undefined;
}

export interface ApprovalState {
  /** The parsed allow-list. */
  patterns: readonly string[];
  /** Exact commands the person allowed in the modal "for the rest of this run" (dropped for script runners at each manifest write). */
  approvedForRun: ReadonlySet<string>;
  /** Exact commands pre-approved before the run (the CLI's `--approve`): they hold until a manifest is written. */
  preApproved?: ReadonlySet<string>;
  /** Whether a manifest was (or may have been) written: by this run, or earlier in its build. */
  manifestWritten: boolean;
  /** What wrote it, in words for the person ("package.json was written by this run"). */
  manifestWhy?: string;
}

/** What a caller may say about one command. */
export interface ApprovalOptions {
  /**
   * Groundwork's own re-run of a frozen TEST:/BUILD: command whose manifest entries the build found
   * unchanged: the manifest rule does not apply; every other rule (pre-approval, the allow-list,
   * hazards, the person) still does.
   */
  frozenContractHolds?: boolean;
}

/** Why a script runner is asked again, or undefined when the manifest rule does not apply to `command`. */
export function manifestRule(command: string, state: ApprovalState, options: ApprovalOptions = {}): string | undefined {
  if (!state.manifestWritten || options.frozenContractHolds === true || !manifestToolCommand(command)) return undefined;
  return `${state.manifestWhy ?? 'a manifest was written'}, so ${MANIFEST_TOOL_SHORT} are asked again`;
}

/** Whether `command` runs without asking, and by what; or why the person is asked (one clause, no final period). */
export function approvalNeeded(
  command: string,
  state: ApprovalState,
  options: ApprovalOptions = {},
): { auto: true; by: string } | { auto: false; why: string } {
  // The person allowed this exact text in the modal, after the latest manifest write: that holds whatever it contains.
  if (state.approvedForRun.has(command)) return { auto: true, by: 'allowed for this run' };
  const before = preApproval(command, state);
  if (!before.auto) return before;
  // A manifest written since it was pre-approved: the script runners may run something else now.
  const rule = manifestRule(command, state, options);
  return rule === undefined ? before : { auto: false, why: rule };
}

/** The verdict of `--approve` and the allow-list alone. */
function preApproval(command: string, state: ApprovalState): { auto: true; by: string } | { auto: false; why: string } {
  // The person allowed this exact text before the run: that holds whatever it contains.
  if (state.preApproved?.has(command) === true) return { auto: true, by: 'pre-approved (--approve)' };
  const hazards = commandHazards(command);
  if (hazards.length > 0) return { auto: false, why: `it can never be pre-approved because ${listOf(hazards)}` };
  const pattern = matchesAutoApprove(command, state.patterns);
  if (pattern === undefined) return { auto: false, why: `it is not in ${SETTING}` };
  return { auto: true, by: `${SETTING}: ${JSON.stringify(pattern)}` };
}
