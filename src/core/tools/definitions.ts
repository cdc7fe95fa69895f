// What the model is told about each read tool: its name, what it does, and the JSON schema of its
// input. The implementations (implementations/*.ts) carry it out; the registry checks every input
// against these schemas before an implementation sees it, so the limits stated here are the ones
// enforced.
import type { ToolDefinition } from './toolTypes';

/** The lines read_file returns when no limit is given, and the most it returns at once. */
export const READ_DEFAULT_LINES = 400;
export const READ_MAX_LINES = 2000;
export const SEARCH_QUERY_MAX_CHARS = 200;
export const PATH_MAX_CHARS = 1000;
export const PATTERN_MAX_CHARS = 500;

const PATH_NOTE = "Relative to the workspace root, with '/' between names; '.' is the root.";

export const readFileDefinition: ToolDefinition = {
  name: 'read_file',
  access: 'read-workspace',
  description:
    `Reads a text file of the workspace, ${READ_DEFAULT_LINES} lines at a time unless told otherwise. The result starts with ` +
    "a line such as 'src/a.ts, lines 1–400 of 1000' and says which offset reads on. Files over 2 MiB, binary files and " +
    'files ignored by .gitignore or excluded by the user cannot be read. Use list_files to find files and search to find text.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', maxLength: PATH_MAX_CHARS, description: `The file to read. ${PATH_NOTE}` },
      offset: { type: 'integer', minimum: 1, description: 'The first line to return, counting from 1 (default 1).' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: READ_MAX_LINES,
        description: `How many lines to return (default ${READ_DEFAULT_LINES}, at most ${READ_MAX_LINES}).`,
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

export const listFilesDefinition: ToolDefinition = {
  name: 'list_files',
  access: 'read-workspace',
  description:
    "Lists a folder of the workspace: folders first, marked with a trailing '/', then files; a symbolic link is marked " +
    "with '@'. With a glob pattern (such as '**/*.ts' or 'src/**/test*'), lists every file and folder below the folder " +
    'whose path relative to it matches, up to 500. Files ignored by .gitignore or excluded by the user are left out.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        maxLength: PATH_MAX_CHARS,
        description: `The folder to list (default the root). ${PATH_NOTE}`,
      },
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: PATTERN_MAX_CHARS,
        description: 'A glob matched against paths relative to the folder, searching all the folders below it.',
      },
    },
    required: [],
    additionalProperties: false,
  },
};

export const searchDefinition: ToolDefinition = {
  name: 'search',
  access: 'read-workspace',
  description:
    "Finds a literal text (not a regular expression), ignoring case, in the workspace's text files. Each match is " +
    "'path:line: text of the line'; at most 100 matches. Binary files, files over 1 MiB and files ignored by .gitignore " +
    'or excluded by the user are not searched.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: SEARCH_QUERY_MAX_CHARS,
        description: `The text to find, 1 to ${SEARCH_QUERY_MAX_CHARS} characters, matched literally and ignoring case.`,
      },
      path: {
        type: 'string',
        maxLength: PATH_MAX_CHARS,
        description: `The folder (or file) to search in (default the root). ${PATH_NOTE}`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

/** The read tools, in the order they are offered when a role lists them all. */
export const READ_TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  readFileDefinition,
  listFilesDefinition,
  searchDefinition,
];
