// The build's slice of the panel protocol: the current (or last) build with each phase's status,
// duration, tokens and cost, the tail of the current phase's output (streamed as `append` messages
// on `build:<id>:<phase>:<try>`), and the buttons' commands, validated here before the host acts.
import { rejected, type InboundSet, type Parsed, type StreamId } from './common';

export type BuildPhaseStatus = 'pending' | 'running' | 'passed' | 'failed' | 'stopped';
export type BuildShownStatus = 'running' | 'completed' | 'failed' | 'stopped' | 'interrupted';

export interface BuildPhaseView {
  name: string;
  role: string;
  status: BuildPhaseStatus;
  /** Tries so far. */
  attempts: number;
  /** "1.2 s · 3.4k tokens · $0.0123" for a phase that ran; empty before. */
  figures: string;
  /** Why its last try failed or stopped (model and command text: shown as text only). */
  reason?: string;
}

/** What the panel's buttons ask of the host; only those in the slice's `actions` are shown. */
export const BUILD_COMMANDS = ['stop', 'show-terminal', 'resume', 'open-report', 'open-folder', 'close'] as const;
export type BuildCommand = (typeof BUILD_COMMANDS)[number];

export type BuildPanelView =
  | { status: 'none' }
  | {
      status: BuildShownStatus;
      id: string;
      /** What it is built from: "the brief .groundwork/plans/x/idea-brief.md", "the brainstorm x". */
      source: string;
      /** The project folder, relative to the workspace, once the analyst named it. */
      project?: string;
      phases: BuildPhaseView[];
      /** "12.3k tokens · $0.0420". */
      totals: string;
      /** Why it failed or stopped: which phase, what failed, what finished, where the results are. */
      reason?: string;
      /** The attempt under way in this window: its stream and the tail of its output. */
      current?: { phase: string; attempt: number; stream: StreamId; streamed: string; from: number };
      actions: BuildCommand[];
    };

/** The output of one try of one phase: `build:<id>:<phase>:<try>`. */
export function buildStream(id: string, phase: string, attempt: number): StreamId {
  return `build:${id}:${phase}:${attempt}`;
}

export type BuildMessage = { type: 'build.command'; command: BuildCommand };

function parse(value: Record<string, unknown>): Parsed<BuildMessage> {
  const command = value.command;
  if (typeof command !== 'string' || !(BUILD_COMMANDS as readonly string[]).includes(command)) {
    return rejected(value.type, `unknown command ${JSON.stringify(String(command)).slice(0, 64)}`);
  }
  return { ok: true, message: { type: 'build.command', command: command as BuildCommand } };
}

export const BUILD_INBOUND: InboundSet<BuildMessage> = { feature: 'build', types: ['build.command'], parse };
