// The agent panel. It keeps only UI state (drafts); the host owns the domain state and sends it
// whole as a snapshot after the panel says it is ready, at the end of each turn and whenever the
// panel finds a gap in the numbered stream of `append` messages.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-divider/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import { panelStringsOf } from '../src/shared/panelShape';
import type { WebviewMessage } from '../src/shared/protocol';
import { BrainstormUi, type BrainstormDrafts } from './brainstorm';
import { DiscoveryUi, type DiscoveryDrafts } from './discovery';
import { JournalForm, type Draft } from './journalForm';
import { renderPanel } from './panel';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage) => vscode.postMessage(message);

interface UiState {
  draft: Draft;
  discovery: DiscoveryDrafts;
  brainstorm: BrainstormDrafts;
}
const saved = (vscode.getState() ?? {}) as Partial<UiState>;
const uiState: UiState = {
  draft: saved.draft ?? { title: '', description: '' },
  discovery: saved.discovery ?? { composer: '', answers: {}, extra: '' },
  brainstorm: { answers: saved.brainstorm?.answers ?? {}, skipped: saved.brainstorm?.skipped ?? {} },
};
const saveState = () => vscode.setState(uiState);

const app = document.getElementById('app')!;
const form = new JournalForm(uiState.draft, {
  onDraft(draft) {
    uiState.draft = draft;
    saveState();
  },
  onSubmit(requestId, title, description) {
    post({ type: 'journal.add', requestId, title, description });
  },
});
const discovery = new DiscoveryUi(uiState.discovery, post, saveState);
const brainstorm = new BrainstormUi(uiState.brainstorm, post, saveState);

let lastSeq = -1;
/** Set while a resync is asked for and its snapshot has not come yet. */
let resyncing = false;

/** Draws a snapshot; `state` and `strings` are checked section by section (panel.ts), not trusted. */
function render(state: unknown, strings: unknown): void {
  // Before anything is redrawn: redrawing a section takes the focus out of it.
  const focus = focusedField();
  app.replaceChildren(...renderPanel(state, panelStringsOf(strings), { discovery, brainstorm, form, post }));
  app.setAttribute('aria-busy', 'false');
  if (focus) void refocus(focus);
}

/** An element that may be a vscode-elements control (a Lit element rendering its shadow DOM later). */
type Control = HTMLElement & { updateComplete?: Promise<unknown>; wrappedElement?: HTMLInputElement | HTMLTextAreaElement | null };
interface Focus {
  id: string;
  start: number | null;
  end: number | null;
}

/** The focused field and its caret, so that a snapshot arriving while one types does not take them away. */
function focusedField(): Focus | undefined {
  const el = document.activeElement as Control | null;
  if (!el?.id || !app.contains(el)) return undefined;
  const inner = el.wrappedElement;
  return { id: el.id, start: inner?.selectionStart ?? null, end: inner?.selectionEnd ?? null };
}

async function refocus(focus: Focus): Promise<void> {
  const el = document.getElementById(focus.id) as Control | null;
  if (!el) return;
  await el.updateComplete;
  el.focus({ preventScroll: true });
  const inner = el.wrappedElement;
  if (inner && focus.start !== null && focus.end !== null) inner.setSelectionRange(focus.start, focus.end);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

// Messages come from the host, but their shape is checked all the same: one that is not what its
// type says is dropped rather than allowed to break the panel.
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isRecord(message)) return;
  switch (message['type']) {
    case 'snapshot':
      if (!isSeq(message['seq']) || message['seq'] <= lastSeq) return;
      lastSeq = message['seq'];
      resyncing = false;
      render(message['state'], message['strings']);
      break;
    case 'append': {
      const seq = message['seq'];
      const text = message['text'];
      if (!isSeq(seq) || typeof text !== 'string' || seq <= lastSeq) return;
      // A missed message, or text for a turn not on screen: ask for the whole state again.
      if (resyncing) return;
      // `append` does not say which session streams; only one runs at a time, and a brainstorm's is tried first.
      if (seq !== lastSeq + 1 || !(brainstorm.append(text) || discovery.append(text))) {
        resyncing = true;
        post({ type: 'resync' });
        return;
      }
      lastSeq = seq;
      break;
    }
    case 'done': {
      const error = message['error'];
      if (typeof message['requestId'] === 'string') form.settle(message['requestId'], typeof error === 'string' ? error : undefined);
      break;
    }
    case 'ping':
      if (typeof message['id'] === 'string' && typeof message['text'] === 'string') post({ type: 'pong', id: message['id'], text: message['text'] });
      break;
  }
});

post({ type: 'ready' });
