// What a build learns, through the built CLI against the scripted model server: the developer
// reports a global and a local discovery with report_discovery; both become cases, the phases
// after it are given them in the discoveries block of their system prompt (the local one only to
// the developer), and the completed build archives its local case.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { GLOBAL_DISCOVERY, LOCAL_DISCOVERY } from '../../support/buildScript';
import { systemText } from '../../support/scriptedModelServer';
import type { MessagesBody } from '../../support/scriptedModelServer';
import { scriptedBuild } from './buildHarness';

interface CaseLine {
  id: string;
  status: string;
  content: string;
  parentId: string | null;
  metadata: {
    scope: string;
    sourceTaskId: string | null;
    sourceAgentId: string | null;
    impact: string;
    archivedReason?: string;
  };
}

const phaseOf = (body: MessagesBody) => /^Groundwork build phase: ([a-z-]+)\n/.exec(systemText(body))?.[1];

/** The last line of each id, as the store reads it. */
function lastLines(text: string): Map<string, CaseLine> {
  const byId = new Map<string, CaseLine>();
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const c = JSON.parse(line) as CaseLine;
    byId.set(c.id, c);
  }
  return byId;
}

test('a build: the developer reports discoveries, later phases are given them, the local one is archived at the end', async () => {
  const { ws, r, bodies } = await scriptedBuild({ discoveries: true });
  assert.equal(r.code, 0, r.stderr);
  const stderr = r.stderr;
  const [buildId] = await readdir(join(ws, '.groundwork/builds'));
  assert.ok(buildId);

  // The cases: numbered in the order reported, from the developer, the build's id as their task.
  const cases = lastLines(await readFile(join(ws, '.groundwork/cases.jsonl'), 'utf8'));
  assert.deepEqual([...cases.keys()], ['disc-001', 'disc-002']);
  const global = cases.get('disc-001')!;
  const local = cases.get('disc-002')!;
  assert.equal(global.content, GLOBAL_DISCOVERY);
  assert.deepEqual(
    [
      global.status,
      global.metadata.scope,
      global.metadata.impact,
      global.metadata.sourceAgentId,
      global.metadata.sourceTaskId,
    ],
    ['active', 'global', 'high', 'build-developer', buildId],
  );
  assert.equal(local.content, LOCAL_DISCOVERY);
  assert.deepEqual(
    [local.status, local.metadata.scope, local.metadata.archivedReason],
    ['archived', 'local', 'parent_task_completed'],
    'the completed build archived its local case',
  );
  assert.match(stderr, /◆ Learned \(global, disc-001\)/);

  // Before the developer learned it no prompt carries it; every phase after does, in the system prompt (the cached part).
  const firstDeveloper = bodies.findIndex((b) => phaseOf(b) === 'developer');
  for (const body of bodies.slice(0, firstDeveloper)) assert.doesNotMatch(systemText(body), /Project Discoveries/);
  for (const phase of ['qa', 'reviewer', 'delivery']) {
    const body = bodies.find((b) => phaseOf(b) === phase);
    assert.ok(body, phase);
    const system = systemText(body);
    assert.match(
      system,
      /# Project Discoveries \(Global\)\n[\s\S]*- \[disc-001\] \(high, Testing\) Tests run with Node's built-in runner/,
      phase,
    );
    assert.ok(!system.includes(LOCAL_DISCOVERY), `${phase} is not given the developer's local discovery`);
  }
  // The developer sent back by QA is given its own local discovery too.
  const sentBack = bodies
    .filter((b) => phaseOf(b) === 'developer')
    .find((b) => systemText(b).includes('# Your Discoveries (Local)') && systemText(b).includes(LOCAL_DISCOVERY));
  assert.ok(sentBack, "the developer's second try carries its local discovery");

  // The views, the journal, the build's log and report follow.
  assert.match(
    await readFile(join(ws, '.groundwork/discoveries.md'), 'utf8'),
    /- \[disc-001\] Tests run with Node's built-in runner/,
  );
  assert.match(await readFile(join(ws, '.groundwork/discoveries.jsonl'), 'utf8'), /no test framework is installed/);
  const dir = join(ws, '.groundwork/builds', buildId);
  assert.match(await readFile(join(dir, 'build.log'), 'utf8'), /archived 1 local discovery of the build/);
  assert.match(await readFile(join(dir, 'report.md'), 'utf8'), /\[disc-001\] Tests run with Node's built-in runner/);
});
