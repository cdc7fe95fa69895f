import { version } from '../../package.json';
import type { CliCommand } from './cliTypes';

export const VERSION: string = version;

const GLOBAL_HELP = [
  'Options:',
  '  --workspace DIR  the workspace folder (default: the current folder), or a .code-workspace',
  '                   file: the folder --folder NAME names, else its one folder with .groundwork/',
  '  --folder NAME    which folder of that .code-workspace file',
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
  return [
    `Usage: groundwork ${command.usage}`,
    '',
    command.summary + '.',
    ...(command.details ?? []),
    '',
    ...GLOBAL_HELP,
    '',
  ].join('\n');
}

/** Help for a word that groups commands, e.g. `groundwork journal --help`. */
export function groupHelp(group: string, commands: readonly CliCommand[]): string {
  const lines = commands.map((c) => `  groundwork ${c.usage}\n      ${c.summary}`);
  return [`Commands under '${group}':`, ...lines, '', `Run 'groundwork help ${group} <command>' for details.`, ''].join(
    '\n',
  );
}

/** `groundwork help discover`: the conversation, its input, the model's environment, exit codes. */
export const DISCOVER_HELP: readonly string[] = [
  'One turn of the discovery conversation: a vague idea becomes an Idea Brief after at most three',
  'rounds of questions; a specific request gets its brief at once. The reply goes to stdout (the',
  'questions, or the brief); notices and prompts go to stderr. The conversation is kept in',
  '.groundwork/discovery/<session>.md between turns, so a script holds it by calling again with the',
  'same --session. The brief is saved to .groundwork/plans/<slug>/idea-brief.md.',
  '',
  'Discover options:',
  "  --session ID   the conversation to continue or start (default: 'cli')",
  '  --lang L       en, es, pt, fr, de, it, nl or ru (default: from LC_ALL, LC_MESSAGES or LANG,',
  '                 when it is one of these; else en)',
  '  --cancel       end the session (exit 0 also when there is none)',
  '  --retry        ask the model again for the saved answer, after a failure or Ctrl-C',
  '  --json         one JSON object per turn: the turn result, plus "saved" with the brief\'s path',
  '',
  'The message may be given as one quoted argument or as several words (joined with spaces). Any',
  'text starts discovery; the answers are free text ("cancel", "stop", "nein"... end it).',
  'Running the same command again after a model failure retries: when the saved answer already',
  'ends with the message, it is not added a second time. An empty message ("") or --retry also',
  'retries a saved answer.',
  '',
  'Without a message: interactive, on stdin. A message or answer may span several lines; an empty',
  'line sends it; end of input (Ctrl-D) stops, keeping the session. Piped, each block of lines',
  'separated by an empty line is one message. A session whose answer is waiting for the model is',
  'retried first.',
  '',
  'Environment:',
  '  ANTHROPIC_API_KEY          the key (required; never printed)',
  '  ANTHROPIC_BASE_URL         another endpoint or a proxy (default: https://api.anthropic.com)',
  '  GROUNDWORK_MODEL_COMPLEX   the model for the complex tier, which discovery uses',
  '  GROUNDWORK_MODEL_FAST      the model for the fast tier',
  '  GROUNDWORK_DISCOVERY_TTL_MINUTES   a session expires this long after it started (default 30)',
  '  GROUNDWORK_FIRST_BYTE_TIMEOUT_SECONDS  an attempt with no reply this long is retried (default 60)',
  '  GROUNDWORK_RETRY_BUDGET_SECONDS    no retry starts after this long into a call (default 180)',
  '',
  "The model's reply streams to stderr while it is written when stderr is a terminal; a retry",
  'says so there ("waiting for the model… (retry 1 of 3: …)"). Ctrl-C during a model call stops',
  'it (the session is kept) and exits 130.',
  'Exit codes here: 0 a reply, 1 the model failed or the session is busy elsewhere (the session is',
  'kept), 2 bad usage or input, 130 stopped.',
];

