// The "add to journal" form. It lives across redraws so that typing, focus and the draft survive
// while the host re-sends the journal. Adding is a request: the host answers whether it worked.
import type { PanelStrings } from '../../../src/shared/panelStrings';
import type { Settled } from '../../../src/shared/protocol/common';
import { MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS } from '../../../src/shared/protocol/journal';
import { h } from '../../dom';

export interface Draft {
  title: string;
  description: string;
}

interface FormEvents {
  onDraft(draft: Draft): void;
  /** Sends the entry; settles with the host's answer. */
  onSubmit(title: string, description: string): Promise<Settled>;
}

/** The value of a vscode-elements text control (they expose `value` like native inputs). */
type ValueElement = HTMLElement & { value: string };

export class JournalForm {
  readonly element: HTMLElement;
  private readonly title: ValueElement;
  private readonly description: ValueElement;
  private readonly button: HTMLElement;
  private readonly status: HTMLElement;
  private pending = false;

  private S: PanelStrings | undefined;
  private readonly titleLabel = h('label', { for: 'journal-title', class: 'field-label' });
  private readonly descriptionLabel = h('label', { for: 'journal-description', class: 'field-label' });

  constructor(
    draft: Draft,
    private readonly events: FormEvents,
  ) {
    this.title = h('vscode-textfield', { id: 'journal-title', maxlength: String(MAX_TITLE_CHARS) }) as ValueElement;
    this.description = h('vscode-textarea', {
      id: 'journal-description',
      rows: '3',
      maxlength: String(MAX_DESCRIPTION_CHARS),
      resize: 'vertical',
    }) as ValueElement;
    this.title.value = draft.title;
    this.description.value = draft.description;
    this.button = h('vscode-button', { id: 'journal-add', icon: 'add' });
    this.status = h('div', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
    this.element = h(
      'form',
      { class: 'journal-form' },
      this.titleLabel,
      this.title,
      this.descriptionLabel,
      this.description,
      h('div', { class: 'form-actions' }, this.button, this.status),
    );
    for (const field of [this.title, this.description]) {
      field.addEventListener('input', () => {
        this.events.onDraft(this.draft());
        if (!this.pending) this.showStatus('', false);
      });
    }
    this.button.addEventListener('click', () => this.submit());
    this.element.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.submit();
      }
    });
    this.element.addEventListener('submit', (e) => e.preventDefault());
  }

  /** Puts the current language's words on the form (kept across snapshots, so drafts survive). */
  label(S: PanelStrings): void {
    this.S = S;
    this.title.setAttribute('placeholder', S.journalTitlePlaceholder);
    this.title.setAttribute('aria-label', S.journalTitle);
    this.description.setAttribute('placeholder', S.journalDescriptionPlaceholder);
    this.description.setAttribute('aria-label', S.journalDescription);
    this.titleLabel.textContent = S.journalTitle;
    this.descriptionLabel.textContent = S.journalDescription;
    this.button.textContent = S.journalAdd;
    this.element.setAttribute('aria-label', S.journalAdd);
  }

  /** The host's answer to the entry this form sent. */
  private settle(error: string | undefined): void {
    this.pending = false;
    this.button.removeAttribute('disabled');
    if (error) {
      this.showStatus(error, true);
      return;
    }
    this.title.value = '';
    this.description.value = '';
    this.events.onDraft(this.draft());
    this.showStatus(this.S?.journalAdded ?? '', false);
    this.title.focus();
  }

  private draft(): Draft {
    return { title: this.title.value, description: this.description.value };
  }

  private submit(): void {
    if (this.pending) return;
    const { title, description } = this.draft();
    if (!title.trim()) return this.invalid(this.title, this.S?.journalNeedTitle ?? '');
    if (!description.trim()) return this.invalid(this.description, this.S?.journalNeedDescription ?? '');
    this.pending = true;
    this.button.setAttribute('disabled', '');
    this.showStatus(this.S?.journalAdding ?? '', false);
    void this.events.onSubmit(title, description).then((outcome) => this.settle(outcome.error));
  }

  private invalid(field: HTMLElement, message: string): void {
    this.showStatus(message, true);
    field.focus();
  }

  private showStatus(message: string, isError: boolean): void {
    this.status.textContent = message;
    this.status.classList.toggle('error', isError);
  }
}
