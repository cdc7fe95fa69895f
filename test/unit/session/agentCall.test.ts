import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LlmContent } from '../../../src/core/llm/llmClient';
import { callAgent, LAST_TURN_NOTE, MAX_CALLS_PER_TURN, MAX_RESULT_BYTES } from '../../../src/core/session/agentCall';
import type { AgentRequest, AgentRole } from '../../../src/core/session/agentCall';
import type { ToolActivity } from '../../../src/core/tools/toolActivity';
import type { ToolContext } from '../../../src/core/tools/toolTypes';
import { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import type { ScriptedModel } from '../../support/scriptedModel';
import { fakeToolBox, toolScript, TURN_USAGE } from './toolScript';
import type { Turn } from './toolScript';

const role = (over: Partial<AgentRole> = {}): AgentRole => ({
  name: 'build-discovery',
  prompt: 'SYSTEM',
  model: { tier: 'complex' },
  tools: ['read_file', 'search'],
  maxTurns: 5,
  ...over,
});

function request(
  over: Partial<AgentRole> = {},
  withTools = true,
  calls: { name: string; input: unknown; context: ToolContext }[] = [],
): AgentRequest {
  const req: AgentRequest = { role: role(over), messages: [{ role: 'user', content: 'hello' }], maxTokens: 100 };
  if (withTools)
    req.tools = {
      box: fakeToolBox(calls),
      context: { fs: new MemoryWorkspaceFs(), root: '/ws', exclude: [] },
      cache: { get: (_k, make) => make() },
    };
  return req;
}

async function run(turns: Turn[], over: Partial<AgentRole> = {}, withTools = true) {
  const llm = toolScript(turns);
  const activities: ToolActivity[] = [];
  const texts: string[] = [];
  const calls: { name: string; input: unknown; context: ToolContext }[] = [];
  const reply = await callAgent(llm, request(over, withTools, calls), new AbortController().signal, {
    onTool: (a) => activities.push(a),
    onText: (t) => texts.push(t),
  });
  return { reply, llm, activities, texts, calls };
}

const lastResults = (llm: ScriptedModel, call: number) => llm.requests[call]!.messages.at(-1)!.content as LlmContent[];

describe('callAgent: tool turns', () => {
  it('a tool call runs, its result goes back as a tool_result, and the answer is the last turn', async () => {
    const { reply, llm, activities, calls } = await run([
      { text: 'Let me look.', tools: [{ name: 'read_file', input: { path: 'README.md' } }] },
      { text: 'QUESTIONS' },
    ]);
    assert.equal(reply.outcome, 'answered');
    assert.equal(reply.text, 'QUESTIONS');
    assert.equal(reply.turns, 2);
    assert.deepEqual(
      calls.map((c) => [c.name, c.input]),
      [['read_file', { path: 'README.md' }]],
    );
    assert.equal(calls[0]!.context.root, '/ws');
    const second = llm.requests[1]!;
    assert.deepEqual(second.messages[1], {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'README.md' } },
      ],
    });
    assert.deepEqual(lastResults(llm, 1), [
      { type: 'tool_result', toolUseId: 'toolu_1', content: 'text of README.md' },
    ]);
    assert.deepEqual(
      activities.map((a) => [a.tool, a.target, a.status]),
      [
        ['read_file', 'README.md', 'running'],
        ['read_file', 'README.md', 'done'],
      ],
    );
  });

  it('offers exactly the tools the role lists that the box has', async () => {
    const { llm } = await run([{ text: 'ok' }], { tools: ['search', 'write_file'] });
    assert.deepEqual(
      llm.requests[0]!.tools?.map((t) => t.name),
      ['search'],
    );
  });

  it('a role with no tools, or no tool box, is offered none', async () => {
    assert.equal((await run([{ text: 'ok' }], { tools: [] })).llm.requests[0]!.tools, undefined);
    assert.equal((await run([{ text: 'ok' }], {}, false)).llm.requests[0]!.tools, undefined);
  });

  it('usage is summed over the turns; the model is the last one', async () => {
    const { reply } = await run([{ tools: [{ name: 'search', input: { path: 'x' } }] }, { text: 'done' }]);
    assert.deepEqual(reply.usage, {
      inputTokens: 2 * TURN_USAGE.inputTokens,
      outputTokens: 2 * TURN_USAGE.outputTokens,
      cacheReadTokens: 2 * TURN_USAGE.cacheReadTokens,
      cacheCreationTokens: 0,
    });
    assert.equal(reply.model, 'claude-test');
  });

  it('a new turn starts on a new line of the stream', async () => {
    const { texts } = await run([
      { text: 'Let me look.', tools: [{ name: 'search', input: { path: 'a' } }] },
      { text: 'DISCOVERY_QUESTIONS' },
    ]);
    assert.equal(texts.join(''), 'Let me look.\nDISCOVERY_QUESTIONS');
  });
});

