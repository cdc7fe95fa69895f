// A workspace for the read tools' tests: the in-memory fake with files under ROOT, a context, and
// a call through the default registry (a fresh run cache per call unless one is given).
import assert from 'node:assert/strict';
import type { WorkspaceFs } from '../../../src/core/storage/workspaceFs';
import { createToolRunCache, readTools } from '../../../src/core/tools/registry';
import type { ToolContext, ToolResult, ToolRunCache } from '../../../src/core/tools/toolTypes';
import { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';

export const ROOT = '/w';

/** Deterministic "random" bytes: a boundary tests can predict (and that differs per block). */
export function countingRandom(): (count: number) => Uint8Array {
  let n = 0;
  return (count) => Uint8Array.from({ length: count }, () => n++ % 256);
}

export function memoryWorkspace(files: Record<string, string | Uint8Array> = {}): MemoryWorkspaceFs {
  const fs = new MemoryWorkspaceFs();
  fs.mkdir(ROOT);
  for (const [path, content] of Object.entries(files)) fs.writeRaw(`${ROOT}/${path}`, content);
  return fs;
}

export function contextFor(fs: WorkspaceFs, overrides: Partial<ToolContext> = {}): ToolContext {
  return { fs, root: ROOT, exclude: [], signal: new AbortController().signal, random: countingRandom(), ...overrides };
}

export function call(
  name: string,
  input: unknown,
  context: ToolContext,
  cache: ToolRunCache = createToolRunCache(),
): Promise<ToolResult> {
  return readTools.run(name, input, context, cache);
}

/** The result of a call that must succeed. */
export async function ok(name: string, input: unknown, context: ToolContext): Promise<string> {
  const result = await call(name, input, context);
  assert.equal(result.isError, false, `expected ${name} ${JSON.stringify(input)} to work, got: ${result.content}`);
  return result.content;
}

/** The message of a call that must fail; `pattern` is what it must say. */
export async function refused(name: string, input: unknown, context: ToolContext, pattern: RegExp): Promise<string> {
  const result = await call(name, input, context);
  assert.equal(result.isError, true, `expected ${name} ${JSON.stringify(input)} to fail, got: ${result.content}`);
  assert.match(result.content, pattern);
  return result.content;
}

/** The text inside the one untrusted-data block of a result, checked to be fenced. */
export function fencedBody(content: string): string {
  const match =
    /\n<untrusted-data boundary="([0-9a-f]{32})" source="[^"]*">\n([\s\S]*)\n<\/untrusted-data boundary="\1">$/.exec(
      content,
    );
  assert.ok(match, `not a fenced result:\n${content.slice(0, 500)}`);
  return match[2] as string;
}

/** The header line before the fence. */
export function headerOf(content: string): string {
  return content.split('\n')[0] as string;
}
