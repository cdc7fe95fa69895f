// What the plan explorer reads from `.groundwork/`: plans and their rounds, the discovery sessions
// and the unfinished brainstorms waiting for the person; every unreadable file a problem that names
// it, never a failed read of the rest.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serializeSession } from '../../../src/core/brainstorm/sessionFile';
import { serializeRoundFile } from '../../../src/core/discovery/roundFile';
import { readExplorer, readPlanFacts } from '../../../src/core/explorer/explorerReader';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

const TTL = 30 * 60_000;

function workspace(): MemoryWorkspace {
  const ws = new MemoryWorkspace();
  ws.fs.writeRaw(ws.path('plans/crm/idea-brief.md'), '# Idea Brief\n');
  ws.fs.writeRaw(ws.path('plans/crm/rounds/round-1.md'), 'q\n');
  ws.fs.writeRaw(
    ws.path('discovery/crm.md'),
    serializeRoundFile({
      createdSec: 1_700_000_000,
      round: 2,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: '1. Who?', answer: 'Sales' }, { questions: '1. When?' }],
    }),
  );
  ws.fs.writeRaw(
    ws.path('plans/shop/.brainstorm.json'),
    serializeSession({
      slug: 'shop',
      topic: 'A shop',
      createdAt: 1_700_000_000_000,
      minRounds: 1,
      maxRounds: 4,
      rounds: [{ round: 1, questions: [{ text: 'Who buys?', angle: 'ux', priority: 1 }] }],
      phase: { kind: 'answering' },
    }),
  );
  return ws;
}

describe('the plan explorer reader', () => {
  it('reads the plans with their rounds, a discovery session at round 2/3 and a brainstorm at round 1/4', async () => {
    const read = await readExplorer(workspace().store, TTL);
    assert.deepEqual(
      read.plans.map((p) => [p.slug, [...p.files].sort(), p.rounds]),
      [
        ['crm', ['idea-brief.md', 'rounds'], ['round-1.md']],
        ['shop', ['.brainstorm.json'], []],
      ],
    );
    assert.deepEqual(read.sessions, [
      {
        kind: 'discovery',
        session: 'crm',
        file: 'discovery/crm.md',
        request: 'build me a CRM',
        round: 2,
        maxRounds: 3,
        createdMs: 1_700_000_000_000,
        ttlMs: TTL,
      },
      {
        kind: 'brainstorm',
        slug: 'shop',
        file: 'plans/shop/.brainstorm.json',
        topic: 'A shop',
        round: 1,
        maxRounds: 4,
        createdMs: 1_700_000_000_000,
      },
    ]);
    assert.deepEqual(read.problems, []);
  });

  it('names each file it cannot read and still reads the rest', async () => {
    const ws = workspace();
    ws.fs.writeRaw(ws.path('discovery/broken.md'), 'no header\n');
    ws.fs.writeRaw(ws.path('plans/shop/.brainstorm.json'), '{"slug": "shop", "topic": 7}');
    ws.fs.writeRaw(
      ws.path('plans/other/.brainstorm.json'),
      serializeSession({
        slug: 'crm',
        topic: 'x',
        createdAt: 1,
        minRounds: 1,
        maxRounds: 2,
        rounds: [],
        phase: { kind: 'asking' },
      } as never),
    );
    const read = await readExplorer(ws.store, TTL);
    assert.deepEqual(
      read.sessions.map((s) => s.kind),
      ['discovery'],
    );
    const problems = new Map(read.problems.map((p) => [p.file, p.problem]));
    assert.match(problems.get('.groundwork/discovery/broken.md') ?? '', /Discovery Session/);
    assert.ok(problems.has('.groundwork/plans/shop/.brainstorm.json'), [...problems.keys()].join());
    assert.ok(problems.has('.groundwork/plans/other/.brainstorm.json'));
    assert.deepEqual(
      read.plans.map((p) => p.slug),
      ['crm', 'other', 'shop'],
    );
  });

  it('leaves out a finished brainstorm, a folder that is no slug and a plan that is a link out', async () => {
    const ws = workspace();
    ws.fs.writeRaw(ws.path('plans/shop/.brainstorm-complete'), '');
    ws.fs.writeRaw(ws.path('plans/Not A Slug/idea-brief.md'), 'x');
    ws.fs.writeRaw('/elsewhere/idea-brief.md', 'secret');
    ws.fs.symlink(ws.path('plans/linked'), '/elsewhere');
    const read = await readExplorer(ws.store, TTL);
    assert.deepEqual(
      read.plans.map((p) => p.slug),
      ['crm', 'shop'],
    );
    assert.deepEqual(
      read.sessions.map((s) => s.kind),
      ['discovery'],
    );
  });

  it('reads one plan again, and nothing for a plan that is gone', async () => {
    const ws = workspace();
    assert.deepEqual((await readPlanFacts(ws.store, 'crm'))?.rounds, ['round-1.md']);
    assert.equal(await readPlanFacts(ws.store, 'gone'), undefined);
    assert.equal(await readPlanFacts(ws.store, '../crm'), undefined);
  });

  it('reads a workspace without .groundwork as empty', async () => {
    const read = await readExplorer(new MemoryWorkspace().store, TTL);
    assert.deepEqual(read, { plans: [], sessions: [], problems: [] });
  });
});
