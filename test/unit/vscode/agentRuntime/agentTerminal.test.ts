// The integrated terminal an agent run prints in (agentTerminal.ts), under Node with a fake
// `vscode`: what a person reads there — the model's text as it streams, each line of the run on a
// line of its own (never glued to the end of streamed text), CRLF line ends so nothing staircases,
// each style's colour switched off again — and what the keyboard does: Ctrl+C stops the run, and
// once it has ended any key closes the terminal.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunPrinter } from '../../../../src/core/run/runLines';
import type { RunPiece } from '../../../../src/core/run/runLines';
import { sampleRun } from '../../run/runFixtures';
import { installFakeVscode } from '../fakeVscode';

installFakeVscode();
const { AgentTerminal, pieceText } =
  require('../../../../src/vscode/agentRuntime/agentTerminal') as typeof import('../../../../src/vscode/agentRuntime/agentTerminal');

const ESC = '\u001b';
/** The text a terminal shows once it has drawn `raw`: SGR colours removed, CRLF as a line break. */
function screen(raw: string): string {
  return raw.replace(/\u001b\[\d+m/g, '').replace(/\r\n/g, '\n');
}

describe('pieceText', () => {
  test('streamed text keeps going on its line, with CRLF line ends', () => {
    assert.deepEqual(pieceText({ kind: 'stream', text: 'Let me ' }, false), { text: 'Let me ', midLine: true });
    assert.deepEqual(pieceText({ kind: 'stream', text: 'look.\nThen write' }, true), {
      text: 'look.\r\nThen write',
      midLine: true,
    });
    assert.deepEqual(pieceText({ kind: 'stream', text: 'done.\n' }, true), { text: 'done.\r\n', midLine: false });
  });

  test('CRLF already in the text is not doubled (no blank line between output lines)', () => {
    assert.equal(pieceText({ kind: 'stream', text: 'a\r\nb\r\n' }, false).text, 'a\r\nb\r\n');
    assert.equal(pieceText({ kind: 'line', text: 'x\r\ny', style: 'plain' }, false).text, 'x\r\ny\r\n');
  });

  test('an empty stream piece writes nothing and leaves the cursor where it was', () => {
    assert.deepEqual(pieceText({ kind: 'stream', text: '' }, true), { text: '', midLine: true });
    assert.deepEqual(pieceText({ kind: 'stream', text: '' }, false), { text: '', midLine: false });
  });

  test('a line starts on a fresh line when streamed text left the cursor mid-line, and ends its own', () => {
    assert.equal(
      pieceText({ kind: 'line', text: '▶ node --test', style: 'plain' }, true).text,
      '\r\n▶ node --test\r\n',
    );
    assert.equal(pieceText({ kind: 'line', text: '▶ node --test', style: 'plain' }, false).text, '▶ node --test\r\n');
    assert.equal(pieceText({ kind: 'line', text: 'x', style: 'plain' }, true).midLine, false);
  });

  test('each style has its colour (one of the 16 the theme draws) and switches it off before the line break', () => {
    const styled = (style: 'plain' | 'dim' | 'ok' | 'error' | 'accent' | 'warning') =>
      pieceText({ kind: 'line', text: 'T', style }, false).text;
    assert.equal(styled('plain'), 'T\r\n');
    assert.equal(styled('ok'), `${ESC}[32mT${ESC}[39m\r\n`);
    assert.equal(styled('error'), `${ESC}[31mT${ESC}[39m\r\n`);
    assert.equal(styled('warning'), `${ESC}[33mT${ESC}[39m\r\n`);
    assert.equal(styled('accent'), `${ESC}[36mT${ESC}[39m\r\n`);
    assert.equal(styled('dim'), `${ESC}[2mT${ESC}[22m\r\n`);
  });

  test('a run reads as the person expects: text, then one line per action, then the end', () => {
    const printer = new RunPrinter();
    const run = sampleRun({ role: 'build-developer', task: 'Write sum()', status: 'running', turns: 0 });
    let midLine = false;
    let out = '';
    const write = (pieces: RunPiece[]) => {
      for (const p of pieces) {
        const r = pieceText(p, midLine);
        midLine = r.midLine;
        out += r.text;
      }
    };
    write(printer.print({ type: 'started', run, resumed: false }));
    write(printer.print({ type: 'text', text: 'Let me ' }));
    write(printer.print({ type: 'text', text: 'write it.' }));
    write(printer.print({ type: 'wrote', path: 'src/sum.js', lines: 4, created: true, edit: false }));
    write(printer.print({ type: 'command', command: 'node --test' }));
    write(printer.print({ type: 'output', chunk: 'ok 1 - sum\r\n# pass 1' }));
    write(
      printer.print({
        type: 'exit',
        command: 'node --test',
        exitCode: 0,
        timedOut: false,
        cancelled: false,
        durationMs: 1200,
      }),
    );
    write(printer.print({ type: 'ended', run: { ...run, status: 'completed', turns: 3 } }));
    assert.equal(
      screen(out),
      [
        '▸ build-developer: Write sum()',
        `  run ${run.id} in the workspace folder`,
        'Let me write it.',
        '✎ wrote src/sum.js (4 lines, new)',
        '▶ node --test',
        'ok 1 - sum',
        '# pass 1',
        '✓ exit 0 in 1.2 s',
        '■ Completed: 3 turns · 35 tokens · $0.0123',
        `  run ${run.id}`,
        '',
      ].join('\n'),
    );
    assert.doesNotMatch(out, /(^|[^\r])\n/, 'every line break is CRLF');
  });
});

describe('AgentTerminal', () => {
  function terminal() {
    let stops = 0;
    const t = new AgentTerminal('Groundwork: dev — task', () => stops++);
    const written: string[] = [];
    let closed = 0;
    t.onDidWrite((s) => written.push(s));
    t.onDidClose(() => closed++);
    return { t, written, stops: () => stops, closed: () => closed, text: () => screen(written.join('')) };
  }

  test('what the run printed before VS Code opened the terminal is shown when it opens, in order', () => {
    const { t, written, text } = terminal();
    t.print([{ kind: 'line', text: 'first', style: 'accent' }]);
    t.print([{ kind: 'stream', text: 'streamed' }]);
    assert.deepEqual(written, [], 'nothing is written to a terminal that is not open yet');
    t.open();
    t.print([{ kind: 'line', text: 'after', style: 'plain' }]);
    assert.equal(text(), 'first\nstreamed\nafter\n');
  });

  test('Ctrl+C stops the run and shows ^C on a line of its own; other keys do nothing while it runs', () => {
    const { t, stops, closed, text } = terminal();
    t.open();
    t.print([{ kind: 'stream', text: 'thinking' }]);
    t.handleInput('q');
    t.handleInput('\r');
    assert.equal(stops(), 0);
    t.handleInput('\u0003');
    assert.equal(stops(), 1);
    assert.equal(closed(), 0, 'the terminal stays to show how the run ended');
    assert.equal(text(), 'thinking\n^C\n');
  });

  test('closing the terminal while the run goes stops it; closing it after the end does not', () => {
    const running = terminal();
    running.t.open();
    running.t.close();
    assert.equal(running.stops(), 1);
    const ended = terminal();
    ended.t.open();
    ended.t.end('Press any key to close this terminal.');
    ended.t.close();
    assert.equal(ended.stops(), 0);
    // what the stopped run still prints goes nowhere, and breaks nothing
    const before = running.text();
    running.t.print([{ kind: 'line', text: '■ Stopped: 1 turn', style: 'warning' }]);
    running.t.end('Press any key to close this terminal.');
    assert.equal(running.text(), before);
    assert.equal(running.stops(), 1);
  });

  test('once the run has ended the terminal says how to close it, and any key closes it', () => {
    const { t, stops, closed, text } = terminal();
    t.open();
    t.print([{ kind: 'stream', text: 'All done' }]);
    t.end('Press any key to close this terminal.');
    assert.equal(text(), 'All done\n\nPress any key to close this terminal.\n');
    t.handleInput('\u0003');
    assert.equal(stops(), 0, 'Ctrl+C after the end stops nothing');
    assert.equal(closed(), 1);
    t.handleInput('x');
    assert.equal(closed(), 1, 'closed once');
    t.end('again');
    assert.doesNotMatch(text(), /again/, 'the end is said once');
  });
});
