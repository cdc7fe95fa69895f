// Decides which provider serves the agents, gets its LlmClient on demand (from the factories the
// composition root passes in: this module makes no adapter itself) and keeps this window's token
// and cost totals. Nothing here runs at activation: the SDK is loaded on the first call, and the
// key is read only when a client is needed.
import { AsyncLocalStorage } from 'node:async_hooks';
import * as vscode from 'vscode';
import type { AnthropicClientOptions } from '../../core/node/anthropicClient';
import { LlmError, type LlmClient, type LlmEvent, type LlmRequest, type ModelTier } from '../../core/llm/llmClient';
import { resolveModel } from '../../core/llm/models';
import { DEFAULT_CALL_LIMITS, userLimits, type CallLimits } from '../../core/llm/retryPolicy';
import {
  DEFAULT_PRICES,
  UsageLedger,
  formatTokens,
  formatUsd,
  totalTokens,
  type ModelPrice,
  type PriceTable,
} from '../../core/llm/usage';
import { Disposable, Emitter } from '../base/lifecycle';
import { ApiKeyStore } from './apiKey';
import type { LanguageModelClientOptions } from './languageModelClient';
import { chooseProvider, type ProviderChoice } from './providerChoice';

/** How a client of each provider is made (extension.ts): the Anthropic one loads its SDK lazily. */
export interface ModelClients {
  anthropic(options: AnthropicClientOptions): Promise<LlmClient>;
  languageModel(options: LanguageModelClientOptions): LlmClient;
}

export type ModelStatus =
  | { kind: 'ready'; provider: 'anthropic' | 'vscode-lm'; models: Record<ModelTier, string> }
  | { kind: 'onboarding'; need: 'key' | 'language-model' | 'either' };

export class ModelService extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  readonly keys: ApiKeyStore;
  /** Tokens and cost of every call made from this window. */
  readonly ledger = new UsageLedger();
  /** The last status, until a key, a setting or the available models change. */
  private cachedStatus: Promise<ModelStatus> | undefined;
  /** The model picked in VS Code's chat view, for the calls a chat request makes (withChatModel). */
  private readonly chatModel = new AsyncLocalStorage<string>();

  constructor(
    secrets: vscode.SecretStorage,
    private readonly clients: ModelClients,
  ) {
    super();
    this.keys = this._register(new ApiKeyStore(secrets));
    const invalidate = () => {
      this.cachedStatus = undefined;
      this.changed.fire();
    };
    this._register(this.keys.onDidChange(invalidate));
    this._register(vscode.lm.onDidChangeChatModels(invalidate));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('groundwork') && invalidate()),
    );
  }

  async choice(): Promise<ProviderChoice> {
    const setting = vscode.workspace.getConfiguration('groundwork').get('provider');
    const [hasKey, models] = await Promise.all([
      this.keys.has(),
      vscode.lm.selectChatModels().then(
        (m) => m.length,
        () => 0,
      ),
    ]);
    return chooseProvider(setting, hasKey, models);
  }

  status(): Promise<ModelStatus> {
    this.cachedStatus ??= this.readStatus().catch((err: unknown) => {
      this.cachedStatus = undefined;
      throw err;
    });
    return this.cachedStatus;
  }

  private async readStatus(): Promise<ModelStatus> {
    const choice = await this.choice();
    if (choice.kind === 'onboarding') return choice;
    const models =
      choice.kind === 'anthropic'
        ? {
            complex: resolveModel({ tier: 'complex' }, anthropicModels()),
            fast: resolveModel({ tier: 'fast' }, anthropicModels()),
          }
        : { complex: (await languageModelName('complex')) ?? '', fast: (await languageModelName('fast')) ?? '' };
    return { kind: 'ready', provider: choice.kind, models };
  }

  /**
   * Runs `fn` with the language model the person picked in the chat view (`request.model.id`) as
   * the model of every call made from within it, whichever client the caller holds (the sessions
   * keep theirs): the @groundwork participant, when Groundwork's provider is `vscode-lm` or `auto`
   * without a key (chatModelSource). Calls from anywhere else in the window are not affected.
   */
  withChatModel<T>(modelId: string, fn: () => Promise<T>): Promise<T> {
    return this.chatModel.run(modelId, fn);
  }

  /** The client for the chosen provider; an LlmError that says how to connect one if none. */
  async client(): Promise<LlmClient> {
    // The provider as chosen, also within withChatModel: a session keeps the client it was given.
    const choice = await this.choice();
    switch (choice.kind) {
      case 'onboarding':
        throw new LlmError('no-provider', onboardingMessage(choice.need));
      case 'vscode-lm':
        return this.recording(this.chatAware(this.languageModelClient(languageModelSetting)));
      case 'anthropic':
        return this.recording(
          this.chatAware(
            await this.clients.anthropic({
              apiKey: () => this.keys.get(),
              baseURL: userBaseUrl(),
              models: (tier) => resolveModel({ tier }, anthropicModels()),
              limits: callLimits,
            }),
          ),
        );
    }
  }

  private languageModelClient(modelFor: (tier: ModelTier) => string): LlmClient {
    return this.clients.languageModel({
      modelFor,
      justification: vscode.l10n.t('Groundwork asks the model clarifying questions and runs build phases for you.'),
      firstByteTimeoutMs: () => callLimits().firstByteTimeoutMs ?? DEFAULT_CALL_LIMITS.firstByteTimeoutMs,
    });
  }

  /** A call made within withChatModel goes to the model picked in chat; any other to `inner`. */
  private chatAware(inner: LlmClient): LlmClient {
    let chat: { id: string; client: LlmClient } | undefined;
    return {
      stream: (request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> => {
        const id = this.chatModel.getStore();
        if (!id) return inner.stream(request, signal);
        if (chat?.id !== id) chat = { id, client: this.languageModelClient(() => id) };
        return chat.client.stream(request, signal);
      },
    };
  }

  /** Every call's usage goes into the window's ledger on its way to the caller. */
  private recording(inner: LlmClient): LlmClient {
    const ledger = this.ledger;
    const changed = this.changed;
    return {
      async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
        for await (const event of inner.stream(request, signal)) {
          if (event.type === 'usage') {
            ledger.record(event.model, event.usage);
            changed.fire();
          }
          yield event;
        }
      },
    };
  }
}

