// AgentRunRequest.stopWhen (a build's cost ceiling): asked after each turn's tool results with the
// run so far; a reason ends the run there as failed, before its next model call. A person's stop
// is still a stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunRecord } from '../../../src/core/run/runTypes';
import { agentHarness, DEVELOPER } from '../agent/agentHarness';
import type { Turn } from '../session/toolScript';

const WRITE = (n: number): Turn => ({
  tools: [{ name: 'write_file', input: { path: `f${n}.txt`, content: `${n}\n` } }],
});
const PRICES = { 'claude-test': { input: 100, output: 0, cacheWrite: 0, cacheRead: 0 } };
const CEILING = 'The build reached its cost ceiling of $0.02.';

describe('agent run: stopWhen', () => {
  it('a reason ends the run as failed with that reason, and no further model call is made', async () => {
    const h = agentHarness([WRITE(1), WRITE(2), WRITE(3), { text: 'done' }], { prices: PRICES });
    const seen: (number | undefined)[] = [];
    const stopWhen = (run: RunRecord) => {
      seen.push(run.costUsd);
      return (run.costUsd ?? 0) >= 0.02 ? CEILING : undefined;
    };
    const run = await h.runner.start(
      { role: DEVELOPER, task: 'write files', root: h.ws.root, stopWhen },
      new AbortController().signal,
      h.onEvent,
    );

    assert.equal(run.status, 'failed');
    assert.equal(run.reason, CEILING);
    assert.equal(h.script.requests.length, 2, 'the third model call was never made');
    assert.deepEqual(seen, [0.01, 0.02], 'asked after each turn of tool results, with the cost so far');
    assert.equal(h.ws.fs.text('/ws/f2.txt'), '2\n', "the last turn's tools ran before the stop");
    const saved = await h.runs.read(run.id);
    assert.ok(saved.ok);
    assert.equal(saved.run.status, 'failed');
    assert.equal(saved.run.reason, CEILING);
    assert.equal(saved.run.costUsd, 0.02);
    const end = h.ws
      .lines(`runs/${run.id}/transcript.jsonl`)
      ?.map((l) => JSON.parse(l) as { type: string; status?: string; reason?: string })
      .pop();
    assert.deepEqual([end?.type, end?.status, end?.reason], ['end', 'failed', CEILING]);
    assert.match(h.printed(), /■ Failed: .*cost ceiling/);
  });

  it('not asked after a turn without tools: a reply that ends the run completes it', async () => {
    const h = agentHarness([{ text: 'nothing to do' }]);
    let asked = 0;
    const run = await h.runner.start(
      {
        role: DEVELOPER,
        task: 't',
        root: h.ws.root,
        stopWhen: () => {
          asked++;
          return 'stop';
        },
      },
      new AbortController().signal,
      h.onEvent,
    );
    assert.equal(run.status, 'completed');
    assert.equal(asked, 0);
  });

  it('a stopWhen that never answers leaves the run to finish normally', async () => {
    const h = agentHarness([WRITE(1), WRITE(2), { text: 'done' }]);
    let asked = 0;
    const run = await h.runner.start(
      {
        role: DEVELOPER,
        task: 't',
        root: h.ws.root,
        stopWhen: () => {
          asked++;
          return undefined;
        },
      },
      new AbortController().signal,
      h.onEvent,
    );
    assert.equal(run.status, 'completed');
    assert.equal(asked, 2);
    assert.equal(h.script.requests.length, 3);
  });

  it('a plain abort is still a stop, not a failure', async () => {
    const h = agentHarness([WRITE(1), { hang: 'thinking…' }]);
    const abort = new AbortController();
    const started = h.runner.start(
      { role: DEVELOPER, task: 't', root: h.ws.root, stopWhen: () => undefined },
      abort.signal,
      (event) => {
        h.onEvent(event);
        if (event.type === 'text' && event.text.includes('thinking')) abort.abort();
      },
    );
    const run = await started;
    assert.equal(run.status, 'stopped');
    assert.equal(run.reason, 'Stopped before it finished.');
  });

  it('when the person stops it as stopWhen answers, the stop wins', async () => {
    const h = agentHarness([WRITE(1), { text: 'never asked for' }]);
    const abort = new AbortController();
    const stopWhen = () => {
      abort.abort();
      return CEILING;
    };
    const run = await h.runner.start(
      { role: DEVELOPER, task: 't', root: h.ws.root, stopWhen },
      abort.signal,
      h.onEvent,
    );
    assert.equal(run.status, 'stopped');
    assert.equal(h.script.requests.length, 1);
  });

  it('a signal aborted before the start: the run is recorded as stopped, and the model is never called', async () => {
    const h = agentHarness([{ text: 'never' }]);
    const abort = new AbortController();
    abort.abort();
    const run = await h.runner.start({ role: DEVELOPER, task: 't', root: h.ws.root }, abort.signal, h.onEvent);
    assert.equal(run.status, 'stopped');
    assert.equal(h.script.requests.length, 0);
    const saved = await h.runs.read(run.id);
    assert.ok(saved.ok && saved.run.status === 'stopped');
  });
});
