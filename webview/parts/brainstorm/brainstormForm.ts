// A brainstorm round's questions as a form: grouped by angle (user experience, technical, edge
// cases), the most pressing first, one answer box and Skip per question, then Keep Grilling or
// Summarize Now (Ctrl+Enter: the one offered first). Drafts and Skip ticks are kept in `drafts`,
// keyed by slug, round and the question's place in the round, and saved as they change.
import { fill, type PanelStrings } from '../../../src/shared/panelStrings';
import type { BrainstormAngle, BrainstormPanelView } from '../../../src/shared/protocol/brainstorm';
import type { WebviewMessage } from '../../../src/shared/protocol/panel';
import { h, icon } from '../../dom';
import { actionButton } from '../panel/controls';
import { ANGLE } from './brainstormProgress';

export interface BrainstormDrafts {
  /** Answers by "slug:round:index". */
  answers: Record<string, string>;
  /** Questions ticked Skip, by the same key. */
  skipped: Record<string, boolean>;
}

type Questions = Extract<BrainstormPanelView, { status: 'questions' }>;
type Action = 'more' | 'summarize';
type TextArea = HTMLElement & { value: string; disabled: boolean };
type Checkbox = HTMLElement & { checked: boolean };

/** The angles in the order the form shows them. */
const ANGLES: readonly BrainstormAngle[] = ['ux', 'technical', 'edge-cases'];

export function questionForm(
  view: Questions,
  S: PanelStrings,
  drafts: BrainstormDrafts,
  saveDrafts: () => void,
  post: (message: WebviewMessage) => void,
): HTMLElement {
  const key = (i: number) => `${view.slug}:${view.round}:${i}`;
  const canMore = view.actions.includes('more');
  const canSummarize = view.actions.includes('summarize');
  const primary: Action = canSummarize || !canMore ? 'summarize' : 'more';
  const status = h('div', {
    class: 'form-status error',
    id: 'brainstorm-form-status',
    role: 'status',
    'aria-live': 'polite',
  });
  const boxes: TextArea[] = [];

  const question = (i: number): HTMLElement => {
    const q = view.questions[i]!;
    const k = key(i);
    const id = `bq-${i}`;
    const priority = Math.min(5, Math.max(1, Math.round(q.priority) || 5));
    const box = h('vscode-textarea', {
      id,
      rows: '2',
      resize: 'vertical',
      placeholder: S.yourAnswer,
      label: q.text,
    }) as TextArea;
    box.value = drafts.answers[k] ?? '';
    boxes[i] = box;
    box.addEventListener('input', () => {
      drafts.answers[k] = box.value;
      status.textContent = '';
      saveDrafts();
    });
    const skip = h('vscode-checkbox', { id: `${id}-skip`, label: S.skip, class: 'bq-skip' }) as Checkbox;
    skip.checked = drafts.skipped[k] === true;
    const note = h(
      'div',
      { class: 'bq-skipped muted', id: `${id}-skipped` },
      icon('debug-step-over'),
      h('span', {}, S.willBeSkipped),
    );
    const item = h(
      'div',
      { class: 'bq', role: 'group', 'aria-labelledby': `${id}-text` },
      h(
        'div',
        { class: 'bq-head' },
        h(
          'span',
          { class: `prio prio-${priority}`, title: fill(S.priorityTitle, priority) },
          fill(S.priorityBadge, priority),
        ),
        h('label', { for: id, id: `${id}-text`, class: 'question-text' }, q.text),
      ),
      box,
      h('div', { class: 'bq-foot' }, skip, note),
    );
    const show = () => {
      const skipped = drafts.skipped[k] === true;
      box.disabled = skipped;
      item.classList.toggle('skipped', skipped);
      note.hidden = !skipped;
    };
    skip.addEventListener('change', () => {
      if (skip.checked) drafts.skipped[k] = true;
      else delete drafts.skipped[k];
      status.textContent = '';
      saveDrafts();
      show();
    });
    show();
    return item;
  };

  const groups = ANGLES.map((angle) => {
    const order = view.questions
      .map((q, i) => ({ q, i }))
      .filter(({ q }) => q.angle === angle)
      .sort((a, b) => a.q.priority - b.q.priority || a.i - b.i);
    if (!order.length) return null;
    const headingId = `brainstorm-angle-${angle}`;
    return h(
      'div',
      { class: 'angle-group', role: 'group', 'aria-labelledby': headingId },
      h('h4', { class: 'angle-heading', id: headingId }, icon(ANGLE[angle].icon), h('span', {}, S[ANGLE[angle].label])),
      ...order.map(({ i }) => question(i)),
    );
  });

  const buttons: HTMLElement[] = [];
  /** Set once the answers are posted: the next snapshot draws the next step. */
  let sent = false;
  const submit = (action: Action) => {
    if (sent || (action === 'more' ? !canMore : !canSummarize)) return;
    const answers = view.questions.map((_, i) =>
      drafts.skipped[key(i)] ? null : (drafts.answers[key(i)] ?? '').trim(),
    );
    if (answers.length && answers.every((a) => a === '')) {
      status.textContent = S.answerOrSkip;
      boxes.find(Boolean)?.focus();
      return;
    }
    sent = true;
    for (const b of buttons) b.setAttribute('disabled', '');
    post({ type: 'brainstorm.answer', answers, action });
  };
  const more = actionButton(S.keepGrilling, 'comment-discussion', () => submit('more'), {
    secondary: primary !== 'more',
    id: 'brainstorm-more',
    disabledBecause: canMore ? undefined : fill(S.brainstormMaxRounds, view.maxRounds),
  });
  const summarize = actionButton(S.summarizeNow, 'check-all', () => submit('summarize'), {
    secondary: primary !== 'summarize',
    id: 'brainstorm-summarize',
    disabledBecause: canSummarize ? undefined : fill(S.brainstormMinRounds, view.minRounds),
  });
  const close = actionButton(S.close, 'close', () => post({ type: 'brainstorm.close' }), {
    secondary: true,
    id: 'brainstorm-close',
  });
  buttons.push(more, summarize, close);

  const form = h(
    'form',
    { class: 'answers bs-form', id: 'brainstorm-form', 'aria-label': fill(S.brainstormQuestions, view.round) },
    ...groups,
    h('div', { class: 'actions bs-actions' }, ...(primary === 'more' ? [more, summarize] : [summarize, more]), close),
    status,
  );
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit(primary);
    }
  });
  return form;
}
