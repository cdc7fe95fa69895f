// How long one model call may take before it gives up, and when a failed attempt is tried again.
// Pure: no timers, no clock (the caller passes the time and the dice), so it is tested as a table.
// The retryable statuses and the backoff are the Anthropic SDK's own (its client's shouldRetry and
// calculateDefaultRetryTimeoutMillis, in node_modules/@anthropic-ai/sdk/client.js), so taking the
// retries over from it changes when a call gives up, not what it retries.

export interface CallLimits {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** An attempt whose reply has not begun (no stream event) within this is abandoned and retried. */
  firstByteTimeoutMs: number;
  /** Once the reply streams, the longest silence between two events; the reply is then cut. */
  idleTimeoutMs: number;
  /**
   * The longest a reply may stream, from its first event: a server that drips an event every few
   * seconds stays under the idle limit forever, and this ends it.
   */
  replyTimeoutMs: number;
  /** Wall time from the start of the call: no retry starts that could not get going within it. */
  retryBudgetMs: number;
  /** The first backoff wait; it doubles per retry up to `maxRetryDelayMs`, less up to 25 % jitter. */
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
}

/**
 * 60 s to the first event covers a long prompt on a busy model (a healthy reply starts within
 * seconds). 180 s of budget is three such waits: a black-holed endpoint fails after three
 * attempts in three minutes instead of four in eight (the SDK's 4 × 120 s), while the quick
 * failures (overloaded, rate-limited, connection refused) still get all their retries.
 */
export const DEFAULT_CALL_LIMITS: Readonly<CallLimits> = {
  maxRetries: 3,
  firstByteTimeoutMs: 60_000,
  // Longer than the first-byte limit: the SDK hides the API's keep-alive pings from its reader.
  idleTimeoutMs: 120_000,
  // A long reply (thousands of tokens) streams for a few minutes at most.
  replyTimeoutMs: 900_000,
  retryBudgetMs: 180_000,
  initialRetryDelayMs: 500,
  maxRetryDelayMs: 8_000,
};

/**
 * The two limits a user sets, in seconds: the VS Code settings (which messages name; the CLI
 * rewrites them to its environment variables) and their ranges, shared by the manifest's
 * `minimum`/`maximum`, the settings reader and the CLI's check.
 */
export const LIMIT_SETTINGS = {
  firstByte: { setting: 'groundwork.model.firstByteTimeoutSeconds', min: 5, max: 600 },
  budget: { setting: 'groundwork.model.retryBudgetSeconds', min: 10, max: 3600 },
} as const;

export type LimitRange = (typeof LIMIT_SETTINGS)[keyof typeof LIMIT_SETTINGS];

/**
 * A setting's seconds as milliseconds, brought into its range (settings.json accepts any number,
 * with only a warning); undefined when it is not a number, so the default applies.
 */
export function settingMs(value: unknown, range: LimitRange): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.round(Math.min(range.max, Math.max(range.min, value)) * 1000);
}

/** The limits the user set, as `CallLimits` fields; what is unset keeps its default. */
export function userLimits(firstByteSeconds: unknown, budgetSeconds: unknown): Partial<CallLimits> {
  const firstByteTimeoutMs = settingMs(firstByteSeconds, LIMIT_SETTINGS.firstByte);
  const retryBudgetMs = settingMs(budgetSeconds, LIMIT_SETTINGS.budget);
  return {
    ...(firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs } : {}),
    ...(retryBudgetMs !== undefined ? { retryBudgetMs } : {}),
  };
}

/** A retry is not worth starting with less than this left of the budget for its first byte. */
const MIN_ATTEMPT_MS = 10_000;
/** setTimeout fires at once for anything longer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Every limit a positive whole number of milliseconds a timer can hold; a missing or nonsensical
 * value (NaN, negative, Infinity) takes the default. The idle limit follows a raised first-byte
 * limit, since a slow proxy that holds the first byte back may hold the others as well.
 */
