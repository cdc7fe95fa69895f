// The agent panel. It keeps only UI state (drafts); the host owns the domain state. After the panel
// says it is ready the host sends its words once, a snapshot of every feature, then each feature's
// slice when it changes and the streams of the sessions that run (app.ts).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-divider/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { WebviewMessage } from '../src/shared/protocol/panel';
import { PanelApp } from './app';
import { BrainstormUi } from './parts/brainstorm/brainstormPart';
import type { BrainstormDrafts } from './parts/brainstorm/brainstormForm';
import { BuildPart } from './parts/build/buildPart';
import { DiscoveryUi, type DiscoveryDrafts } from './parts/discovery/discoveryPart';
import { JournalForm, type Draft } from './parts/journal/journalForm';
import { JournalPart } from './parts/journal/journalPart';
import { ModelPart } from './parts/llm/modelPart';
import { NoticesPart } from './parts/panel/noticesPart';
import { SleepPart } from './parts/sleep/sleepPart';

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

const form = new JournalForm(uiState.draft, {
  onDraft(draft) {
    uiState.draft = draft;
    saveState();
  },
  onSubmit: (title, description) => app.request({ type: 'journal.add', title, description }),
});
const brainstorm = new BrainstormUi(uiState.brainstorm, saveState);
const discovery = new DiscoveryUi(uiState.discovery, saveState, (ctx) => brainstorm.entryActions(ctx));
// The parts in the order the panel shows them.
const app: PanelApp = new PanelApp(
  document.getElementById('app')!,
  [new NoticesPart(), new BuildPart(), brainstorm, discovery, new ModelPart(), new SleepPart(), new JournalPart(form)],
  post,
);

window.addEventListener('message', (event: MessageEvent<unknown>) => app.receive(event.data));
post({ type: 'ready' });
