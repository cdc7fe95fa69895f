// The discovery conversation in the panel: a composer, the model's streamed reply, the questions
// as a form, and the Idea Brief card. Drafts (what is typed, brief edits) live here across the
// host's snapshots and are saved with the webview's state so a reload keeps them.
import { BRIEF_FIELDS, type BriefField, type BriefFields, type DiscoveryPanelView, type RoundTranscript, type WebviewMessage } from '../src/shared/protocol';
import { fill, type PanelStringKey, type PanelStrings } from '../src/shared/panelStrings';
import { h, icon } from './dom';
import { disabledButton, restrictedNote } from './render';

export interface DiscoveryDrafts {
  composer: string;
  /** Answers by "round:index". */
  answers: Record<string, string>;
  extra: string;
  /** The brief as being edited, while the card is in edit mode. */
  editing?: BriefFields;
  /** The brief as the user last edited it (shown and saved instead of the model's). */
  edited?: BriefFields;
  lastSent?: string;
}

type ValueElement = HTMLElement & { value: string };

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

export class DiscoveryUi {
  readonly element: HTMLElement = h('section', { id: 'discovery', 'aria-labelledby': 'discovery-heading' });
  private stream: HTMLElement | undefined;
  private view: DiscoveryPanelView = { status: 'idle' };
  private S!: PanelStrings;
  /** False in Restricted Mode: the conversation and the brief are shown, nothing can be changed. */
  private trusted = true;

  constructor(
    private readonly drafts: DiscoveryDrafts,
    private readonly post: (message: WebviewMessage) => void,
    private readonly saveDrafts: () => void,
  ) {}

  /** Streamed model text; true when it could be shown (a running turn is on screen). */
  append(text: string): boolean {
    if (this.view.status !== 'running' || !this.stream) return false;
    this.view = { ...this.view, streamed: this.view.streamed + text };
    this.stream.textContent = this.view.streamed;
    this.stream.scrollTop = this.stream.scrollHeight;
    return true;
  }

  /**
   * `composerExtras`: controls shown beside Send in the idle composer (the brainstorm's ways in).
   * `trusted` false (Restricted Mode): read-only, each missing action said where it would be.
   */
  render(view: DiscoveryPanelView, S: PanelStrings, composerExtras: Node[] = [], trusted = true): void {
    this.view = view;
    this.S = S;
    this.trusted = trusted;
    this.stream = undefined;
    if (view.status !== 'brief') {
      this.drafts.editing = undefined;
      this.drafts.edited = undefined;
    }
    const body: Node[] = [];
    const readOnly = trusted ? null : restrictedNote(S, S.restrictedDiscovery, undefined, 'discovery-restricted');
    switch (view.status) {
      case 'idle':
        if (trusted) body.push(this.composer(composerExtras));
        if (view.hint) body.push(this.hint());
        break;
      case 'running':
        body.push(this.request(view.request), ...this.history(view.rounds), this.roundBadge(view.round, view.maxRounds));
        if (view.notice) body.push(notice(view.notice));
        this.stream = h('div', { class: 'stream', id: 'discovery-stream', 'aria-live': 'polite' }, view.streamed);
        body.push(
          h(
            'div',
            { class: 'thinking', id: 'discovery-progress', role: 'status' },
            h('vscode-progress-ring', { 'aria-hidden': 'true' }),
            h('span', { class: 'muted' }, view.retry ? fill(S.waitingRetry, view.retry.attempt, view.retry.of) : S.thinking),
          ),
          this.stream,
          readOnly ?? h('div', { class: 'actions' }, this.button(S.cancel, 'close', () => this.post({ type: 'discovery.cancel' }), true)),
        );
        break;
      case 'questions':
        body.push(this.request(view.request), ...this.history(view.rounds.filter((r) => r.round < view.round)), this.roundBadge(view.round, view.maxRounds));
        if (view.notice) body.push(notice(view.notice));
        body.push(readOnly ? h('ol', { class: 'questions', id: 'discovery-questions-readonly' }, ...view.questions.map((q) => h('li', { class: 'question-text' }, q))) : this.answerForm(view.round, view.questions));
        if (readOnly) body.push(readOnly);
        break;
      case 'failed':
        body.push(this.request(view.request), ...this.history(view.rounds), this.roundBadge(view.round, view.maxRounds));
        body.push(
          notice(`${S.modelFailed} ${view.error}`, true),
          readOnly ??
            h(
              'div',
              { class: 'actions' },
              this.button(S.retry, 'refresh', () => this.post({ type: 'discovery.retry' })),
              this.button(S.cancel, 'close', () => this.post({ type: 'discovery.cancel' }), true),
            ),
        );
        break;
      case 'brief':
        body.push(this.briefCard(view));
        break;
      case 'damaged':
        body.push(this.damaged(view));
        if (trusted) body.push(this.composer(composerExtras));
        break;
    }
    this.element.replaceChildren(h('h2', { id: 'discovery-heading' }, view.status === 'brief' ? S.briefHeading : S.ideaHeading), ...body);
  }

