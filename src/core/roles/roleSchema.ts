// What a role file may say, and the checks of each field. The role's frontmatter decides what an
// agent may touch (tools, permission mode) and what it costs (model, turns), so every field is
// checked strictly: an unknown field is a typo that would otherwise be silently ignored.
import { describeValue } from '../inputChecks';
import { MODEL_TIERS } from '../llm/llmClient';
import type { ModelChoice, ModelTier } from '../llm/llmClient';
import { visibleText } from '../visibleText';
import { WRITE_PATTERNS_MAX, writePatternProblem } from '../tools/writeScope';

/** Every role Groundwork ships in `roles/`; sessions ask for these by name. */
export const BUNDLED_ROLE_NAMES = [
  'build-discovery',
  'build-analyst',
  'build-architect',
  'build-test-writer',
  'build-developer',
  'build-qa',
  'build-reviewer',
  'build-delivery',
  'inquisitor-ux',
  'inquisitor-technical',
  'inquisitor-edge-cases',
  'brainstorm-coordinator',
] as const;
export type RoleName = (typeof BUNDLED_ROLE_NAMES)[number];

/**
 * The tools a role may be given. The runner implements them; a role only lists which it gets.
 * - read_file, list_files, search: read the project folder;
 * - write_file, edit_file: create or change files in the project folder;
 * - run_command: run a shell command in the phase's terminal (it can change anything, so it counts
 *   as a write);
 * - report_discovery: record a learning in Groundwork's discoveries journal;
 * - sleep: pause the agent (timer, event or manual wake).
 */
export const ROLE_TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'list_files',
  'search',
  'run_command',
  'report_discovery',
  'sleep',
] as const;
export type RoleTool = (typeof ROLE_TOOLS)[number];

/** Tools that change the workspace; a `readOnly` role may not list them. */
export const WRITE_TOOLS: readonly RoleTool[] = ['write_file', 'edit_file', 'run_command'];

/**
 * How far a role's changes reach, from the most to the least restricted (the order matters: an
 * override may move down this list, never up):
 * - readOnly: reads only; no write_file, edit_file or run_command (it may still report
 *   discoveries and sleep, which touch only Groundwork's own logs);
 * - askBeforeCommands: writes and edits files in the project folder; each command waits for the
 *   user's approval before it runs;
 * - workspaceWrite: writes and edits files and runs commands in the project folder without asking
 *   (the user approved the build as a whole; each command still shows in the phase's terminal).
 */
