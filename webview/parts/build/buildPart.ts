// The build's part of the panel: the current (or last) build, each phase with its status, duration,
// tokens and cost, the tail of the current phase's output as it streams (the same text as its
// terminal), and Stop / Show Terminal while it runs, Resume / Open Report / Open Folder once it
// ended. Every text here comes from a model, a command or a build folder: it goes in as text only.
import { fill, type PanelStringKey, type PanelStrings } from '../../../src/shared/panelStrings';
import type {
  BuildCommand,
  BuildPanelView,
  BuildPhaseStatus,
  BuildShownStatus,
} from '../../../src/shared/protocol/build';
import type { StreamId } from '../../../src/shared/protocol/common';
import { h, icon } from '../../dom';
import type { PanelContext, PanelPart } from '../../part';
import { actionButton, restrictedNote } from '../panel/controls';

type Shown = Exclude<BuildPanelView, { status: 'none' }>;

/** The most of a phase's output the panel keeps on screen; the terminal has all of it. */
export const BUILD_STREAM_CHARS = 6000;

const PHASE: Record<BuildPhaseStatus, { icon: string; label: PanelStringKey }> = {
  pending: { icon: 'circle-large-outline', label: 'buildPhasePending' },
  running: { icon: 'loading', label: 'buildPhaseRunning' },
  passed: { icon: 'pass', label: 'buildPhasePassed' },
  failed: { icon: 'error', label: 'buildPhaseFailed' },
  stopped: { icon: 'debug-stop', label: 'buildPhaseStopped' },
};

const STATUS: Record<Exclude<BuildShownStatus, 'running'>, { icon: string; label: PanelStringKey }> = {
  completed: { icon: 'pass', label: 'buildCompleted' },
  failed: { icon: 'error', label: 'buildFailed' },
  stopped: { icon: 'debug-stop', label: 'buildStopped' },
  interrupted: { icon: 'warning', label: 'buildInterrupted' },
};

const BUTTONS: Record<BuildCommand, { label: PanelStringKey; icon: string; secondary: boolean; writes: boolean }> = {
  stop: { label: 'buildStop', icon: 'debug-stop', secondary: false, writes: true },
  'show-terminal': { label: 'buildShowTerminal', icon: 'terminal', secondary: true, writes: false },
  resume: { label: 'buildResume', icon: 'debug-continue', secondary: false, writes: true },
  'open-report': { label: 'buildOpenReport', icon: 'preview', secondary: false, writes: false },
  'open-folder': { label: 'buildOpenFolder', icon: 'folder-opened', secondary: true, writes: false },
  close: { label: 'close', icon: 'close', secondary: true, writes: false },
};

export class BuildPart implements PanelPart {
  readonly feature = 'build';
  readonly element: HTMLElement = h('div', { class: 'part', 'data-part': 'build' });
  private view: BuildPanelView = { status: 'none' };
  private stream: HTMLElement | undefined;
  /** The build last shown running: a new one is scrolled into view once. */
  private revealed: string | undefined;

  /** Output of the attempt on screen; false when it is not this attempt's or some of it is missing. */
  append(stream: StreamId, at: number, text: string): boolean {
    const view = this.view;
    const current = view.status === 'none' ? undefined : view.current;
    if (!current || current.stream !== stream || !this.stream) return false;
    const have = current.from + current.streamed.length;
    if (at > have) return false;
    const fresh = text.slice(have - at);
    if (!fresh) return true;
    let streamed = current.streamed + fresh;
    let from = current.from;
    if (streamed.length > BUILD_STREAM_CHARS) {
      const cut = streamed.length - BUILD_STREAM_CHARS;
      streamed = streamed.slice(cut);
      from += cut;
    }
    this.view = { ...(view as Shown), current: { ...current, streamed, from } };
    const follow = this.stream.scrollTop + this.stream.clientHeight >= this.stream.scrollHeight - 8;
    this.stream.textContent = streamed;
    if (follow) this.stream.scrollTop = this.stream.scrollHeight;
    return true;
  }

