// The Idea Brief card of the discovery part: the eight fields (editable until saved), Save as Plan
// or Open Plan, Brainstorm Deeper, Discard; and the notice in its place when the kept brief file is
// damaged. Edits live in the drafts across the host's messages and a reload.
import { fill, type PanelStringKey, type PanelStrings } from '../../../src/shared/panelStrings';
import {
  BRIEF_FIELDS,
  type BriefField,
  type BriefFields,
  type DiscoveryPanelView,
} from '../../../src/shared/protocol/discovery';
import type { WebviewMessage } from '../../../src/shared/protocol/panel';
import { h, icon } from '../../dom';
import { disabledButton, restrictedNote } from '../panel/controls';

type Brief = Extract<DiscoveryPanelView, { status: 'brief' }>;
type Damaged = Extract<DiscoveryPanelView, { status: 'damaged' }>;
type ValueElement = HTMLElement & { value: string };

export interface BriefDrafts {
  /** The brief as being edited, while the card is in edit mode. */
  editing?: BriefFields;
  /** The brief as the user last edited it (shown and saved instead of the model's). */
  edited?: BriefFields;
}

const FIELD_LABELS: Record<BriefField, PanelStringKey> = {
  summary: 'briefSummary',
  problem: 'briefProblem',
  users: 'briefUsers',
  mvpScope: 'briefMvpScope',
  technology: 'briefTechnology',
  outOfScope: 'briefOutOfScope',
  keyDecisions: 'briefKeyDecisions',
  constraints: 'briefConstraints',
};

export interface CardContext {
  S: PanelStrings;
  trusted: boolean;
  drafts: BriefDrafts;
  post(message: WebviewMessage): void;
  saveDrafts(): void;
  /** Draws the card again (after Edit or Done). */
  redraw(): void;
}

function button(label: string, iconName: string, onClick: () => void, secondary: boolean, id: string): HTMLElement {
  const el = h('vscode-button', { icon: iconName, secondary, id }, label);
  el.addEventListener('click', onClick);
  return el;
}

/**
 * "Brainstorm Deeper" once there is a brief to brainstorm (the host saves it as a plan first). The
 * host saves the brief it sent, not the edits made here, so while edits are unsaved the button
 * waits for Save as Plan.
 */
function deeperButton(c: CardContext, view: Brief, shown: BriefFields, editing: boolean): HTMLElement | null {
  const S = c.S;
  const offered = c.drafts.edited === undefined ? view.actions.includes('brainstorm') : shown.summary.trim() !== '';
  if (editing || !offered) return null;
  const unsavedEdits = !view.savedAt && c.drafts.edited !== undefined;
  const el = h(
    'vscode-button',
    {
      icon: 'comment-discussion',
      secondary: true,
      id: 'brief-brainstorm',
      title: unsavedEdits ? undefined : S.brainstormDeeperTitle,
      disabled: unsavedEdits,
    },
    S.brainstormDeeper,
  );
  el.addEventListener('click', () => {
    if (el.hasAttribute('disabled')) return;
    el.setAttribute('disabled', '');
    c.post({ type: 'brief.brainstorm' });
  });
  // A disabled button takes no pointer events: the reason is the tooltip of a wrapper.
  return unsavedEdits ? h('span', { class: 'disabled-reason', title: S.brainstormDeeperSaveFirst }, el) : el;
}

/** "Build This": the build's confirmation gate for the brief saved as a plan (saved first), so unsaved edits wait for Save as Plan. */
function buildButton(c: CardContext, view: Brief, editing: boolean): HTMLElement | null {
  const S = c.S;
  if (editing || !view.actions.includes('build')) return null;
  const unsavedEdits = !view.savedAt && c.drafts.edited !== undefined;
  const el = h(
    'vscode-button',
    {
      icon: 'tools',
      secondary: true,
      id: 'brief-build',
      title: unsavedEdits ? undefined : S.buildThisTitle,
      disabled: unsavedEdits,
    },
    S.buildThis,
  );
  // Not disabled after a click: the card is not redrawn when a build ends (the host ignores a second click while the gate is open).
  el.addEventListener('click', () => {
    if (!el.hasAttribute('disabled')) c.post({ type: 'brief.build' });
  });
  return unsavedEdits ? h('span', { class: 'disabled-reason', title: S.brainstormDeeperSaveFirst }, el) : el;
}