export function resolveLimits(given: Partial<CallLimits> = {}): CallLimits {
  const ms = (v: number | undefined, fallback: number) =>
    v !== undefined && Number.isFinite(v) && v >= 0 ? Math.min(Math.round(v), MAX_TIMER_MS) : fallback;
  const firstByteTimeoutMs = Math.max(1, ms(given.firstByteTimeoutMs, DEFAULT_CALL_LIMITS.firstByteTimeoutMs));
  return {
    maxRetries: Math.floor(ms(given.maxRetries, DEFAULT_CALL_LIMITS.maxRetries)),
    firstByteTimeoutMs,
    idleTimeoutMs: Math.max(
      1,
      ms(given.idleTimeoutMs, Math.max(DEFAULT_CALL_LIMITS.idleTimeoutMs, firstByteTimeoutMs)),
    ),
    replyTimeoutMs: Math.max(1, ms(given.replyTimeoutMs, DEFAULT_CALL_LIMITS.replyTimeoutMs)),
    retryBudgetMs: ms(given.retryBudgetMs, DEFAULT_CALL_LIMITS.retryBudgetMs),
    initialRetryDelayMs: ms(given.initialRetryDelayMs, DEFAULT_CALL_LIMITS.initialRetryDelayMs),
    maxRetryDelayMs: ms(given.maxRetryDelayMs, DEFAULT_CALL_LIMITS.maxRetryDelayMs),
  };
}

/** The SDK's rule: the server's `x-should-retry` wins; else timeouts, lock conflicts, rate limits and 5xx (529 included). */
export function isRetryableStatus(status: number, shouldRetry: string | null | undefined): boolean {
  if (shouldRetry === 'true') return true;
  if (shouldRetry === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The wait a reply asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date.
 * A value that is not a positive number or a future date (negative, `soon`, a past date) asks for
 * nothing, and the backoff applies. A huge one is kept: the budget decides whether to wait.
 */
export function requestedDelayMs(
  header: (name: string) => string | null | undefined,
  nowMs: number,
): number | undefined {
  const ms = positive(header('retry-after-ms'));
  if (ms !== undefined) return ms;
  const raw = header('retry-after')?.trim();
  if (!raw) return undefined;
  const seconds = positive(raw);
  if (seconds !== undefined) return seconds * 1000;
  if (/^[+-]?[\d.eE]+$/.test(raw)) return undefined;
  const date = Date.parse(raw);
  return Number.isFinite(date) && date > nowMs ? date - nowMs : undefined;
}

function positive(raw: string | null | undefined): number | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The wait before retry `retry` (1-based): exponential, capped, less up to a quarter at random. */
export function backoffMs(retry: number, limits: CallLimits, random: () => number = Math.random): number {
  const base = Math.min(limits.initialRetryDelayMs * 2 ** Math.max(0, retry - 1), limits.maxRetryDelayMs);
  return Math.round(base * (1 - random() * 0.25));
}

export type RetryDecision =
  /** Wait `delayMs`, then try again with `firstByteMs` for the reply to begin. */
  | { retry: true; delayMs: number; firstByteMs: number }
  /**
   * `retries`: all were used; `budget`: too little budget is left for another attempt;
   * `retry-after`: the server asked for a wait (`delayMs`) that does not fit in the budget.
   */
  | { retry: false; why: 'retries' | 'budget' | 'retry-after'; delayMs?: number };

/**
 * Whether to retry after `retriesDone` retries, `elapsedMs` into the call. A retry is made only if
 * its wait ends inside the budget with time left for the reply to begin; that attempt's first-byte
 * limit is then cut to what is left, so a reply that never begins fails within the budget (or the
 * first attempt's first-byte limit, if that is longer), however the server behaves.
 */
export function decideRetry(
  input: { retriesDone: number; elapsedMs: number; requestedDelayMs?: number | undefined; limits: CallLimits },
  random: () => number = Math.random,
): RetryDecision {
  const { retriesDone, elapsedMs, requestedDelayMs: asked, limits } = input;
  if (retriesDone >= limits.maxRetries) return { retry: false, why: 'retries' };
  // Whole milliseconds: the SDK refuses a fractional timeout, and retry-after-ms may be "0.5".
  const delayMs = Math.ceil(asked ?? backoffMs(retriesDone + 1, limits, random));
  const left = Math.floor(limits.retryBudgetMs - elapsedMs - delayMs);
  if (left < Math.min(limits.firstByteTimeoutMs, MIN_ATTEMPT_MS)) {
    return asked !== undefined ? { retry: false, why: 'retry-after', delayMs } : { retry: false, why: 'budget' };
  }
  return { retry: true, delayMs, firstByteMs: Math.min(limits.firstByteTimeoutMs, left) };
}

/** "40 ms", "2.5 s", "60 s", "3 min", "11.6 days": short, and exact enough to act on. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 10) return `${Math.round(s * 10) / 10} s`;
  if (s < 600) return `${Math.round(s)} s`;
  if (s < 2 * 86_400) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 8_640) / 10} days`;
}
