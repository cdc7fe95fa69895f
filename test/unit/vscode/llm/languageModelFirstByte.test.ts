// The VS Code Language Model client's first-byte limit, through a small fake of the vscode module
// whose model can hang where a real provider might: before the response, or before its first
// part, even ignoring the cancellation. (test/unit/vscode/llm/languageModelClient.test.ts holds the
// adapter to the rest of its contract.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmError, type LlmEvent, type LlmRequest } from '../../../../src/core/llm/llmClient';
import { LanguageModelClient, type LmModule } from '../../../../src/vscode/llm/languageModelClient';
import { rejection } from '../../llm/llmHarness';

class TextPart {
  constructor(public value: string) {}
}
class TokenSource {
  cancelled = false;
  readonly listeners: Array<() => void> = [];
  token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => (this.listeners.push(l), { dispose() {} }),
  };
  cancel() {
    this.cancelled = this.token.isCancellationRequested = true;
    for (const l of this.listeners) l();
  }
  dispose() {}
}

const never = new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A model that hangs as told; it ignores cancellation, as a misbehaving provider may. */
function fake(script: { hang: 'request' | 'first-part' | 'none'; parts?: string[]; gapMs?: number }) {
  const sources: TokenSource[] = [];
  const model = {
    id: 'slow-1',
    name: 'Slow Model',
    countTokens: async (text: string) => Math.ceil(text.length / 4),
    sendRequest: async () => {
      if (script.hang === 'request') return never;
      return {
        stream: (async function* () {
          if (script.hang === 'first-part') await never;
          for (const [i, text] of (script.parts ?? []).entries()) {
            if (i > 0) await sleep(script.gapMs ?? 0);
            yield new TextPart(text);
          }
        })(),
      };
    },
  };
  const vs = {
    lm: { selectChatModels: async () => [model] },
    LanguageModelChatMessage: {
      User: (content: unknown) => ({ role: 'user', content }),
      Assistant: (content: unknown) => ({ role: 'assistant', content }),
    },
    LanguageModelTextPart: TextPart,
    LanguageModelToolCallPart: class {},
    LanguageModelToolResultPart: class {},
    LanguageModelError: class extends Error {
      static NoPermissions = () => ({ code: 'NoPermissions' });
      static Blocked = () => ({ code: 'Blocked' });
      static NotFound = () => ({ code: 'NotFound' });
    },
    CancellationTokenSource: class extends TokenSource {
      constructor() {
        super();
        sources.push(this);
      }
    },
  } as unknown as LmModule;
  return { vs, sources };
}

const request: LlmRequest = {
  system: 's',
  messages: [{ role: 'user', content: 'hi' }],
  model: { tier: 'fast' },
  maxTokens: 10,
};
const client = (vs: LmModule, firstByteTimeoutMs?: number) =>
  new LanguageModelClient(vs, {
    modelFor: () => '',
    justification: 'test',
    ...(firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: () => firstByteTimeoutMs } : {}),
  });

async function all(stream: AsyncIterable<LlmEvent>, onEvent?: (e: LlmEvent) => void): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const e of stream) {
    out.push(e);
    onEvent?.(e);
  }
  return out;
}

describe('LanguageModelClient first-byte limit', () => {
  for (const hang of ['request', 'first-part'] as const) {
    test(`a model that never answers (hanging on the ${hang}) fails at the limit, the request cancelled`, async () => {
      const { vs, sources } = fake({ hang });
      const error = await rejection(all(client(vs, 50).stream(request, new AbortController().signal)));
      assert.ok(error instanceof LlmError, String(error));
      assert.equal(error.kind, 'network');
      assert.equal(
        error.message,
        'The language model "Slow Model" did not begin to answer within 50 ms. Try again, pick another with "Groundwork: Select Model…", or raise groundwork.model.firstByteTimeoutSeconds if it is only slow to start.',
      );
      assert.equal(sources[0]?.cancelled, true);
    });
  }

  test('once the first part has come, slow parts are not cut', async () => {
    const { vs } = fake({ hang: 'none', parts: ['one ', 'two ', 'three'], gapMs: 120 });
    const got = await all(client(vs, 50).stream(request, new AbortController().signal));
    assert.deepEqual(
      got.map((e) => (e.type === 'text' ? e.text : e.type)),
      ['one ', 'two ', 'three', 'usage', 'stop'],
    );
  });

  test('cancelling while a model hangs ends as cancelled, even if the model ignores the cancellation', async () => {
    const { vs } = fake({ hang: 'request' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    // No limit: only the cancel can end this call.
    assert.deepEqual(await all(client(vs).stream(request, controller.signal)), [{ type: 'stop', reason: 'cancelled' }]);
  });
});
