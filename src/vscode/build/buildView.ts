// The build's slice of the agent panel, from a build record and what only this window knows (that
// it runs here, the tail of the current try's output). Pure: no vscode import, unit-tested
// (test/unit/vscode/build/buildView.test.ts). The panel renders every text of it as text only.
import type { BuildRecord } from '../../core/build/buildTypes';
import { PLAN_FILES, planDisplayPath } from '../../core/plan/layout';
import { visibleText } from '../../core/visibleText';
import type { BuildCommand, BuildPanelView } from '../../shared/protocol/build';
import { buildStream } from '../../shared/protocol/build';
import { buildTotalsText, phaseFigures, sourceText, type BuildShownStatus } from './buildRows';

/** What the window knows of the try under way: which it is, and the tail of what it printed. */
export interface BuildLive {
  phase: string;
  attempt: number;
  /** The last BUILD_TAIL_CHARS characters of the try's output. */
  text: string;
  /** How much output came before `text`. */
  from: number;
}

/** The most of a try's output the slice carries (the panel keeps no more on screen). */
export const BUILD_TAIL_CHARS = 6000;
const REASON_CHARS = 1200;

/** `text` appended to `live`, keeping only its last BUILD_TAIL_CHARS characters. */
export function appendTail(live: BuildLive, text: string): BuildLive {
  const all = live.text + text;
  const cut = Math.max(0, all.length - BUILD_TAIL_CHARS);
  return { ...live, text: all.slice(cut), from: live.from + cut };
}

export function buildView(
  build: BuildRecord | undefined,
  status: BuildShownStatus,
  here: boolean,
  live?: BuildLive,
): BuildPanelView {
  if (build === undefined) return { status: 'none' };
  const actions: BuildCommand[] = [];
  if (status === 'running') {
    if (here) actions.push('show-terminal', 'stop');
  } else {
    if (status !== 'completed') actions.push('resume');
    if (status !== 'interrupted') actions.push('open-report');
    if (build.projectDir !== undefined) actions.push('open-folder');
    actions.push('close');
  }
  return {
    status,
    id: build.id,
    source:
      build.source.kind === 'brief'
        ? sourceText(build.source)
        : planDisplayPath(clean(build.source.slug, 64), PLAN_FILES.document),
    ...(build.projectDir !== undefined
      ? { project: build.projectDir === '.' ? '.' : `${clean(build.projectDir, 200)}/` }
      : {}),
    phases: build.phases.map((p) => {
      const reason = p.attempts.at(-1)?.reason;
      return {
        name: clean(p.name, 64),
        role: clean(p.role, 64),
        status: p.status,
        attempts: p.attempts.length,
        figures: phaseFigures(p),
        ...(reason !== undefined && p.status !== 'passed' ? { reason: clean(reason, REASON_CHARS) } : {}),
      };
    }),
    totals: buildTotalsText(build),
    ...(build.reason !== undefined ? { reason: clean(build.reason, REASON_CHARS) } : {}),
    ...(live && status === 'running' && here
      ? {
          current: {
            phase: live.phase,
            attempt: live.attempt,
            stream: buildStream(build.id, live.phase, live.attempt),
            streamed: live.text,
            from: live.from,
          },
        }
      : {}),
    actions,
  };
}

function clean(text: string, max: number): string {
  const chars = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
