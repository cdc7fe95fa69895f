// An agent run with the workspace's discovery cases: what it learns becomes a numbered case (once,
// however often it is reported), the next run's system prompt carries it, and a case store that
// fails never loses the learning nor stops the run.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { CaseService } from '../../../src/core/cases/caseService';
import { Journal } from '../../../src/core/journal/journal';
import { parseJournalEntry } from '../../../src/core/journal/journalEntry';
import { JOURNAL_FILE } from '../../../src/core/plan/layout';
import type { RunDiscoveries } from '../../../src/core/run/runTypes';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import { changedText } from '../../../src/core/annotations/specWriter';
import type { SpecWriter } from '../../../src/core/annotations/specWriter';
import { DEVELOPER, agentHarness, lastResults } from './agentHarness';
import type { Harness } from './agentHarness';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const QA = { ...DEVELOPER, name: 'build-qa', prompt: 'You are QA.' };

/** A harness whose runs report to a CaseService over its own workspace. */
function withCases(
  turns: Parameters<typeof agentHarness>[0],
  options: Parameters<typeof agentHarness>[1] = {},
): { h: Harness; cases: () => CaseService } {
  let service: CaseService | undefined;
  const discoveries: RunDiscoveries = {
    report: (r) => service!.report(r),
    injection: (agent) => service!.injection(agent),
  };
  const h = agentHarness(turns, { discoveries, ...options });
  service = new CaseService({
    store: h.ws.store,
    clock: h.clock,
    hash: sha256,
    journal: new Journal(h.ws.store.log(JOURNAL_FILE, parseJournalEntry), h.clock),
  });
  return { h, cases: () => service! };
}

const start = (h: Harness, role = DEVELOPER, task = 'Write sum()') =>
  h.runner.start({ role, task, root: h.ws.root }, new AbortController().signal, h.onEvent);

