// LlmClient over VS Code's Language Model API, so a user with a chat-model subscription needs no
// API key. A model that has not begun its reply within the first-byte limit fails the call (no
// retry: the model's own extension decides about those). The vscode module is passed in
// (type-only import here) so a unit test can hold the adapter to its contract with a fake module.
import type * as vscode from 'vscode';
import {
  LlmError,
  type LlmClient,
  type LlmContent,
  type LlmEvent,
  type LlmMessage,
  type LlmRequest,
  type ModelTier,
} from '../../core/llm/llmClient';
import { LIMIT_SETTINGS, duration } from '../../core/llm/retryPolicy';
import { Watchdog } from '../../core/llm/watchdog';

/** The parts of the vscode module this adapter uses. */
export type LmModule = Pick<
  typeof vscode,
  | 'lm'
  | 'LanguageModelChatMessage'
  | 'LanguageModelTextPart'
  | 'LanguageModelToolCallPart'
  | 'LanguageModelToolResultPart'
  | 'LanguageModelError'
  | 'CancellationTokenSource'
>;

export interface LanguageModelClientOptions {
  /** The model id chosen for a tier (`groundwork.languageModel.<tier>`); '' for the first available. */
  modelFor(tier: ModelTier): string;
  /** Shown by VS Code when it asks the user to let Groundwork use the model. */
  justification: string;
  /**
   * Read per call: how long the model may take to send its first part before the call fails
   * (no retry here: the model's own extension retries as it sees fit). Unset: no limit.
   */
  firstByteTimeoutMs?: () => number;
}

