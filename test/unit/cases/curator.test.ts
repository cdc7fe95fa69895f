import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CaseStore } from '../../../src/core/cases/caseStore';
import { Curator } from '../../../src/core/cases/curator';
import { classifyCategory, classifyImpact, contentHash, normalizeContent } from '../../../src/core/cases/classify';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { sha256 } from '../../support/sha256';
import { casesSetup } from './casesHarness';

describe('deduplication', () => {
  test('normalising trims, lower-cases and collapses whitespace, and the hash is SHA-256 of that', async () => {
    assert.equal(normalizeContent('  Tests use\n\tVitest,   NOT Jest  '), 'tests use vitest, not jest');
    assert.equal(contentHash('hello', sha256), '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    assert.equal(contentHash('  HELLO \n', sha256), contentHash('hello', sha256));
  });

  test('the same learning reported twice is one case; the second gets its id marked duplicate', async () => {
    const { store, lines } = casesSetup();
    const curator = new Curator({ store });
    const first = await curator.submit({
      scope: 'global',
      content: 'Tests use vitest, not jest',
      agentId: 'developer',
    });
    const again = await curator.submit({ scope: 'local', content: '  tests USE vitest,\n not   jest ', agentId: 'qa' });
    assert.equal(first.kind, 'created');
    assert.deepEqual([again.kind, again.kind === 'duplicate' && again.id], ['duplicate', 'disc-001']);
    assert.equal(lines().length, 1);
    assert.equal((await store.readCounters()).counters['discoveryDuplicates'], 1);
  });

  test('reports queued at once are processed one by one: one case, the rest duplicates', async () => {
    const { store } = casesSetup();
    const curator = new Curator({ store });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        curator.submit({ scope: 'global', content: 'All API calls go through the gateway' }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.kind),
      ['created', ...Array(9).fill('duplicate')],
    );
    assert.equal((await store.load()).cases.length, 1);
  });

  test('dedup survives a restart: it is derived from the store, whatever the case became', async () => {
    const { ws, clock, store } = casesSetup();
    const made = await new Curator({ store }).submit({ scope: 'global', content: 'Rate limit is 100/hour' });
    assert.equal(made.kind, 'created');
    await store.apply('disc-001', { kind: 'archive' });
    const restarted = new Curator({ store: new CaseStore(ws.store, clock, sha256) });
    const again = await restarted.submit({ scope: 'global', content: 'rate limit is 100/hour' });
    assert.deepEqual([again.kind, again.kind === 'duplicate' && again.case.status], ['duplicate', 'archived']);
  });

  test('two windows with their own curators do not both add the same learning', async () => {
    const { ws, clock } = casesSetup();
    const a = new Curator({ store: new CaseStore(ws.store, clock, sha256) });
    const b = new Curator({ store: new CaseStore(ws.store, clock, sha256) });
    await a.submit({ scope: 'global', content: 'warm up both caches' });
    await b.submit({ scope: 'global', content: 'warm up both caches, too' });
    const results = await Promise.all([
      a.submit({ scope: 'global', content: 'Shared learning' }),
      b.submit({ scope: 'global', content: 'shared learning' }),
    ]);
    assert.deepEqual(results.map((r) => r.kind).sort(), ['created', 'duplicate']);
  });
});

describe('reports', () => {
  test('signals in an agent text become cases with their scope, task and agent', async () => {
    const { store } = casesSetup();
    const curator = new Curator({ store });
    const text =
      'Working…\n<axiom>DISCOVERY_LOCAL:This API requires authentication header</axiom> then\n<axiom>DISCOVERY_GLOBAL: All test files should use .test.ts extension </axiom>';
    const results = await curator.submitText(text, { taskId: 'build-1:developer', agentId: 'developer' });
    const made = results
      .map((r) => (r.kind === 'created' ? r.case : undefined))
      .filter((c): c is DiscoveryCase => c !== undefined);
    assert.deepEqual(
      made.map((c) => [c.id, c.metadata.scope, c.content, c.parentId, c.metadata.sourceAgentId, c.metadata.category]),
      [
        ['disc-001', 'local', 'This API requires authentication header', 'build-1:developer', 'developer', 'API'],
        [
          'disc-002',
          'global',
          'All test files should use .test.ts extension',
          'build-1:developer',
          'developer',
          'Testing',
        ],
      ],
    );
  });

  test('an impact the reporter gave is kept; a category too', async () => {
    const { store } = casesSetup();
    const r = await new Curator({ store }).submit({
      scope: 'global',
      content: 'Use const over let when possible',
      impact: 'critical',
      category: 'Conventions',
    });
    assert.ok(r.kind === 'created');
    assert.deepEqual([r.case.metadata.impact, r.case.metadata.category], ['critical', 'Conventions']);
  });

  test('a bad report is refused with the reason, and the queue goes on', async () => {
    const { store } = casesSetup();
    const curator = new Curator({ store });
    const bad = curator.submit({ scope: 'global', content: '' });
    const good = curator.submit({ scope: 'global', content: 'fine' });
    await assert.rejects(bad, /The discovery was not added: the content is empty/);
    assert.equal((await good).kind, 'created');
    await assert.rejects(
      curator.submit({ scope: 'global', content: 'x', impact: 'urgent' as never }),
      /the impact must be one of low, medium, high, critical/,
    );
  });

  test('every new case goes to the hook (the journal); a failing hook does not lose the case', async () => {
    const { store } = casesSetup();
    const seen: string[] = [];
    let fail = false;
    const curator = new Curator({
      store,
      onCreated: async (c) => {
        if (fail) throw new Error('disk full');
        seen.push(c.id);
      },
    });
    await curator.submit({ scope: 'global', content: 'one' });
    await curator.submit({ scope: 'global', content: 'one' });
    fail = true;
    const r = await curator.submit({ scope: 'global', content: 'two' });
    assert.deepEqual(seen, ['disc-001']);
    assert.deepEqual([r.kind, r.kind === 'created' && r.hookError], ['created', 'disk full']);
    assert.equal((await store.load()).cases.length, 2);
  });
});

describe('heuristics', () => {
  test('impact, with the examples of docs/discovery-cases.md', () => {
    assert.equal(classifyImpact('Use const over let when possible'), 'low');
    assert.equal(classifyImpact('This hook requires cleanup'), 'medium');
    assert.equal(classifyImpact('All API calls go through gateway'), 'high');
    assert.equal(classifyImpact('Auth token expires after 1 hour'), 'critical');
    assert.equal(classifyImpact('The logo is blue'), 'low');
  });

  test('category, an example for each of the eight', () => {
    const cases: [string, string][] = [
      ['All API routes defined in `src/routes/`', 'API'],
      ['Tests use Vitest, not Jest', 'Testing'],
      ['Run the migration before seeding the database', 'Database'],
      ['The button component needs its CSS imported', 'Frontend'],
      ['This error means the port is taken; fix with PORT=0', 'Errors'],
      ['Pin the library version: 2.x breaks imports', 'Dependencies'],
      ['Naming: files are camelCase', 'Conventions'],
      ['rehype requires explicit config for GFM', 'Architecture'],
      ['The build is slow', 'Architecture'],
    ];
    for (const [content, category] of cases) assert.equal(classifyCategory(content), category, content);
  });
});