export const PERMISSION_MODES = ['readOnly', 'askBeforeCommands', 'workspaceWrite'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** The frontmatter fields, all required, in the order the files write them. */
export const ROLE_FIELDS = ['name', 'description', 'tools', 'model', 'permissionMode', 'maxTurns'] as const;
export type RoleField = (typeof ROLE_FIELDS)[number];
/**
 * Fields a role file may leave out. `writes`: where write_file and edit_file may write, as globs
 * relative to the run's root (`README.md`, `docs/**`); without it, anywhere they may write at all.
 */
export const OPTIONAL_ROLE_FIELDS = ['writes'] as const;

/** A role name is also a file name and shows in trees and terminals. */
export const ROLE_NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const ROLE_NAME_MAX_CHARS = 64;
export const DESCRIPTION_MAX_CHARS = 300;
/** Far above any phase's need; a larger number is a typo that would burn tokens. */
export const MAX_TURNS_LIMIT = 500;
/** Model ids of Anthropic and of VS Code's chat models ('claude-sonnet-4-5', 'copilot/gpt-4o'). */
const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;
/** Family names people carry over from other tools; they are not ids any provider accepts. */
const MODEL_FAMILIES = new Set(['opus', 'sonnet', 'haiku']);

export interface Role {
  name: string;
  description: string;
  tools: readonly RoleTool[];
  model: ModelChoice;
  permissionMode: PermissionMode;
  maxTurns: number;
  /** Where write_file and edit_file may write (OPTIONAL_ROLE_FIELDS); absent: anywhere they may. */
  writes?: readonly string[];
  /** The markdown body after the frontmatter: the agent's system prompt. */
  prompt: string;
}

/**
 * One thing wrong with a role file, or worth knowing about it. `text` is the whole message,
 * `file:line: field: message`, ready for a terminal or a notification. A 'notice' is not a fault:
 * a workspace override that is used, but changes what the role costs or says (its model, turns or
 * prompt), which a person should hear about once rather than find on the bill.
 */
export interface RoleProblem {
  severity: 'error' | 'warning' | 'notice';
  /** The file as shown to people: `roles/build-qa.md`, `.groundwork/roles/build-qa.md`. */
  file: string;
  line?: number;
  field?: string;
  message: string;
  text: string;
}

export function roleProblem(
  file: string,
  message: string,
  where: { line?: number; field?: string } = {},
  severity: RoleProblem['severity'] = 'error',
): RoleProblem {
  const shownFile = visibleText(file);
  const location = where.line === undefined ? shownFile : `${shownFile}:${where.line}`;
  const text = where.field === undefined ? `${location}: ${message}` : `${location}: ${where.field}: ${message}`;
  const problem: RoleProblem = { severity, file, message, text };
  if (where.line !== undefined) problem.line = where.line;
  if (where.field !== undefined) problem.field = where.field;
  return problem;
}

/** A wrong value as it may appear in a message: short, quoted, with no raw control characters. */
export function shown(value: unknown): string {
  return visibleText(describeValue(value));
}

/** A field's value with where it was written, for messages that point at the line. */
export interface FieldValue {
  value: unknown;
  line: number;
  /** For a list, the line of each item. */
  itemLines?: readonly number[];
}

type FieldCheck<T> = { ok: true; value: T } | { ok: false; message: string; line?: number };

/**
 * Checks the frontmatter fields of `file` (already parsed, each with its line) against the schema.
 * `expectedName` is the file name without `.md`; `openLine` is the line of the opening `---`,
 * where a missing field is reported. Returns every problem found, not only the first.
 */
export function checkRoleFields(
  file: string,
  fields: ReadonlyMap<string, FieldValue>,
  expectedName: string,
  openLine: number,
): { ok: true; value: Omit<Role, 'prompt'> } | { ok: false; problems: RoleProblem[] } {
  const problems: RoleProblem[] = [];
  const known = [...ROLE_FIELDS, ...OPTIONAL_ROLE_FIELDS] as readonly string[];
  for (const [field, { line }] of fields) {
    if (!known.includes(field)) {
      problems.push(
        roleProblem(file, `unknown field (known: ${known.join(', ')})`, { line, field: visibleText(field) }),
      );
    }
  }
  const check = <T>(field: RoleField | 'writes', fn: (f: FieldValue) => FieldCheck<T>): T | undefined => {
    const found = fields.get(field);
    if (found === undefined) {
      problems.push(
        roleProblem(file, `missing; every role file sets ${ROLE_FIELDS.join(', ')}`, { line: openLine, field }),
      );
      return undefined;
    }
    const result = fn(found);
    if (result.ok) return result.value;
    problems.push(roleProblem(file, result.message, { line: result.line ?? found.line, field }));
    return undefined;
  };

  const name = check('name', (f) => checkName(f.value, expectedName));
  const description = check('description', (f) => checkDescription(f.value));
  const tools = check('tools', checkTools);
  const model = check('model', (f) => checkModel(f.value));
  const permissionMode = check('permissionMode', (f) => checkPermissionMode(f.value));
  const maxTurns = check('maxTurns', (f) => checkMaxTurns(f.value));
  const writes = fields.has('writes') ? check('writes', checkWrites) : undefined;

  if (tools !== undefined && permissionMode === 'readOnly') {
    const writes = tools.filter((t) => WRITE_TOOLS.includes(t));
    if (writes.length > 0) {
      const line = fields.get('tools')?.line ?? openLine;
      problems.push(
        roleProblem(
          file,
          `${writes.join(', ')} cannot be given to a readOnly role; remove ${writes.length > 1 ? 'them' : 'it'} or choose another permissionMode`,
          {
            line,
            field: 'tools',
          },
        ),
      );
    }
  }
  if (
    problems.length > 0 ||
    name === undefined ||
    description === undefined ||
    tools === undefined ||
    model === undefined ||
    permissionMode === undefined ||
    maxTurns === undefined
  ) {
    return { ok: false, problems };
  }
  const value = { name, description, tools, model, permissionMode, maxTurns };
  return { ok: true, value: writes === undefined ? value : { ...value, writes } };
}

function checkName(value: unknown, expectedName: string): FieldCheck<string> {
  if (typeof value !== 'string')
    return { ok: false, message: `must be text such as ${expectedName}, got ${shown(value)}` };
  if (value !== expectedName) {
    return {
      ok: false,
      message: `${shown(value)} does not match the file name; a role file is named <name>.md, so here name: ${visibleText(expectedName)}`,
    };
  }
  return { ok: true, value };
}

function checkDescription(value: unknown): FieldCheck<string> {
  if (typeof value !== 'string' || value.trim() === '') {
    return { ok: false, message: `must be a non-empty line of text saying what the role does, got ${shown(value)}` };
  }
  if (/[\r\n]/.test(value.trim())) return { ok: false, message: 'must be one line' };
  if ([...value].length > DESCRIPTION_MAX_CHARS)
    return { ok: false, message: `is longer than ${DESCRIPTION_MAX_CHARS} characters` };
  return { ok: true, value: value.trim() };
}

function checkTools(field: FieldValue): FieldCheck<RoleTool[]> {
  const { value, itemLines } = field;
  const known = `known: ${ROLE_TOOLS.join(', ')}`;
  if (!Array.isArray(value))
    return { ok: false, message: `must be a list of tools ([] for none), got ${shown(value)} (${known})` };
  const tools: RoleTool[] = [];
  for (const [i, item] of value.entries()) {
    const line = itemLines?.[i];
    if (typeof item !== 'string' || !(ROLE_TOOLS as readonly string[]).includes(item)) {
      const what = typeof item === 'string' ? `unknown tool ${shown(item)}` : `each tool is a name, got ${shown(item)}`;
      return { ok: false, message: `${what} (${known})`, ...(line === undefined ? {} : { line }) };
    }
    const tool = item as RoleTool;
    if (tools.includes(tool))
      return { ok: false, message: `${tool} is listed twice`, ...(line === undefined ? {} : { line }) };
    tools.push(tool);
  }
  return { ok: true, value: tools };
}

function checkWrites(field: FieldValue): FieldCheck<string[]> {
  const { value, itemLines } = field;
  const example = "e.g. ['README.md', 'docs/**']";
  if (!Array.isArray(value))
    return { ok: false, message: `must be a list of paths and patterns (${example}), got ${shown(value)}` };
  if (value.length > WRITE_PATTERNS_MAX)
    return { ok: false, message: `lists ${value.length} patterns; at most ${WRITE_PATTERNS_MAX}` };
  const writes: string[] = [];
  for (const [i, item] of value.entries()) {
    const line = itemLines?.[i];
    const at = line === undefined ? {} : { line };
    if (typeof item !== 'string')
      return { ok: false, message: `each item is a path or pattern, got ${shown(item)}`, ...at };
    const problem = writePatternProblem(item);
    if (problem !== undefined) return { ok: false, message: `${shown(item)} ${problem}`, ...at };
    if (!writes.includes(item)) writes.push(item);
  }
  return { ok: true, value: writes };
}

function checkModel(value: unknown): FieldCheck<ModelChoice> {
  const tiers = MODEL_TIERS.join(' or ');
  if (typeof value !== 'string')
    return { ok: false, message: `must be a tier (${tiers}) or a model id, got ${shown(value)}` };
  if ((MODEL_TIERS as readonly string[]).includes(value)) return { ok: true, value: { tier: value as ModelTier } };
  if (MODEL_FAMILIES.has(value.toLowerCase())) {
    return {
      ok: false,
      message: `${shown(value)} is a model family, not a model id; use a tier (${tiers}) or a full id such as claude-sonnet-4-5`,
    };
  }
  if (!MODEL_ID_PATTERN.test(value)) {
    return {
      ok: false,
      message: `${shown(value)} is neither a tier (${tiers}) nor a model id (letters, digits and . _ : / @ -, up to 128)`,
    };
  }
  return { ok: true, value: { id: value } };
}

function checkPermissionMode(value: unknown): FieldCheck<PermissionMode> {
  if (typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value))
    return { ok: true, value: value as PermissionMode };
  return { ok: false, message: `must be one of ${PERMISSION_MODES.join(', ')}, got ${shown(value)}` };
}

function checkMaxTurns(value: unknown): FieldCheck<number> {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TURNS_LIMIT) {
    return { ok: false, message: `must be a whole number from 1 to ${MAX_TURNS_LIMIT}, got ${shown(value)}` };
  }
  return { ok: true, value };
}

/** Whether `mode` allows no more than `ceiling` (see PERMISSION_MODES for the order). */
export function permissionWithin(mode: PermissionMode, ceiling: PermissionMode): boolean {
  return PERMISSION_MODES.indexOf(mode) <= PERMISSION_MODES.indexOf(ceiling);
}
