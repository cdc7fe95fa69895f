// What a running brainstorm step shows above its streamed text: the step, the model call waiting
// for a retry (and whose), the coordinator's tool calls, and round 1's three inquisitors with how
// each is doing and its own tool calls.
import { fill, type PanelStringKey, type PanelStrings } from '../../../src/shared/panelStrings';
import type {
  BrainstormAngle,
  BrainstormPanelView,
  BrainstormProblem,
  InquisitorState,
  InquisitorView,
} from '../../../src/shared/protocol/brainstorm';
import { h, icon } from '../../dom';
import { toolList } from '../panel/toolLines';

type Running = Extract<BrainstormPanelView, { status: 'running' }>;

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

const INQUISITOR: Record<InquisitorState, { label: PanelStringKey; icon: string; tone: string }> = {
  running: { label: 'inquisitorRunning', icon: 'loading', tone: 'running' },
  success: { label: 'inquisitorDone', icon: 'pass', tone: 'ok' },
  parse_error: { label: 'inquisitorParseError', icon: 'error', tone: 'failed' },
  timeout: { label: 'inquisitorTimeout', icon: 'watch', tone: 'failed' },
  empty: { label: 'inquisitorEmpty', icon: 'circle-slash', tone: 'warn' },
};

/** Where a running step's tool calls are listed, by agent, for the lines that arrive later. */
export type ToolLists = Map<string, HTMLElement>;

/** The status row, the retry line when a call waits for one, the coordinator's tool calls, and the inquisitors during round 1. */
export function progress(view: Running, S: PanelStrings, lists: ToolLists): Node[] {
  const nodes: Node[] = [
    h(
      'div',
      { class: 'thinking', id: 'brainstorm-progress', role: 'status' },
      h('vscode-progress-ring', { 'aria-hidden': 'true' }),
      h('span', {}, S[STEP[view.step]]),
    ),
  ];
  const retry = view.retry;
  if (retry) {
    const waiting = fill(S.waitingRetry, retry.attempt, retry.of);
    const who = retry.who === 'coordinator' ? waiting : `${S[ANGLE[retry.who].label]}: ${waiting}`;
    nodes.push(
      h('div', { class: 'muted retry', id: 'brainstorm-retry', role: 'status' }, icon('sync'), h('span', {}, who)),
    );
  }
  if (view.step === 'inquisitors' && view.inquisitors?.length) nodes.push(inquisitors(view.inquisitors, S, lists));
  const coordinator = toolList(S, view.tools, 'brainstorm-tools');
  lists.set('coordinator', coordinator);
  nodes.push(coordinator);
  return nodes;
}

/** Round 1's inquisitors, each with its state, its tool calls while it runs, and, when it gave nothing usable, why. */
export function inquisitors(list: InquisitorView[], S: PanelStrings, lists?: ToolLists): HTMLElement {
  return h(
    'ul',
    { class: 'plain-list inquisitors', id: 'brainstorm-inquisitors' },
    ...list.map((q) => {
      const state = INQUISITOR[q.state];
      const stateIcon = h('vscode-icon', { name: state.icon, spin: q.state === 'running', 'aria-hidden': 'true' });
      const trouble = q.state !== 'running' && q.state !== 'success';
      let tools: HTMLElement | null = null;
      if (lists) {
        tools = toolList(S, q.tools, `brainstorm-tools-${q.angle}`, 'inquisitor-tools');
        lists.set(q.angle, tools);
      }
      return h(
        'li',
        { class: `inquisitor ${state.tone}`, id: `brainstorm-inquisitor-${q.angle}`, title: q.detail },
        icon(ANGLE[q.angle].icon),
        h('span', { class: 'inquisitor-angle' }, S[ANGLE[q.angle].label]),
        h('span', { class: 'inquisitor-state' }, stateIcon, h('span', {}, S[state.label])),
        trouble && q.detail ? h('span', { class: 'inquisitor-detail muted' }, q.detail) : null,
        tools,
      );
    }),
  );
}

/** Why a step ended without its result, in the person's language. */
export function problemText(S: PanelStrings, problem: BrainstormProblem): string {
  switch (problem.kind) {
    case 'error':
      return problem.text;
    case 'unexpected':
      return fill(S.somethingWentWrong, problem.text);
    case 'stopped':
      return S.brainstormStopped;
    case 'interrupted':
      return S.brainstormInterrupted;
    case 'unfinished':
      return S.brainstormUnfinished;
  }
}
