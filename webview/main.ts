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
import type { HostMessage, PanelState, WebviewMessage } from '../src/shared/protocol';
import type { PanelStrings } from '../src/shared/panelStrings';
import { BrainstormUi, type BrainstormDrafts } from './brainstorm';
import { DiscoveryUi, type DiscoveryDrafts } from './discovery';
import { JournalForm, type Draft } from './journalForm';
import { renderJournal, renderModel, renderNoWorkspace, renderNotice, renderRestricted, renderSleepers } from './render';

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

function render(state: PanelState, S: PanelStrings): void {
  // Before anything is redrawn: redrawing a section takes the focus out of it.
  const focus = focusedField();
  const sections: Node[] = [];
  if (state.notice) sections.push(renderNotice(state.notice));
  if (!state.trusted) sections.push(renderRestricted(S, () => post({ type: 'command', command: 'manageTrust' })));
  if (!state.hasWorkspace) {
    sections.push(renderNoWorkspace(S, () => post({ type: 'command', command: 'openFolder' })));
  } else {
    if (state.trusted) {
      brainstorm.render(state.brainstorm, S);
      if (state.brainstorm.status !== 'none') sections.push(brainstorm.element);
      const idle = state.discovery.status === 'idle' && state.brainstorm.status === 'none';
      discovery.render(state.discovery, S, idle ? brainstorm.entryActions(S) : []);
      sections.push(discovery.element);
    }
    sections.push(renderModel(S, state.model, (command) => post({ type: 'command', command })));
    if (state.sleepers.length) sections.push(renderSleepers(S, state.sleepers, (agent) => post({ type: 'sleep.wake', agent })));
    form.label(S);
    sections.push(renderJournal(S, state.journal, form.element, () => post({ type: 'command', command: 'openJournal' })));
  }
  app.replaceChildren(...sections);
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

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  switch (message.type) {
    case 'snapshot':
      if (message.seq <= lastSeq) return;
      lastSeq = message.seq;
      resyncing = false;
      render(message.state, message.strings);
      break;
    case 'append':
      if (message.seq <= lastSeq) return;
      // A missed message, or text for a turn not on screen: ask for the whole state again.
      if (resyncing) return;
      // `append` does not say which session streams; only one runs at a time, and a brainstorm's is tried first.
      if (message.seq !== lastSeq + 1 || !(brainstorm.append(message.text) || discovery.append(message.text))) {
        resyncing = true;
        post({ type: 'resync' });
        return;
      }
      lastSeq = message.seq;
      break;
    case 'done':
      form.settle(message.requestId, message.error);
      break;
    case 'ping':
      post({ type: 'pong', id: message.id, text: message.text });
      break;
  }
});

post({ type: 'ready' });