  render(ctx: PanelContext): void {
    const view = ctx.slices.build!;
    this.view = view;
    this.stream = undefined;
    if (view.status === 'none') {
      this.element.replaceChildren();
      return;
    }
    const S = ctx.S;
    const section = h(
      'section',
      { id: 'build', 'aria-labelledby': 'build-heading' },
      h('h2', { id: 'build-heading' }, S.buildHeading),
      statusLine(S, view),
      h(
        'p',
        { class: 'muted build-source', id: 'build-source' },
        fill(S.buildFrom, view.source),
        view.project ? h('br') : null,
        view.project ? fill(S.buildProject, view.project) : null,
      ),
      phaseList(S, view),
      view.reason && view.status !== 'running'
        ? h(
            'div',
            { class: 'notice error', role: 'alert', id: 'build-reason' },
            icon('error'),
            h('span', { class: 'notice-text' }, view.reason),
          )
        : null,
    );
    if (view.current) {
      // Not a live region: a screen reader would read every streamed token; the status line says what runs.
      this.stream = h(
        'div',
        {
          class: 'stream build-stream',
          id: 'build-stream',
          'aria-label': fill(S.buildOutput, view.current.phase, view.current.attempt),
        },
        view.current.streamed,
      );
      section.append(
        h('div', { class: 'build-output-label muted' }, fill(S.buildOutput, view.current.phase, view.current.attempt)),
        this.stream,
      );
    }
    section.append(actions(ctx, view));
    if (!ctx.trusted && view.actions.some((a) => BUTTONS[a].writes))
      section.append(restrictedNote(S, S.restrictedBuild, undefined, 'build-restricted'));
    this.element.replaceChildren(section);
    if (this.stream) this.stream.scrollTop = this.stream.scrollHeight;
    if (view.status === 'running' && this.revealed !== view.id) {
      this.revealed = view.id;
      section.scrollIntoView?.({ block: 'start' });
    }
  }
}

function statusLine(S: PanelStrings, view: Shown): HTMLElement {
  if (view.status === 'running') {
    const text = view.current ? fill(S.buildRunning, view.current.phase, view.current.attempt) : S.buildStarting;
    return h(
      'div',
      { class: 'thinking build-status', id: 'build-status', role: 'status' },
      h('vscode-progress-ring', { 'aria-hidden': 'true' }),
      h('span', {}, text),
    );
  }
  const { icon: name, label } = STATUS[view.status];
  return h(
    'div',
    { class: `check build-status ${view.status}`, id: 'build-status', role: 'status' },
    icon(name),
    h('strong', {}, S[label]),
    h('span', { class: 'muted' }, view.totals),
  );
}

function phaseList(S: PanelStrings, view: Shown): HTMLElement {
  return h(
    'ol',
    { class: 'plain-list build-phases', id: 'build-phases' },
    ...view.phases.map((p) => {
      const state = PHASE[p.status];
      const meta = [S[state.label], p.attempts > 1 ? fill(S.buildTries, p.attempts) : '', p.figures]
        .filter(Boolean)
        .join(' · ');
      return h(
        'li',
        { class: `build-phase ${p.status}`, id: `build-phase-${p.name}`, title: p.reason },
        h('vscode-icon', { name: state.icon, spin: p.status === 'running', 'aria-hidden': 'true' }),
        h('span', { class: 'build-phase-name' }, p.name),
        h('span', { class: 'build-phase-meta muted' }, meta),
        p.reason && (p.status === 'failed' || p.status === 'stopped')
          ? h('span', { class: 'build-phase-reason muted' }, p.reason)
          : null,
      );
    }),
  );
}

function actions(ctx: PanelContext, view: Shown): HTMLElement {
  const { S, post } = ctx;
  return h(
    'div',
    { class: 'actions', id: 'build-actions' },
    ...view.actions.map((command) => {
      const b = BUTTONS[command];
      const blocked = b.writes && !ctx.trusted ? S.restrictedBuild : undefined;
      return actionButton(S[b.label], b.icon, () => post({ type: 'build.command', command }), {
        secondary: b.secondary,
        id: `build-${command}`,
        once: command === 'stop' || command === 'resume',
        ...(blocked ? { disabledBecause: blocked } : {}),
      });
    }),
  );
}
