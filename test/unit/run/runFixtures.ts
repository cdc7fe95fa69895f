// What the run tests share: a valid run record, SHA-256 from node:crypto (the port the CLI and the
// extension pass in), and a RunStore over an in-memory workspace.
import { createHash } from 'node:crypto';
import { RunStore } from '../../../src/core/run/runStore';
import type { RunRecord } from '../../../src/core/run/runTypes';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export function sampleRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    version: 1,
    id: '20250102-030405-builder-0a1f',
    role: 'builder',
    task: 'Add a README',
    root: '.',
    status: 'completed',
    turns: 3,
    usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheCreationTokens: 5 },
    model: 'claude-sonnet-4-5-20250929',
    costUsd: 0.0123,
    startedAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:05:00.000Z',
    endedAt: '2025-01-02T03:05:00.000Z',
    summary: 'Wrote README.md.',
    origin: 'cli',
    ...overrides,
  };
}

export function runWorkspace() {
  const ws = new MemoryWorkspace();
  return { ws, runs: new RunStore(ws.store) };
}
