// Pure functions from the host's state to DOM. Event handlers are passed in; nothing here
// talks to the host directly.
import type { HostCommand, JournalEntryView, ModelView, Notice, PanelState, SleeperView } from '../src/shared/protocol';
import { h, icon } from './dom';
import { formatTime, plural } from './format';

function section(id: string, heading: string, ...body: Node[]): HTMLElement {
  return h('section', { id, 'aria-labelledby': `${id}-heading` }, h('h2', { id: `${id}-heading` }, heading), ...body);
}

function button(label: string, iconName: string, onClick: () => void, secondary = false): HTMLElement {
  const el = h('vscode-button', { icon: iconName, secondary }, label);
  el.addEventListener('click', onClick);
  return el;
}

export function renderNotice(notice: Notice): HTMLElement {
  return h(
    'div',
    { class: `notice ${notice.kind}`, role: notice.kind === 'error' ? 'alert' : 'status' },
    icon(notice.kind === 'error' ? 'error' : 'info'),
    h('span', {}, notice.text),
  );
}

export function renderRestricted(onManageTrust: () => void): HTMLElement {
  return h(
    'div',
    { class: 'banner restricted', role: 'note', id: 'restricted-banner' },
    h('div', { class: 'banner-title' }, icon('shield'), h('strong', {}, 'Restricted Mode')),
    h(
      'p',
      {},
      'Groundwork shows what this workspace holds, but starts no model session and runs no command ' +
        'until you trust this folder, because a workspace could point agents at code you have not reviewed.',
    ),
    button('Manage Workspace Trust', 'shield', onManageTrust),
  );
}

export function renderNoWorkspace(onOpenFolder: () => void): HTMLElement {
  return h(
    'div',
    { class: 'empty', id: 'no-workspace' },
    h('p', {}, 'Open a folder to use Groundwork. Plans, builds and discoveries are kept in the workspace, under .groundwork/.'),
    button('Open Folder…', 'folder-opened', onOpenFolder),
  );
}

export function renderSleepers(sleepers: SleeperView[], onWake: (agent: string) => void): HTMLElement {
  const items = sleepers.map((s) =>
    h(
      'li',
      { class: 'sleeper' },
      icon(s.overdue ? 'warning' : 'clock'),
      h('span', { class: 'sleeper-agent' }, s.agent),
      h('span', { class: 'muted' }, s.remaining),
      button('Wake', 'debug-continue', () => onWake(s.agent), true),
    ),
  );
  return section('sleepers', 'Sleeping agents', h('ul', { class: 'plain-list' }, ...items));
}

function renderEntry(entry: JournalEntryView): HTMLElement {
  const meta = [formatTime(entry.timestamp), entry.scope, entry.agent].filter(Boolean).join(' · ');
  return h(
    'li',
    { class: 'entry' },
    h('div', { class: 'entry-title' }, entry.title),
    h('div', { class: 'entry-meta muted' }, meta),
    h('div', { class: 'entry-description' }, entry.description),
  );
}

export function renderJournal(journal: PanelState['journal'], form: HTMLElement, onOpen: () => void): HTMLElement {
  const body: Node[] = [form, h('vscode-divider', {})];
  if (journal.error) {
    body.push(renderNotice({ kind: 'error', text: journal.error }));
  } else if (journal.total === 0) {
    body.push(
      h(
        'p',
        { class: 'muted', id: 'journal-empty' },
        'No discoveries yet. When you or an agent learns something worth keeping, add it above; it is saved to .groundwork/discoveries.jsonl.',
      ),
    );
  } else {
    const shown = journal.entries.length;
    const summary = shown < journal.total ? `Newest ${shown} of ${journal.total}` : plural(journal.total, 'discovery', 'discoveries');
    const open = h('a', { href: '#', class: 'link' }, 'Open file');
    open.addEventListener('click', (e) => {
      e.preventDefault();
      onOpen();
    });
    body.push(
      h('div', { class: 'list-header' }, h('span', { class: 'muted' }, summary), open),
      h('ul', { class: 'plain-list entries', id: 'journal-entries' }, ...journal.entries.map(renderEntry)),
    );
  }
  if (journal.partial) body.push(renderNotice({ kind: 'info', text: journal.partial }));
  if (journal.skipped > 0) {
    const lines = plural(journal.skipped, 'line', 'lines');
    const was = journal.skipped === 1 ? 'was' : 'were';
    body.push(renderNotice({ kind: 'error', text: `${lines} of the journal could not be read and ${was} skipped. Open the file to repair them.` }));
  }
  return section('journal', 'Discoveries journal', ...body);
}

const PROVIDER_NAMES = { anthropic: 'Anthropic API', 'vscode-lm': 'VS Code language model' } as const;

/** The model the agents use, or, before there is one, how to connect one. */
export function renderModel(model: ModelView, run: (command: HostCommand) => void): HTMLElement {
  const body: Node[] = [];
  if (model.status === 'onboarding') {
    body.push(
      h(
        'p',
        { id: 'model-onboarding' },
        model.need === 'key'
          ? 'Groundwork is set to use the Anthropic API. Add your API key to let its agents think.'
          : model.need === 'language-model'
            ? 'Groundwork is set to use a VS Code language model, and none is available. Install and sign in to a chat-model extension.'
            : "Connect a model so Groundwork's agents can think: add an Anthropic API key, or use a chat model you already have in VS Code. No key is needed for the second.",
      ),
    );
    const actions = h('div', { class: 'actions' });
    if (model.need !== 'language-model') actions.append(button('Set Anthropic API Key…', 'key', () => run('setApiKey')));
    if (model.need !== 'key') actions.append(button('Find a Chat Model', 'extensions', () => run('findChatModels'), model.need === 'either'));
    body.push(actions);
  } else {
    body.push(
      h(
        'dl',
        { class: 'model-facts', id: 'model-ready' },
        h('dt', {}, 'Provider'),
        h('dd', {}, PROVIDER_NAMES[model.provider]),
        h('dt', {}, 'Complex'),
        h('dd', {}, model.complex || 'first available'),
        h('dt', {}, 'Fast'),
        h('dd', {}, model.fast || 'first available'),
        ...(model.usage ? [h('dt', {}, 'This window'), h('dd', { id: 'model-usage' }, model.usage)] : []),
      ),
      h(
        'div',
        { class: 'actions' },
        button('Check Connection', 'pulse', () => run('checkModel'), true),
        button('Select Model…', 'settings-gear', () => run('selectModel'), true),
      ),
    );
  }
  if (model.check) {
    body.push(
      h(
        'div',
        { class: `check ${model.check.ok ? 'ok' : 'failed'}`, id: 'model-check', role: 'status' },
        icon(model.check.ok ? 'pass' : 'error'),
        h('span', {}, model.check.text),
      ),
    );
  }
  return section('model', 'Model', ...body);
}
