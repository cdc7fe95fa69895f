// The plan explorer's reader and model against a hostile `.groundwork/` (a cloned repository, a
// killed process, a concurrent delete): every file may have been written by someone else.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { serializeSession } from '../../../src/core/brainstorm/sessionFile';
import { serializeRoundFile, ROUND_FILE_MAX_BYTES } from '../../../src/core/discovery/roundFile';
import {
  readBrainstormSession,
  readDiscoverySessions,
  readExplorer,
  readPlanFacts,
  SESSIONS_READ_MAX,
} from '../../../src/core/explorer/explorerReader';
import {
  ExplorerTree,
  planDocuments,
  type PlanFacts,
  type SessionFacts,
} from '../../../src/core/explorer/explorerTree';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

const TTL = 30 * 60_000;
const NOW = 1_700_000_600_000;

const round = (request: string, createdSec = 1_700_000_000, extra: { session?: string; round?: number } = {}) =>
  serializeRoundFile({
    createdSec,
    round: extra.round ?? 1,
    originalRequest: request,
    rounds: [{ questions: '1. Who?' }],
    ...(extra.session ? { session: extra.session } : {}),
  });

const brainstorm = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    ...JSON.parse(
      serializeSession({
        slug: 'shop',
        topic: 'A shop',
        createdAt: 1_700_000_000_000,
        minRounds: 1,
        maxRounds: 4,
        rounds: [{ round: 1, questions: [{ text: 'Who buys?', angle: 'ux', priority: 1 }] }],
        phase: { kind: 'answering' },
      }),
    ),
    ...over,
  });

/** readExplorer must never throw: every hostile layout ends as plans, sessions and problems. */
async function readSafely(ws: MemoryWorkspace) {
  return readExplorer(ws.store, TTL);
}

