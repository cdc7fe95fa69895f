// A stand-in for the API's prompt cache, so a test can prove caching is wired without the real
// service: a request's prefix up to each `cache_control` breakpoint is remembered; a later
// request that repeats a remembered prefix reports it as cache reads, and the part up to its
// last breakpoint that was not yet cached as cache creation.
//
// The prefix runs in the API's order — tools, then system, then messages — and ends at the
// block carrying the breakpoint. Tokens are estimated at four characters each; caches are per
// model, as the API's are.
import { createHash, type Hash } from 'node:crypto';

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

interface Breakpoint {
  key: string;
  tokens: number;
}

/** Each block of the prefix, in order, with whether it carries a breakpoint. */
function* blocksOf(body: Record<string, unknown>): Generator<{ block: unknown; marked: boolean }> {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  for (const tool of list(body['tools'])) yield { block: tool, marked: hasCacheControl(tool) };
  for (const block of list(body['system'])) yield { block, marked: hasCacheControl(block) };
  for (const message of list(body['messages'])) {
    const m = message as { role?: unknown; content?: unknown };
    for (const block of list(m.content)) yield { block: { role: m.role, block }, marked: hasCacheControl(block) };
  }
}

function hasCacheControl(block: unknown): boolean {
  return (
    typeof block === 'object' &&
    block !== null &&
    'cache_control' in block &&
    (block as { cache_control: unknown }).cache_control != null
  );
}

/** The block as the cache compares it: the breakpoint marker itself is not content. */
function canonical(block: unknown): string {
  return JSON.stringify(block, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

export class PromptCache {
  readonly #entries = new Set<string>();

  /** Usage for `body`, remembering its breakpoints for later requests. */
  usageFor(body: Record<string, unknown>): CacheUsage {
    const hash: Hash = createHash('sha256').update(String(body['model']));
    let chars = 0;
    const breakpoints: Breakpoint[] = [];
    for (const { block, marked } of blocksOf(body)) {
      const text = canonical(block);
      hash.update(text);
      chars += text.length;
      if (marked) breakpoints.push({ key: hash.copy().digest('hex'), tokens: estimateTokens(chars) });
    }
    const total = estimateTokens(chars);
    const hit = [...breakpoints].reverse().find((b) => this.#entries.has(b.key));
    const read = hit?.tokens ?? 0;
    const last = breakpoints.at(-1);
    const created = last && !this.#entries.has(last.key) ? last.tokens - read : 0;
    for (const b of breakpoints) this.#entries.add(b.key);
    return {
      input_tokens: total - read - created,
      cache_creation_input_tokens: created,
      cache_read_input_tokens: read,
    };
  }

  clear(): void {
    this.#entries.clear();
  }
}
