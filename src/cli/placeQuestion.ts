// `groundwork build` on a terminal: where the project goes when the analyst's folder is taken or the
// analyst reads the brief as a feature on the workspace's existing code (core/build/projectPlace.ts).
// Asked on stderr, answered on stdin; a name is checked and asked again (three times at most); an
// answer that cannot be read (stdin closed, Ctrl-C) keeps Groundwork's proposal, a new folder.
import type { PlaceAnswer, PlaceQuestion } from '../core/build/projectPlace';
import { visibleText } from '../core/visibleText';
import type { CommandContext } from './cliTypes';
import { LineReader } from './lineReader';

const NAME_TRIES = 3;

export function ttyPlacer(ctx: CommandContext, signal: AbortSignal): (question: PlaceQuestion) => Promise<PlaceAnswer> {
  const { io, deps } = ctx;
  return async (q) => {
    const lines = new LineReader(deps.terminal.stdin());
    const ask = async (text: string) => {
      io.stderr(text);
      const line = await lines.next(signal);
      if (typeof line !== 'string') throw new Error('no answer');
      return line.trim();
    };
    try {
      const name = visibleText(q.projectName);
      if (q.existing) {
        const where = await ask(
          `\nThe analyst reads this brief as a feature on the existing code of the workspace (TARGET: existing).\nBuild it in the workspace itself, changing its files? [w] workspace, [n] a new folder ${visibleText(q.free)}/, [s] stop: `,
        );
        const word = where.toLowerCase();
        if (word === 'w' || word === 'workspace') return { kind: 'workspace' };
        if (word === 's' || word === 'stop') return { kind: 'stop' };
        if (q.taken === undefined) return { kind: 'folder', name: q.free };
      }
      for (let i = 0; i < NAME_TRIES; i++) {
        const typed = await ask(
          `\nThe folder ${name} exists and is not empty; Groundwork never writes into it.\nFolder for the project [${visibleText(q.free)}]: `,
        );
        if (typed === '') return { kind: 'folder', name: q.free };
        const problem = await q.check(typed);
        if (problem === undefined) return { kind: 'folder', name: typed };
        io.stderr(`groundwork: ${visibleText(problem)}\n`);
      }
      return { kind: 'folder', name: q.free };
    } catch {
      return { kind: 'folder', name: q.free };
    } finally {
      lines.close();
    }
  };
}
