// The whole panel from one snapshot, section by section. Each section is checked (panelShape.ts)
// and drawn on its own: one whose data is malformed, or whose drawing throws, becomes an error in
// its place, and every other section still works. Apart from main.ts (which owns the VS Code API
// and the custom elements) so that it runs under Node with a small DOM (test/unit/webview).
import { sectionProblem, type PanelSection } from '../src/shared/panelShape';
import { fill, type PanelStrings } from '../src/shared/panelStrings';
import type { PanelState, WebviewMessage } from '../src/shared/protocol';
import type { BrainstormUi } from './brainstorm';
import type { DiscoveryUi } from './discovery';
import { h, icon } from './dom';
import type { JournalForm } from './journalForm';
import { renderDismissible, renderJournal, renderModel, renderNoWorkspace, renderNotice, renderRestricted, renderSleepers, restrictedNote } from './render';

export interface PanelParts {
  discovery: DiscoveryUi;
  brainstorm: BrainstormUi;
  form: JournalForm;
  post(message: WebviewMessage): void;
}

/** "This part of the panel could not be shown: …", where the part would be. */
export function sectionError(S: PanelStrings, id: string, message: string): HTMLElement {
  return h(
    'div',
    { class: 'notice error section-error', role: 'alert', id: `${id}-error` },
    icon('error'),
    h('span', { class: 'notice-text' }, fill(S.sectionFailed, message)),
  );
}

/** The panel's sections for `raw` (a snapshot's state, not trusted to have its declared shape). */
export function renderPanel(raw: unknown, S: PanelStrings, parts: PanelParts): Node[] {
  if (typeof raw !== 'object' || raw === null) return [sectionError(S, 'panel', 'the panel state is not an object')];
  const state = raw as PanelState;
  const { post } = parts;
  const sections: Node[] = [];
  const add = (id: string, check: PanelSection | undefined, draw: () => Node | null) => {
    try {
      const problem = check && sectionProblem(raw, check);
      if (problem !== undefined) throw new Error(problem);
      const node = draw();
      if (node) sections.push(node);
    } catch (err) {
      sections.push(sectionError(S, id, err instanceof Error ? err.message : String(err)));
    }
  };
  const manageTrust = () => post({ type: 'command', command: 'manageTrust' });
  // Anything but a plain true is Restricted Mode: the panel then offers nothing that writes.
  const trusted = state.trusted === true;

  add('notice', 'notice', () => (state.notice ? renderNotice(state.notice, 'panel-notice') : null));
  add('notices', 'notices', () => renderDismissible(S, state.notices, (id) => post({ type: 'notice.dismiss', id })));
  if (!trusted) add('restricted', undefined, () => renderRestricted(S, manageTrust));
  if (state.hasWorkspace !== true) {
    add('no-workspace', undefined, () => renderNoWorkspace(S, () => post({ type: 'command', command: 'openFolder' })));
    return sections;
  }
  let brainstormIdle = true;
  if (trusted) {
    add('brainstorm', 'brainstorm', () => {
      parts.brainstorm.render(state.brainstorm, S);
      brainstormIdle = state.brainstorm.status === 'none';
      return brainstormIdle ? null : parts.brainstorm.element;
    });
  }
  add('discovery', 'discovery', () => {
    // Restricted Mode has no composer: an idle conversation has nothing to show.
    if (!trusted && state.discovery.status === 'idle') return null;
    const extras = trusted && brainstormIdle && state.discovery.status === 'idle' ? parts.brainstorm.entryActions(S) : [];
    parts.discovery.render(state.discovery, S, extras, trusted);
    return parts.discovery.element;
  });
  add('model', 'model', () => renderModel(S, state.model, (command) => post({ type: 'command', command })));
  add('sleepers', 'sleepers', () =>
    state.sleepers.length ? renderSleepers(S, state.sleepers, trusted ? (agent) => post({ type: 'sleep.wake', agent }) : undefined) : null,
  );
  add('journal', 'journal', () => {
    parts.form.label(S);
    const form = trusted ? parts.form.element : restrictedNote(S, S.restrictedJournal, manageTrust, 'journal-restricted');
    return renderJournal(S, state.journal, form, () => post({ type: 'command', command: 'openJournal' }), trusted);
  });
  return sections;
}
