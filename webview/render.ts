// Pure functions from the host's state to DOM. Event handlers are passed in; nothing here
// talks to the host directly.
import type { JournalEntryView, Notice, PanelState, SleeperView } from '../src/shared/protocol';
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
