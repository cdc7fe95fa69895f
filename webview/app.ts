// The panel's side of the protocol: it takes the host's messages, keeps the latest slice of each
// feature, and redraws only the parts a change concerns. Streams go to the part that shows them;
// a numbered message missed, or a chunk that cannot be placed, makes it ask for a snapshot. Every
// message's shape is checked: one that is not what its type says is dropped, and a slice that is
// malformed (or whose drawing throws) becomes an error in its part while the rest works. Apart from
// main.ts (which owns the VS Code API and the custom elements), so it runs under Node with a small
// DOM (test/unit/webview).
import { panelStringsOf, sliceProblem, toolLineProblem } from '../src/shared/panelShape';
import { fill, type PanelStrings } from '../src/shared/panelStrings';
import {
  FEATURES,
  PendingRequests,
  isRecord,
  streamFeature,
  type FeatureId,
  type Settled,
} from '../src/shared/protocol/common';
import type { ToolLine } from '../src/shared/protocol/discovery';
import type { PanelSlices, WebviewMessage } from '../src/shared/protocol/panel';
import { h, icon } from './dom';
import type { PanelContext, PanelPart } from './part';

/** "This part of the panel could not be shown: …", where the part would be. */
export function sectionError(S: PanelStrings, id: string, message: string): HTMLElement {
  return h(
    'div',
    { class: 'notice error section-error', role: 'alert', id: `${id}-error` },
    icon('error'),
    h('span', { class: 'notice-text' }, fill(S.sectionFailed, message)),
  );
}

/** A request as the part writes it: the correlation id is added on the way out. */
type WithoutId<M> = M extends unknown ? Omit<M, 'requestId'> : never;

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isFeature = (v: unknown): v is FeatureId => typeof v === 'string' && (FEATURES as readonly string[]).includes(v);

/** An element that may be a vscode-elements control (a Lit element rendering its shadow DOM later). */
type Control = HTMLElement & {
  updateComplete?: Promise<unknown>;
  wrappedElement?: HTMLInputElement | HTMLTextAreaElement | null;
};
interface Focus {
  id: string;
  start: number | null;
  end: number | null;
}

export class PanelApp {
  private S: PanelStrings = panelStringsOf(undefined);
  private slices: Partial<PanelSlices> = {};
  private lastSeq = -1;
  /** Set while a resync is asked for and its snapshot has not come yet. */
  private resyncing = false;
  /** The host's clock minus this one's, from the last numbered message. */
  private skew = 0;
  private readonly requests = new PendingRequests('panel');

  constructor(
    private readonly root: HTMLElement,
    private readonly parts: readonly PanelPart[],
    private readonly send: (message: WebviewMessage) => void,
    private readonly clock: () => number = () => Date.now(),
  ) {
    root.replaceChildren(...parts.map((p) => p.element));
  }

  /** Sends a message that expects an answer; settles with it. */
  request(
    message: WithoutId<Exclude<Extract<WebviewMessage, { requestId: string }>, { type: 'response' }>>,
  ): Promise<Settled> {
    const { requestId, settled } = this.requests.open();
    this.send({ ...message, requestId } as WebviewMessage);
    return settled;
  }

