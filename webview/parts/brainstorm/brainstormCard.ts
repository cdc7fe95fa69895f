// The brainstorm's result card: the summary and its two files, Build This, Close.
import { fill, type PanelStrings } from '../../../src/shared/panelStrings';
import type { BrainstormPanelView } from '../../../src/shared/protocol/brainstorm';
import type { WebviewMessage } from '../../../src/shared/protocol/panel';
import { h, icon } from '../../dom';
import { actionButton } from '../panel/controls';

type Complete = Extract<BrainstormPanelView, { status: 'complete' }>;

export function completeCard(view: Complete, S: PanelStrings, post: (message: WebviewMessage) => void): HTMLElement {
  const list = (id: string, heading: string, items: string[]) =>
    h(
      'div',
      { class: 'bs-list', id },
      h('h4', {}, heading),
      items.length ? h('ul', {}, ...items.map((t) => h('li', {}, t))) : h('p', { class: 'muted' }, S.none),
    );
  return h(
    'div',
    { class: 'bs-card', id: 'brainstorm-complete' },
    h(
      'div',
      { class: 'bs-card-title check ok', role: 'status' },
      icon('pass'),
      h('strong', {}, view.rounds === 1 ? S.brainstormCompleteOne : fill(S.brainstormComplete, view.rounds)),
    ),
    h('h3', { class: 'bs-topic', id: 'brainstorm-topic' }, icon('lightbulb'), h('span', {}, view.topic)),
    ...(view.summaryText !== undefined
      ? [
          h('p', { class: 'muted', id: 'brainstorm-summary-note' }, S.summaryAsText),
          h('p', { class: 'bs-summary-text', id: 'brainstorm-summary-text' }, view.summaryText),
        ]
      : [
          list('brainstorm-insights', S.keyInsights, view.keyInsights),
          list('brainstorm-decisions', S.decisions, view.decisions),
          list('brainstorm-open-questions', S.openQuestions, view.openQuestions),
        ]),
    h(
      'div',
      { class: 'actions' },
      actionButton(S.openDocument, 'go-to-file', () => post({ type: 'brainstorm.open', file: 'document' }), {
        id: 'brainstorm-open-doc',
        title: view.documentPath,
      }),
      actionButton(S.openContextFile, 'file-code', () => post({ type: 'brainstorm.open', file: 'context' }), {
        secondary: true,
        id: 'brainstorm-open-context',
        title: view.contextPath,
      }),
      view.actions.includes('build')
        ? actionButton(S.buildThis, 'tools', () => post({ type: 'brainstorm.build' }), {
            secondary: true,
            id: 'brainstorm-build',
            title: S.buildThisTitle,
          })
        : null,
      actionButton(S.close, 'close', () => post({ type: 'brainstorm.close' }), {
        secondary: true,
        id: 'brainstorm-close',
        once: true,
      }),
    ),
  );
}
