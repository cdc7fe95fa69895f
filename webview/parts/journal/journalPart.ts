// The discoveries journal: the form that adds an entry (journalForm.ts; Restricted Mode's note in its
// place), then the newest entries and how many there are.
import { fill, type PanelStrings } from '../../../src/shared/panelStrings';
import type { JournalEntryView, JournalSlice } from '../../../src/shared/protocol/journal';
import { h } from '../../dom';
import { formatTime } from '../../format';
import type { PanelContext, PanelPart } from '../../part';
import { part, renderNotice, restrictedNote, sectionOf } from '../panel/controls';
import type { JournalForm } from './journalForm';

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
export function renderJournal(
  S: PanelStrings,
  journal: JournalSlice,
  form: HTMLElement,
  onOpen: () => void,
  trusted = true,
): HTMLElement {
  const body: Node[] = [form, h('vscode-divider', {})];
  if (journal.error) {
    body.push(renderNotice({ kind: 'error', text: journal.error }));
  } else if (journal.total === 0) {
    body.push(h('p', { class: 'muted', id: 'journal-empty' }, trusted ? S.journalEmpty : S.journalEmptyRestricted));
  } else {
    const shown = journal.entries.length;
    const summary =
      shown < journal.total
        ? fill(S.journalNewest, shown, journal.total)
        : journal.total === 1
          ? S.journalCountOne
          : fill(S.journalCount, journal.total);
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

export class JournalPart implements PanelPart {
  readonly feature = 'journal';
  readonly element = part('journal');

  constructor(private readonly form: JournalForm) {}

  render(ctx: PanelContext): void {
    const { S, post } = ctx;
    this.form.label(S);
    const form = ctx.trusted
      ? this.form.element
      : restrictedNote(
          S,
          S.restrictedJournal,
          () => post({ type: 'panel.command', command: 'manageTrust' }),
          'journal-restricted',
        );
    this.element.replaceChildren(
      renderJournal(S, ctx.slices.journal!, form, () => post({ type: 'journal.open' }), ctx.trusted),
    );
  }
}
