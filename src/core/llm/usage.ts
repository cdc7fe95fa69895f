// Token accounting and cost. Usage adds up per call and per session; cost comes from a price
// table in USD per million tokens with cache writes and reads priced apart (a cache read costs
// a tenth of an input token, a write a quarter more), so caching shows up in what a session costs.
import type { LlmUsage } from './llmClient';

export const ZERO_USAGE: Readonly<LlmUsage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
});

export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
  };
}

/** Every token the call was billed for, cached or not. */
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheCreationTokens'] as const;

/** Whether a value read from a file is a usage: four whole, non-negative token counts. */
export function isUsage(value: unknown): value is LlmUsage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return USAGE_KEYS.every((k) => Number.isSafeInteger(v[k]) && (v[k] as number) >= 0);
}

export function totalTokens(u: LlmUsage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheCreationTokens;
}

/** USD per million tokens. `cacheWrite` is the 5-minute cache's rate (the one the client uses). */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Anthropic's list prices when this was written; the price setting overrides them. */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'claude-opus-4-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4-1': { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 },
  'claude-opus-4': { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 },
  // Sonnet has kept one price across versions; 4-6 is assumed to keep it until the table says otherwise.
  'claude-sonnet-4-6': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-sonnet-4': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 },
});

/**
 * The price of `model`. The API reports the dated id that answered (`claude-sonnet-4-5-20250929`)
 * while tables and settings use the alias, so a dated id falls back to its alias.
 */
export function priceFor(model: string, prices: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  if (Object.hasOwn(prices, model)) return prices[model];
  const alias = model.replace(/-\d{8}$/, '');
  return alias !== model && Object.hasOwn(prices, alias) ? prices[alias] : undefined;
}

/** USD, or undefined for a model without a price: an unknown cost is not a zero cost. */
export function costOf(model: string, usage: LlmUsage, prices: PriceTable = DEFAULT_PRICES): number | undefined {
  const p = priceFor(model, prices);
  if (!p) return undefined;
  const micro =
    usage.inputTokens * p.input +
    usage.outputTokens * p.output +
    usage.cacheCreationTokens * p.cacheWrite +
    usage.cacheReadTokens * p.cacheRead;
  return micro / 1_000_000;
}

export interface UsageRecord {
  model: string;
  usage: LlmUsage;
}

/** The usage of one session (or any run of calls), call by call. */
export class UsageLedger {
  readonly #calls: UsageRecord[] = [];

  record(model: string, usage: LlmUsage): void {
    this.#calls.push({ model, usage: { ...usage } });
  }

  calls(): readonly UsageRecord[] {
    return this.#calls;
  }

  total(): LlmUsage {
    return this.#calls.reduce((sum, c) => addUsage(sum, c.usage), ZERO_USAGE);
  }

  byModel(): ReadonlyMap<string, LlmUsage> {
    const out = new Map<string, LlmUsage>();
    for (const c of this.#calls) out.set(c.model, addUsage(out.get(c.model) ?? ZERO_USAGE, c.usage));
    return out;
  }

  /** Undefined when any model used has no price: a partial sum would read as the whole cost. */
  cost(prices: PriceTable = DEFAULT_PRICES): number | undefined {
    let sum = 0;
    for (const [model, usage] of this.byModel()) {
      const c = costOf(model, usage, prices);
      if (c === undefined) return undefined;
      sum += c;
    }
    return sum;
  }
}

/** "$0.0123" below a dollar (cents would round most calls to $0.00), "$12.34" above. */
export function formatUsd(usd: number | undefined): string {
  if (usd === undefined) return 'cost unknown';
  // A call that cost something must not read as free.
  if (usd > 0 && usd < 0.00005) return '<$0.0001';
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** "950 tokens", "12.3k tokens", "1.2M tokens". */
export function formatTokens(n: number): string {
  if (n < 1000) return `${n} ${n === 1 ? 'token' : 'tokens'}`;
  if (n < 999_950) return `${(n / 1000).toFixed(1)}k tokens`;
  return `${(n / 1_000_000).toFixed(1)}M tokens`;
}
