// What AnthropicClient makes of a failed attempt: whether it is worth another, the short reason a
// progress line shows while it waits, and, when no retry is left, one LlmError that says what
// happened, how many attempts over how long, and then what to do, in the words of the front end
// that made the client (`ErrorAdvice`, core/llm/errorAdvice.ts). Nothing here may carry the API key
// or a proxy password out: `redactError` and `redactText` are the last step before anything leaves.
import type { ErrorAdvice } from '../llm/errorAdvice';
import { LlmError, type LlmErrorKind } from '../llm/llmClient';
import { duration, isRetryableStatus, requestedDelayMs, type CallLimits, type RetryDecision } from '../llm/retryPolicy';

type Sdk = typeof import('@anthropic-ai/sdk');

/** How an attempt failed: one of the client's own limits ran out, or the SDK threw. */
export type Failure =
  | { kind: 'first-byte' }
  | { kind: 'idle' }
  /** The reply streamed for longer than a reply may. */
  | { kind: 'reply' }
  /** The stream ended without completing the message. */
  | { kind: 'ended' }
  | { kind: 'error'; error: unknown };

export interface FailureContext {
  baseURL: string;
  attempts: number;
  elapsedMs: number;
  limits: CallLimits;
  /** How the advice names the key, the endpoint, the model ids and the limits. */
  advice: ErrorAdvice;
  /** Why a retryable failure was not retried. */
  stop?: Extract<RetryDecision, { retry: false }>;
}

/** What happened, then what to do: the one way a message is put together. */
export function llmError(kind: LlmErrorKind, what: string, advice: string, status?: number): LlmError {
  return new LlmError(kind, `${what} ${advice}`, status);
}

/**
 * Whether another attempt may succeed, and in a few words why this one failed. `begun`: the reply
 * had started, so its text may already be with the caller; such an attempt is never repeated.
 */
export function retryability(
  failure: Failure,
  sdk: Sdk,
  begun: boolean,
  limits: CallLimits,
): { retryable: boolean; reason: string; delayMs?: number } {
  if (begun) return { retryable: false, reason: 'the reply broke off' };
  switch (failure.kind) {
    case 'first-byte':
      return { retryable: true, reason: `no answer within ${duration(limits.firstByteTimeoutMs)}` };
    case 'idle':
      return { retryable: false, reason: 'the reply stalled' };
    case 'reply':
      return { retryable: false, reason: 'the reply took too long' };
    case 'ended':
      return { retryable: true, reason: 'the reply ended before it began' };
    case 'error':
      break;
  }
  const err = failure.error;
  if (err instanceof sdk.APIConnectionTimeoutError)
    return { retryable: true, reason: `no answer within ${duration(limits.firstByteTimeoutMs)}` };
  if (err instanceof sdk.APIConnectionError) return { retryable: true, reason: `could not connect (${causeOf(err)})` };
  if (!(err instanceof sdk.APIError)) return { retryable: false, reason: causeOf(err) };
  if (err.status === undefined) {
    // An `event: error` before any other event: the API could not start this reply, as with a 529.
    const transient = err.type === 'overloaded_error' || err.type === 'api_error' || err.type === 'rate_limit_error';
    return { retryable: transient, reason: err.type ?? 'an error event' };
  }
  const header = (name: string) => err.headers?.get(name);
  const retryable = isRetryableStatus(err.status, header('x-should-retry'));
  const delayMs = retryable ? requestedDelayMs(header, Date.now()) : undefined;
  const reason = `status ${err.status}${err.type ? ` (${err.type})` : ''}`;
  return delayMs === undefined ? { retryable, reason } : { retryable, reason, delayMs };
}

