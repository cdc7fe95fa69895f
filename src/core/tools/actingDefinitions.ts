// What the model is told about each acting tool: the tools an agent run uses to change the
// workspace (write_file, edit_file), run a command there (run_command) and touch Groundwork's own
// state (sleep, report_discovery). As with the read tools, the registry checks every input against
// these schemas before an implementation sees it, so the limits stated here are the ones enforced.
import { DEFAULT_COMMAND_TIMEOUT_MS, MODEL_OUTPUT_MAX_BYTES } from '../commands/commandRunner';
import { PATH_MAX_CHARS } from './definitions';
import { DISCOVERY_IMPACTS, type ToolDefinition } from './toolTypes';

/** The most text write_file takes at once, in characters (a file this long is better made in parts). */
export const WRITE_MAX_CHARS = 1024 * 1024;
export const COMMAND_MAX_CHARS = 10_000;
export const COMMAND_MAX_TIMEOUT_SECONDS = 3600;
export const SLEEP_MAX_SECONDS = 86_400;
export const SLEEP_EVENT_MAX_CHARS = 200;
export const SLEEP_REASON_MAX_CHARS = 500;
export const DISCOVERY_MAX_CHARS = 4000;

const PATH_NOTE = "Relative to the workspace root, with '/' between names.";
const PROTECTED_NOTE =
  'Files under .git, .vscode, .groundwork and .github/workflows, and *.code-workspace files, cannot be written; ' +
  'a role may be limited to some paths, and a write elsewhere is refused, saying which.';

export const writeFileDefinition: ToolDefinition = {
  name: 'write_file',
  access: 'write-workspace',
  description:
    'Creates a file of the workspace, or replaces all of its content, with the text given (UTF-8). Missing folders on ' +
    `the way are created. To change part of an existing file, prefer edit_file. ${PROTECTED_NOTE} ` +
    'Every change is recorded so the person can revert the run.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', maxLength: PATH_MAX_CHARS, description: `The file to write. ${PATH_NOTE}` },
      content: {
        type: 'string',
        maxLength: WRITE_MAX_CHARS,
        description: 'The whole new content of the file (at most 1 MiB of characters).',
      },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
};

export const editFileDefinition: ToolDefinition = {
  name: 'edit_file',
  access: 'write-workspace',
  description:
    'Changes an existing text file of the workspace by replacing old_text with new_text. old_text must match exactly ' +
    'one place in the file, character for character (whitespace and indentation included): if it matches nowhere or ' +
    'in several places nothing is changed and the error says how many matches there were. Read the file first and ' +
    `copy the text from it; include a few surrounding lines to make the match unique. ${PROTECTED_NOTE}`,
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', maxLength: PATH_MAX_CHARS, description: `The file to change. ${PATH_NOTE}` },
      old_text: {
        type: 'string',
        minLength: 1,
        maxLength: WRITE_MAX_CHARS,
        description: 'The exact text to replace; it must occur exactly once in the file.',
      },
      new_text: {
        type: 'string',
        maxLength: WRITE_MAX_CHARS,
        description: 'The text to put in its place (may be empty to delete old_text).',
      },
    },
    required: ['path', 'old_text', 'new_text'],
    additionalProperties: false,
  },
};

export const runCommandDefinition: ToolDefinition = {
  name: 'run_command',
  access: 'run-command',
  description:
    "Runs a shell command in the run's root folder (through the system shell, so pipes and && work). It needs the " +
    "person's approval unless it is pre-approved; a denied command is not run, and asking again will not help. " +
    `You get its exit code and at most ${MODEL_OUTPUT_MAX_BYTES / 1024} KB of its output (the start and the end when it ` +
    `is longer). It is stopped after ${DEFAULT_COMMAND_TIMEOUT_MS / 60_000} minutes unless timeout_seconds says otherwise. ` +
    'Commands cannot read input: do not start anything interactive or that runs forever (a dev server, a watcher).',
  inputSchema: {
    type: 'object',
    properties: {
      command: {
        type: 'string',
        minLength: 1,
        maxLength: COMMAND_MAX_CHARS,
        description: 'The command line, as typed in a terminal.',
      },
      timeout_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: COMMAND_MAX_TIMEOUT_SECONDS,
        description: `Seconds before the command is stopped (default ${DEFAULT_COMMAND_TIMEOUT_MS / 1000}, at most ${COMMAND_MAX_TIMEOUT_SECONDS}).`,
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
};

export const sleepDefinition: ToolDefinition = {
  name: 'sleep',
  access: 'run-state',
  description:
    "Pauses this run until something wakes it, then says what did. mode 'timer' sleeps for seconds (required); " +
    "'event' sleeps until the agent run or build phase named by event has finished; 'manual' sleeps until a person " +
    'wakes it. Every sleep ends at the cap the person set (seconds, when given, is a shorter limit for event and ' +
    'manual sleeps). A person can always wake the run early. Say why in reason: the person sees it.',
  inputSchema: {
    type: 'object',
    properties: {
      mode: {
        type: 'string',
        enum: ['timer', 'event', 'manual'],
        description: "How the sleep ends: 'timer', 'event' or 'manual'.",
      },
      seconds: {
        type: 'integer',
        minimum: 1,
        maximum: SLEEP_MAX_SECONDS,
        description: `How long to sleep (required for 'timer'), at most ${SLEEP_MAX_SECONDS}.`,
      },
      event: {
        type: 'string',
        minLength: 1,
        maxLength: SLEEP_EVENT_MAX_CHARS,
        description: "With 'event': the agent run (its id or role) or build phase whose end wakes this run.",
      },
      reason: {
        type: 'string',
        maxLength: SLEEP_REASON_MAX_CHARS,
        description: 'Why this run sleeps, in a sentence, for the person watching.',
      },
    },
    required: ['mode'],
    additionalProperties: false,
  },
};

export const reportDiscoveryDefinition: ToolDefinition = {
  name: 'report_discovery',
  access: 'run-state',
  description:
    'Records something learned that others should know (a pitfall, a convention, a fact about the project) in the ' +
    "workspace's journal. scope 'local' is about this task or plan; 'global' holds for the whole project. Keep it to " +
    'a few sentences: the first line is its title. When it is about one requirement of specs/requirements.md, give its id ' +
    'as task: the note is shown after that requirement.',
  inputSchema: {
    type: 'object',
    properties: {
      scope: {
        type: 'string',
        enum: ['local', 'global'],
        description: "'local' (this task or plan) or 'global' (the whole project).",
      },
      content: {
        type: 'string',
        minLength: 1,
        maxLength: DISCOVERY_MAX_CHARS,
        description: `What was learned, at most ${DISCOVERY_MAX_CHARS} characters.`,
      },
      impact: {
        type: 'string',
        enum: [...DISCOVERY_IMPACTS],
        description: `How much it matters: ${DISCOVERY_IMPACTS.join(', ')}.`,
      },
      task: {
        type: 'string',
        description:
          'The id of the requirement in specs/requirements.md this is about, e.g. task-001 (optional; an id that is not one is ignored).',
      },
    },
    required: ['scope', 'content'],
    additionalProperties: false,
  },
};

/** The acting tools, in the order they are offered after the read tools. */
export const ACTING_TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  writeFileDefinition,
  editFileDefinition,
  runCommandDefinition,
  sleepDefinition,
  reportDiscoveryDefinition,
];