describe('callAgent: what goes wrong is an outcome or an error result, never a crash', () => {
  const cases: {
    name: string;
    turns: Turn[];
    over?: Partial<AgentRole>;
    outcome: string;
    result?: RegExp;
    turnsMade: number;
  }[] = [
    {
      name: 'a tool the role lacks',
      turns: [{ tools: [{ name: 'write_file', input: { path: 'x' } }] }, { text: 'ok' }],
      outcome: 'answered',
      result: /no tool 'write_file' for this role\. Its tools are: read_file, search/,
      turnsMade: 2,
    },
    {
      name: 'a tool the box lacks',
      turns: [{ tools: [{ name: 'rm -rf', input: {} }] }, { text: 'ok' }],
      outcome: 'answered',
      result: /no tool 'rm\?-rf'/,
      turnsMade: 2,
    },
    {
      name: 'a tool that throws',
      turns: [{ tools: [{ name: 'explode', input: { path: 'x' } }] }, { text: 'ok' }],
      over: { tools: ['explode'] },
      outcome: 'answered',
      result: /The tool explode failed: boom/,
      turnsMade: 2,
    },
    { name: 'a refusal', turns: [{ text: '', refuse: true }], outcome: 'refused', turnsMade: 1 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { reply, llm, activities } = await run(c.turns, c.over);
      assert.equal(reply.outcome, c.outcome);
      assert.equal(reply.turns, c.turnsMade);
      if (c.result) {
        const result = lastResults(llm, 1)[0] as Extract<LlmContent, { type: 'tool_result' }>;
        assert.equal(result.isError, true);
        assert.match(result.content, c.result);
        assert.equal(activities.at(-1)!.status, 'error');
        assert.match(activities.at(-1)!.error!, c.result);
      }
    });
  }

  it('maxTurns: the last turn is told to answer; a model that still calls a tool ends with max-turns', async () => {
    const ask = { tools: [{ name: 'search', input: { path: 'q' } }] };
    const { reply, llm } = await run([ask, ask, ask], { maxTurns: 3 });
    assert.equal(reply.outcome, 'max-turns');
    assert.equal(reply.turns, 3);
    assert.equal(llm.requests.length, 3);
    const beforeLast = lastResults(llm, 2);
    assert.deepEqual(beforeLast.at(-1), { type: 'text', text: LAST_TURN_NOTE });
    assert.equal(
      lastResults(llm, 1).some((c) => c.type === 'text'),
      false,
      'only the last turn is told',
    );
  });

  it('maxTurns 1: one call, and a tool call ends it', async () => {
    const { reply, calls } = await run([{ text: 'hm', tools: [{ name: 'search', input: { path: 'q' } }] }], {
      maxTurns: 1,
    });
    assert.deepEqual([reply.outcome, reply.turns, calls.length], ['max-turns', 1, 0]);
  });

  it(`at most ${MAX_CALLS_PER_TURN} tool calls run per turn; the rest get an error result`, async () => {
    const many = Array.from({ length: MAX_CALLS_PER_TURN + 3 }, (_v, i) => ({
      name: 'search',
      input: { path: `q${i}` },
    }));
    const { reply, llm, calls } = await run([{ tools: many }, { text: 'ok' }]);
    assert.equal(reply.outcome, 'answered');
    assert.equal(calls.length, MAX_CALLS_PER_TURN);
    const results = lastResults(llm, 1) as Extract<LlmContent, { type: 'tool_result' }>[];
    assert.equal(results.length, many.length, 'every tool_use gets its tool_result');
    assert.deepEqual(
      results.slice(MAX_CALLS_PER_TURN).map((r) => [r.isError, /at most \d+ tool calls/.test(r.content)]),
      [
        [true, true],
        [true, true],
        [true, true],
      ],
    );
  });

  it('past the reading budget, calls are not run and the next turn is the last', async () => {
    const big = 'x'.repeat(MAX_RESULT_BYTES);
    const llm = toolScript([
      {
        tools: [
          { name: 'read_file', input: { path: 'big' } },
          { name: 'read_file', input: { path: 'more' } },
        ],
      },
      { text: 'answer' },
    ]);
    const req = request({ maxTurns: 10 });
    req.tools!.box = { ...req.tools!.box, run: async () => ({ isError: false, content: big }) };
    const reply = await callAgent(llm, req, new AbortController().signal);
    const results = lastResults(llm, 1);
    assert.equal((results[1] as { isError?: boolean }).isError, true);
    assert.deepEqual(results.at(-1), { type: 'text', text: LAST_TURN_NOTE });
    assert.equal(reply.text, 'answer');
  });

  it('a preamble of only white space is left out of the transcript', async () => {
    const { llm } = await run([{ text: '\n\n', tools: [{ name: 'search', input: { path: 'q' } }] }, { text: 'ok' }]);
    const assistant = llm.requests[1]!.messages[1]!.content as LlmContent[];
    assert.deepEqual(
      assistant.map((c) => c.type),
      ['tool_use'],
    );
  });

  it('cancel mid-stream: stopped, no tool runs, no further call', async () => {
    const llm = toolScript([{ hang: 'thinking' }, { text: 'never' }]);
    const abort = new AbortController();
    const pending = callAgent(llm, request(), abort.signal);
    setTimeout(() => abort.abort(), 5);
    const reply = await pending;
    assert.equal(reply.outcome, 'stopped');
    assert.equal(llm.requests.length, 1);
  });

  it('cancel between tool calls: the rest are not run', async () => {
    const llm = toolScript([
      {
        tools: [
          { name: 'read_file', input: { path: 'a' } },
          { name: 'read_file', input: { path: 'b' } },
        ],
      },
      { text: 'never' },
    ]);
    const abort = new AbortController();
    const calls: { name: string; input: unknown; context: ToolContext }[] = [];
    const req = request({}, true, calls);
    const reply = await callAgent(llm, req, abort.signal, { onTool: (a) => a.status === 'done' && abort.abort() });
    assert.equal(reply.outcome, 'stopped');
    assert.deepEqual(
      calls.map((c) => c.input),
      [{ path: 'a' }],
    );
  });
});