export class LanguageModelClient implements LlmClient {
  constructor(
    private readonly vs: LmModule,
    private readonly options: LanguageModelClientOptions,
  ) {}

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    if (signal.aborted) return yield { type: 'stop', reason: 'cancelled' };
    const model = await this.pickModel(request);
    const cancel = new this.vs.CancellationTokenSource();
    // The caller's cancel and the first-byte limit both cancel the request, and both stop the
    // wait even if the model's extension never answers the cancellation.
    const watch = new Watchdog<'first-byte'>(signal);
    const onAbort = () => cancel.cancel();
    watch.signal.addEventListener('abort', onAbort, { once: true });
    const limitMs = this.options.firstByteTimeoutMs?.();
    if (limitMs !== undefined) watch.arm('first-byte', limitMs);
    const failure = (err: unknown) =>
      watch.expired && limitMs !== undefined ? this.firstByteError(model, limitMs) : this.toLlmError(err, model);
    let output = '';
    let sawToolCall = false;
    let parts: AsyncIterator<unknown> | undefined;
    let drained = false;
    try {
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await watch.race(
          model.sendRequest(
            this.messages(request),
            {
              justification: this.options.justification,
              modelOptions: { max_tokens: request.maxTokens },
              ...(request.tools?.length
                ? {
                    tools: request.tools.map((t) => ({
                      name: t.name,
                      description: t.description,
                      inputSchema: t.inputSchema,
                    })),
                  }
                : {}),
            },
            cancel.token,
          ),
        );
      } catch (err) {
        if (signal.aborted) return yield { type: 'stop', reason: 'cancelled' };
        throw failure(err);
      }
      const stream = response.stream[Symbol.asyncIterator]();
      parts = stream;
      try {
        for (let first = true; ; first = false) {
          const next = first ? await watch.race(stream.next()) : await stream.next();
          watch.hold();
          drained = next.done === true;
          if (drained || signal.aborted) break;
          const part: unknown = next.value;
          if (part instanceof this.vs.LanguageModelTextPart) {
            output += part.value;
            yield { type: 'text', text: part.value };
          } else if (part instanceof this.vs.LanguageModelToolCallPart) {
            sawToolCall = true;
            yield { type: 'tool_use', id: part.callId, name: part.name, input: part.input };
          }
        }
      } catch (err) {
        if (!signal.aborted) throw failure(err);
      }
      if (signal.aborted) return yield { type: 'stop', reason: 'cancelled' };
      if (watch.expired) throw failure(undefined);
      yield { type: 'usage', model: model.id, usage: await this.estimateUsage(model, request, output) };
      yield { type: 'stop', reason: sawToolCall ? 'tool_use' : 'end_turn' };
    } finally {
      // Left early (a cancel, a limit, an error, or a caller that stopped reading), as `for await`
      // would: the stream is told, and winds down in the background.
      if (parts && !drained) void parts.return?.(undefined)?.catch(() => undefined);
      watch.signal.removeEventListener('abort', onAbort);
      watch.dispose();
      cancel.dispose();
    }
  }

  private firstByteError(model: vscode.LanguageModelChat, limitMs: number): LlmError {
    return new LlmError(
      'network',
      `The language model "${model.name}" did not begin to answer within ${duration(limitMs)}. Try again, pick another with "Groundwork: Select Model…", or raise ${LIMIT_SETTINGS.firstByte.setting} if it is only slow to start.`,
    );
  }

  private async pickModel(request: LlmRequest): Promise<vscode.LanguageModelChat> {
    const wanted = 'id' in request.model ? request.model.id : this.options.modelFor(request.model.tier);
    const models = await this.vs.lm.selectChatModels(wanted ? { id: wanted } : undefined);
    const model = models[0] ?? (wanted ? (await this.vs.lm.selectChatModels())[0] : undefined);
    if (!model) {
      throw new LlmError(
        'no-provider',
        'No language model is available in VS Code. Install and sign in to a chat-model extension, or set an Anthropic API key with "Groundwork: Set Anthropic API Key…".',
      );
    }
    return model;
  }

  /** The Language Model API has no system role: the system text opens the first user message. */
  private messages(request: LlmRequest): vscode.LanguageModelChatMessage[] {
    const out: vscode.LanguageModelChatMessage[] = [];
    request.messages.forEach((m, i) => {
      const parts = this.parts(m);
      if (i === 0 && m.role === 'user') parts.unshift(new this.vs.LanguageModelTextPart(`${request.system}\n\n`));
      out.push(
        m.role === 'user'
          ? this.vs.LanguageModelChatMessage.User(
              parts as Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart>,
            )
          : this.vs.LanguageModelChatMessage.Assistant(
              parts as Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
            ),
      );
    });
    if (request.messages[0]?.role !== 'user') out.unshift(this.vs.LanguageModelChatMessage.User(request.system));
    return out;
  }

  private parts(
    message: LlmMessage,
  ): Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart> {
    const content: LlmContent[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    return content.map((c) => {
      switch (c.type) {
        case 'text':
          return new this.vs.LanguageModelTextPart(c.text);
        case 'tool_use':
          return new this.vs.LanguageModelToolCallPart(c.id, c.name, (c.input ?? {}) as object);
        case 'tool_result':
          return new this.vs.LanguageModelToolResultPart(c.toolUseId, [
            new this.vs.LanguageModelTextPart(c.isError ? `Error: ${c.content}` : c.content),
          ]);
      }
    });
  }

  /** The API reports no usage; count with the model's own tokenizer so cost figures stay near. */
  private async estimateUsage(model: vscode.LanguageModelChat, request: LlmRequest, output: string) {
    const input = [
      request.system,
      ...request.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))),
    ].join('\n');
    const count = (text: string) =>
      text ? Promise.resolve(model.countTokens(text)).catch(() => Math.ceil(text.length / 4)) : Promise.resolve(0);
    const [inputTokens, outputTokens] = await Promise.all([count(input), count(output)]);
    return { inputTokens, outputTokens, cacheReadTokens: 0, cacheCreationTokens: 0 };
  }

  private toLlmError(err: unknown, model: vscode.LanguageModelChat): LlmError {
    if (err instanceof LlmError) return err;
    const text = err instanceof Error ? err.message : String(err);
    if (err instanceof this.vs.LanguageModelError) {
      const label = `"${model.name}"`;
      switch (err.code) {
        case this.vs.LanguageModelError.NoPermissions().code:
          return new LlmError(
            'consent',
            `Groundwork may not use ${label}: the request to use it was declined. Allow it when VS Code asks, or set an Anthropic API key.`,
          );
        case this.vs.LanguageModelError.Blocked().code:
          return new LlmError(
            'quota',
            `${label} refused the request (quota or rate limit reached): ${text}. Try again later, pick another model with "Groundwork: Select Model…", or set an Anthropic API key.`,
          );
        case this.vs.LanguageModelError.NotFound().code:
          return new LlmError(
            'no-provider',
            `${label} is no longer available: pick another with "Groundwork: Select Model…".`,
          );
      }
    }
    return new LlmError(
      'server',
      `The language model "${model.name}" failed: ${text}. Try again, or pick another with "Groundwork: Select Model…".`,
    );
  }
}