/** `begun`: the reply had started streaming, so a broken connection broke it mid-reply. */
export function toLlmError(failure: Failure, sdk: Sdk, ctx: FailureContext, begun: boolean): LlmError {
  const { advice } = ctx;
  const where = safeUrl(ctx.baseURL);
  const tried = `${attempts(ctx)}${stopped(ctx)}`;
  const budgetHint =
    ctx.stop?.why === 'retry-after'
      ? ` A larger ${advice.retryBudget} lets Groundwork wait that long.`
      : ctx.stop?.why === 'budget'
        ? ` A larger ${advice.retryBudget} allows more attempts.`
        : '';
  const tryAgain = 'Check your network connection and try again.';
  switch (failure.kind) {
    case 'first-byte':
      return firstByteError(where, tried, ctx);
    case 'idle':
      return llmError(
        'network',
        `The Anthropic API stopped sending mid-reply: nothing came for ${duration(ctx.limits.idleTimeoutMs)}.`,
        tryAgain,
      );
    case 'reply':
      return llmError(
        'network',
        `The Anthropic API's reply was still streaming after ${duration(ctx.limits.replyTimeoutMs)}, so it was cut off.`,
        `Try again; if it keeps happening, check ${advice.baseUrl} (a proxy may be trickling the reply).`,
      );
    case 'ended':
      return llmError(
        'network',
        `The Anthropic API's reply ended before it was complete${begun ? '' : ` (${tried})`}.`,
        tryAgain,
      );
    case 'error':
      break;
  }
  const err = failure.error;
  if (err instanceof LlmError) return err;
  if (err instanceof sdk.APIConnectionTimeoutError) return firstByteError(where, tried, ctx);
  if (err instanceof sdk.APIConnectionError) {
    return llmError(
      'network',
      `Could not reach the Anthropic API at ${where} (${causeOf(err)}; ${tried}).`,
      `Check your network connection and ${advice.baseUrl}.`,
    );
  }
  if (!(err instanceof sdk.APIError)) {
    // Undici's "terminated" and the like: the connection broke after the reply began.
    if (begun)
      return llmError(
        'network',
        `The connection to the Anthropic API broke off mid-reply (${causeOf(err)}).`,
        tryAgain,
      );
    return llmError(
      'network',
      `The request to the Anthropic API at ${where} failed (${causeOf(err)}).`,
      `Check ${advice.baseUrl} and your network connection.`,
    );
  }
  const said = err.apiMessage ?? err.message;
  const ref = err.requestID ? ` [request ${err.requestID}]` : '';
  const status = err.status;
  if (status === undefined) {
    const kind =
      err.type === 'overloaded_error' ? 'overloaded' : err.type === 'rate_limit_error' ? 'rate-limit' : 'server';
    if (!begun)
      return llmError(
        kind,
        `The Anthropic API could not start a reply (${err.type ?? 'error'}: ${said}; ${tried}).${ref}`,
        `Try again in a few minutes.${budgetHint}`,
      );
    return llmError(
      kind,
      `The Anthropic API stopped mid-reply (${err.type ?? 'error'}: ${said}).${ref}`,
      `Try again${kind === 'server' ? '' : ' in a few minutes'}.`,
    );
  }
  const retried =
    ctx.attempts > 1 || (ctx.stop !== undefined && ctx.stop.why !== 'retries') ? `, still after ${tried}` : '';
  const head = `${status}: ${said}`;
  if (status === 401)
    return llmError('auth', `The API key was refused by the Anthropic API (${head}).${ref}`, advice.replaceKey, status);
  if (status === 403)
    return llmError(
      'auth',
      `The API key may not make this request (${head}).${ref}`,
      `Check its permissions in the Anthropic Console, or ${advice.otherKey}.`,
      status,
    );
  if (status === 402)
    return llmError(
      'quota',
      `The Anthropic account cannot pay for this request (${head}).${ref}`,
      'Check the plan and billing in the Anthropic Console.',
      status,
    );
  if (status === 429) {
    return llmError(
      'rate-limit',
      `The Anthropic API's rate limit was reached (${head}${retried}).${ref}`,
      `Wait a minute before trying again, or check your plan's rate limits.${budgetHint}`,
      status,
    );
  }
  if (status === 529)
    return llmError(
      'overloaded',
      `The Anthropic API is overloaded (${head}${retried}).${ref}`,
      `Try again in a few minutes.${budgetHint}`,
      status,
    );
  if (status >= 500 || status === 408 || status === 409) {
    return llmError(
      'server',
      `The Anthropic API failed (${head}${retried}).${ref}`,
      `Try again later; status.anthropic.com shows outages.${budgetHint}`,
      status,
    );
  }
  const hint = status === 404 ? `Check ${advice.modelIds}.` : 'If it keeps happening, report it with this message.';
  return llmError('bad-request', `The Anthropic API rejected the request (${head}).${ref}`, hint, status);
}

function firstByteError(where: string, tried: string, ctx: FailureContext): LlmError {
  const { advice } = ctx;
  const budget = ctx.stop?.why === 'budget' ? `, or ${advice.retryBudget} for more attempts` : '';
  return llmError(
    'network',
    `The Anthropic API at ${where} did not answer within ${duration(ctx.limits.firstByteTimeoutMs)} (${tried}).`,
    `Check your network connection and ${advice.baseUrl}; if the endpoint is only slow to start, raise ${advice.firstByteTimeout}${budget}.`,
  );
}

function attempts(ctx: FailureContext): string {
  return attemptsMade(ctx.attempts, ctx.elapsedMs);
}

/** "1 attempt", "4 attempts", "3 attempts over 2.5 s": under a second, the count says all there is to say. */
export function attemptsMade(count: number, elapsedMs: number): string {
  const made = count === 1 ? '1 attempt' : `${count} attempts`;
  return count > 1 && elapsedMs >= 1000 ? `${made} over ${duration(elapsedMs)}` : made;
}

function stopped(ctx: FailureContext): string {
  const budget = duration(ctx.limits.retryBudgetMs);
  if (ctx.stop?.why === 'budget') return `; the retry budget of ${budget} is spent`;
  if (ctx.stop?.why === 'retry-after')
    return `; the API asked to wait ${duration(ctx.stop.delayMs ?? 0)}, longer than the retry budget of ${budget} allows`;
  return '';
}

/**
 * The one place an API error leaves the client: a key echoed by a proxy, or a proxy password that
 * fetch quotes with the URL, goes no further.
 */
export function redactError(err: LlmError, secrets: readonly (string | undefined)[]): LlmError {
  const message = redactText(err.message, secrets);
  return message === err.message ? err : new LlmError(err.kind, message, err.status);
}

export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  return secrets.reduce<string>((t, s) => (s ? t.split(s).join('[redacted]') : t), text);
}

export function urlPassword(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}

function causeOf(err: unknown): string {
  let e: unknown = err;
  // Undici wraps the system error (ECONNREFUSED, ENOTFOUND…) two levels down; that is the useful part.
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : errorText(e);
}

export function errorText(v: unknown): string {
  if (v instanceof Error) return v.message;
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Credentials in a proxy URL stay out of messages. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.origin + u.pathname.replace(/\/$/, '');
  } catch {
    return '(an invalid base URL)';
  }
}