describe('the explorer reader against a hostile .groundwork/', () => {
  it('reads odd round headers: ROUND 999 is clamped, ROUND 0 or -1 is 1, CREATED 0 is long expired, CRLF is fine', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('discovery/big.md'), round('x', 1_700_000_000, { round: 999 }));
    ws.fs.writeRaw(ws.path('discovery/zero.md'), round('x', 1_700_000_000).replace('ROUND: 1', 'ROUND: 0'));
    ws.fs.writeRaw(ws.path('discovery/neg.md'), round('x', 1_700_000_000).replace('ROUND: 1', 'ROUND: -1'));
    ws.fs.writeRaw(ws.path('discovery/old.md'), round('x', 0).replace(/\n/g, '\r\n'));
    const read = await readSafely(ws);
    assert.deepEqual(read.problems, []);
    assert.deepEqual(
      read.sessions.map((s) => [s.kind === 'discovery' && s.session, s.round, s.maxRounds]),
      [
        ['big', 3, 3],
        ['neg', 1, 3],
        ['old', 1, 3],
        ['zero', 1, 3],
      ],
    );
    const tree = new ExplorerTree({ plans: [], sessions: read.sessions });
    assert.equal(
      tree.sessions(NOW).find((s) => s.facts.kind === 'discovery' && s.facts.session === 'old')?.expired,
      true,
    );
    assert.equal(tree.waiting(NOW), 3);
  });

  it('a round file CREATED in the far future (15 digits) is not counted as waiting forever', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('discovery/forever.md'), round('x', 999_999_999_999_999));
    const read = await readSafely(ws);
    const tree = new ExplorerTree({ plans: [], sessions: read.sessions });
    // Today: expiresAt = 1e18 ms, "277777777777 h left", the badge counts it for ever and the 30 s ticker never stops.
    assert.equal(tree.waiting(NOW), 0, 'a session created a billion years from now should not wait for answers');
  });

  it('names a file that is too large, a header line of 1.9 MB, a folder named *.md; reads 1 MB of bidi and control characters raw', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('discovery/huge.md'), round('x') + 'a'.repeat(ROUND_FILE_MAX_BYTES));
    ws.fs.writeRaw(
      ws.path('discovery/header.md'),
      `# Discovery Session\n\nCREATED: ${'1'.repeat(1_900_000)}\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 1\n### Agent Questions\nq\n`,
    );
    ws.fs.mkdir(ws.path('discovery/dir.md'));
    const evil = '\u202e\u0007\u001b[31m[click](command:workbench.action.terminal.new)\n'.repeat(16_000);
    ws.fs.writeRaw(ws.path('discovery/bidi.md'), round(evil));
    const started = performance.now();
    const read = await readSafely(ws);
    assert.ok(performance.now() - started < 2000, 'parsing 2 MB stays linear');
    assert.deepEqual(read.problems.map((p) => p.file).sort(), [
      '.groundwork/discovery/dir.md',
      '.groundwork/discovery/header.md',
      '.groundwork/discovery/huge.md',
    ]);
    for (const p of read.problems) assert.doesNotMatch(p.problem, /[\u0000-\u001f\u202e]/, p.problem);
    const [bidi] = read.sessions;
    // The reader keeps the text as written; explorerItems.ts must make it one visible line (label) and escape it (tooltip).
    assert.equal(bidi?.kind === 'discovery' && bidi.request, evil.trim());
  });

  it('parses 2 MB of headers before ORIGINAL_REQUEST, and 40,000 rounds, in linear time', async () => {
    const ws = new MemoryWorkspace();
    const header = 'X-JUNK: y\n'.repeat(190_000);
    ws.fs.writeRaw(
      ws.path('discovery/headers.md'),
      `# Discovery Session\n${header}CREATED: 1700000000\nROUND: 2\nORIGINAL_REQUEST: x\n\n## Round 1\n### Agent Questions\nq\n`,
    );
    let many = `# Discovery Session\n\nCREATED: 1700000000\nROUND: 3\nORIGINAL_REQUEST: x\n`;
    for (let i = 1; i <= 40_000; i++) many += `## Round ${i}\n### Agent Questions\nq\n`;
    ws.fs.writeRaw(ws.path('discovery/many.md'), many);
    const started = performance.now();
    const read = await readSafely(ws);
    assert.ok(performance.now() - started < 2000);
    assert.deepEqual(read.problems, []);
    assert.deepEqual(
      read.sessions.map((s) => s.round),
      [2, 3],
    );
  });

  it('a round file whose SESSION header names another session (or none at all) is a problem, never a second session of that name', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('discovery/panel.md'), round('mine'));
    // A cloned repository's file claiming to be the panel's own session: same tree id `session:discovery:panel`
    // (VS Code refuses duplicate ids), and "Resume" on it opens the panel, which reads discovery/panel.md.
    ws.fs.writeRaw(ws.path('discovery/impostor.md'), round('theirs', 1_700_000_000, { session: 'panel' }));
    ws.fs.writeRaw(ws.path('discovery/.md'), round('no name'));
    const { sessions, problems } = await readDiscoverySessions(ws.store, TTL);
    const keys = sessions.map((s) => (s.kind === 'discovery' ? s.session : s.slug));
    assert.equal(new Set(keys).size, keys.length, `session keys repeat: ${keys.join(', ')}`);
    assert.deepEqual(
      sessions.map((s) => s.file),
      ['discovery/panel.md'],
    );
    assert.deepEqual(problems.map((p) => p.file).sort(), [
      '.groundwork/discovery/.md',
      '.groundwork/discovery/impostor.md',
    ]);
  });

  it(`reads ${SESSIONS_READ_MAX} of 10,000 discovery files and names the rest in one problem`, async () => {
    const ws = new MemoryWorkspace();
    for (let i = 0; i < 10_000; i++) ws.fs.writeRaw(ws.path(`discovery/s${String(i).padStart(5, '0')}.md`), 'junk');
    const started = performance.now();
    const { sessions, problems } = await readDiscoverySessions(ws.store, TTL);
    assert.ok(performance.now() - started < 5000);
    assert.equal(sessions.length, 0);
    assert.equal(problems.length, SESSIONS_READ_MAX + 1);
    assert.deepEqual(problems.at(-1), {
      file: '.groundwork/discovery',
      problem: `${10_000 - SESSIONS_READ_MAX} more session files are not shown`,
    });
  });

  it('junk files that sort first do not hide the panel’s own session from the view and its badge', async () => {
    const ws = new MemoryWorkspace();
    for (let i = 0; i < SESSIONS_READ_MAX; i++)
      ws.fs.writeRaw(ws.path(`discovery/a${String(i).padStart(3, '0')}.md`), 'junk');
    ws.fs.writeRaw(ws.path('discovery/panel.md'), round('mine'));
    const { sessions } = await readDiscoverySessions(ws.store, TTL);
    assert.deepEqual(
      sessions.map((s) => s.file),
      ['discovery/panel.md'],
    );
  });

  it('turns every misplaced kind into a problem, never an exception: discovery/ a file or a link out, plans/ a link out, .groundwork a link or a file', async () => {
    const layouts: [string, (ws: MemoryWorkspace) => void, string[]][] = [
      ['discovery a file', (ws) => ws.fs.writeRaw(ws.path('discovery'), 'x'), ['.groundwork/discovery']],
      [
        'discovery a link out',
        (ws) => (ws.fs.writeRaw('/outside/s.md', round('secret')), ws.fs.symlink(ws.path('discovery'), '/outside')),
        ['.groundwork/discovery'],
      ],
      [
        'plans a link out',
        (ws) => (ws.fs.writeRaw('/outside/p/idea-brief.md', 'x'), ws.fs.symlink(ws.path('plans'), '/outside')),
        ['.groundwork/plans'],
      ],
      ['plans a file', (ws) => ws.fs.writeRaw(ws.path('plans'), 'x'), ['.groundwork/plans']],
      [
        '.groundwork a link',
        (ws) => (ws.fs.writeRaw('/outside/plans/p/idea-brief.md', 'x'), ws.fs.symlink('/ws/.groundwork', '/outside')),
        ['.groundwork/plans', '.groundwork/discovery'],
      ],
      [
        '.groundwork a file',
        (ws) => ws.fs.writeRaw('/ws/.groundwork', 'x'),
        ['.groundwork/plans', '.groundwork/discovery'],
      ],
    ];
    for (const [name, plant, files] of layouts) {
      const ws = new MemoryWorkspace();
      plant(ws);
      const read = await readSafely(ws);
      assert.deepEqual(read.plans, [], name);
      assert.deepEqual(read.sessions, [], name);
      assert.deepEqual(
        read.problems.map((p) => p.file),
        files,
        name,
      );
      assert.ok(!JSON.stringify(read).includes('secret'), name);
    }
  });

  it('reads no rounds through a rounds/ that is a file or a link out; odd and duplicate round names give one node per number', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('plans/file/rounds'), 'x');
    ws.fs.writeRaw('/outside/round-1.md', 'secret');
    ws.fs.symlink(ws.path('plans/out/rounds'), '/outside');
    ws.fs.writeRaw(ws.path('plans/out/idea-brief.md'), 'x');
    for (const n of [
      'round-001.md',
      'round-01.md',
      'round-1.md',
      'ROUND-1.md',
      'round-1.md.bak',
      'round-0.md',
      'round-1000.md',
      'round-999.md',
      'round-2.md',
    ])
      ws.fs.writeRaw(ws.path(`plans/odd/rounds/${n}`), 'q');
    ws.fs.mkdir(ws.path('plans/odd/rounds/round-3.md'));
    const read = await readSafely(ws);
    assert.deepEqual(read.problems, []);
    const facts = new Map(read.plans.map((p) => [p.slug, p]));
    assert.deepEqual(facts.get('file')?.rounds, []);
    assert.deepEqual(facts.get('out')?.rounds, []);
    assert.deepEqual(
      planDocuments(facts.get('odd')!).map((d) => d.round),
      [1, 2, 3, 999],
    );
  });

  it('leaves out plan names that are files, links (in or out) and no slugs; reads 999 rounds and 20,000 junk names quickly', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('plans/crm/idea-brief.md'), 'x');
    ws.fs.writeRaw(ws.path('plans/filelike'), '# Idea Brief');
    ws.fs.symlink(ws.path('plans/alias'), ws.path('plans/crm'));
    ws.fs.symlink(ws.path('plans/dangling'), '/nowhere');
    ws.fs.writeRaw(ws.path('plans/UPPER/idea-brief.md'), 'x');
    ws.fs.writeRaw(ws.path('plans/-dash/idea-brief.md'), 'x');
    const rounds = [
      ...Array.from({ length: 999 }, (_, i) => `round-${i + 1}.md`),
      ...Array.from({ length: 20_000 }, (_, i) => `junk-${i}.md`),
    ];
    const started = performance.now();
    const docs = planDocuments({ slug: 'crm', files: ['rounds'], rounds: rounds.reverse() });
    assert.ok(performance.now() - started < 500);
    assert.deepEqual(
      docs.map((d) => d.round),
      Array.from({ length: 999 }, (_, i) => i + 1),
    );
    const read = await readSafely(ws);
    assert.deepEqual(
      read.plans.map((p) => p.slug),
      ['crm'],
    );
  });

  it('a plan folder deleted between its check and its listing is gone, not an empty plan', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('plans/gone/idea-brief.md'), 'x');
    ws.fs.failOn = (op, path) => {
      if (op === 'list' && path === ws.path('plans/gone')) void ws.fs.remove(path);
      return undefined;
    };
    assert.equal(await readPlanFacts(ws.store, 'gone'), undefined);
  });

  it('skips a discovery file deleted between the listing and the read; a failing read is a problem of that file only', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('discovery/a.md'), round('a'));
    ws.fs.writeRaw(ws.path('discovery/b.md'), round('b'));
    ws.fs.writeRaw(ws.path('discovery/c.md'), round('c'));
    ws.fs.failOn = (op, path) => {
      if (op === 'read' && path.endsWith('/a.md')) void ws.fs.remove(path);
      return op === 'read' && path.endsWith('/b.md') ? Object.assign(new Error('EIO'), { code: 'EIO' }) : undefined;
    };
    const { sessions, problems } = await readDiscoverySessions(ws.store, TTL);
    assert.deepEqual(
      sessions.map((s) => s.file),
      ['discovery/c.md'],
    );
    assert.deepEqual(
      problems.map((p) => p.file),
      ['.groundwork/discovery/b.md'],
    );
  });

  it('names each hostile .brainstorm.json: deep nesting, wrong slug, maxRounds 1e9, createdAt NaN or 1e300, a folder, a link out', async () => {
    const cases: [string, (ws: MemoryWorkspace, file: string) => void][] = [
      ['deep', (ws, f) => ws.fs.writeRaw(f, '['.repeat(500_000) + ']'.repeat(500_000))],
      ['unclosed', (ws, f) => ws.fs.writeRaw(f, '{"a":'.repeat(300_000))],
      ['slug', (ws, f) => ws.fs.writeRaw(f, brainstorm({ slug: 'crm' }))],
      ['max', (ws, f) => ws.fs.writeRaw(f, brainstorm({ maxRounds: 1e9 }))],
      ['nan', (ws, f) => ws.fs.writeRaw(f, brainstorm({ createdAt: 'NaN' }))],
      ['far', (ws, f) => ws.fs.writeRaw(f, brainstorm({ createdAt: 1e300 }))],
      ['folder', (ws, f) => ws.fs.mkdir(f)],
      ['link', (ws, f) => (ws.fs.writeRaw('/outside/s.json', brainstorm()), ws.fs.symlink(f, '/outside/s.json'))],
    ];
    for (const [name, plant] of cases) {
      const ws = new MemoryWorkspace();
      plant(ws, ws.path('plans/shop/.brainstorm.json'));
      const read = await readSafely(ws);
      assert.deepEqual(read.sessions, [], name);
      assert.deepEqual(
        read.problems.map((p) => p.file),
        ['.groundwork/plans/shop/.brainstorm.json'],
        name,
      );
      assert.ok(read.problems[0]!.problem.length <= 300, name);
    }
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path('plans/shop/.brainstorm.json'), brainstorm());
    assert.equal(((await readBrainstormSession(ws.store, 'shop')) as SessionFacts).round, 1);
  });
  it(
    'on a real disk, FIFOs where files and folders go are problems or left out, and nothing waits on them',
    { timeout: 10_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-explorer-'));
      try {
        const gw = join(dir, '.groundwork');
        for (const d of ['discovery', 'plans/p/rounds', 'plans/q']) mkdirSync(join(gw, d), { recursive: true });
        writeFileSync(join(gw, 'plans/q/idea-brief.md'), 'x');
        for (const f of [
          'discovery/fifo.md',
          'plans/fifo',
          'plans/p/.brainstorm.json',
          'plans/p/rounds/round-1.md',
          'plans/q/rounds',
        ])
          execFileSync('mkfifo', [join(gw, f)]);
        const read = await readExplorer(openWorkspaceStore(dir), TTL);
        assert.deepEqual(
          read.plans.map((p) => p.slug),
          ['p', 'q'],
        );
        assert.deepEqual(read.sessions, []);
        assert.deepEqual(read.problems.map((p) => p.file).sort(), [
          '.groundwork/discovery/fifo.md',
          '.groundwork/plans/p/.brainstorm.json',
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the explorer model against hostile facts', () => {
  const plan = (slug: string, files: string[] = ['idea-brief.md']): PlanFacts => ({ slug, files, rounds: [] });

  it('keeps slugs like constructor and tostring apart from Object’s own names', () => {
    const tree = new ExplorerTree({
      plans: [plan('constructor'), plan('tostring')],
      builds: [
        { id: 'constructor', plan: 'constructor' },
        { id: 'b', plan: 'hasOwnProperty' },
      ],
      cases: [{ id: 'disc-001', task: 'constructor', parent: '__proto__' }],
    });
    assert.deepEqual(tree.plan('constructor')?.cases, ['disc-001']);
    assert.deepEqual(tree.plan('tostring')?.builds, []);
  });

  it('shows a case once per plan, even listed twice or under two builds of that plan; a case of two plans’ builds shows under each', () => {
    const tree = new ExplorerTree({
      plans: [plan('crm'), plan('shop')],
      builds: [
        { id: 'b1', plan: 'crm' },
        { id: 'b2', plan: 'crm' },
        { id: 'b3', plan: 'shop' },
      ],
      cases: [
        { id: 'disc-001', task: 'b1', parent: 'b2' },
        { id: 'disc-001', task: 'b1', parent: 'b2' },
        { id: 'disc-002', task: 'b1', parent: 'b3' },
      ],
    });
    assert.deepEqual(tree.plan('crm')?.cases, ['disc-001', 'disc-002']);
    assert.deepEqual(tree.plan('shop')?.cases, ['disc-002']);
  });

  it('keeps the plans sorted and whole through 2,000 random updates, as a tree read afresh would be', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const tree = new ExplorerTree({ plans: [] });
    const live = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const slug = `p${Math.floor(random() * 50)}`;
      if (random() < 0.4) {
        tree.updatePlan(slug, undefined);
        live.delete(slug);
      } else {
        tree.updatePlan(slug, plan(slug));
        live.add(slug);
      }
    }
    assert.deepEqual(
      tree.planNodes().map((p) => p.slug),
      [...live].sort(),
    );
    assert.equal(tree.updatePlan('x', plan('y')), undefined);
    tree.setBuildsAndCases([{ id: 'b', plan: 'gone' }], []);
    assert.equal(tree.plan('gone'), undefined, 'builds do not bring back a plan');
  });

  it('counts for the badge only the sessions not expired, at every boundary', () => {
    const s = (createdMs: number): SessionFacts => ({
      kind: 'discovery',
      session: `s${createdMs}`,
      file: 'discovery/s.md',
      request: 'x',
      round: 1,
      maxRounds: 3,
      createdMs,
      ttlMs: TTL,
    });
    const tree = new ExplorerTree({ plans: [], sessions: [s(0), s(NOW - TTL), s(NOW - TTL - 1), s(NOW)] });
    assert.deepEqual(
      tree.sessions(NOW).map((n) => n.expired),
      [true, true, false, false],
    );
    assert.equal(tree.waiting(NOW), 2);
  });
});
