// The integrated terminals of a build: each try of each phase prints in a terminal of its own
// ("qa (try 2) · Groundwork build"), the same pieces the CLI prints (core/build/buildLines.ts). When
// the next try begins the previous terminal stays with its text until a key is pressed in it.
// Closing the current one (or Ctrl+C in it) stops the build.
import * as vscode from 'vscode';
import type { RunPiece } from '../../core/run/runLines';
import { AgentTerminal } from '../agentRuntime/agentTerminal';

export class BuildTerminals {
  private current: AgentTerminal | undefined;

  /** `stop` aborts the build. */
  constructor(private readonly stop: () => void) {}

  /** The terminal of a new try; the previous one ends. */
  next(phase: string, attempt: number): void {
    this.endCurrent();
    // The phase first: the terminals' list is narrow, and every name ends alike.
    const name =
      attempt === 1
        ? vscode.l10n.t('{0} · Groundwork build', phase)
        : vscode.l10n.t('{0} (try {1}) · Groundwork build', phase, attempt);
    this.current = new AgentTerminal(name, this.stop, 'tools');
    // The terminal panel shows the phase; the focus stays where the person is.
    this.current.show(true);
  }

  print(pieces: readonly RunPiece[]): void {
    this.current?.print(pieces);
  }

  /** The current try's terminal, focused (the panel's Show Terminal). False when there is none. */
  show(): boolean {
    if (!this.current) return false;
    this.current.show(false);
    return true;
  }

  /** The build is over: its last lines in the current terminal, which then waits for a key. */
  end(pieces: readonly RunPiece[]): void {
    this.current?.print(pieces);
    this.endCurrent();
  }

  private endCurrent(): void {
    this.current?.end(vscode.l10n.t('Press any key to close this terminal.'));
    this.current = undefined;
  }
}
