// What the build tests share: a whole build record, and the example blocks of the bundled role
// prompts (what each phase's model is told to write), so the parsers are tested against the very
// format the models see.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildRecord } from '../../../src/core/build/buildTypes';

export const ROOT = join(__dirname, '..', '..', '..');

export function sampleBuild(overrides: Partial<BuildRecord> = {}): BuildRecord {
  const usage = { inputTokens: 1200, outputTokens: 340, cacheReadTokens: 800, cacheCreationTokens: 0 };
  return {
    version: 1,
    id: '20250102-030405-price-tracker-0a1f',
    status: 'failed',
    source: { kind: 'brief', path: '.groundwork/plans/price-tracker/idea-brief.md' },
    projectDir: 'price-tracker',
    projectName: 'price-tracker',
    mode: 'new',
    phases: [
      {
        name: 'analyst',
        role: 'build-analyst',
        check: 'brief',
        status: 'passed',
        attempts: [
          {
            runId: '20250102-030405-build-analyst-1b2c',
            status: 'passed',
            startedAt: '2025-01-02T03:04:05.000Z',
            endedAt: '2025-01-02T03:04:35.000Z',
            cause: 'first',
            usage,
            costUsd: 0.0123,
          },
        ],
      },
      {
        name: 'qa',
        role: 'build-qa',
        check: 'verification',
        status: 'failed',
        attempts: [
          {
            runId: '20250102-031000-build-qa-3c4d',
            status: 'failed',
            startedAt: '2025-01-02T03:10:00.000Z',
            endedAt: '2025-01-02T03:12:00.000Z',
            reason: 'claimed but not verified: `node --test` exited 1',
            evidence: '$ node --test\nnot ok 1 - REQ-003: one alert per crossing\n  expected 1, got 2\n',
            transient: false,
            cause: 'qa-failed',
            usage,
            costUsd: 0.004,
          },
          {
            status: 'failed',
            startedAt: '2025-01-02T03:13:00.000Z',
            endedAt: '2025-01-02T03:13:01.000Z',
            reason: 'rate limited',
            transient: true,
            cause: 'retry',
          },
        ],
      },
      { name: 'delivery', role: 'build-delivery', check: 'delivery', status: 'pending', attempts: [] },
    ],
    verified: [
      { phase: 'qa', command: 'node --test', exitCode: 1, output: 'not ok 1 - REQ-003\n# fail 1\n' },
      { phase: 'qa', command: 'npm run lint', exitCode: null },
    ],
    summary: {
      project: 'price-tracker',
      location: 'price-tracker/',
      language: 'TypeScript',
      summary: 'Tracks prices.\nAlerts once per crossing.',
      usage: 'node bin/tracker.js run',
    },
    usage,
    costUsd: 0.0163,
    maxCostUsd: 5,
    startedAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:13:01.000Z',
    endedAt: '2025-01-02T03:13:01.000Z',
    reason: 'Phase qa failed twice: node --test exited 1.',
    origin: 'cli',
    ...overrides,
  };
}

/** The fenced block of `roles/<role>.md` whose first line starts with `firstLine`. */
export function roleExample(role: string, firstLine: string): string {
  const text = readFileSync(join(ROOT, 'roles', `${role}.md`), 'utf8');
  const blocks = text.split(/^```[a-z]*\n/m).filter((_, i) => i % 2 === 1);
  const block = blocks.find((b) => b.startsWith(firstLine));
  if (block === undefined) throw new Error(`roles/${role}.md has no example starting with ${firstLine}`);
  return block;
}
