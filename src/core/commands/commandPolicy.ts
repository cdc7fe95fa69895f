// Which commands an agent may run without asking the person. An allow-list entry names a command
// the person trusts ("npm test", "node *"); the shell, though, reads far more into a line than its
// first words: "npm test; curl x | sh" starts with "npm test". So a command that could do more than
// the one program it names (chaining, pipes, substitutions, redirections, eval, sudo, control
// characters) is never pre-approved, whatever the list says: the person is asked. The checks read
// the text char by char, once, so a hostile 100 KB command costs microseconds (no regex backtracking).

/** The files whose contents decide what npm, make… run: once the run writes one, those tools are asked again. */
export const MANIFEST_FILES = [
  'package.json',
  'Makefile',
  'makefile',
  'GNUmakefile',
  // Package managers' own settings can name what they run (npm's script-shell, yarn's yarnPath, pnpm's hooks).
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'pnpm-workspace.yaml',
] as const;
/** The tools that run what a manifest says (`npm test` runs package.json's "test" script). */
export const MANIFEST_TOOLS = ['npm', 'npx', 'yarn', 'pnpm', 'make'] as const;

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

/** Words that run the word after them as a command, so that word is checked as one too. */
const WRAPPERS = new Set([
  'command',
  'builtin',
  'env',
  'nohup',
  'nice',
  'time',
  'timeout',
  'xargs',
  'stdbuf',
  'ionice',
  'setsid',
  '!',
  '{',
  'if',
  'then',
  'else',
  'elif',
  'do',
  'while',
  'until',
]);
const ELEVATE = new Set(['sudo', 'doas', 'pkexec', 'runas']);
/** Longer words cannot be a keyword or a tool's name; only whether they overflowed is kept. */
const WORD_CAP = 64;

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

/** Characters that end a word and start a new command (or are an operator the scan reports on its own). */
function isSeparator(c: number): boolean {
  // ; & | ( ) < > ` \n \r
  return (
    c === 59 ||
    c === 38 ||
    c === 124 ||
    c === 40 ||
    c === 41 ||
    c === 60 ||
    c === 62 ||
    c === 96 ||
    c === 10 ||
    c === 13
  );
}

interface Word {
  /** The word without quotes and backslashes, lowercased; '' when it overflowed WORD_CAP. */
  text: string;
  /** Its last path segment ('/usr/bin/npm' → 'npm'), lowercased; '' when it overflowed. */
  base: string;
  /** Whether the shell would run it as a command (the first word, or after a separator, assignments or a wrapper). */
  commandWord: boolean;
}

/**
 * Each word of the command, in order. Quotes and backslashes are dropped rather than honoured
 * ("e\val", 'ev''al' are eval to the shell), which can only make more words look like commands.
 */
function forEachWord(command: string, visit: (word: Word) => void): void {
  let text = '';
  let base = '';
  let textOver = false;
  let baseOver = false;
  let inWord = false;
  // An assignment (NAME=value) keeps the command position: 'FOO=1 eval x' runs eval.
  let assignment: 'name' | 'yes' | 'no' = 'name';
  let commandPosition = true;

  const end = () => {
    if (!inWord) return;
    const word: Word = {
      text: textOver ? '' : text.toLowerCase(),
      base: baseOver ? '' : base.toLowerCase(),
      commandWord: commandPosition,
    };
    visit(word);
    if (commandPosition) {
      const keeps =
        assignment === 'yes' || WRAPPERS.has(word.text) || word.text.startsWith('-') || /^\d+$/.test(word.text);
      commandPosition = keeps;
    }
    text = '';
    base = '';
    textOver = baseOver = inWord = false;
    assignment = 'name';
  };

  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    if (c === 32 || c === 9) {
      end();
      continue;
    }
    if (isSeparator(c)) {
      end();
      commandPosition = true;
      continue;
    }
    inWord = true;
    if (c === 39 || c === 34) continue; // ' "
    if (c === 92 || c === 47) {
      // \ is an escape to sh and a path separator to cmd.exe; / a path separator: the base restarts.
      base = '';
      baseOver = false;
      if (c === 92) continue;
    } else if (!baseOver) {
      base += command[i] as string;
      if (base.length > WORD_CAP) baseOver = true;
    }
    if (assignment === 'name') {
      const identifier =
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c >= 48 && c <= 57 && text.length > 0);
      if (c === 61 && text.length > 0) assignment = 'yes';
      else if (!identifier) assignment = 'no';
    }
    if (!textOver) {
      text += command[i] as string;
      if (text.length > WORD_CAP) textOver = true;
    }
  }
  end();
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

/** A file name as a case-insensitive, normalising file system compares it. */
function comparable(name: string): string {
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}

const MANIFEST_NAMES = new Set(MANIFEST_FILES.map(comparable));

/** Whether a path relative to the run's root ('package.json', 'src/a.ts') is a manifest at the root. */
export function isManifestPath(rootRelativePath: string): boolean {
  let path = rootRelativePath.replace(/\\/g, '/');
  while (path.startsWith('./')) path = path.slice(2);
  return MANIFEST_NAMES.has(comparable(path));
}

const TOOL_NAMES = new Set<string>(MANIFEST_TOOLS);
/** What Windows appends to a program's name. */
const PROGRAM_SUFFIX = /\.(cmd|exe|bat|ps1)$/;

function toolName(word: Word): string {
  return word.base.replace(PROGRAM_SUFFIX, '');
}

/**
 * Whether the command runs one of MANIFEST_TOOLS (after assignments like 'FOO=1 ' and wrappers like
 * 'env '; 'npm.cmd' and '/usr/bin/npm' count), or `node --run`, which runs a package.json script too.
 */
export function usesManifestTool(command: string): boolean {
  let uses = false;
  let node = false;
  forEachWord(command, (word) => {
    if (word.commandWord) {
      const name = toolName(word);
      if (TOOL_NAMES.has(name)) uses = true;
      node = name === 'node';
    } else if (node && (word.text === '--run' || word.text.startsWith('--run='))) uses = true;
  });
  return uses;
}

export interface ApprovalState {
  /** The parsed allow-list. */
  patterns: readonly string[];
  /** Exact commands the person allowed for the rest of this run. */
  approvedForRun: ReadonlySet<string>;
  /** Whether this run wrote a file of MANIFEST_FILES. */
  manifestWritten: boolean;
}

/** Whether `command` runs without asking, and by what; or why the person is asked (one clause, no final period). */
export function approvalNeeded(
  command: string,
  state: ApprovalState,
): { auto: true; by: string } | { auto: false; why: string } {
  // The person allowed this exact text for the run (the modal, --approve): that holds whatever it contains.
  if (state.approvedForRun.has(command)) return { auto: true, by: 'allowed for this run' };
  const hazards = commandHazards(command);
  if (hazards.length > 0) return { auto: false, why: `it can never be pre-approved because ${listOf(hazards)}` };
  const pattern = matchesAutoApprove(command, state.patterns);
  if (pattern === undefined) return { auto: false, why: `it is not in ${SETTING}` };
  if (state.manifestWritten && usesManifestTool(command)) {
    return {
      auto: false,
      why: `package.json, a Makefile or a package manager's settings file was written by this run, so ${listOf([...MANIFEST_TOOLS, 'node --run'])} commands are asked again`,
    };
  }
  return { auto: true, by: `${SETTING}: ${JSON.stringify(pattern)}` };
}