  receive(data: unknown): void {
    if (!isRecord(data)) return;
    switch (data.type) {
      case 'strings':
        this.S = panelStringsOf(data.strings);
        if (this.lastSeq >= 0) this.draw(this.parts);
        return;
      case 'snapshot': {
        if (!isSeq(data.seq) || data.seq <= this.lastSeq) return;
        this.numbered(data.seq, data.now);
        this.resyncing = false;
        this.slices = isRecord(data.slices) ? (data.slices as Partial<PanelSlices>) : {};
        this.draw(this.parts);
        this.root.setAttribute('aria-busy', 'false');
        return;
      }
      case 'state': {
        if (!isSeq(data.seq) || data.seq <= this.lastSeq || !isFeature(data.feature)) return;
        // A slice is whole: it is drawn even after a gap, and the snapshot asked for mends the rest.
        if (data.seq !== this.lastSeq + 1) this.resync();
        this.numbered(data.seq, data.now);
        (this.slices as Record<string, unknown>)[data.feature] = data.state;
        const feature = data.feature;
        this.draw(this.parts.filter((p) => p.feature === feature || feature === 'panel' || p.reads?.includes(feature)));
        return;
      }
      case 'append':
      case 'tool': {
        const { seq, stream } = data;
        if (!isSeq(seq) || seq <= this.lastSeq || typeof stream !== 'string') return;
        const valid =
          data.type === 'append'
            ? isSeq(data.at) && data.at >= 0 && typeof data.text === 'string'
            : toolLineProblem(data.line) === undefined;
        if (!valid || this.resyncing) return;
        const feature = streamFeature(stream);
        const part = this.parts.find((p) => p.feature === feature);
        const placed =
          seq === this.lastSeq + 1 &&
          part !== undefined &&
          (data.type === 'append'
            ? (part.append?.(stream, data.at as number, data.text as string) ?? false)
            : (part.tool?.(stream, data.line as ToolLine) ?? false));
        if (!placed) return this.resync();
        this.lastSeq = seq;
        return;
      }
      case 'request': {
        const request = data.request;
        if (
          typeof data.requestId !== 'string' ||
          !isRecord(request) ||
          request.kind !== 'ping' ||
          typeof request.text !== 'string'
        )
          return;
        this.send({ type: 'response', requestId: data.requestId, result: request.text });
        return;
      }
      case 'response':
        if (typeof data.requestId !== 'string') return;
        this.requests.settle(data.requestId, {
          ...(typeof data.error === 'string' ? { error: data.error } : {}),
          ...(typeof data.result === 'string' ? { result: data.result } : {}),
        });
        return;
    }
  }

  private numbered(seq: number, now: unknown): void {
    this.lastSeq = seq;
    if (typeof now === 'number' && Number.isFinite(now)) this.skew = now - this.clock();
  }

  /** A missed message, or text for a turn not on screen: ask for the whole state again. */
  private resync(): void {
    if (this.resyncing) return;
    this.resyncing = true;
    this.send({ type: 'resync' });
  }

  private context(): PanelContext {
    const panel = this.slices.panel;
    return {
      S: this.S,
      slices: this.slices,
      trusted: isRecord(panel) && panel.trusted === true,
      post: this.send,
      now: () => this.clock() + this.skew,
    };
  }

  private draw(parts: readonly PanelPart[]): void {
    // Before anything is redrawn: redrawing a part takes the focus out of it.
    const focus = focusedField(this.root);
    const ctx = this.context();
    const panel = this.slices.panel;
    const open = isRecord(panel) && sliceProblem('panel', panel) === undefined && panel.hasWorkspace === true;
    for (const part of parts) {
      try {
        // Without a folder there is no workspace to show: only the panel's own part says so.
        if (part.feature !== 'panel' && !open) {
          part.element.replaceChildren();
          continue;
        }
        const problem = sliceProblem(part.feature, this.slices[part.feature]);
        if (problem !== undefined) throw new Error(problem);
        part.render(ctx);
      } catch (err) {
        part.element.replaceChildren(
          sectionError(this.S, part.feature, err instanceof Error ? err.message : String(err)),
        );
      }
    }
    if (focus) void refocus(focus);
  }
}

/** The focused field and its caret, so that a redraw while one types does not take them away. */
function focusedField(root: HTMLElement): Focus | undefined {
  const el = (globalThis.document?.activeElement ?? null) as Control | null;
  if (!el?.id || !root.contains(el)) return undefined;
  const inner = el.wrappedElement;
  return { id: el.id, start: inner?.selectionStart ?? null, end: inner?.selectionEnd ?? null };
}

async function refocus(focus: Focus): Promise<void> {
  const el = document.getElementById(focus.id) as Control | null;
  if (!el || el === document.activeElement) return;
  await el.updateComplete;
  el.focus({ preventScroll: true });
  const inner = el.wrappedElement;
  if (inner && focus.start !== null && focus.end !== null) inner.setSelectionRange(focus.start, focus.end);
}