/** `groundwork help brainstorm`: the rounds, the answers on stdin, resuming, --json, exit codes. */
export const BRAINSTORM_HELP: readonly string[] = [
  'Three inquisitors (UX, technical, edge cases) question the topic at once; their questions, merged',
  'to at most eight, go to stdout grouped by angle, numbered, with a priority (1 = most important).',
  'You answer on stdin, one line per question in the numbered order:',
  '  <text>                  the answer (one line)',
  '  skip, or an empty line  skips the question',
  '  /summarize              skips the rest of the round and asks for the summary',
  '  /more                   skips the rest of the round and asks for follow-up questions',
  'After the last answer, on a terminal, you are asked: /more or /summarize (the default). When',
  'stdin is not a terminal no further line is read: the next round follows while fewer than',
  '--rounds rounds are answered, then the summary. The coordinator asks the follow-ups of round 2',
  'on. At the end the summary (key insights, decisions, open questions) is printed and written',
  'to .groundwork/plans/<slug>/00-brainstorming.md and 00-brainstorming.context.md.',
  '',
  'Brainstorm options:',
  '  --rounds N       the minimum number of rounds (default 1)',
  '  --max-rounds N   the maximum (default 5, or --rounds when more); at most 20',
  "  --slug S         the plan folder's name (default: made from the topic)",
  '  --resume SLUG    continue an unfinished brainstorm: re-run a failed or stopped step, or ask',
  '                   the waiting round again; answered rounds are never asked again',
  '  --restart        with --resume: discard its rounds and start again from round 1',
  '  --discard SLUG   remove an unfinished brainstorm (also: --resume SLUG --discard); a damaged',
  "                   one's files are moved into .damaged-<time>/ of its plan folder instead",
  '  --list           list the unfinished brainstorms: slug, round, phase, topic (damaged ones',
  '                   with what is wrong: discard them, or --resume SLUG --restart)',
  '  --unattended     refused (exit 2): nobody would be there to answer',
  '  --json           one JSON object per line on stdout, each with "event": "questions" (slug,',
  '                   round, maxRounds, questions [{number, angle, priority, text}]), "complete"',
  '                   (slug, rounds, summary, paths {document, context}), "kept" (slug, round,',
  '                   phase: the brainstorm stopped and waits for --resume), "discarded" (slug),',
  '                   "unfinished" (brainstorms, for --list)',
  '',
  'Progress goes to stderr: each inquisitor\'s state ("ux: asking…", "ux: success"), then the',
  'coordinator\'s ("reading your answers…", "writing the summary…"), and notices. End of input in',
  'the middle of a round sends nothing: the brainstorm is kept at that round for --resume. Empty',
  'stdin that is not a terminal is refused before any model call.',
  '',
  'Environment:',
  '  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, GROUNDWORK_MODEL_COMPLEX, GROUNDWORK_MODEL_FAST',
  '                                         as for discover (the inquisitors use the fast tier)',
  "  GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS  each inquisitor's time limit (default 120)",
  '  GROUNDWORK_BRAINSTORM_CONCURRENCY      how many inquisitors run at once (default 3)',
  '  GROUNDWORK_FIRST_BYTE_TIMEOUT_SECONDS, GROUNDWORK_RETRY_BUDGET_SECONDS',
  '                                         as for discover',
  '',
  'Ctrl-C stops the model call or the wait for an answer; the brainstorm is kept and exits 130.',
  'Exit codes here: 0 complete (or stdin ended after at least one answered round), 1 a model call',
  'failed (the brainstorm is kept: --resume retries), 2 bad usage or input (a bad slug, no answers',
  'on stdin, --unattended, a complete brainstorm), 130 stopped.',
];

