// The plan explorer's model: a plan expands to its documents (in reading order), the builds made
// from it and the cases those builds reported; the sessions waiting for the person carry round n/N
// and their time left; a refresh replaces one plan only.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ExplorerTree,
  planDocuments,
  type PlanFacts,
  type SessionFacts,
} from '../../../src/core/explorer/explorerTree';

const plan = (slug: string, files: string[], rounds: string[] = []): PlanFacts => ({ slug, files, rounds });
const MIN = 60_000;

describe('the plan explorer model', () => {
  it('lists a plan’s documents in reading order: the brief, the result, its context, then the rounds by number', () => {
    const docs = planDocuments(
      plan(
        'crm',
        [
          'rounds',
          '00-brainstorming.context.md',
          'idea-brief.md',
          '00-brainstorming.md',
          '.brainstorm-complete',
          'notes.txt',
        ],
        ['round-10.md', 'round-2.md', 'round-1.md', 'round-x.md', 'round-0.md'],
      ),
    );
    assert.deepEqual(
      docs.map((d) => [d.kind, d.file, d.round]),
      [
        ['ideaBrief', 'plans/crm/idea-brief.md', undefined],
        ['brainstorm', 'plans/crm/00-brainstorming.md', undefined],
        ['context', 'plans/crm/00-brainstorming.context.md', undefined],
        ['round', 'plans/crm/rounds/round-1.md', 1],
        ['round', 'plans/crm/rounds/round-2.md', 2],
        ['round', 'plans/crm/rounds/round-10.md', 10],
      ],
    );
  });

  it('lists no rounds when the folder has no rounds/ (a stray list is not believed)', () => {
    assert.deepEqual(planDocuments(plan('crm', ['idea-brief.md'], ['round-1.md'])).length, 1);
  });

  it('opens the brainstorm’s document before the Idea Brief, and a plan of neither opens nothing', () => {
    const tree = new ExplorerTree({
      plans: [
        plan('a', ['idea-brief.md', '00-brainstorming.md', '.brainstorm-complete']),
        plan('b', ['idea-brief.md']),
        plan('c', ['.brainstorm.json']),
      ],
    });
    assert.equal(tree.plan('a')?.mainFile, 'plans/a/00-brainstorming.md');
    assert.equal(tree.plan('b')?.mainFile, 'plans/b/idea-brief.md');
    assert.equal(tree.plan('c')?.mainFile, undefined);
    assert.equal(tree.plan('c')?.unfinishedBrainstorm, true);
    assert.equal(tree.plan('b')?.complete, true);
  });

  it('puts each build under the plan it was made from, and under it the cases that build reported', () => {
    const tree = new ExplorerTree({
      plans: [plan('crm', ['idea-brief.md']), plan('shop', ['idea-brief.md'])],
      builds: [{ id: 'b2', plan: 'crm' }, { id: 'b1', plan: 'crm' }, { id: 'b3', plan: 'shop' }, { id: 'b4' }],
      cases: [
        { id: 'disc-001', task: 'b1', parent: 'b1' },
        { id: 'disc-002', task: 'b3', parent: null },
        { id: 'disc-003', task: 'run-x', parent: 'b2' },
        { id: 'disc-004', task: null, parent: null },
        { id: 'disc-005', task: 'b1', parent: 'b2' },
      ],
    });
    assert.deepEqual(tree.plan('crm')?.builds, ['b2', 'b1']);
    assert.deepEqual(tree.plan('crm')?.cases, ['disc-003', 'disc-005', 'disc-001']);
    assert.deepEqual(tree.plan('shop')?.cases, ['disc-002']);
  });

  it('refreshes one plan: the others stay the same objects, a new plan takes its place by slug, a gone one leaves', () => {
    const tree = new ExplorerTree({
      plans: [plan('b', ['idea-brief.md']), plan('d', ['idea-brief.md'])],
      builds: [{ id: 'x', plan: 'c' }],
    });
    const d = tree.plan('d');
    const c = tree.updatePlan('c', plan('c', ['idea-brief.md', 'rounds'], ['round-1.md']));
    assert.deepEqual(c?.builds, ['x']);
    assert.deepEqual(
      c?.documents.map((doc) => doc.kind),
      ['ideaBrief', 'round'],
    );
    assert.deepEqual(
      tree.planNodes().map((p) => p.slug),
      ['b', 'c', 'd'],
    );
    assert.equal(tree.plan('d'), d);
    assert.equal(tree.updatePlan('b', undefined), undefined);
    assert.deepEqual(
      tree.planNodes().map((p) => p.slug),
      ['c', 'd'],
    );
  });

  it('refuses a folder name that is no slug, and facts of another plan', () => {
    const tree = new ExplorerTree({ plans: [plan('../x', ['idea-brief.md']), plan('ok', [])] });
    assert.deepEqual(
      tree.planNodes().map((p) => p.slug),
      ['ok'],
    );
    assert.equal(tree.updatePlan('ok', plan('other', [])), undefined);
    assert.deepEqual(tree.planNodes(), []);
  });

  it('shows the waiting sessions oldest first with their time left, and counts for the badge only those still open', () => {
    const discovery = (session: string, createdMs: number): SessionFacts => ({
      kind: 'discovery',
      session,
      file: `discovery/${session}.md`,
      request: 'build me a CRM',
      round: 1,
      maxRounds: 3,
      createdMs,
      ttlMs: 30 * MIN,
    });
    const tree = new ExplorerTree({
      plans: [],
      sessions: [
        discovery('new', 50 * MIN),
        discovery('old', 0),
        {
          kind: 'brainstorm',
          slug: 'crm',
          file: 'plans/crm/.brainstorm.json',
          topic: 'CRM',
          round: 2,
          maxRounds: 5,
          createdMs: 10 * MIN,
        },
      ],
    });
    const now = 60 * MIN;
    const sessions = tree.sessions(now);
    assert.deepEqual(
      sessions.map((s) => [s.facts.kind, s.expiresAt, s.expired]),
      [
        ['discovery', 30 * MIN, true],
        ['brainstorm', undefined, false],
        ['discovery', 80 * MIN, false],
      ],
    );
    assert.equal(tree.waiting(now), 2);
    assert.equal(tree.waiting(30 * MIN), 3, 'at exactly the TTL a session still lives');
  });

  it('looks the builds and cases up again without reading the documents again', () => {
    const tree = new ExplorerTree({ plans: [plan('crm', ['idea-brief.md'])] });
    const docs = tree.plan('crm')?.documents;
    tree.setBuildsAndCases([{ id: 'b1', plan: 'crm' }], [{ id: 'disc-001', task: 'b1', parent: null }]);
    assert.deepEqual(tree.plan('crm')?.builds, ['b1']);
    assert.deepEqual(tree.plan('crm')?.cases, ['disc-001']);
    assert.equal(tree.plan('crm')?.documents, docs);
  });
});
