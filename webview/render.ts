// Pure functions from the host's state to DOM. Event handlers are passed in; nothing here
// talks to the host directly. Every string comes from the host's translated table.
import { fill, type PanelStrings } from '../src/shared/panelStrings';
import type { JournalEntryView, JournalSlice } from '../src/shared/protocol/journal';
import type { ModelCommand, ModelView } from '../src/shared/protocol/model';
import type { DismissibleNotice, Notice } from '../src/shared/protocol/panel';
import { sleeperStatus, type SleeperView } from '../src/shared/protocol/sleep';
import { h, icon } from './dom';
import { formatTime } from './format';

function sectionOf(id: string, heading: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { id, 'aria-labelledby': `${id}-heading` }, h('h2', { id: `${id}-heading` }, heading), ...body);
}

function button(label: string, iconName: string, onClick: () => void, secondary = false): HTMLElement {
  const el = h('vscode-button', { icon: iconName, secondary }, label);
  el.addEventListener('click', onClick);
  return el;
}

export function renderNotice(notice: Notice, id?: string): HTMLElement {
  return h(
    'div',
    { class: `notice ${notice.kind}`, role: notice.kind === 'error' ? 'alert' : 'status', id },
    icon(notice.kind === 'error' ? 'error' : 'info'),
    h('span', { class: 'notice-text' }, notice.text),
  );
}

/** Info notices with a close button; null when there are none. */
export function renderDismissible(S: PanelStrings, notices: DismissibleNotice[], onDismiss: (id: string) => void): HTMLElement | null {
  if (notices.length === 0) return null;
  return h(
    'div',
    { id: 'notices' },
    ...notices.map((n) => {
      const close = h('vscode-icon', { name: 'close', 'action-icon': true, label: S.dismiss, title: S.dismiss, class: 'notice-dismiss' });
      close.addEventListener('click', () => onDismiss(n.id));
      return h('div', { class: 'notice info', role: 'status', id: n.id }, icon('info'), h('span', { class: 'notice-text' }, n.text), close);
    }),
  );
}

/**
 * Restricted Mode, where an action would be: why it is not offered, and (`onManageTrust`) the way
 * to trust the folder.
 */
export function restrictedNote(S: PanelStrings, text: string, onManageTrust?: () => void, id?: string): HTMLElement {
  let action: HTMLElement | null = null;
  if (onManageTrust) {
    action = h('button', { type: 'button', class: 'link-button' }, S.manageTrust);
    action.addEventListener('click', onManageTrust);
  }
  return h('div', { class: 'restricted-note', role: 'note', id }, icon('shield'), h('div', {}, h('span', {}, text), action));
}

/** A button shown but not usable, with why as the tooltip of a wrapper (a disabled one takes no pointer events). */
export function disabledButton(label: string, iconName: string, why: string, opts: { secondary?: boolean; id?: string } = {}): HTMLElement {
  return h('span', { class: 'disabled-reason', title: why }, h('vscode-button', { icon: iconName, secondary: opts.secondary, id: opts.id, disabled: true }, label));
}

export function renderRestricted(S: PanelStrings, onManageTrust: () => void): HTMLElement {
  return h(
    'div',
    { class: 'banner restricted', role: 'note', id: 'restricted-banner' },
    h('div', { class: 'banner-title' }, icon('shield'), h('strong', {}, S.restrictedTitle)),
    h('p', {}, S.restrictedBody),
    button(S.manageTrust, 'shield', onManageTrust),
  );
}

export function renderNoWorkspace(S: PanelStrings, onOpenFolder: () => void): HTMLElement {
  return h('div', { class: 'empty', id: 'no-workspace' }, h('p', {}, S.noWorkspace), button(S.openFolder, 'folder-opened', onOpenFolder));
}

/**
 * `onWake` undefined: Restricted Mode, where Wake is shown disabled with why. `tick` is called with
 * the countdown's text of each sleeper, in order, to draw them again as time passes (sleep.ts).
 */