/** "12.3k tokens · $0.0042" for this window's calls, or undefined before the first. */
export function describeUsage(ledger: UsageLedger): string | undefined {
  if (ledger.calls().length === 0) return undefined;
  return `${formatTokens(totalTokens(ledger.total()))} · ${formatUsd(ledger.cost(prices()))}`;
}

/**
 * The built-in prices with the user's `groundwork.prices` entries over them. An entry that is not
 * a price (a typo in settings.json) is left out rather than turned into a wrong figure; cache
 * prices left out of an entry are taken as the input price.
 */
export function prices(): PriceTable {
  const custom = vscode.workspace.getConfiguration('groundwork').get<Record<string, unknown>>('prices') ?? {};
  const table: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  for (const [model, raw] of Object.entries(custom)) {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const input = num(entry.input);
    const output = num(entry.output);
    if (input === undefined || output === undefined) continue;
    table[model] = {
      input,
      output,
      cacheWrite: num(entry.cacheWrite) ?? input,
      cacheRead: num(entry.cacheRead) ?? input,
    };
  }
  return table;
}

function anthropicModels(): Partial<Record<ModelTier, string>> {
  const config = vscode.workspace.getConfiguration('groundwork.models');
  return { complex: config.get<string>('complex'), fast: config.get<string>('fast') };
}

/**
 * `groundwork.model.firstByteTimeoutSeconds` and `…retryBudgetSeconds`, read at the start of
 * every call (the services keep their client), so a change applies without a reload.
 */
export function callLimits(): Partial<CallLimits> {
  const config = vscode.workspace.getConfiguration('groundwork.model');
  return userLimits(config.get<unknown>('firstByteTimeoutSeconds'), config.get<unknown>('retryBudgetSeconds'));
}

function languageModelSetting(tier: ModelTier): string {
  return vscode.workspace.getConfiguration('groundwork.languageModel').get<string>(tier) ?? '';
}

async function languageModelName(tier: ModelTier): Promise<string | undefined> {
  const id = languageModelSetting(tier);
  const models = await vscode.lm.selectChatModels(id ? { id } : undefined).then(
    (m) => m,
    () => [],
  );
  const model =
    models[0] ??
    (await vscode.lm.selectChatModels().then(
      (m) => m[0],
      () => undefined,
    ));
  return model?.name;
}

/**
 * The base URL from the user's own settings only. A workspace (a cloned repository) could
 * otherwise send the user's key to a server of its choosing.
 */
export function userBaseUrl(): string | undefined {
  const value = vscode.workspace.getConfiguration('groundwork').inspect<string>('anthropic.baseUrl')?.globalValue;
  return value?.trim() ? value.trim() : undefined;
}

export function onboardingMessage(need: 'key' | 'language-model' | 'either'): string {
  switch (need) {
    case 'key':
      return vscode.l10n.t(
        'Groundwork needs an Anthropic API key: run "Groundwork: Set Anthropic API Key…", or set "groundwork.provider" to "auto".',
      );
    case 'language-model':
      return vscode.l10n.t(
        'No VS Code language model is available: install and sign in to a chat-model extension, or set "groundwork.provider" to "auto" and add an Anthropic API key.',
      );
    case 'either':
      return vscode.l10n.t(
        'Groundwork needs a model: set an Anthropic API key ("Groundwork: Set Anthropic API Key…"), or install and sign in to a chat-model extension for VS Code.',
      );
  }
}
