// Loads the roles agents play: the bundled ones shipped in the extension's `roles/` folder, each
// of which a workspace may override with `.groundwork/roles/<name>.md`.
//
// A workspace file comes from whoever wrote the repository, so it is held to two rules:
// - a broken override never breaks the product: the bundled role is used and the problem is a
//   warning that names the file, the line and the field;
// - an override may change the prompt, description, model and turns, and may narrow the tools and
//   the permission mode, but never widen them: a cloned repository cannot turn a read-only
//   questioner into an agent that writes files or runs commands. A wider write scope (`writes:`)
//   is used, but said (a notice here, a weaker check at a build's gate: core/build/weakerChecks.ts).
// An override that is used but changes what the role costs or tells the model (another model,
// more turns, another prompt) is reported once as a 'notice', so the change is never silent.
import { StorageError } from '../storage/storageError';
import { scopeText, widerPatterns } from '../tools/writeScope';
import { visibleText } from '../visibleText';
import { parseRoleFile, ROLE_FILE_MAX_BYTES, tooLargeMessage } from './roleFile';
import { PERMISSION_MODES, permissionWithin, ROLE_NAME_MAX_CHARS, ROLE_NAME_PATTERN, roleProblem } from './roleSchema';
import type { ModelChoice } from '../llm/llmClient';
import type { Role, RoleProblem } from './roleSchema';

/** A folder of role files, as the loader needs it; see roleFiles.ts and workspaceRoleSource.ts. */
export interface RoleSource {
  /** The folder as shown in messages, e.g. `roles` or `.groundwork/roles`. */
  readonly label: string;
  /** The names of the entries in the folder; [] when it does not exist. */
  list(): Promise<string[]>;
  /**
   * The file's text, or undefined when it is gone. Refuses (throws) rather than reading more than
   * `maxBytes`; the loader reports whatever it throws against the file.
   */
  read(fileName: string, maxBytes: number): Promise<string | undefined>;
}

export type RoleOrigin = 'bundled' | 'workspace';

export interface LoadedRole {
  role: Role;
  origin: RoleOrigin;
  /** The file it came from, as shown to people. */
  file: string;
}

export interface LoadedRoles {
  roles: ReadonlyMap<string, LoadedRole>;
  /**
   * Errors: a bundled role that did not load (a defect of the build; that role is missing).
   * Warnings: a workspace override that is not used, and why.
   * Notices: a workspace override that is used and changes the role's model, turns or prompt.
   */
  problems: RoleProblem[];
}

export interface LoadRolesOptions {
  maxFileBytes?: number;
  maxFiles?: number;
}

/** More role files than this in one folder is not a set of roles; nothing there is read. */
export const ROLE_FILES_MAX = 64;

const NOT_ROLES = new Set(['readme.md']);

/**
 * All bundled roles, each replaced by the workspace's file of the same name when that file is
 * valid and stays within the bundled role's tools and permission mode.
 */
export async function loadRoles(
  bundled: RoleSource,
  workspace?: RoleSource,
  options: LoadRolesOptions = {},
): Promise<LoadedRoles> {
  const problems: RoleProblem[] = [];
  const roles = new Map<string, LoadedRole>();
  for (const loaded of await loadFolder(bundled, problems, options)) {
    roles.set(loaded.role.name, { ...loaded, origin: 'bundled' });
  }
  if (workspace === undefined) return { roles, problems };

  const notUsed = (name: string) =>
    roles.has(name)
      ? `this override is not used; the bundled ${visibleText(name)} role is used instead (fix the problems above or delete the file)`
      : `this file is not used (and no bundled role is named ${visibleText(name)})`;
  for (const loaded of await loadFolder(workspace, problems, options, notUsed)) {
    const base = roles.get(loaded.role.name);
    if (base === undefined) {
      const known = [...roles.keys()].sort().join(', ');
      const why = `no bundled role is named ${visibleText(loaded.role.name)}, so this file is not used (a file here overrides the bundled role of the same name: ${known})`;
      problems.push(roleProblem(loaded.file, why, {}, 'warning'));
      continue;
    }
    const widened = widening(loaded.role, base.role);
    if (widened !== undefined) {
      const why = `${widened.message}; an override may narrow a role, never widen it, so the bundled ${base.role.name} role is used instead`;
      problems.push(roleProblem(loaded.file, why, { field: widened.field }, 'warning'));
      continue;
    }
    const changes = costlyChanges(loaded.role, base.role);
    if (changes.length > 0) {
      problems.push(
        roleProblem(loaded.file, `overrides the bundled ${base.role.name} role: ${changes.join('; ')}`, {}, 'notice'),
      );
    }
    roles.set(loaded.role.name, { ...loaded, origin: 'workspace' });
  }
  return { roles, problems };
}

/**
 * What an override changes that a person pays for or relies on, said for them: another model
 * (possibly a pricier one), more turns, another prompt, a wider write scope (`writes:`; a build
 * names it among its weaker checks too). Narrower tools, a stricter permission mode
 * and a reworded description are not worth a notice.
 */
function costlyChanges(role: Role, bundled: Role): string[] {
  const changes: string[] = [];
  if (modelText(role.model) !== modelText(bundled.model)) {
    changes.push(`it uses ${modelText(role.model)} instead of ${modelText(bundled.model)}`);
  }
  if (role.maxTurns > bundled.maxTurns)
    changes.push(`it allows up to ${role.maxTurns} turns instead of ${bundled.maxTurns}`);
  if (role.prompt.trim() !== bundled.prompt.trim()) changes.push("it replaces the role's prompt");
  const wider = widerPatterns(role.writes, bundled.writes);
  if (wider.length > 0 && bundled.writes !== undefined)
    changes.push(
      role.writes === undefined
        ? `it may write anywhere instead of only ${scopeText(bundled.writes)}`
        : `it may also write ${scopeText(wider)} (the bundled role: only ${scopeText(bundled.writes)})`,
    );
  return changes;
}

