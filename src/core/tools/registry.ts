// Pairs each tool's definition with its implementation, checks a call's input against the
// definition's schema before the implementation sees it, and turns every failure into an error
// result: a tool call never throws, whatever the model sent or the disk did.
import { describeValue, isPlainObject } from '../inputChecks';
import { relabelStorageError, StorageError } from '../storage/storageError';
import { visibleText } from '../visibleText';
import { ACTING_TOOL_DEFINITIONS } from './actingDefinitions';
import { READ_TOOL_DEFINITIONS } from './definitions';
import { reportDiscovery, runCommand, sleep } from './implementations/acting';
import { editFile } from './implementations/editFile';
import { listFiles } from './implementations/listFiles';
import { readFile } from './implementations/readFile';
import { search } from './implementations/search';
import { writeFile } from './implementations/writeFile';
import { realRoot } from './projectPaths';
import {
  ToolInputError,
  type ToolContext,
  type ToolDefinition,
  type ToolImplementation,
  type ToolResult,
  type ToolRunCache,
} from './toolTypes';

export interface Tool {
  definition: ToolDefinition;
  implementation: ToolImplementation;
}

/** The schema properties the registry checks: the subset definitions.ts uses. */
interface PropertySchema {
  type: 'string' | 'integer';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** For a string: the only values it may take. */
  enum?: readonly string[];
}

const MAX_MESSAGE_CHARS = 2000;

/** A per-run memo of promises; a failed one is forgotten, so the next call tries again. */
export function createToolRunCache(): ToolRunCache {
  const memo = new Map<string, Promise<unknown>>();
  return {
    get<T>(key: string, make: () => Promise<T>): Promise<T> {
      const known = memo.get(key);
      if (known !== undefined) return known as Promise<T>;
      const made = Promise.resolve().then(make);
      memo.set(key, made);
      made.catch(() => {
        if (memo.get(key) === made) memo.delete(key);
      });
      return made;
    },
  };
}

function propertiesOf(definition: ToolDefinition): Record<string, PropertySchema> {
  return (definition.inputSchema.properties ?? {}) as Record<string, PropertySchema>;
}

function rangeText(p: PropertySchema): string {
  if (p.minimum !== undefined && p.maximum !== undefined) return ` from ${p.minimum} to ${p.maximum}`;
  if (p.minimum !== undefined) return ` of at least ${p.minimum}`;
  if (p.maximum !== undefined) return ` of at most ${p.maximum}`;
  return '';
}

/** What is wrong with one field's value, or undefined when it fits its schema. */
function fieldProblem(name: string, p: PropertySchema, value: unknown): string | undefined {
  if (p.type === 'integer') {
    const ok =
      typeof value === 'number' &&
      Number.isSafeInteger(value) &&
      (p.minimum === undefined || value >= p.minimum) &&
      (p.maximum === undefined || value <= p.maximum);
    return ok ? undefined : `'${name}' must be a whole number${rangeText(p)}, got ${describeValue(value)}`;
  }
  if (typeof value !== 'string') return `'${name}' must be a string, got ${describeValue(value)}`;
  if (p.enum !== undefined && !p.enum.includes(value))
    return `'${name}' must be one of ${p.enum.map((v) => `'${v}'`).join(', ')}, got ${describeValue(value)}`;
  // Counted in code points; a string's length in UTF-16 units is between one and two times that, so
  // a huge value is judged without walking it (a proxy may send a 50 MB input).
  const chars = p.maxLength !== undefined && value.length > 2 * p.maxLength ? value.length : codePoints(value);
  if (p.minLength !== undefined && chars < p.minLength)
    return `'${name}' must be at least ${p.minLength} character${p.minLength === 1 ? '' : 's'} long`;
  if (p.maxLength !== undefined && chars > p.maxLength)
    return `'${name}' must be at most ${p.maxLength} characters long, got ${chars}`;
  return undefined;
}