/** `groundwork help cases <subcommand>`: what each one does and prints. */
export const CASES_HELP = {
  list: [
    'One line per case, by id: id, status, scope, impact, category and the content cut to one line.',
    '--status and --scope keep only the cases with that status (active, outdated, archived,',
    'deleted) or scope (local, global). --json prints one JSON array of the cases, each in the line',
    'format of .groundwork/cases.jsonl. Lines of that file that are not cases are reported on',
    'stderr with their line numbers; every readable case is still listed (exit 0).',
  ],
  add: [
    'Adds a discovery as a person would: the curator checks it for a duplicate (same text once',
    'trimmed, lower-cased, with its spaces collapsed and invisible characters left out, among cases',
    'of any status, deleted ones too: a deleted case is one a person turned down), rates its impact',
    'and category when not given, writes it to the journal, checks it against older cases and',
    'rewrites the views. Prints the new id (disc-012), or the id of the case that already says it',
    'and the word "duplicate" (disc-007 duplicate); older cases it contradicts, now superseded by',
    'it, are named on stderr. --json prints the case plus "duplicate" and "superseded" (their ids).',
    '--impact is low, medium, high or critical; --task and --agent name where it was learned (a',
    "local case goes into that agent's prompts).",
  ],
  edit: [
    'Replaces the content of an active or outdated case; an outdated case becomes active again (the',
    'person confirms what holds now). Archived and deleted cases cannot be edited. --json prints',
    'the case.',
  ],
  promote: ["Makes a local case global: every agent's prompt carries it. --json prints the case."],
  validate: [
    'Marks a case validated (a person confirms it holds); an outdated case becomes active again. --json prints the case.',
  ],
  outdated: [
    'Marks an active case outdated ("marked by user"): no prompt carries it until it is validated or edited. --json prints the case.',
  ],
  archive: [
    'Archives a case: it leaves every prompt and view, and stays in the store for resurrect. --json prints the case.',
  ],
  resurrect: ['Makes an archived case active again. --json prints the case.'],
  delete: ['Deletes an outdated case (mark it outdated first). --json prints the case.'],
  transitions: [
    '',
    'A change the status diagram does not allow (resurrecting an active case, deleting an active',
    'one, promoting a global one…) changes nothing and exits 2, saying why. An id the store does',
    'not hold exits 1.',
  ],
  checkOutdated: [
    'Marks outdated each active case that names a file a commit changed since the case was made or',
    'validated (asks git in the workspace folder), and each that a newer case contradicts; then',
    'archives the outdated cases nobody touched for --archive-after-days days (default 7). Prints',
    'one line per change: "disc-004 outdated: src/auth.ts changed in abc1234", "disc-003 outdated:',
    'superseded by disc-012", "disc-002 archived: …". Without git (or outside a repository) the file',
    'check is skipped, said once on stderr; the rest still runs (exit 0). --json prints',
    '{findings, superseded, archived, skipped?}.',
  ],
  views: [
    'Rewrites .groundwork/discoveries.md (the global cases) and .groundwork/agents/<persona>/',
    "discoveries.md (each persona's local cases) from the store, and prints each file it changed.",
    'Every other cases command keeps them up to date already. --json prints {written, skipped}.',
  ],
  metrics: [
    'The discovery metrics: cases by status, scope and impact, duplicates prevented, the tasks that',
    'produced cases, the cases a prompt carries now, and the validation and outdated rates.',
    '--json prints them as one object.',
  ],
  archiveTask: [
    "Archives the active local cases learned in a finished task (a build's or an agent run's id)",
    'and prints their ids, one per line; its global cases stay. --json prints the archived cases.',
  ],
} as const;

/** `groundwork help annotations`: what is listed, the positions, --json, the problems, exit codes. */
export const ANNOTATIONS_HELP: readonly string[] = [
  'Reads the annotations of a markdown spec: regions (<!--@ax:START-END:COLOR:TASK-->text<!--/@ax-->)',
  'and discovery notes (<!--@ax-discovery:TASK:disc-NNN-->note<!--/@ax-->). Markers in code blocks',
  'and inline code are code, not annotations. FILE is relative to the current folder (it need not',
  'be inside the workspace), a regular file of at most 20 MiB. Prints one line per annotation, in',
  'the order they open:',
  '  12:1–12:58  discovery  task-001  disc-012  outdated',
  '  3:1–5:12    region     task-001  green',
  'its start and end as LINE:COLUMN, both from 1 (the end is the place just after its last',
  'character; columns count UTF-16 code units, as VS Code does), its kind, task, case id or colour,',
  "and for a note its case's status in the workspace (--workspace, default the current folder):",
  "active, outdated, archived, deleted, or unknown when the workspace's .groundwork/cases.jsonl",
  'does not hold it. That file is only read. Without it no status is shown and case ids are not',
  'checked; when it cannot be read, a warning says so on stderr and the rest goes on.',
  '',
  'Then one line per problem, FILE:LINE:COLUMN: KIND: what to do. Kinds: unclosed, unopened,',
  'malformed, unterminated, tooMany (the markers), unknownCase (a note whose case the workspace',
  'does not hold), deletedCase (a note whose case was deleted).',
  '',
  '--json prints one object: {file, casesFile (whether the workspace has cases.jsonl),',
  'annotations: [{kind, task, caseId and status (status only when the workspace holds the case)',
  'or color, from and to, line, column, endLine, endColumn, range, contentRange, depth, parent}],',
  'problems: [{kind, caseId?, message, line, column, endLine, endColumn, range}]}. line, column,',
  "endLine and endColumn count from 1 as above; range and contentRange are VS Code's ranges,",
  '{start: {line, character}, end: {line, character}}, counted from 0, the end excluded. parent is',
  'the index of the annotation this one is inside, or -1.',
  '',
  'Exit codes here: 0 no problems, 1 the file has problems, 2 bad usage or a file that cannot be',
  'read (missing, a folder, too large).',
];
