// The Language Model adapter held to its contract with VS Code's API through a hand-written fake
// of the vscode module (the shapes of @types/vscode 1.95). The in-VS Code suite checks that the
// real API answers the adapter's calls.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LlmError, type LlmEvent, type LlmRequest } from '../../../../src/core/llm/llmClient';
import { LanguageModelClient, type LmModule } from '../../../../src/vscode/llm/languageModelClient';

class TextPart {
  constructor(public value: string) {}
}
class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
class FakeLmError extends Error {
  constructor(
    message: string,
    public code: string,
  ) {
    super(message);
  }
  static NoPermissions(m = '') {
    return new FakeLmError(m, 'NoPermissions');
  }
  static Blocked(m = '') {
    return new FakeLmError(m, 'Blocked');
  }
  static NotFound(m = '') {
    return new FakeLmError(m, 'NotFound');
  }
}
class TokenSource {
  listeners: Array<() => void> = [];
  token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => (this.listeners.push(l), { dispose() {} }),
  };
  cancel() {
    this.token.isCancellationRequested = true;
    for (const l of this.listeners) l();
  }
  dispose() {}
}

interface Sent {
  messages: Array<{ role: string; content: unknown[] }>;
  options: Record<string, unknown>;
  token: TokenSource['token'];
}

function fakeVscode(script: {
  parts?: unknown[];
  error?: Error;
  streamError?: Error;
  models?: string[];
  gate?: Promise<void>;
}) {
  const sent: Sent[] = [];
  const selectors: unknown[] = [];
  const model = (id: string) => ({
    id,
    name: `Model ${id}`,
    vendor: 'fake',
    family: 'fake',
    countTokens: async (text: string) => Math.ceil(text.length / 4),
    sendRequest: async (messages: Sent['messages'], options: Sent['options'], token: Sent['token']) => {
      sent.push({ messages, options, token });
      if (script.error) throw script.error;
      return {
        stream: (async function* () {
          for (const part of script.parts ?? []) {
            if (script.gate) await script.gate;
            if (token.isCancellationRequested) return;
            yield part;
          }
          if (script.streamError) throw script.streamError;
        })(),
      };
    },
  });
  const ids = script.models ?? ['gpt-x', 'gpt-y'];
  const vs = {
    lm: {
      selectChatModels: async (selector?: { id?: string }) => {
        selectors.push(selector);
        return ids.filter((id) => !selector?.id || selector.id === id).map(model);
      },
    },
    LanguageModelChatMessage: {
      User: (content: unknown) => ({
        role: 'user',
        content: typeof content === 'string' ? [new TextPart(content)] : content,
      }),
      Assistant: (content: unknown) => ({
        role: 'assistant',
        content: typeof content === 'string' ? [new TextPart(content)] : content,
      }),
    },
    LanguageModelTextPart: TextPart,
    LanguageModelToolCallPart: ToolCallPart,
    LanguageModelToolResultPart: ToolResultPart,
    LanguageModelError: FakeLmError,
    CancellationTokenSource: TokenSource,
  } as unknown as LmModule;
  return { vs, sent, selectors };
}

