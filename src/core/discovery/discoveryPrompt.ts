// The messages of one discovery call. The round file is the whole context: the request and each
// round's answers as user turns, each round's questions as the model's own turns, every text of
// the file in a data block (anyone may have written the file). A later call repeats the earlier
// turns byte for byte, so `stablePrefix` lets the provider cache them. That needs each data block to be the same every time, so its boundary is derived
// from its content (SHA-256 of source and text) rather than drawn afresh: a text cannot contain
// the hash of itself, which is all the boundary must guarantee (wrapUntrusted also escapes any
// tag-like text inside).
import { capText } from '../prompt/cap';
import { wrapUntrusted } from '../prompt/untrustedText';
import type { LlmMessage } from '../llm/llmClient';
import { bareLine, QUESTIONS_MARKER } from './discoveryParser';
import { LANGUAGE_NAMES } from './discoveryMessages';
import type { ModelCall } from './discoveryMachine';
import type { DiscoveryLanguage } from './discoveryTypes';

/** The exact sentence the final call's prompt carries (and the role looks for), after round 3. */
export const FINAL_ROUND_LINE = 'This is the FINAL round. Synthesize an Idea Brief from everything you know.';

export interface DiscoveryPrompt {
  messages: LlmMessage[];
  /** All but the last message: the turns earlier calls sent already. */
  stablePrefix: number;
}

export interface PromptOptions {
  lang: DiscoveryLanguage;
  maxRounds: number;
  /** Where the whole texts are kept, for the truncation marker (e.g. `.groundwork/discovery/x.md`). */
  keptIn: string;
}

export async function buildDiscoveryPrompt(call: ModelCall, options: PromptOptions): Promise<DiscoveryPrompt> {
  const { lang, maxRounds, keptIn } = options;
  const header = (label: string) => `${label}\nLanguage: ${LANGUAGE_NAMES[lang]}`;
  const request = capText(call.request, `${keptIn}, ORIGINAL_REQUEST`).text;
  const messages: LlmMessage[] = [
    {
      role: 'user',
      content: [
        header(`Discovery round 1/${maxRounds}`),
        "The person's build request:",
        await stableWrap(request, 'original request'),
        'If the request is specific enough, reply DISCOVERY_COMPLETE with the Idea Brief. If it is vague, reply DISCOVERY_QUESTIONS with 3 to 5 numbered questions.',
      ].join('\n\n'),
    },
  ];
  for (let i = 0; i < call.rounds.length; i++) {
    const r = call.rounds[i]!;
    const answered = i + 1;
    // The model's own earlier turn, but read back from a file anyone may have written: data too.
    const asked = capText(r.questions, `${keptIn}, Round ${answered} Agent Questions`).text;
    messages.push({
      role: 'assistant',
      content: `${QUESTIONS_MARKER}\n${await stableWrap(asked, `your round ${answered} questions`)}`,
    });
    const answer = capText(r.answer ?? '', `${keptIn}, Round ${answered} User Response`).text;
    const isLast = i === call.rounds.length - 1;
    const final = isLast && call.final;
    const label = final
      ? `Discovery round ${answered}/${maxRounds}: your questions are answered`
      : `Discovery round ${answered + 1}/${maxRounds}`;
    const ask = final
      ? `${FINAL_ROUND_LINE} Reply DISCOVERY_COMPLETE with the brief, and fill what is still unknown with defaults stated under Key decisions.`
      : 'Build on the answers: reply DISCOVERY_QUESTIONS with 3 to 5 new numbered questions, or DISCOVERY_COMPLETE with the Idea Brief if you know enough.' +
        (answered + 1 === maxRounds
          ? ` Round ${maxRounds} is the last round of questions: ask only what matters most.`
          : '');
    messages.push({
      role: 'user',
      content: [
        header(label),
        `The person's answers to your round ${answered} questions${answer.trim() === '' ? ' (empty: they skipped them)' : ''}:`,
        await stableWrap(answer, `user answer, round ${answered}`),
        ask,
      ].join('\n\n'),
    });
  }
  return { messages, stablePrefix: messages.length - 1 };
}

const encoder = new TextEncoder();

/** wrapUntrusted with a boundary that depends only on the block (see the top of the file). */
async function stableWrap(text: string, source: string): Promise<string> {
  const digest = new Uint8Array(
    await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(`${source}\u0000${text}`)),
  );
  return wrapUntrusted(text, source, (count) => digest.slice(0, count));
}

const MARKER_LINES = ['DISCOVERY_QUESTIONS', 'DISCOVERY_COMPLETE', 'IDEA_BRIEF:'];

/**
 * Passes the model's streamed text on without the protocol's marker lines, as soon as possible: a
 * line is held back only while it could still turn out to be a marker.
 */
export class MarkerFilter {
  #line = '';
  #emitted = false;

  constructor(private readonly emit: (text: string) => void) {}

  push(chunk: string): void {
    for (const part of chunk.split(/(?<=\n)/)) this.#take(part);
  }

  end(): void {
    if (!this.#emitted && this.#line !== '' && !isMarker(this.#line)) this.emit(this.#line);
    this.#line = '';
    this.#emitted = false;
  }

  #take(part: string): void {
    if (this.#emitted) {
      this.emit(part);
      if (part.endsWith('\n')) this.#emitted = false;
      return;
    }
    this.#line += part;
    const complete = this.#line.endsWith('\n');
    const bare = bareLine(this.#line);
    if (complete) {
      if (!isMarker(this.#line)) this.emit(this.#line);
      this.#line = '';
      return;
    }
    if (!MARKER_LINES.some((m) => m.startsWith(bare))) {
      this.emit(this.#line);
      this.#line = '';
      this.#emitted = true;
    }
  }
}

function isMarker(line: string): boolean {
  return MARKER_LINES.includes(bareLine(line));
}
