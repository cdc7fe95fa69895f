// The lines a run prints (the terminal's and the CLI's): what a person reads between tool lines.
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunPrinter } from '../../../src/core/run/runLines';
import type { RunPiece } from '../../../src/core/run/runLines';

/** The pieces as a terminal shows them: a line on a line of its own. */
function screen(pieces: RunPiece[]): string {
  let out = '';
  for (const piece of pieces) {
    if (piece.kind === 'stream') out += piece.text;
    else out += `${out === '' || out.endsWith('\n') ? '' : '\n'}${piece.text}\n`;
  }
  return out;
}

describe('RunPrinter', () => {
  test("a later turn's text follows a tool's line without a blank line", () => {
    const printer = new RunPrinter();
    const pieces = [
      ...printer.print({ type: 'text', text: 'Let me write it.' }),
      ...printer.print({ type: 'wrote', path: 'src/sum.js', lines: 4, created: true, edit: false }),
      // callAgent begins the next turn's text with a line break of its own.
      ...printer.print({ type: 'text', text: '\n' }),
      ...printer.print({ type: 'text', text: 'Now the tests.' }),
    ];
    assert.equal(screen(pieces), 'Let me write it.\n✎ wrote src/sum.js (4 lines, new)\nNow the tests.');
  });

  test("the model's own line breaks inside a turn are kept", () => {
    const printer = new RunPrinter();
    const pieces = [
      ...printer.print({ type: 'text', text: 'One.\n' }),
      ...printer.print({ type: 'text', text: '\nTwo.' }),
    ];
    assert.equal(screen(pieces), 'One.\n\nTwo.');
  });
});
