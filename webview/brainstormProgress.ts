// What a running brainstorm step shows above its streamed text: the step, the model call waiting
// for a retry (and whose), and round 1's three inquisitors with how each is doing.
import type { BrainstormAngle, BrainstormInquisitorState, BrainstormPanelView } from '../src/shared/protocol';
import { fill, type PanelStringKey, type PanelStrings } from '../src/shared/panelStrings';
import { h, icon } from './dom';

type Running = Extract<BrainstormPanelView, { status: 'running' }>;
type Inquisitor = NonNullable<Running['inquisitors']>[number];

export const ANGLE: Record<BrainstormAngle, { label: PanelStringKey; icon: string }> = {
  ux: { label: 'angleUx', icon: 'person' },
  technical: { label: 'angleTechnical', icon: 'gear' },
  'edge-cases': { label: 'angleEdgeCases', icon: 'warning' },
};

const STEP: Record<Running['step'], PanelStringKey> = {
  inquisitors: 'brainstormInquisitors',
  'follow-up': 'brainstormFollowUp',
  summary: 'brainstormSummarizing',
};

const INQUISITOR: Record<BrainstormInquisitorState, { label: PanelStringKey; icon: string; tone: string }> = {
  running: { label: 'inquisitorRunning', icon: 'loading', tone: 'running' },
  success: { label: 'inquisitorDone', icon: 'pass', tone: 'ok' },
  parse_error: { label: 'inquisitorParseError', icon: 'error', tone: 'failed' },
  timeout: { label: 'inquisitorTimeout', icon: 'watch', tone: 'failed' },
  empty: { label: 'inquisitorEmpty', icon: 'circle-slash', tone: 'warn' },
};

/** The status row, the retry line when a call waits for one, and the inquisitors during round 1. */
export function progress(view: Running, S: PanelStrings): Node[] {
  const nodes: Node[] = [
    h('div', { class: 'thinking', id: 'brainstorm-progress', role: 'status' }, h('vscode-progress-ring', { 'aria-hidden': 'true' }), h('span', {}, S[STEP[view.step]])),
  ];
  const retry = view.retry;
  if (retry) {
    const waiting = fill(S.waitingRetry, retry.attempt, retry.of);
    const who = retry.who === 'coordinator' ? waiting : `${S[ANGLE[retry.who].label]}: ${waiting}`;
    nodes.push(h('div', { class: 'muted retry', id: 'brainstorm-retry', role: 'status' }, icon('sync'), h('span', {}, who)));
  }
  if (view.step === 'inquisitors' && view.inquisitors?.length) nodes.push(inquisitors(view.inquisitors, S));
  return nodes;
}

/** Round 1's inquisitors, each with its state and, when it gave nothing usable, why. */
export function inquisitors(list: Inquisitor[], S: PanelStrings): HTMLElement {
  return h(
    'ul',
    { class: 'plain-list inquisitors', id: 'brainstorm-inquisitors' },
    ...list.map((q) => {
      const state = INQUISITOR[q.state];
      const stateIcon = h('vscode-icon', { name: state.icon, spin: q.state === 'running', 'aria-hidden': 'true' });
      const trouble = q.state !== 'running' && q.state !== 'success';
      return h(
        'li',
        { class: `inquisitor ${state.tone}`, id: `brainstorm-inquisitor-${q.angle}`, title: q.detail },
        icon(ANGLE[q.angle].icon),
        h('span', { class: 'inquisitor-angle' }, S[ANGLE[q.angle].label]),
        h('span', { class: 'inquisitor-state' }, stateIcon, h('span', {}, S[state.label])),
        trouble && q.detail ? h('span', { class: 'inquisitor-detail muted' }, q.detail) : null,
      );
    }),
  );
}
