// Role files for tests: a valid one to start from, and a RoleSource over a plain object.
import type { RoleSource } from '../../../src/core/roles/roleLoader';

export interface RoleText {
  name?: string;
  description?: string;
  tools?: string;
  model?: string;
  permissionMode?: string;
  maxTurns?: string;
  extra?: string;
  prompt?: string;
}

/** A valid role file named `name`; each option replaces one line (the value after `key: `). */
export function roleText(name: string, o: RoleText = {}): string {
  return [
    '---',
    `name: ${o.name ?? name}`,
    `description: ${o.description ?? `The ${name} role for tests.`}`,
    `tools: ${o.tools ?? '[read_file, search]'}`,
    `model: ${o.model ?? 'fast'}`,
    `permissionMode: ${o.permissionMode ?? 'readOnly'}`,
    `maxTurns: ${o.maxTurns ?? '5'}`,
    ...(o.extra === undefined ? [] : [o.extra]),
    '---',
    '',
    o.prompt ?? `You are the ${name} role.`,
    '',
  ].join('\n');
}

/** A folder of role files in memory; `reads` records what was read with which cap. */
export class MemoryRoleSource implements RoleSource {
  readonly reads: { fileName: string; maxBytes: number }[] = [];
  listError: Error | undefined;

  constructor(
    readonly label: string,
    readonly files: Record<string, string | Error> = {},
  ) {}

  async list(): Promise<string[]> {
    if (this.listError) throw this.listError;
    return Object.keys(this.files);
  }

  async read(fileName: string, maxBytes: number): Promise<string | undefined> {
    this.reads.push({ fileName, maxBytes });
    const f = this.files[fileName];
    if (f instanceof Error) throw f;
    return f;
  }
}
