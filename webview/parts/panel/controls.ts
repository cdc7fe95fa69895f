// The controls every part of the panel draws with: sections, buttons, notices, Restricted Mode's
// notes. Pure functions to DOM; event handlers are passed in, nothing here talks to the host, and
// every string comes from the host's translated table.
import type { PanelStrings } from '../../../src/shared/panelStrings';
import type { DismissibleNotice, Notice } from '../../../src/shared/protocol/panel';
import { h, icon } from '../../dom';

/** A section with its heading, labelled by it. */
export function sectionOf(id: string, heading: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { id, 'aria-labelledby': `${id}-heading` }, h('h2', { id: `${id}-heading` }, heading), ...body);
}

export function button(label: string, iconName: string, onClick: () => void, secondary = false): HTMLElement {
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
export function renderDismissible(
  S: PanelStrings,
  notices: DismissibleNotice[],
  onDismiss: (id: string) => void,
): HTMLElement | null {
  if (notices.length === 0) return null;
  return h(
    'div',
    { id: 'notices' },
    ...notices.map((n) => {
      const close = h('vscode-icon', {
        name: 'close',
        'action-icon': true,
        label: S.dismiss,
        title: S.dismiss,
        class: 'notice-dismiss',
      });
      close.addEventListener('click', () => onDismiss(n.id));
      return h(
        'div',
        { class: 'notice info', role: 'status', id: n.id },
        icon('info'),
        h('span', { class: 'notice-text' }, n.text),
        close,
      );
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
  return h(
    'div',
    { class: 'restricted-note', role: 'note', id },
    icon('shield'),
    h('div', {}, h('span', {}, text), action),
  );
}

/** A button shown but not usable, with why as the tooltip of a wrapper (a disabled one takes no pointer events). */
export function disabledButton(
  label: string,
  iconName: string,
  why: string,
  opts: { secondary?: boolean; id?: string } = {},
): HTMLElement {
  return h(
    'span',
    { class: 'disabled-reason', title: why },
    h('vscode-button', { icon: iconName, secondary: opts.secondary, id: opts.id, disabled: true }, label),
  );
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
  return h(
    'div',
    { class: 'empty', id: 'no-workspace' },
    h('p', {}, S.noWorkspace),
    button(S.openFolder, 'folder-opened', onOpenFolder),
  );
}

/** The element a feature's part of the panel draws into. */
export function part(feature: string): HTMLElement {
  return h('div', { class: 'part', 'data-part': feature });
}

/**
 * A codicon button. `once` disables it after a click until the next snapshot redraws it, so a
 * double click posts once. A disabled button takes no pointer events, so the reason it is
 * disabled is the tooltip of a wrapper around it.
 */
export function actionButton(
  label: string,
  iconName: string,
  onClick: () => void,
  opts: { secondary?: boolean; id?: string; title?: string; once?: boolean; disabledBecause?: string } = {},
): HTMLElement {
  const el = h(
    'vscode-button',
    {
      icon: iconName,
      secondary: opts.secondary,
      id: opts.id,
      title: opts.title,
      disabled: opts.disabledBecause !== undefined,
    },
    label,
  );
  el.addEventListener('click', () => {
    if (el.hasAttribute('disabled')) return;
    if (opts.once) el.setAttribute('disabled', '');
    onClick();
  });
  if (opts.disabledBecause === undefined) return el;
  return h('span', { class: 'disabled-reason', title: opts.disabledBecause }, el);
}