describe('agent run: discovery cases', () => {
  it('a report becomes disc-001 (journal, view, terminal line); the same learning again is a duplicate, told to the model', async () => {
    const { h, cases } = withCases([
      {
        tools: [
          {
            name: 'report_discovery',
            input: { scope: 'global', content: 'The API needs an Authorization header.', impact: 'high' },
          },
        ],
      },
      {
        tools: [
          {
            name: 'report_discovery',
            input: { scope: 'global', content: '  the api needs an   AUTHORIZATION header. ' },
          },
        ],
      },
      { text: 'Done. <axiom>DISCOVERY_LOCAL:Fixtures live in test/data.</axiom>' },
    ]);
    const run = await start(h);
    assert.equal(run.status, 'completed');
    await cases().settled();

    const results = h.script.requests.slice(1).map((r) => {
      const last = r.messages[r.messages.length - 1]!;
      return typeof last.content === 'string'
        ? ''
        : String((last.content.find((c) => c.type === 'tool_result') as { content: string }).content);
    });
    assert.deepEqual(results, [
      'Recorded as disc-001, a global discovery.',
      'Already known as disc-001; nothing new was recorded.',
    ]);

    const { cases: stored } = await cases().list();
    assert.deepEqual(
      stored.map((c) => [c.id, c.metadata.scope, c.metadata.impact, c.metadata.sourceAgentId, c.metadata.sourceTaskId]),
      [
        ['disc-001', 'global', 'high', 'build-developer', run.id],
        ['disc-002', 'local', 'low', 'build-developer', run.id],
      ],
    );
    const journal = h.ws.lines(JOURNAL_FILE)?.map((l) => (JSON.parse(l) as { description: string }).description);
    assert.deepEqual(
      journal,
      ['The API needs an Authorization header.', 'Fixtures live in test/data.'],
      'a duplicate is not journaled again',
    );
    assert.match(
      h.ws.fs.text('/ws/.groundwork/discoveries.md') ?? '',
      /- \[disc-001\] The API needs an Authorization header\./,
    );
    assert.match(h.printed(), /◆ Learned \(global, disc-001\): The API needs/);
    assert.match(h.printed(), /◆ Learned \(global, already known as disc-001\)/);
    assert.equal((await cases().metrics()).duplicatesPrevented, 1);
  });

  it("the next run's system prompt carries the active global cases, and only its own role's local ones", async () => {
    const { h, cases } = withCases([{ text: 'Looked around.' }, { text: 'Checked.' }]);
    await cases().report({ scope: 'global', content: 'Use pnpm, not npm.', impact: 'critical' });
    await cases().report({
      scope: 'local',
      content: 'The developer keeps notes in NOTES.md.',
      agentId: 'build-developer',
    });
    const outdated = await cases().report({ scope: 'global', content: 'The build uses webpack.' });
    assert.equal(outdated.kind, 'created');
    await cases().apply(outdated.kind === 'created' ? outdated.case.id : '', { kind: 'outdated' });

    await start(h, QA, 'Check it');
    const system = String(h.script.requests[0]?.system);
    assert.ok(system.startsWith('You are QA.\n\n# Project Discoveries (Global)'), system.slice(0, 80));
    assert.match(system, /- \[disc-001\] \(critical, Dependencies\) Use pnpm, not npm\./);
    assert.ok(!system.includes('NOTES.md'), "another role's local case is not QA's");
    assert.ok(!system.includes('webpack'), 'an outdated case is not given');

    await start(h, DEVELOPER, 'Write it');
    assert.match(String(h.script.requests[1]?.system), /# Your Discoveries \(Local\)[\s\S]*NOTES\.md/);
  });

  it('a case store that fails: the learning goes to the journal, the run says so and goes on', async () => {
    const failing: RunDiscoveries = {
      report: async () => {
        throw new Error('cases.jsonl is locked by a stuck process');
      },
      injection: async () => {
        throw new Error('cases.jsonl could not be read');
      },
    };
    const h = agentHarness(
      [
        { tools: [{ name: 'report_discovery', input: { scope: 'local', content: 'Ports below 1024 need root.' } }] },
        { text: 'Done.' },
      ],
      {
        discoveries: failing,
      },
    );
    const run = await start(h);
    assert.equal(run.status, 'completed');
    assert.equal(lastResults(h.script)[0]?.content, 'Recorded as a local discovery in the journal.');
    assert.deepEqual(
      h.ws.lines(JOURNAL_FILE)?.map((l) => (JSON.parse(l) as { title: string }).title),
      ['Ports below 1024 need root.'],
    );
    assert.equal(String(h.script.requests[0]?.system), DEVELOPER.prompt, 'no block, nothing half-added');
    assert.match(h.printed(), /! The run goes on without the project's discoveries: cases\.jsonl could not be read/);
    assert.match(h.printed(), /! The discovery was kept in the journal only: cases\.jsonl is locked/);
  });

  it('a new case about a task with a region in specs/ gets a note there; a bad task id falls back to the run; a writer that fails is a notice', async () => {
    const spec = '- <!--@ax:2-15:green:task-001-->[task-001] One.<!--/@ax-->\n';
    let writer: SpecWriter | undefined;
    const specs: SpecWriter = { edit: (path, change) => writer!.edit(path, change) };
    const { h, cases } = withCases(
      [
        {
          tools: [{ name: 'report_discovery', input: { scope: 'local', content: 'Ends --> early', task: 'task-001' } }],
        },
        {
          tools: [
            { name: 'report_discovery', input: { scope: 'local', content: 'Again --> early', task: 'task-001' } },
          ],
        },
        { tools: [{ name: 'report_discovery', input: { scope: 'local', content: 'Bad task id', task: 'no good:' } }] },
        {
          tools: [
            { name: 'report_discovery', input: { scope: 'local', content: 'The writer fails', task: 'task-001' } },
          ],
        },
        { text: 'Done.' },
      ],
      { specs, files: { 'specs/requirements.md': spec } },
    );
    const path = `${h.ws.root}/specs/requirements.md`;
    let calls = 0;
    writer = {
      async edit(abs, change) {
        if (++calls === 4) throw new Error('the disk is full');
        const text = h.ws.fs.text(abs);
        if (text === undefined) return false;
        const made = change(text);
        if (made === undefined) return false;
        await h.ws.fs.writeAtomic(abs, changedText(text, made));
        return true;
      },
    };
    const run = await start(h);
    assert.equal(run.status, 'completed');
    await cases().settled();
    const text = h.ws.fs.text(path) ?? '';
    const notes = parseAnnotations(text).annotations.filter((a) => a.kind === 'discovery');
    assert.deepEqual(
      notes.map((n) => n.kind === 'discovery' && [n.task, n.caseId]),
      [
        ['task-001', 'disc-001'],
        ['task-001', 'disc-002'],
      ],
    );
    assert.deepEqual(parseAnnotations(text).problems, []);
    assert.match(h.printed(), /disc-001 is noted after task-001 in specs\/requirements\.md/);
    assert.match(h.printed(), /disc-004 could not be noted in the specs: the disk is full/);
    assert.deepEqual(
      lastResults(h.script).map((r) => r.content),
      ['Recorded as disc-004, a local discovery.'],
      'the model is told the case, whatever the spec',
    );
  });
});
