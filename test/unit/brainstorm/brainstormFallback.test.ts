// Coordinator replies that break the protocol: asked for once more with the reason named; a second
// broken reply still moves the brainstorm on, never leaving it at a Retry a deterministic model
// would fail forever.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseContextFile } from '../../../src/core/brainstorm/contextFile';
import type { BrainstormProgress } from '../../../src/core/brainstorm/brainstormTypes';
import type { LlmRequest } from '../../../src/core/llm/llmClient';
import { answers, inquisitors, json, run, setup, SUMMARY } from './brainstormBench';

const PROSE = 'The team wants a CSV export first.\n\nThe accountants need it at month end; time zones stay open.';
const isFollowUp = (r: LlmRequest) => String(r.messages[0]!.content).startsWith('TASK: follow-up');
const coordinatorCalls = (requests: LlmRequest[]) =>
  requests.filter((r) => r.system.startsWith('ROLE brainstorm-coordinator'));
const lastUser = (r: LlmRequest) => String(r.messages.at(-1)!.content);

/** A coordinator that gives `followUps` to follow-up calls and `summaries` to summary calls, in order. */
function coordinator(followUps: string[], summaries: string[]) {
  return (r: LlmRequest) => (isFollowUp(r) ? followUps.shift() : summaries.shift()) ?? 'out of script';
}

async function toRound1(followUps: string[], summaries: string[], minRounds = 1) {
  const bench = setup({ ...inquisitors(1), 'brainstorm-coordinator': coordinator(followUps, summaries) });
  const started = await bench.service.start('invoice export', { minRounds, maxRounds: 3 }, run());
  const all = answers(...started.rounds[0]!.questions.map(() => 'an answer'));
  return { ...bench, slug: started.slug, all };
}

describe('brainstorm: a summary that is not the JSON asked for', () => {
  it('prose twice: the brainstorm completes with the prose as its summary (summary_format: text)', async () => {
    const { ws, llm, service, slug, all } = await toRound1([], [PROSE, PROSE]);
    const done = await service.answer(slug, all, 'summarize', run());
    assert.equal(done.phase.kind, 'complete');
    const calls = coordinatorCalls(llm.requests);
    assert.equal(calls.length, 2, 'asked once more, then no further');
    assert.match(lastUser(calls[1]!), /could not be read: .+\. Reply again with only the summary JSON/);
    assert.equal(calls[1]!.messages.length, 3, 'the second request carries the first reply and the reason');
    const dir = `plans/${slug}`;
    assert.ok(ws.fs.text(ws.path(`${dir}/.brainstorm-complete`)) !== undefined, 'the sentinel');
    const doc = ws.fs.text(ws.path(`${dir}/00-brainstorming.md`))!;
    assert.ok(doc.includes('The team wants a CSV export first.'), doc);
    assert.ok(doc.includes('time zones stay open'));
    const contextText = ws.fs.text(ws.path(`${dir}/00-brainstorming.context.md`))!;
    assert.match(contextText, /^summary_format: text$/m);
    const ctx = parseContextFile(contextText, 'ctx');
    assert.equal(ctx.rounds, 1);
    assert.equal(ctx.questions.length, all.length, 'questions and answers intact');
    assert.ok(ctx.questions.every((q) => !q.skipped));
    assert.deepEqual(await service.unfinished(), []);
  });

  it('prose, then the JSON: the JSON summary is used', async () => {
    const { ws, service, slug, all } = await toRound1([], [PROSE, SUMMARY]);
    assert.equal((await service.answer(slug, all, 'summarize', run())).phase.kind, 'complete');
    const contextText = ws.fs.text(ws.path(`plans/${slug}/00-brainstorming.context.md`))!;
    assert.doesNotMatch(contextText, /^summary_format: text$/m);
    assert.deepEqual(parseContextFile(contextText, 'ctx').summary.decisions, ['CSV first']);
  });
});

describe('brainstorm: follow-up questions that cannot be read', () => {
  it('garbage, then questions: the next round has them', async () => {
    const { llm, service, slug, all } = await toRound1(
      ['Sure! Here are my thoughts.', json('ux', 'Who approves an export?')],
      [],
    );
    const next = await service.answer(slug, all, 'more', run());
    assert.equal(next.phase.kind, 'answering');
    assert.equal(next.rounds[1]!.questions[0]!.text, 'Who approves an export?');
    const calls = coordinatorCalls(llm.requests);
    assert.equal(calls.length, 2);
    assert.match(lastUser(calls[1]!), /could not be read: .+\. Reply again with only the questions JSON/);
  });

  it('garbage twice: the person is told, and the brainstorm is summarized instead of stuck at Retry', async () => {
    const progress: BrainstormProgress[] = [];
    const { service, slug, all } = await toRound1(['no JSON here', 'still none'], [SUMMARY]);
    const done = await service.answer(slug, all, 'more', run(progress));
    assert.equal(done.phase.kind, 'complete');
    assert.ok(progress.some((p) => p.kind === 'notice' && /could not be read twice/.test(p.text)));
  });
});
