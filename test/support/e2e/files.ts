// What the tests read back from the workspace's .groundwork/ files, as Groundwork wrote them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbench } from './workbench';

export type JsonLine = Record<string, unknown>;

/** The records of a JSON Lines file (absolute, or relative to the workspace's .groundwork/); [] while it does not exist. */
export function jsonLines(path: string): JsonLine[] {
  const file = path.startsWith('/') ? path : join(workbench().workspace, '.groundwork', path);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JsonLine);
}

/** The last line .groundwork/cases.jsonl holds for the case `id` (the store's rule: the last line wins). */
export function lastCaseLine(id: string): JsonLine | undefined {
  return jsonLines('cases.jsonl')
    .filter((l) => l['id'] === id)
    .at(-1);
}
