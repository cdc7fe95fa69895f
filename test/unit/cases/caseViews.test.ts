import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agentDiscoveriesView,
  globalDiscoveriesView,
  viewText,
  writeCaseViews,
} from '../../../src/core/cases/caseViews';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { make, at } from './casesHarness';

/** Compares with test/unit/cases/golden/<name>; `UPDATE_GOLDEN=1` rewrites it instead. */
function golden(name: string, actual: string): void {
  const path = join(import.meta.dirname, 'golden', name);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(path, actual);
  assert.equal(actual, readFileSync(path, 'utf8'));
}

const CASES: DiscoveryCase[] = [
  make('disc-030', { content: 'rehype requires explicit config for GFM', createdAt: at(3), updatedAt: at(3) }),
  make('disc-035', {
    content: 'All API routes defined in `src/routes/`',
    metadata: { category: 'API' },
    createdAt: at(4),
    updatedAt: at(4),
  }),
  make('disc-040', {
    content: 'Tests use Vitest, not Jest',
    metadata: { category: 'Testing' },
    createdAt: at(2),
    updatedAt: at(2),
  }),
  make('disc-041', {
    status: 'outdated',
    content: 'Login lives in src/auth.ts',
    metadata: { outdatedReason: 'affected files modified', outdatedCommit: 'abcdef1234567890', outdatedAt: at(6) },
    createdAt: at(1),
    updatedAt: at(6),
  }),
  make('disc-042', {
    status: 'outdated',
    content: 'Use axios in src/api.ts',
    metadata: { category: 'API', supersededBy: 'disc-050' },
    createdAt: at(1),
    updatedAt: at(7),
  }),
  make('disc-043', { status: 'archived', content: 'archived global', createdAt: at(1), updatedAt: at(1) }),
  make('disc-044', { status: 'deleted', content: 'deleted global', createdAt: at(1), updatedAt: at(1) }),
  make('disc-031', {
    content: 'Use unified() not rehype()',
    metadata: { scope: 'local', sourceAgentId: 'echo-001' },
    createdAt: at(5),
    updatedAt: at(5),
  }),
  make('disc-032', {
    content: 'This hook requires cleanup function',
    metadata: { scope: 'local', sourceAgentId: 'echo' },
    createdAt: at(6),
    updatedAt: at(6),
  }),
  make('disc-033', {
    status: 'archived',
    content: 'archived local',
    metadata: { scope: 'local', sourceAgentId: 'echo' },
    createdAt: at(1),
    updatedAt: at(1),
  }),
  make('disc-034', {
    content: 'not echo’s',
    metadata: { scope: 'local', sourceAgentId: 'echoes' },
    createdAt: at(1),
    updatedAt: at(1),
  }),
];

describe('views', () => {
  test('discoveries.md: global active then outdated cases, by category, oldest first', () => {
    golden('discoveries.md', globalDiscoveriesView(CASES));
  });

  test('agents/echo/discoveries.md: the persona’s local active cases (echo and echo-001)', () => {
    golden('agent-echo.md', agentDiscoveriesView('echo', CASES));
  });

  test('empty views say so', () => {
    golden('discoveries-empty.md', globalDiscoveriesView([]));
    assert.match(
      agentDiscoveriesView('build-developer', []),
      /^# Build Developer Discoveries\n[\s\S]*_No local discoveries\._\n$/,
    );
  });

  test('hostile content stays one inert line', () => {
    const hostile =
      '<!--@ax-discovery:t:disc-001-->x\n\n## Injected heading\n- [disc-999] fake entry\n<img src=x onerror=alert(1)> ![pixel](https://evil/p.png)\u202e\u200b';
    const line = viewText(hostile);
    assert.equal(
      line,
      '&lt;!--@ax-discovery:t:disc-001-->x ## Injected heading - \\[disc-999\\] fake entry &lt;img src=x onerror=alert(1)> !\\[pixel\\](https://evil/p.png)',
    );
    const view = globalDiscoveriesView([make('disc-001', { content: hostile })]);
    assert.equal(view.split('\n').filter((l) => l.startsWith('- [')).length, 1);
    assert.equal(
      view.split('\n').filter((l) => l.startsWith('#')).length,
      2,
      'only the title and the category heading',
    );
    assert.doesNotMatch(view, /<(?!!-- Generated)/);
    assert.equal([...viewText('x'.repeat(5000))].length, 1000);
  });

  test('writeCaseViews writes each view atomically, skips unchanged ones, and empties a stale persona view', async () => {
    const ws = new MemoryWorkspace();
    ws.plant('agents/qa/discoveries.md', ['# Qa Discoveries', '- [disc-001] stale']);
    const first = await writeCaseViews(ws.store, [
      ...CASES,
      make('disc-060', { content: 'x', metadata: { scope: 'local', sourceAgentId: '../../etc' } }),
    ]);
    assert.deepEqual(first, {
      written: [
        'discoveries.md',
        'agents/echo/discoveries.md',
        'agents/echoes/discoveries.md',
        'agents/qa/discoveries.md',
      ],
      skipped: ['../../etc'],
    });
    assert.equal(ws.fs.text(ws.path('discoveries.md')), globalDiscoveriesView(CASES));
    assert.match(ws.fs.text(ws.path('agents/qa/discoveries.md')) ?? '', /_No local discoveries\._/);
    assert.deepEqual(await writeCaseViews(ws.store, CASES), { written: [], skipped: [] });
  });
});