  private button(label: string, iconName: string, onClick: () => void, secondary = false, id?: string): HTMLElement {
    const el = h('vscode-button', { icon: iconName, secondary, id });
    el.textContent = label;
    el.addEventListener('click', onClick);
    return el;
  }

  private composer(extras: Node[]): HTMLElement {
    const S = this.S;
    const box = h('vscode-textarea', { id: 'composer', rows: '3', resize: 'vertical', placeholder: S.composerPlaceholder, 'aria-label': S.composerLabel }) as ValueElement;
    box.value = this.drafts.composer;
    box.addEventListener('input', () => {
      this.drafts.composer = box.value;
      this.saveDrafts();
    });
    const send = () => {
      const text = box.value.trim();
      if (!text) return box.focus();
      this.drafts.lastSent = text;
      this.drafts.composer = '';
      this.saveDrafts();
      this.post({ type: 'discovery.send', text });
    };
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        send();
      }
    });
    return h('div', { class: 'composer' }, box, h('div', { class: 'actions' }, this.button(S.send, 'send', send, false, 'composer-send'), ...extras));
  }

  private hint(): HTMLElement {
    const S = this.S;
    const last = this.drafts.lastSent;
    return h(
      'div',
      { class: 'notice', id: 'discovery-hint', role: 'status' },
      icon('info'),
      h(
        'div',
        {},
        h('p', {}, S.notABuild),
        last ? this.button(S.discoverThis, 'lightbulb-sparkle', () => this.post({ type: 'discovery.start', text: last }), true, 'discover-this') : null,
      ),
    );
  }

  private request(text: string): HTMLElement {
    return h('div', { class: 'bubble user', id: 'discovery-request' }, h('div', { class: 'bubble-label' }, this.S.yourRequest), h('div', { class: 'bubble-text' }, text));
  }

  private roundBadge(round: number, max: number): HTMLElement {
    return h('div', { class: 'round', id: 'discovery-round' }, h('vscode-badge', {}, fill(this.S.roundOf, round, max)));
  }

  /** Earlier rounds, questions and answers, folded away. */
  private history(rounds: RoundTranscript[]): HTMLElement[] {
    return rounds
      .filter((r) => r.answer !== undefined)
      .map((r) =>
        h(
          'details',
          { class: 'past-round' },
          h('summary', {}, fill(this.S.roundOf, r.round, Math.max(r.round, 3))),
          h('ol', {}, ...r.questions.map((q) => h('li', {}, q))),
          h('div', { class: 'bubble user' }, h('div', { class: 'bubble-label' }, this.S.yourAnswer), h('div', { class: 'bubble-text' }, r.answer ?? '')),
        ),
      );
  }

  private answerForm(round: number, questions: string[]): HTMLElement {
    const S = this.S;
    const boxes = questions.map((q, i) => {
      const key = `${round}:${i}`;
      const box = h('vscode-textarea', { rows: '2', resize: 'vertical', placeholder: S.answerPlaceholder, 'aria-label': q, id: `answer-${i}` }) as ValueElement;
      box.value = this.drafts.answers[key] ?? '';
      box.addEventListener('input', () => {
        this.drafts.answers[key] = box.value;
        this.saveDrafts();
      });
      return h('li', { class: 'question' }, h('label', { for: `answer-${i}`, class: 'question-text' }, q), box);
    });
    const extra = h('vscode-textarea', { rows: '2', resize: 'vertical', placeholder: S.extraPlaceholder, id: 'answer-extra' }) as ValueElement;
    extra.value = this.drafts.extra;
    extra.addEventListener('input', () => {
      this.drafts.extra = extra.value;
      this.saveDrafts();
    });
    const status = h('div', { class: 'form-status error', role: 'status', 'aria-live': 'polite' });
    const send = () => {
      const answers = questions.map((_, i) => this.drafts.answers[`${round}:${i}`] ?? '');
      if (answers.every((a) => !a.trim()) && !this.drafts.extra.trim()) {
        status.textContent = S.answerSomething;
        return;
      }
      this.post({ type: 'discovery.answer', answers, extra: this.drafts.extra });
      this.drafts.answers = {};
      this.drafts.extra = '';
      this.saveDrafts();
    };
    const form = h(
      'form',
      { class: 'answers', id: 'discovery-questions', 'aria-label': fill(S.roundOf, round, 3) },
      h('ol', { class: 'questions' }, ...boxes),
      h('label', { for: 'answer-extra', class: 'field-label' }, S.extraLabel),
      extra,
      h(
        'div',
        { class: 'actions' },
        this.button(S.sendAnswers, 'send', send, false, 'answers-send'),
        this.button(S.cancel, 'close', () => this.post({ type: 'discovery.cancel' }), true, 'discovery-cancel'),
        status,
      ),
    );
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        send();
      }
    });
    return form;
  }

  /**
   * "Brainstorm Deeper" once there is a brief to brainstorm (the host saves it as a plan first).
   * The host saves the brief it sent, not the edits made here, so while edits are unsaved the
   * button waits for Save as Plan.
   */
  private deeperButton(view: Extract<DiscoveryPanelView, { status: 'brief' }>, shown: BriefFields, editing: boolean): HTMLElement | null {
    const S = this.S;
    if (editing || !shown.summary.trim()) return null;
    const unsavedEdits = !view.savedAt && this.drafts.edited !== undefined;
    const el = h('vscode-button', {
      icon: 'comment-discussion',
      secondary: true,
      id: 'brief-brainstorm',
      title: unsavedEdits ? undefined : S.brainstormDeeperTitle,
      disabled: unsavedEdits,
    });
    el.textContent = S.brainstormDeeper;
    el.addEventListener('click', () => {
      if (el.hasAttribute('disabled')) return;
      el.setAttribute('disabled', '');
      this.post({ type: 'brainstorm.deeper' });
    });
    // A disabled button takes no pointer events: the reason is the tooltip of a wrapper.
    return unsavedEdits ? h('span', { class: 'disabled-reason', title: S.brainstormDeeperSaveFirst }, el) : el;
  }

  /** The brief file is not a brief: what is wrong, and Discard (refused, with why, in Restricted Mode). */
  private damaged(view: Extract<DiscoveryPanelView, { status: 'damaged' }>): HTMLElement {
    const S = this.S;
    const discard = this.trusted
      ? this.button(S.discard, 'trash', () => this.post({ type: 'brief.discard' }), true, 'brief-discard')
      : disabledButton(S.discard, 'trash', S.restrictedDiscard, { secondary: true, id: 'brief-discard' });
    return h(
      'div',
      { class: 'notice error', role: 'alert', id: 'brief-damaged' },
      icon('error'),
      h(
        'div',
        { class: 'notice-text' },
        h('p', {}, fill(S.briefDamaged, view.file, view.reason)),
        this.trusted ? h('p', { class: 'muted' }, S.briefDamagedHelp) : restrictedNote(S, S.restrictedDiscard),
        h('div', { class: 'actions' }, discard),
      ),
    );
  }

  private briefActions(view: Extract<DiscoveryPanelView, { status: 'brief' }>, shown: BriefFields, editing: BriefFields | undefined): HTMLElement {
    const S = this.S;
    const actions = h('div', { class: 'actions' });
    if (editing) {
      actions.append(
        this.button(S.doneEditing, 'check', () => {
          this.drafts.edited = editing;
          this.drafts.editing = undefined;
          this.saveDrafts();
          this.render(view, S);
        }, true, 'brief-done'),
      );
    } else if (!view.savedAt) {
      actions.append(
        this.button(S.edit, 'edit', () => {
          this.drafts.editing = { ...shown };
          this.saveDrafts();
          this.render(view, S);
        }, true, 'brief-edit'),
      );
    }
    if (view.savedAt) {
      actions.append(this.button(S.openPlan, 'go-to-file', () => this.post({ type: 'brief.open' }), false, 'brief-open'));
    } else {
      actions.append(
        this.button(S.saveAsPlan, 'save', () => {
          const brief = this.drafts.editing ?? shown;
          this.drafts.editing = undefined;
          this.drafts.edited = brief;
          this.saveDrafts();
          this.post({ type: 'brief.save', brief });
        }, false, 'brief-save'),
      );
    }
    const deeper = this.deeperButton(view, shown, editing !== undefined);
    if (deeper) actions.append(deeper);
    actions.append(this.button(S.discard, 'trash', () => this.post({ type: 'brief.discard' }), true, 'brief-discard'));
    return actions;
  }

  /** Restricted Mode: a saved plan still opens; what would change the brief is shown disabled. */
  private readOnlyBriefActions(view: Extract<DiscoveryPanelView, { status: 'brief' }>): HTMLElement {
    const S = this.S;
    return h(
      'div',
      { class: 'actions' },
      view.savedAt
        ? this.button(S.openPlan, 'go-to-file', () => this.post({ type: 'brief.open' }), false, 'brief-open')
        : disabledButton(S.saveAsPlan, 'save', S.restrictedBrief, { id: 'brief-save' }),
      disabledButton(S.brainstormDeeper, 'comment-discussion', S.restrictedBrief, { secondary: true, id: 'brief-brainstorm' }),
      disabledButton(S.discard, 'trash', S.restrictedBrief, { secondary: true, id: 'brief-discard' }),
    );
  }

  private briefCard(view: Extract<DiscoveryPanelView, { status: 'brief' }>): HTMLElement {
    const S = this.S;
    if (!this.trusted) this.drafts.editing = undefined;
    const editing = this.drafts.editing;
    const shown = this.drafts.edited ?? view.brief;
    const fields = BRIEF_FIELDS.map((field) => {
      const label = S[FIELD_LABELS[field]];
      if (editing) {
        const box = h('vscode-textarea', { rows: field === 'summary' ? '1' : '3', resize: 'vertical', 'aria-label': label, id: `brief-${field}` }) as ValueElement;
        box.value = editing[field];
        box.addEventListener('input', () => {
          editing[field] = box.value;
          this.saveDrafts();
        });
        return [h('dt', {}, label), h('dd', {}, box)];
      }
      const value = shown[field].trim();
      return [h('dt', {}, label), h('dd', { class: value ? '' : 'muted', id: `brief-${field}` }, value || S.briefEmptyField)];
    }).flat();
    const actions = this.trusted ? this.briefActions(view, shown, editing) : this.readOnlyBriefActions(view);
    const transcript = view.transcript.filter((r) => r.questions.length);
    const rawOnly = !editing && view.raw !== undefined && BRIEF_FIELDS.every((f) => !shown[f].trim());
    return h(
      'div',
      { class: 'brief-card', id: 'brief-card' },
      view.message ? h('p', { class: 'muted' }, view.message.split('\n')[0] ?? '') : null,
      rawOnly ? h('div', { class: 'brief-raw', id: 'brief-raw' }, view.raw ?? '') : h('dl', { class: 'brief-fields' }, ...fields),
      view.savedAt ? h('div', { class: 'check ok', id: 'brief-saved' }, icon('pass'), h('span', {}, fill(S.savedAt, view.savedAt))) : null,
      actions,
      this.trusted ? null : restrictedNote(S, S.restrictedBrief, undefined, 'brief-restricted'),
      transcript.length
        ? h(
            'details',
            { class: 'past-round' },
            h('summary', {}, S.questionsAndAnswers),
            ...transcript.map((r) =>
              h('div', {}, h('ol', {}, ...r.questions.map((q) => h('li', {}, q))), h('div', { class: 'bubble user' }, h('div', { class: 'bubble-text' }, r.answer ?? S.skipped))),
            ),
          )
        : null,
    );
  }
}

function notice(text: string, error = false): HTMLElement {
  return h('div', { class: `notice ${error ? 'error' : 'info'}`, role: error ? 'alert' : 'status' }, icon(error ? 'error' : 'info'), h('span', {}, text));
}
