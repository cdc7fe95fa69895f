// VS Code's Language Model API for real: a scripted chat model from another extension (the
// fixture in fixtures/fakeChatModel, loaded beside Groundwork by the runner) answers through
// vscode.lm, and Groundwork's adapter and provider choice are checked against it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LlmEvent, LlmRequest } from '../../src/core/llm/llmClient';
import { LanguageModelClient } from '../../src/vscode/llm/languageModelClient';
import type { GroundworkApi } from '../../src/vscode/extension';
import { until } from '../support/until';

const MODEL_ID = 'groundwork-fake-model';

async function collect(stream: AsyncIterable<LlmEvent>, onEvent?: (e: LlmEvent) => void): Promise<LlmEvent[]> {
  const events: LlmEvent[] = [];
  for await (const e of stream) {
    events.push(e);
    onEvent?.(e);
  }
  return events;
}

const text = (events: LlmEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

describe('VS Code Language Model provider', () => {
  let api: GroundworkApi;
  const client = new LanguageModelClient(vscode, { modelFor: () => MODEL_ID, justification: 'Groundwork tests' });

  before(async () => {
    api = await vscode.extensions.getExtension<GroundworkApi>('groundwork.groundwork')!.activate();
    await vscode.commands.executeCommand('groundworkTests.enableFakeModel');
    await until('the scripted chat model', async () =>
      (await vscode.lm.selectChatModels({ id: MODEL_ID })).length ? true : undefined,
    );
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('groundwork')
      .update('provider', undefined, vscode.ConfigurationTarget.Global);
  });

  it('streams the reply, with the system text folded into the first user message', async () => {
    const request: LlmRequest = {
      system: 'SYSTEM RULES',
      messages: [{ role: 'user', content: 'Build me a CRM' }],
      model: { tier: 'complex' },
      maxTokens: 200,
    };
    const events = await collect(client.stream(request, new AbortController().signal));
    assert.equal(
      text(events),
      'roles=user first="SYSTEM RULES\\n\\nBuild me a CRM" last="SYSTEM RULES\\n\\nBuild me a CRM"',
    );
    assert.ok(events.filter((e) => e.type === 'text').length > 3, 'the reply arrived in several chunks');
    const usage = events.find((e) => e.type === 'usage');
    assert.ok(usage && usage.type === 'usage' && usage.model === MODEL_ID && usage.usage.inputTokens > 0);
    assert.deepEqual(events.at(-1), { type: 'stop', reason: 'end_turn' });
  });

  it('makes a tool call round trip', async () => {
    const tools = [
      {
        name: 'read_file',
        description: 'Reads a file of the workspace',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const first: LlmRequest = {
      system: 'S',
      messages: [{ role: 'user', content: 'What is in the README?' }],
      tools,
      model: { tier: 'fast' },
      maxTokens: 200,
    };
    const asked = await collect(client.stream(first, new AbortController().signal));
    const call = asked.find((e) => e.type === 'tool_use');
    assert.deepEqual(call, { type: 'tool_use', id: 'call-1', name: 'read_file', input: { path: 'README.md' } });
    assert.deepEqual(asked.at(-1), { type: 'stop', reason: 'tool_use' });
    const second: LlmRequest = {
      ...first,
      messages: [
        ...first.messages,
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look. ' },
            { type: 'tool_use', id: 'call-1', name: 'read_file', input: { path: 'README.md' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call-1', content: '# Sample' }] },
      ],
    };
    const answered = await collect(client.stream(second, new AbortController().signal));
    assert.match(text(answered), /roles=user,assistant,user/);
    assert.match(text(answered), /last="\[tool_result call-1: # Sample\]"/);
  });

  it('cancelling mid-reply ends the stream as cancelled', async () => {
    const abort = new AbortController();
    const request: LlmRequest = {
      system: 'S',
      messages: [{ role: 'user', content: 'a long answer please' }],
      model: { id: MODEL_ID },
      maxTokens: 200,
    };
    const events = await collect(client.stream(request, abort.signal), (e) => e.type === 'text' && abort.abort());
    assert.equal(events.filter((e) => e.type === 'text').length, 1);
    assert.deepEqual(events.at(-1), { type: 'stop', reason: 'cancelled' });
  });

  it('is what Groundwork uses when the provider setting says vscode-lm, with no key needed', async () => {
    await vscode.workspace
      .getConfiguration('groundwork')
      .update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    const status = await until('the vscode-lm provider', async () => {
      const s = await api.models.status();
      return s.kind === 'ready' && s.provider === 'vscode-lm' ? s : undefined;
    });
    assert.equal(status.kind === 'ready' && status.models.complex, 'Scripted Model');
    const events = await collect(
      (await api.models.client()).stream(
        { system: 'S', messages: [{ role: 'user', content: 'hi' }], model: { tier: 'fast' }, maxTokens: 50 },
        new AbortController().signal,
      ),
    );
    assert.match(text(events), /roles=user/);
  });
});
