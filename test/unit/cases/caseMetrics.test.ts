import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { discoveryMetrics } from '../../../src/core/cases/caseMetrics';
import { parseGitLog, pathspecOf } from '../../../src/core/node/gitLogRunner';
import { make } from './casesHarness';

describe('metrics (docs/discovery-cases.md, "Metrics")', () => {
  test('from the cases and the duplicates counter', () => {
    const cases = [
      make('disc-001', { metadata: { impact: 'high', validated: true, sourceTaskId: 'build-1' } }),
      make('disc-002', { metadata: { impact: 'low', sourceTaskId: 'build-1' } }),
      make('disc-003', { status: 'outdated', metadata: { impact: 'critical', sourceTaskId: 'build-2' } }),
      make('disc-004', { status: 'archived', metadata: { scope: 'local', sourceAgentId: 'qa', sourceTaskId: null } }),
      make('disc-005', { metadata: { scope: 'local', sourceAgentId: 'qa', sourceTaskId: 'build-2' } }),
      make('disc-006', { metadata: { scope: 'local', sourceAgentId: 'developer', sourceTaskId: 'build-2' } }),
      make('disc-007', { metadata: { scope: 'local', sourceAgentId: 'developer', sourceTaskId: 'build-2' } }),
    ];
    assert.deepEqual(discoveryMetrics(cases, { duplicatesPrevented: 4 }), {
      total: 7,
      byStatus: { active: 5, outdated: 1, archived: 1, deleted: 0 },
      byScope: { local: 4, global: 3 },
      duplicatesPrevented: 4,
      sourceTasks: [
        { taskId: 'build-2', cases: 4 },
        { taskId: 'build-1', cases: 2 },
      ],
      injectedPerPrompt: { global: 2, local: 1.5 },
      byImpact: { low: 1, medium: 4, high: 1, critical: 1 },
      validationRate: 0.143,
      outdatedRate: 0.143,
    });
  });

  test('no cases: zeros, not NaN', () => {
    const m = discoveryMetrics([]);
    assert.deepEqual(
      [m.total, m.validationRate, m.outdatedRate, m.injectedPerPrompt],
      [0, 0, 0, { global: 0, local: 0 }],
    );
  });
});

describe('the git log adapter’s pieces', () => {
  test('paths become literal pathspecs; a bare name is looked for in any folder', () => {
    assert.equal(pathspecOf('src/auth.ts'), ':(literal)src/auth.ts');
    assert.equal(pathspecOf('src/routes/'), ':(literal)src/routes');
    assert.equal(pathspecOf('auth.ts'), ':(glob)**/auth.ts');
    assert.equal(pathspecOf('a[1]*.ts'), ':(glob)**/a\\[1\\]\\*.ts');
  });

  test('its output is read commit by commit', () => {
    const out = `\x1e${'a'.repeat(40)}\x1f2025-02-01T10:00:00+01:00\x1fFix login\n\nsrc/auth.ts\nsrc/x y.ts\n\x1e${'b'.repeat(40)}\x1f2025-01-01T00:00:00Z\x1fInit\n\nREADME.md\n`;
    assert.deepEqual(parseGitLog(out), [
      {
        hash: 'a'.repeat(40),
        date: '2025-02-01T10:00:00+01:00',
        subject: 'Fix login',
        files: ['src/auth.ts', 'src/x y.ts'],
      },
      { hash: 'b'.repeat(40), date: '2025-01-01T00:00:00Z', subject: 'Init', files: ['README.md'] },
    ]);
  });
});
