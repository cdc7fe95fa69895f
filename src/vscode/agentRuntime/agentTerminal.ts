// The integrated terminal an agent run prints in: a Pseudoterminal fed with the pieces of
// core/run/runLines.ts (the same lines the CLI prints on stderr), coloured with the 16 ANSI colours,
// which the terminal draws in the theme's colours. Ctrl+C in it or closing it stops the run; once
// the run has ended it stays open with its last line and closes on any key.
import * as vscode from 'vscode';
import { ANSI_STYLES } from '../../core/run/runLines';
import type { LineStyle, RunPiece } from '../../core/run/runLines';
import { Disposable, Emitter } from '../base/lifecycle';

/** What one piece writes to the terminal: CRLF line ends, a line piece on a fresh line, its style's colour. */
export function pieceText(piece: RunPiece, midLine: boolean): { text: string; midLine: boolean } {
  if (piece.kind === 'stream') {
    if (piece.text === '') return { text: '', midLine };
    return { text: crlf(piece.text), midLine: !piece.text.endsWith('\n') };
  }
  const [on, off] = ANSI_STYLES[piece.style];
  return { text: `${midLine ? '\r\n' : ''}${on}${crlf(piece.text)}${off}\r\n`, midLine: false };
}

function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

export class AgentTerminal extends Disposable implements vscode.Pseudoterminal {
  private readonly written = this._register(new Emitter<string>());
  private readonly closed = this._register(new Emitter<void>());
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  /** Text written before VS Code opened the terminal: written when it does. */
  private pending: string[] | undefined = [];
  private midLine = false;
  private ended = false;
  private terminal: vscode.Terminal | undefined;

  /** `stop` is called when the person presses Ctrl+C in the terminal or closes it while the run goes; `icon` is a codicon's id. */
  constructor(
    private readonly name: string,
    private readonly stop: () => void,
    private readonly icon = 'robot',
  ) {
    super();
  }

  /** Creates the terminal and shows it (focus stays where it is when `preserveFocus`). */
  show(preserveFocus = false): vscode.Terminal {
    // Not disposed with this object: the terminal stays open after the run until the person closes it.
    this.terminal ??= vscode.window.createTerminal({
      name: this.name,
      pty: this,
      iconPath: new vscode.ThemeIcon(this.icon),
      isTransient: true,
    });
    this.terminal.show(preserveFocus);
    return this.terminal;
  }

  open(): void {
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const text of pending) this.written.fire(text);
  }

  /** The person closed the terminal: a run still going is stopped; nothing is written any more. */
  close(): void {
    if (!this.ended) this.stop();
    this.ended = true;
    this.dispose();
  }

  handleInput(data: string): void {
    if (this.ended) {
      this.closed.fire();
      this.dispose();
      return;
    }
    if (data.includes('\u0003')) {
      this.write(`${this.midLine ? '\r\n' : ''}\u001b[2m^C\u001b[22m\r\n`);
      this.midLine = false;
      this.stop();
    }
  }

  print(pieces: readonly RunPiece[]): void {
    for (const piece of pieces) {
      const out = pieceText(piece, this.midLine);
      this.midLine = out.midLine;
      this.write(out.text);
    }
  }

  /** A line of the front end's own (a refusal, a failure before the run began). */
  line(text: string, style: LineStyle): void {
    this.print([{ kind: 'line', text, style }]);
  }

  /** The run is over: the terminal stays until a key is pressed in it. */
  end(hint: string): void {
    if (this.ended) return;
    this.ended = true;
    this.print([
      { kind: 'line', text: '', style: 'plain' },
      { kind: 'line', text: hint, style: 'dim' },
    ]);
  }

  private write(text: string): void {
    if (text === '') return;
    if (this.pending) this.pending.push(text);
    else this.written.fire(text);
  }
}