/** The input as the schema allows it, or the sentence saying what is wrong with it. */
export function checkToolInput(
  definition: ToolDefinition,
  input: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const properties = propertiesOf(definition);
  const names = Object.keys(properties);
  const required = (definition.inputSchema.required ?? []) as string[];
  const fields = `its fields are ${names.join(', ')}${required.length > 0 ? ` (${required.join(', ')} required)` : ', all optional'}`;
  const fail = (problem: string) => ({
    ok: false as const,
    message: `Bad input for ${definition.name}: ${problem}; ${fields}.`,
  });
  if (!isPlainObject(input)) return fail(`the input must be an object, got ${describeValue(input)}`);
  const unknown = Object.keys(input).filter((key) => !Object.hasOwn(properties, key));
  if (unknown.length > 0)
    return fail(
      `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `'${visibleText(k.slice(0, 40))}'`).join(', ')}`,
    );
  const missing = required.filter((key) => !Object.hasOwn(input, key));
  if (missing.length > 0)
    return fail(
      `the field${missing.length === 1 ? '' : 's'} ${missing.map((k) => `'${k}'`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
    );
  for (const name of names) {
    if (!Object.hasOwn(input, name)) continue;
    const problem = fieldProblem(name, properties[name] as PropertySchema, input[name]);
    if (problem !== undefined) return fail(problem);
  }
  return { ok: true, value: input };
}

function cut(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
}

/** A storage error's message with the workspace's absolute paths made relative. */
async function storageMessage(err: StorageError, context: ToolContext, cache: ToolRunCache): Promise<string> {
  const prefixes = [context.root];
  const real = await realRoot(context, cache).catch(() => undefined);
  if (real !== undefined && real !== context.root) prefixes.push(real);
  let relabelled = err;
  // Longest first, so that a root inside the other is not cut halfway.
  for (const prefix of prefixes.sort((a, b) => b.length - a.length)) {
    for (const sep of ['/', '\\'])
      relabelled = relabelStorageError(relabelled, prefix.endsWith(sep) ? prefix : `${prefix}${sep}`);
  }
  return relabelled.message;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.definition.name)) throw new RangeError(`Two tools are named ${tool.definition.name}.`);
      this.tools.set(tool.definition.name, tool);
    }
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The definitions of the tools named that this registry has, in the order of `names`, each once. */
  definitionsFor(names: readonly string[]): ToolDefinition[] {
    const seen = new Set<string>();
    const out: ToolDefinition[] = [];
    for (const name of names) {
      const tool = this.tools.get(name);
      if (tool === undefined || seen.has(name)) continue;
      seen.add(name);
      out.push(tool.definition);
    }
    return out;
  }

  /** What a call touches, for the people watching: its path ('.' for the root) or query; '?' when the input says nothing usable. */
  target(name: string, input: unknown): string {
    const tool = this.tools.get(name);
    if (tool === undefined || !isPlainObject(input)) return '?';
    try {
      return tool.implementation.target(input);
    } catch {
      return '?';
    }
  }

  /** Runs one call. Never throws: bad input, a refused path and any failure are error results. */
  async run(name: string, input: unknown, context: ToolContext, cache: ToolRunCache): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (tool === undefined) {
      return {
        isError: true,
        content: `There is no tool '${name.slice(0, 64).replace(/[^\w.-]/g, '?')}'. The tools are: ${[...this.tools.keys()].join(', ')}.`,
      };
    }
    const checked = checkToolInput(tool.definition, input);
    if (!checked.ok) return { isError: true, content: cut(checked.message) };
    try {
      const content = await tool.implementation.run(checked.value, context, cache);
      return { isError: false, content };
    } catch (err) {
      return { isError: true, content: cut(await this.failure(name, err, context, cache)) };
    }
  }

  private async failure(name: string, err: unknown, context: ToolContext, cache: ToolRunCache): Promise<string> {
    if (err instanceof ToolInputError) return err.message;
    if (context.signal.aborted) return `${name} was stopped: the run was cancelled.`;
    if (err instanceof StorageError) return `${name} failed: ${await storageMessage(err, context, cache)}`;
    // Anything else is a fault of ours; its message may name paths, so only its kind is said.
    const kind = err instanceof Error ? err.name : typeof err;
    return `${name} failed unexpectedly (${visibleText(kind.slice(0, 40))}). Try again, or go on without it.`;
  }
}

const IMPLEMENTATIONS: Record<string, ToolImplementation> = {
  read_file: readFile,
  list_files: listFiles,
  search,
  write_file: writeFile,
  edit_file: editFile,
  run_command: runCommand,
  sleep,
  report_discovery: reportDiscovery,
};

function toolsOf(definitions: readonly ToolDefinition[]): Tool[] {
  return definitions.map((definition) => {
    const implementation = IMPLEMENTATIONS[definition.name];
    if (implementation === undefined) throw new RangeError(`The tool ${definition.name} has no implementation.`);
    return { definition, implementation };
  });
}

/** read_file, list_files and search: what discovery and the brainstorm may use. */
export const readTools = new ToolRegistry(toolsOf(READ_TOOL_DEFINITIONS));

/** The read tools, then write_file, edit_file, run_command, sleep and report_discovery: an agent run's tools (its role's file picks among them). */
export const agentTools = new ToolRegistry(toolsOf([...READ_TOOL_DEFINITIONS, ...ACTING_TOOL_DEFINITIONS]));

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
