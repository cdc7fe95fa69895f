// Discovery with real tool use, end to end below the front ends: the real SDK client against the
// scripted model server, a real workspace on disk, the bundled discovery role. The model reads
// README.md before asking; its tries to read outside the workspace get error results.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DiscoveryService } from '../../../src/core/discovery/discoveryService';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { parseRoleFile } from '../../../src/core/roles/roleFile';
import { WorkspaceStore } from '../../../src/core/storage/workspaceStore';
import type { ToolActivity } from '../../../src/core/tools/toolActivity';
import { match, reply, startScriptedModelServer } from '../../support/scriptedModelServer';
import type { MessagesBody, ScriptedModelServer } from '../../support/scriptedModelServer';
import { FakeClock } from '../../support/fakeClock';
import { clientFor } from '../llm/llmHarness';

const repo = join(import.meta.dirname, '../../..');
const README = '# Ledger\n\nA TypeScript CLI for household budgets, built with vitest and SQLite.\n';
const SECRET = 'OUTSIDE-SECRET-4471';
const QUESTIONS =
  'DISCOVERY_QUESTIONS\n1. Which budgets matter most?\n2. Who shares the ledger?\n3. Is a phone app needed?';

type Block = Record<string, unknown>;
const toolResult = (body: MessagesBody, id: string) =>
  (body.messages.at(-1)!.content as Block[]).find((b) => b['type'] === 'tool_result' && b['tool_use_id'] === id);

describe('discovery reads the workspace through its tools (scripted model server)', () => {
  let server: ScriptedModelServer;
  let dir: string;
  let ws: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'groundwork-tools-'));
    ws = join(dir, 'ws');
    await mkdir(ws);
    await writeFile(join(ws, 'README.md'), README);
    await writeFile(join(dir, 'outside.txt'), SECRET);
    await symlink(join(dir, 'outside.txt'), join(ws, 'link.txt'));
    server = await startScriptedModelServer();
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads README.md, is refused ../outside.txt and a link out, then asks its questions', async () => {
    const role = parseRoleFile(
      'roles/build-discovery.md',
      await readFile(join(repo, 'roles', 'build-discovery.md'), 'utf8'),
    ).role!;
    server.add(
      {
        name: 'read the README',
        match: (b) => !match.toolResult()(b),
        reply: reply.toolUse(
          'read_file',
          { path: 'README.md' },
          { id: 'toolu_readme', text: ['Let me look at the project.'] },
        ),
      },
      {
        name: 'escape by ..',
        match: match.toolResult('toolu_readme'),
        reply: reply.toolUse('read_file', { path: '../outside.txt' }, { id: 'toolu_dotdot' }),
      },
      {
        name: 'escape by a link',
        match: match.toolResult('toolu_dotdot'),
        reply: reply.toolUse('read_file', { path: 'link.txt' }, { id: 'toolu_link' }),
      },
      { name: 'ask', match: match.toolResult('toolu_link'), reply: reply.text(QUESTIONS) },
    );
    const store = new WorkspaceStore(new NodeWorkspaceFs(), ws);
    const service = new DiscoveryService({
      store,
      llm: clientFor(server.baseURL),
      clock: new FakeClock(Date.parse('2026-11-24T10:00:00Z')),
      role: async () => role,
      ttlMinutes: 30,
    });
    const activities: ToolActivity[] = [];
    const result = await service.handle('s1', 'build a phone app for my ledger project', {
      lang: 'en',
      signal: new AbortController().signal,
      force: true,
      onTool: (a) => activities.push(a),
    });

    assert.equal(result.outcome.kind, 'questions', JSON.stringify(result.outcome).slice(0, 300));
    assert.deepEqual(server.pending(), []);
    const bodies = server.requests.map((r) => r.body as MessagesBody);
    assert.equal(bodies.length, 4);
    assert.deepEqual(
      bodies[0]!.tools?.map((t) => t['name']),
      ['read_file', 'list_files', 'search'],
    );

    // The file's text comes back as a tool_result, fenced as data.
    const read = toolResult(bodies[1]!, 'toolu_readme')!;
    assert.notEqual(read['is_error'], true);
    const content = String(read['content']);
    assert.match(content, /<untrusted-data boundary="[0-9a-f]+" source="[^"]*README\.md[^"]*">/);
    assert.ok(content.includes('A TypeScript CLI for household budgets'), content.slice(0, 300));

    // Outside the workspace: error results, never the file.
    for (const [i, id] of [
      [2, 'toolu_dotdot'],
      [3, 'toolu_link'],
    ] as const) {
      const refused = toolResult(bodies[i]!, id)!;
      assert.equal(refused['is_error'], true, id);
      assert.ok(!JSON.stringify(bodies[i]).includes(SECRET), `${id}: the outside file's text reached the model`);
    }

    assert.deepEqual(
      activities.filter((a) => a.status !== 'running').map((a) => [a.tool, a.target, a.status]),
      [
        ['read_file', 'README.md', 'done'],
        ['read_file', '../outside.txt', 'error'],
        ['read_file', 'link.txt', 'error'],
      ],
    );
    const audit = (await readFile(join(ws, '.groundwork', 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; status: string; detail: string });
    assert.deepEqual(
      audit.filter((e) => e.kind === 'discovery.tool').map((e) => [e.status, e.detail.split(' (')[0]]),
      [
        ['ok', 'build-discovery: read README.md'],
        ['error', 'build-discovery: read ../outside.txt'],
        ['error', 'build-discovery: read link.txt'],
      ],
    );
  });
});