function modelText(model: ModelChoice): string {
  return 'tier' in model ? `the ${model.tier} tier` : `model ${visibleText(model.id)}`;
}

/**
 * The role a session needs, or an Error saying why it is missing (the problems of its files
 * included), for the session to show instead of starting.
 */
export function requireRole(loaded: LoadedRoles, name: string): LoadedRole {
  const found = loaded.roles.get(name);
  if (found !== undefined) return found;
  const related = loaded.problems
    .filter((p) => p.file.endsWith(`/${name}.md`) || p.file === `${name}.md`)
    .map((p) => p.text);
  const why =
    related.length > 0
      ? `:\n${related.join('\n')}`
      : '; no role file defines it. Reinstall Groundwork to restore its roles.';
  throw new Error(`The role ${visibleText(name)} is not available${why}`);
}

type FileRole = { role: Role; file: string };

/**
 * The valid roles of one folder; the problems of the others go to `problems`. Without `notUsed`
 * they are errors (the bundled folder); with it, warnings each followed by what `notUsed` says
 * about the file's name (an override folder).
 */
async function loadFolder(
  source: RoleSource,
  problems: RoleProblem[],
  options: LoadRolesOptions,
  notUsed?: (name: string) => string,
): Promise<FileRole[]> {
  const severity: RoleProblem['severity'] = notUsed === undefined ? 'error' : 'warning';
  const maxBytes = options.maxFileBytes ?? ROLE_FILE_MAX_BYTES;
  const maxFiles = options.maxFiles ?? ROLE_FILES_MAX;
  const report = (file: string, message: string, where: { line?: number; field?: string } = {}) =>
    problems.push(roleProblem(file, message, where, severity));
  const overridden = severity === 'warning' ? '; no role from this folder is used, the bundled roles are' : '';

  let entries: string[];
  try {
    entries = await source.list();
  } catch (err) {
    report(source.label, `the folder could not be read: ${messageOf(err)}${overridden}`);
    return [];
  }
  const files = entries
    .filter((e) => e.toLowerCase().endsWith('.md') && !NOT_ROLES.has(e.toLowerCase()) && !e.startsWith('.'))
    .sort();
  if (files.length > maxFiles) {
    report(
      source.label,
      `${files.length} role files; at most ${maxFiles} are read from one folder${overridden || ', so none was read'}`,
    );
    return [];
  }

  const loaded: FileRole[] = [];
  for (const fileName of files) {
    const file = `${source.label}/${fileName}`;
    const name = fileName.slice(0, -'.md'.length);
    if (!fileName.endsWith('.md') || !ROLE_NAME_PATTERN.test(name) || name.length > ROLE_NAME_MAX_CHARS) {
      report(
        file,
        `the file name is not a role name: use lower-case words joined by '-' (at most ${ROLE_NAME_MAX_CHARS} characters), then '.md', e.g. build-qa.md`,
      );
      continue;
    }
    const result = await readRole(source, fileName, file, maxBytes);
    if ('role' in result) {
      loaded.push({ role: result.role, file });
      continue;
    }
    for (const p of result.problems) problems.push({ ...p, severity });
    if (notUsed !== undefined && result.problems.length > 0)
      problems.push(roleProblem(file, notUsed(name), {}, 'warning'));
  }
  return loaded;
}

/** The role in one file, or its problems (none when the file vanished since it was listed). */
async function readRole(
  source: RoleSource,
  fileName: string,
  file: string,
  maxBytes: number,
): Promise<{ role: Role } | { problems: RoleProblem[] }> {
  let text: string | undefined;
  try {
    text = await source.read(fileName, maxBytes);
  } catch (err) {
    const tooLarge = err instanceof StorageError && err.code === 'too-large';
    const problem = tooLarge
      ? roleProblem(file, tooLargeMessage(undefined, maxBytes), { line: 1 })
      : roleProblem(file, `could not be read: ${messageOf(err)}`);
    return { problems: [problem] };
  }
  if (text === undefined) return { problems: [] };
  const parsed = parseRoleFile(file, text, maxBytes);
  return parsed.role !== undefined ? { role: parsed.role } : { problems: parsed.errors };
}

/** What `role` allows that `ceiling` does not, said for the person, or undefined. */
function widening(role: Role, ceiling: Role): { field: string; message: string } | undefined {
  const extra = role.tools.filter((t) => !ceiling.tools.includes(t));
  if (extra.length > 0) {
    const are = extra.length > 1 ? 'are' : 'is';
    return {
      field: 'tools',
      message: `${extra.join(', ')} ${are} not among the bundled role's tools (${ceiling.tools.join(', ') || 'none'})`,
    };
  }
  if (!permissionWithin(role.permissionMode, ceiling.permissionMode)) {
    const allowed = PERMISSION_MODES.slice(0, PERMISSION_MODES.indexOf(ceiling.permissionMode) + 1).join(', ');
    return {
      field: 'permissionMode',
      message: `${role.permissionMode} is looser than the bundled role's ${ceiling.permissionMode} (allowed: ${allowed})`,
    };
  }
  return undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