export function renderSleepers(
  S: PanelStrings,
  sleepers: SleeperView[],
  now: number,
  onWake: ((agent: string) => void) | undefined,
): { section: HTMLElement; tick(now: number): void } {
  const rows = sleepers.map((s) => {
    const status = sleeperStatus(s, now);
    const remaining = h('span', { class: 'muted sleeper-remaining' }, status.text);
    const stateIcon = icon(status.overdue ? 'warning' : 'clock');
    const row = h(
      'li',
      { class: 'sleeper' },
      stateIcon,
      h('span', { class: 'sleeper-agent' }, s.agent),
      remaining,
      onWake ? button(S.wake, 'debug-continue', () => onWake(s.agent), true) : disabledButton(S.wake, 'debug-continue', S.restrictedWake, { secondary: true }),
    );
    return { s, row, remaining, stateIcon };
  });
  const section = sectionOf(
    'sleepers',
    S.sleepersHeading,
    h('ul', { class: 'plain-list' }, ...rows.map((r) => r.row)),
    onWake ? null : restrictedNote(S, S.restrictedWake, undefined, 'sleepers-restricted'),
  );
  return {
    section,
    tick(at: number) {
      for (const r of rows) {
        const status = sleeperStatus(r.s, at);
        if (r.remaining.textContent !== status.text) r.remaining.textContent = status.text;
        r.stateIcon.setAttribute('name', status.overdue ? 'warning' : 'clock');
      }
    },
  };
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

/** `trusted` false: `form` is Restricted Mode's note in its place, and the empty text says no "add it above". */
export function renderJournal(S: PanelStrings, journal: JournalSlice, form: HTMLElement, onOpen: () => void, trusted = true): HTMLElement {
  const body: Node[] = [form, h('vscode-divider', {})];
  if (journal.error) {
    body.push(renderNotice({ kind: 'error', text: journal.error }));
  } else if (journal.total === 0) {
    body.push(h('p', { class: 'muted', id: 'journal-empty' }, trusted ? S.journalEmpty : S.journalEmptyRestricted));
  } else {
    const shown = journal.entries.length;
    const summary = shown < journal.total ? fill(S.journalNewest, shown, journal.total) : journal.total === 1 ? S.journalCountOne : fill(S.journalCount, journal.total);
    const open = h('a', { href: '#', class: 'link' }, S.openFile);
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
  if (journal.skipped > 0) body.push(renderNotice({ kind: 'error', text: fill(S.journalSkipped, journal.skipped) }));
  return sectionOf('journal', S.journalHeading, ...body);
}

/** The model the agents use, or, before there is one, how to connect one. */
export function renderModel(S: PanelStrings, model: ModelView, run: (command: ModelCommand) => void): HTMLElement {
  const body: Node[] = [];
  if (model.status === 'onboarding') {
    const text = model.need === 'key' ? S.modelNeedKey : model.need === 'language-model' ? S.modelNeedLanguageModel : S.modelNeedEither;
    const actions = h('div', { class: 'actions' });
    if (model.need !== 'language-model') actions.append(button(S.setApiKey, 'key', () => run('setApiKey')));
    if (model.need !== 'key') actions.append(button(S.findChatModel, 'extensions', () => run('findChatModels'), model.need === 'either'));
    body.push(h('p', { id: 'model-onboarding' }, text), actions);
  } else {
    const facts: Array<[string, string, string?]> = [
      [S.provider, model.provider === 'anthropic' ? S.providerAnthropic : S.providerLanguageModel],
      [S.tierComplex, model.complex || S.firstAvailable],
      [S.tierFast, model.fast || S.firstAvailable],
    ];
    if (model.usage) facts.push([S.thisWindow, model.usage, 'model-usage']);
    body.push(
      h('dl', { class: 'model-facts', id: 'model-ready' }, ...facts.flatMap(([k, v, id]) => [h('dt', {}, k), h('dd', { id }, v)])),
      h(
        'div',
        { class: 'actions' },
        button(S.checkConnection, 'pulse', () => run('checkModel'), true),
        button(S.selectModel, 'settings-gear', () => run('selectModel'), true),
      ),
    );
  }
  if (model.check) {
    body.push(
      h('div', { class: `check ${model.check.ok ? 'ok' : 'failed'}`, id: 'model-check', role: 'status' }, icon(model.check.ok ? 'pass' : 'error'), h('span', {}, model.check.text)),
    );
  }
  return sectionOf('model', S.modelHeading, ...body);
}
