// The cases module as the front ends use it: every change is followed by the views, a review
// action refused by the status diagram changes nothing, the staleness check combines git, the
// contradiction check and archival, and a views failure is reported once, never lost silently.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaseTransitionError } from '../../../src/core/cases/caseActions';
import { CaseService } from '../../../src/core/cases/caseService';
import type { GitLogPort } from '../../../src/core/cases/staleness';
import { sha256 } from '../../support/sha256';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { DAY, T0 } from './casesHarness';

const VIEW = '/ws/.groundwork/discoveries.md';

function setup(git?: GitLogPort) {
  const ws = new MemoryWorkspace();
  const clock = new FakeClock(T0);
  const service = new CaseService({ store: ws.store, clock, hash: sha256, ...(git ? { git } : {}) });
  return { ws, clock, service };
}

async function created(service: CaseService, content: string, scope: 'local' | 'global' = 'global', agentId?: string) {
  const r = await service.report({ scope, content, ...(agentId ? { agentId, taskId: 'build-1' } : {}) });
  assert.equal(r.kind, 'created', content);
  return r.kind === 'created' ? r.case : assert.fail();
}

describe('CaseService', () => {
  it('the view follows each report and each review action', async () => {
    const { ws, service } = setup();
    const c = await created(service, 'Config lives in config/app.yaml.');
    await service.settled();
    assert.match(ws.fs.text(VIEW) ?? '', /- \[disc-001\] Config lives in config\/app\.yaml\./);
    await service.apply(c.id, { kind: 'outdated' });
    await service.settled();
    assert.match(ws.fs.text(VIEW) ?? '', /- \[disc-001\] \(outdated: marked outdated\) Config lives/);
    await service.apply(c.id, { kind: 'archive' });
    await service.settled();
    assert.doesNotMatch(ws.fs.text(VIEW) ?? '', /disc-001/, 'an archived case leaves the view');
  });

  it('a transition the diagram does not allow is refused with a reason and writes nothing', async () => {
    const { ws, service } = setup();
    const c = await created(service, 'Tests use vitest.');
    const before = ws.lines('cases.jsonl');
    await assert.rejects(
      service.apply(c.id, { kind: 'resurrect' }),
      (err: unknown) => err instanceof CaseTransitionError && /archived/.test(err.message),
    );
    await assert.rejects(service.apply(c.id, { kind: 'delete' }), CaseTransitionError);
    assert.deepEqual(ws.lines('cases.jsonl'), before);
  });

  it('a new case that contradicts an older one supersedes it at once; the check archives outdated cases unreviewed past the days, and says why git was skipped', async () => {
    const { clock, service } = setup();
    const old = await created(service, 'The API uses REST endpoints for every call.');
    clock.advance(60_000);
    const newer = await created(
      service,
      'The API does not use REST endpoints for every call anymore, it uses GraphQL.',
    );
    await service.settled();
    const superseded = await service.cases.get(old.id);
    assert.deepEqual([superseded?.status, superseded?.metadata.supersededBy], ['outdated', newer.id]);
    clock.advance(6 * DAY);
    assert.deepEqual((await service.checkStaleness(7)).archived, [], 'six days: not yet');
    clock.advance(2 * DAY);
    const report = await service.checkStaleness(7);
    assert.match(report.skipped ?? '', /Git is not available/);
    assert.deepEqual(
      report.archived.map((c) => [c.id, c.metadata.archivedReason]),
      [[old.id, 'outdated_unreviewed']],
    );
    assert.equal((await service.cases.get(newer.id))?.status, 'active');
  });

  it('git: a commit that changed a file a case names marks it outdated, naming the commit', async () => {
    const asked: string[][] = [];
    const git: GitLogPort = {
      commitsTouching: async (paths) => {
        asked.push([...paths]);
        return {
          ok: true,
          commits: [
            {
              hash: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0',
              date: new Date(T0 + 3_600_000).toISOString(),
              subject: 'auth: rotate tokens',
              files: ['src/auth.ts'],
            },
          ],
        };
      },
    };
    const { ws, service } = setup(git);
    const c = await created(service, 'Tokens are checked in src/auth.ts before each request.');
    const report = await service.checkStaleness();
    assert.deepEqual(asked, [['src/auth.ts']]);
    assert.deepEqual(report.findings, [
      { id: c.id, commit: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0', files: ['src/auth.ts'] },
    ]);
    await service.settled();
    assert.match(ws.fs.text(VIEW) ?? '', /\(outdated: a file it names changed in a1b2c3d\)/);
  });

  it("a person's review sticks: a validated case is not superseded again by an older contradiction, an edited one not outdated again by the same commit", async () => {
    const commit = 'b1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';
    const git: GitLogPort = {
      commitsTouching: async () => ({
        ok: true,
        commits: [{ hash: commit, date: new Date(T0 + 60_000).toISOString(), subject: 'x', files: ['src/auth.ts'] }],
      }),
    };
    const { clock, service } = setup(git);
    const old = await created(service, 'The API uses REST endpoints for every call.');
    const byFile = await created(service, 'Tokens are checked in src/auth.ts.');
    clock.advance(60_000);
    const newer = await created(
      service,
      'The API does not use REST endpoints for every call anymore, it uses GraphQL.',
    );
    assert.equal((await service.cases.get(old.id))?.metadata.supersededBy, newer.id);
    clock.advance(60_000);
    assert.deepEqual(
      (await service.checkStaleness()).findings.map((f) => f.id),
      [byFile.id],
    );
    clock.advance(60_000);
    await service.apply(old.id, { kind: 'validate' });
    await service.apply(byFile.id, { kind: 'edit', content: 'Tokens are checked in src/auth.ts, before the router.' });
    clock.advance(60_000);
    const again = await service.checkStaleness();
    assert.deepEqual([again.findings, again.superseded], [[], []]);
    assert.deepEqual(
      [(await service.cases.get(old.id))?.status, (await service.cases.get(byFile.id))?.status],
      ['active', 'active'],
    );
  });

  it('archiveTask archives the local cases of that task only; learnedIn lists what the task learned', async () => {
    const { service } = setup();
    const local = await created(service, 'The fixture server listens on 4010.', 'local', 'build-developer');
    const global = await created(service, 'Dates are stored in UTC.', 'global', 'build-developer');
    const archived = await service.archiveTask('build-1');
    assert.deepEqual(
      archived.map((c) => c.id),
      [local.id],
    );
    assert.equal((await service.cases.get(global.id))?.status, 'active');
    assert.deepEqual(await service.learnedIn('build-1'), [
      `[${local.id}] The fixture server listens on 4010.`,
      `[${global.id}] Dates are stored in UTC.`,
    ]);
  });

  it('a view that cannot be written is reported by settled() once; the case itself is stored', async () => {
    const { ws, service } = setup();
    ws.fs.mkdir('/ws/.groundwork');
    ws.fs.mkdir(VIEW); // a folder where the view goes
    await created(service, 'Logs go to stderr.');
    await assert.rejects(service.settled());
    await service.settled();
    assert.equal((await service.list()).cases.length, 1);
  });
});