function actions(c: CardContext, view: Brief, shown: BriefFields, editing: BriefFields | undefined): HTMLElement {
  const { S, drafts } = c;
  const row = h('div', { class: 'actions' });
  if (editing) {
    row.append(
      button(
        S.doneEditing,
        'check',
        () => {
          drafts.edited = editing;
          drafts.editing = undefined;
          c.saveDrafts();
          c.redraw();
        },
        true,
        'brief-done',
      ),
    );
  } else if (view.actions.includes('edit')) {
    row.append(
      button(
        S.edit,
        'edit',
        () => {
          drafts.editing = { ...shown };
          c.saveDrafts();
          c.redraw();
        },
        true,
        'brief-edit',
      ),
    );
  }
  if (view.actions.includes('open-plan')) {
    row.append(button(S.openPlan, 'go-to-file', () => c.post({ type: 'brief.open' }), false, 'brief-open'));
  } else if (view.actions.includes('save')) {
    row.append(
      button(
        S.saveAsPlan,
        'save',
        () => {
          const brief = drafts.editing ?? shown;
          drafts.editing = undefined;
          drafts.edited = brief;
          c.saveDrafts();
          c.post({ type: 'brief.save', brief });
        },
        false,
        'brief-save',
      ),
    );
  }
  const deeper = deeperButton(c, view, shown, editing !== undefined);
  if (deeper) row.append(deeper);
  const build = buildButton(c, view, editing !== undefined);
  if (build) row.append(build);
  row.append(button(S.discard, 'trash', () => c.post({ type: 'brief.discard' }), true, 'brief-discard'));
  return row;
}

/** Restricted Mode: a saved plan still opens; what would change the brief is shown disabled. */
function readOnlyActions(c: CardContext, view: Brief): HTMLElement {
  const S = c.S;
  return h(
    'div',
    { class: 'actions' },
    view.savedAt
      ? button(S.openPlan, 'go-to-file', () => c.post({ type: 'brief.open' }), false, 'brief-open')
      : disabledButton(S.saveAsPlan, 'save', S.restrictedBrief, { id: 'brief-save' }),
    disabledButton(S.brainstormDeeper, 'comment-discussion', S.restrictedBrief, {
      secondary: true,
      id: 'brief-brainstorm',
    }),
    disabledButton(S.buildThis, 'tools', S.restrictedBrief, { secondary: true, id: 'brief-build' }),
    disabledButton(S.discard, 'trash', S.restrictedBrief, { secondary: true, id: 'brief-discard' }),
  );
}

export function briefCard(c: CardContext, view: Brief): HTMLElement {
  const { S, drafts } = c;
  if (!c.trusted) drafts.editing = undefined;
  const editing = drafts.editing;
  const shown = drafts.edited ?? view.brief;
  const fields = BRIEF_FIELDS.flatMap((field) => {
    const label = S[FIELD_LABELS[field]];
    if (editing) {
      const box = h('vscode-textarea', {
        rows: field === 'summary' ? '1' : '3',
        resize: 'vertical',
        'aria-label': label,
        id: `brief-${field}`,
      }) as ValueElement;
      box.value = editing[field];
      box.addEventListener('input', () => {
        editing[field] = box.value;
        c.saveDrafts();
      });
      return [h('dt', {}, label), h('dd', {}, box)];
    }
    const value = shown[field].trim();
    return [
      h('dt', {}, label),
      h('dd', { class: value ? '' : 'muted', id: `brief-${field}` }, value || S.briefEmptyField),
    ];
  });
  const transcript = view.transcript.filter((r) => r.questions.length);
  const rawOnly = !editing && view.raw !== undefined && BRIEF_FIELDS.every((f) => !shown[f].trim());
  return h(
    'div',
    { class: 'brief-card', id: 'brief-card' },
    view.message ? h('p', { class: 'muted' }, view.message.split('\n')[0] ?? '') : null,
    rawOnly
      ? h('div', { class: 'brief-raw', id: 'brief-raw' }, view.raw ?? '')
      : h('dl', { class: 'brief-fields' }, ...fields),
    view.savedAt
      ? h('div', { class: 'check ok', id: 'brief-saved' }, icon('pass'), h('span', {}, fill(S.savedAt, view.savedAt)))
      : null,
    c.trusted ? actions(c, view, shown, editing) : readOnlyActions(c, view),
    c.trusted ? null : restrictedNote(S, S.restrictedBrief, undefined, 'brief-restricted'),
    transcript.length
      ? h(
          'details',
          { class: 'past-round' },
          h('summary', {}, S.questionsAndAnswers),
          ...transcript.map((r) =>
            h(
              'div',
              {},
              h('ol', {}, ...r.questions.map((q) => h('li', {}, q))),
              h('div', { class: 'bubble user' }, h('div', { class: 'bubble-text' }, r.answer ?? S.skipped)),
            ),
          ),
        )
      : null,
  );
}

/** The brief file is not a brief: what is wrong, and Discard (refused, with why, in Restricted Mode). */
export function damagedBrief(c: CardContext, view: Damaged): HTMLElement {
  const S = c.S;
  const discard = c.trusted
    ? button(S.discard, 'trash', () => c.post({ type: 'brief.discard' }), true, 'brief-discard')
    : disabledButton(S.discard, 'trash', S.restrictedDiscard, { secondary: true, id: 'brief-discard' });
  return h(
    'div',
    { class: 'notice error', role: 'alert', id: 'brief-damaged' },
    icon('error'),
    h(
      'div',
      { class: 'notice-text' },
      h('p', {}, fill(S.briefDamaged, view.file, view.reason)),
      c.trusted ? h('p', { class: 'muted' }, S.briefDamagedHelp) : restrictedNote(S, S.restrictedDiscard),
      h('div', { class: 'actions' }, discard),
    ),
  );
}