const request: LlmRequest = {
  system: 'You are the analyst.',
  messages: [
    { role: 'user', content: 'Build a CRM' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.md' } }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'file text' }] },
  ],
  tools: [{ name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object' } }],
  model: { tier: 'complex' },
  maxTokens: 1000,
};

async function collect(stream: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const events: LlmEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const client = (vs: LmModule, tierModel = '') =>
  new LanguageModelClient(vs, { modelFor: () => tierModel, justification: 'why' });

describe('VS Code language model provider (recorded contract)', () => {
  test('folds the system text into the first user message, since the API has no system role', async () => {
    const { vs, sent } = fakeVscode({ parts: [new TextPart('ok')] });
    await collect(client(vs).stream(request, new AbortController().signal));
    const first = sent[0]!.messages[0]!;
    assert.equal(first.role, 'user');
    assert.deepEqual(
      (first.content as TextPart[]).map((p) => p.value),
      ['You are the analyst.\n\n', 'Build a CRM'],
    );
  });

  test("passes tools, tool calls and tool results in the API's own parts", async () => {
    const { vs, sent } = fakeVscode({ parts: [new TextPart('ok')] });
    await collect(client(vs).stream(request, new AbortController().signal));
    const { messages, options } = sent[0]!;
    assert.deepEqual(options.tools, [
      { name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object' } },
    ]);
    assert.equal(options.justification, 'why');
    assert.ok(messages[1]!.content[0] instanceof ToolCallPart);
    const result = messages[2]!.content[0] as ToolResultPart;
    assert.ok(result instanceof ToolResultPart);
    assert.equal(result.callId, 't1');
    assert.equal((result.content[0] as TextPart).value, 'file text');
  });

  test('streams text in order, a tool call whole, then usage and the stop reason', async () => {
    const { vs } = fakeVscode({
      parts: [new TextPart('Hel'), new TextPart('lo'), new ToolCallPart('c9', 'read_file', { path: 'x' })],
    });
    const events = await collect(client(vs).stream(request, new AbortController().signal));
    assert.deepEqual(events.slice(0, 3), [
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'tool_use', id: 'c9', name: 'read_file', input: { path: 'x' } },
    ]);
    assert.equal(events[3]!.type, 'usage');
    assert.deepEqual(events[4], { type: 'stop', reason: 'tool_use' });
  });

  test('uses the model chosen for the tier, and the first available when it is gone', async () => {
    const chosen = fakeVscode({ parts: [] });
    const events = await collect(client(chosen.vs, 'gpt-y').stream(request, new AbortController().signal));
    assert.deepEqual(chosen.selectors[0], { id: 'gpt-y' });
    assert.ok(events.some((e) => e.type === 'usage' && e.model === 'gpt-y'));
    const gone = fakeVscode({ parts: [] });
    const fallback = await collect(client(gone.vs, 'retired').stream(request, new AbortController().signal));
    assert.ok(fallback.some((e) => e.type === 'usage' && e.model === 'gpt-x'));
  });

  test('cancelling mid-stream cancels the token and ends as cancelled, without an error', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { vs, sent } = fakeVscode({ parts: [new TextPart('a'), new TextPart('b'), new TextPart('c')], gate });
    const abort = new AbortController();
    const events: LlmEvent[] = [];
    const run = (async () => {
      for await (const e of client(vs).stream(request, abort.signal)) {
        events.push(e);
        if (e.type === 'text') abort.abort();
      }
    })();
    release();
    await run;
    assert.equal(sent[0]!.token.isCancellationRequested, true);
    assert.deepEqual(events, [
      { type: 'text', text: 'a' },
      { type: 'stop', reason: 'cancelled' },
    ]);
  });

  test('consent refusal, quota and a missing model become clear errors', async () => {
    const cases: Array<[Error, string, RegExp]> = [
      [FakeLmError.NoPermissions('denied'), 'consent', /declined.*Allow it when VS Code asks/],
      [FakeLmError.Blocked('quota exceeded'), 'quota', /quota or rate limit.*Try again later/],
      [FakeLmError.NotFound('gone'), 'no-provider', /no longer available.*Select Model/],
      [new Error('socket hang up'), 'server', /failed: socket hang up/],
    ];
    for (const [error, kind, message] of cases) {
      const { vs } = fakeVscode({ error });
      await assert.rejects(collect(client(vs).stream(request, new AbortController().signal)), (err: unknown) => {
        assert.ok(err instanceof LlmError);
        assert.equal(err.kind, kind);
        assert.match(err.message, message);
        return true;
      });
    }
  });

  test('no language model at all says how to get one', async () => {
    const { vs } = fakeVscode({ models: [] });
    await assert.rejects(
      collect(client(vs).stream(request, new AbortController().signal)),
      /No language model is available in VS Code/,
    );
  });
});
