// Agents may say what they learned inside their text, as signals (docs/discovery-cases.md):
// `<axiom>DISCOVERY_LOCAL:…</axiom>` or `<axiom>DISCOVERY_GLOBAL:…</axiom>`. The run records each
// one like a report_discovery call and keeps the markup out of what people watch. Text streams in
// chunks, so a tag may be split across them: the filter holds back only what may still turn out
// to be part of a signal, and releases it as text as soon as it cannot.

export interface Signal {
  scope: 'local' | 'global';
  content: string;
}

const OPEN = '<axiom>';
const CLOSE = '</axiom>';
const KINDS: readonly [string, Signal['scope']][] = [
  ['DISCOVERY_LOCAL:', 'local'],
  ['DISCOVERY_GLOBAL:', 'global'],
];
/** A signal longer than this is not one: its text is shown as it came. */
export const SIGNAL_MAX_CHARS = 8000;

export class SignalFilter {
  /** Text held back: a possible start of `<axiom>`, or an open signal waiting for its end. */
  private held = '';

  /** Feeds a chunk; returns the text to show now and the signals it completed. */
  push(chunk: string): { text: string; signals: Signal[] } {
    this.held += chunk;
    let shown = '';
    const signals: Signal[] = [];
    for (;;) {
      const start = this.held.indexOf(OPEN);
      if (start < 0) {
        // Keep back a tail that may be the start of `<axiom>`.
        const keep = partialTail(this.held, OPEN);
        shown += this.held.slice(0, this.held.length - keep);
        this.held = this.held.slice(this.held.length - keep);
        break;
      }
      shown += this.held.slice(0, start);
      this.held = this.held.slice(start);
      const end = this.held.indexOf(CLOSE, OPEN.length);
      if (end < 0) {
        if (this.held.length > SIGNAL_MAX_CHARS + OPEN.length + CLOSE.length) {
          // Never closed in time: it is text after all.
          shown += this.held.slice(0, OPEN.length);
          this.held = this.held.slice(OPEN.length);
          continue;
        }
        break;
      }
      const body = this.held.slice(OPEN.length, end);
      const signal = asSignal(body);
      if (signal !== undefined) signals.push(signal);
      else shown += this.held.slice(0, end + CLOSE.length);
      this.held = this.held.slice(end + CLOSE.length);
    }
    return { text: shown, signals };
  }

  /** At the end of a turn: whatever is held is text. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

/** The signals in a whole text, and the text without them. */
export function extractSignals(text: string): { text: string; signals: Signal[] } {
  const filter = new SignalFilter();
  const out = filter.push(text);
  return { text: out.text + filter.flush(), signals: out.signals };
}

function asSignal(body: string): Signal | undefined {
  const trimmed = body.trim();
  for (const [prefix, scope] of KINDS) {
    if (!trimmed.startsWith(prefix)) continue;
    const content = trimmed.slice(prefix.length).trim();
    return content === '' ? undefined : { scope, content };
  }
  return undefined;
}

/** How many of `text`'s last characters are a proper prefix of `tag`. */
function partialTail(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
