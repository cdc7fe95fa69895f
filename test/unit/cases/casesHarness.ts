// A case store on the in-memory workspace, with a clock the test moves, and a helper that makes
// a valid case line to plant or to mutate into a hostile one.
import { CaseStore } from '../../../src/core/cases/caseStore';
import { parseCase } from '../../../src/core/cases/caseRecord';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { sha256 } from '../../support/sha256';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

export const T0 = Date.UTC(2025, 0, 31, 9, 15, 0);
export const DAY = 24 * 60 * 60 * 1000;

export function casesSetup(options: { maxBytes?: number } = {}) {
  const ws = new MemoryWorkspace();
  const clock = new FakeClock(T0);
  const store = new CaseStore(ws.store, clock, sha256, options);
  return { ws, clock, store, lines: () => ws.lines('cases.jsonl') ?? [] };
}

/** A case line's JSON value as the store writes it, with `over` merged in (metadata merged too). */
export function caseJson(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const { metadata, ...rest } = over;
  return {
    id,
    type: 'discovery',
    status: 'active',
    content: `learning ${id}`,
    parentId: 'task-1',
    metadata: {
      scope: 'global',
      sourceTaskId: 'task-1',
      sourceAgentId: 'developer',
      impact: 'medium',
      category: 'Architecture',
      validated: false,
      appliedTo: [],
      supersededBy: null,
      ...(metadata as Record<string, unknown> | undefined),
    },
    createdAt: '2025-01-31T09:15:00.000Z',
    validatedAt: null,
    updatedAt: '2025-01-31T09:15:00.000Z',
    ...rest,
  };
}

export const line = (id: string, over: Record<string, unknown> = {}) => JSON.stringify(caseJson(id, over));

/** Adds a case through the store with sensible defaults. */
export async function addCase(
  store: CaseStore,
  content: string,
  over: Partial<Parameters<CaseStore['add']>[0]> = {},
): Promise<DiscoveryCase> {
  const result = await store.add({ content, scope: 'global', impact: 'medium', category: 'Architecture', ...over });
  return result.case;
}

/** A case as the store reads it, from caseJson's line with `over` merged in. */
export function make(id: string, over: Record<string, unknown> = {}): DiscoveryCase {
  const parsed = parseCase(caseJson(id, over));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

/** 09:00 UTC on day `day` of February 2025. */
export const at = (day: number) => `2025-02-${String(day).padStart(2, '0')}T09:00:00.000Z`;
