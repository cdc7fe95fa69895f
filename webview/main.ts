// The agent panel. It keeps only UI state (drafts, what is expanded); the host owns the domain
// state and sends it whole as a snapshot, after the panel says it is ready.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-divider/index.js';
import type { HostMessage, PanelState, WebviewMessage } from '../src/shared/protocol';
import { JournalForm, type Draft } from './journalForm';
import { renderJournal, renderModel, renderNoWorkspace, renderRestricted, renderSleepers, renderNotice } from './render';

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
}
const saved = (vscode.getState() ?? {}) as Partial<UiState>;
const uiState: UiState = { draft: saved.draft ?? { title: '', description: '' } };

const app = document.getElementById('app')!;
const form = new JournalForm(uiState.draft, {
  onDraft(draft) {
    uiState.draft = draft;
    vscode.setState(uiState);
  },
  onSubmit(requestId, title, description) {
    post({ type: 'journal.add', requestId, title, description });
  },
});

let lastSeq = -1;

function render(state: PanelState): void {
  const sections: Node[] = [];
  if (state.notice) sections.push(renderNotice(state.notice));
  if (!state.trusted) sections.push(renderRestricted(() => post({ type: 'command', command: 'manageTrust' })));
  sections.push(renderModel(state.model, (command) => post({ type: 'command', command })));
  if (!state.hasWorkspace) {
    sections.push(renderNoWorkspace(() => post({ type: 'command', command: 'openFolder' })));
  } else {
    if (state.sleepers.length) sections.push(renderSleepers(state.sleepers, (agent) => post({ type: 'sleep.wake', agent })));
    sections.push(
      renderJournal(state.journal, form.element, () => post({ type: 'command', command: 'openJournal' })),
    );
  }
  app.replaceChildren(...sections);
  app.setAttribute('aria-busy', 'false');
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  switch (message.type) {
    case 'snapshot':
      if (message.seq <= lastSeq) return;
      lastSeq = message.seq;
      render(message.state);
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
