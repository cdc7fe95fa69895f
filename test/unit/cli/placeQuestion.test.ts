// `groundwork build` on a terminal, asked where the project goes: what the person reads on stderr,
// and what each answer (typed on stdin) becomes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandContext } from '../../../src/cli/cliTypes';
import { ttyPlacer } from '../../../src/cli/placeQuestion';
import type { PlaceQuestion } from '../../../src/core/build/projectPlace';
import { terminal } from './cliHarness';

function asked(stdin: string, question: Partial<PlaceQuestion> = {}) {
  let stderr = '';
  const ctx = {
    io: { stderr: (s: string) => void (stderr += s) },
    deps: { terminal: terminal({ stdin, stdinIsTTY: true }) },
  } as unknown as CommandContext;
  const place = ttyPlacer(ctx, new AbortController().signal);
  const q: PlaceQuestion = {
    projectName: 'sum-tool',
    taken: 'sum-tool',
    free: 'sum-tool-2',
    existing: false,
    check: async (name) =>
      name === 'taken-one'
        ? 'taken-one already exists in the workspace and is not empty: Groundwork never writes into it.'
        : /^[a-z-]+$/.test(name)
          ? undefined
          : 'not a folder name',
    ...question,
  };
  return { answer: place(q), stderr: () => stderr };
}

describe('the CLI asks where the project goes', () => {
  it('a taken folder: Enter keeps the proposal, a name is taken, a bad or taken one is asked again', async () => {
    assert.deepEqual(await asked('\n').answer, { kind: 'folder', name: 'sum-tool-2' });
    assert.deepEqual(await asked('adder\n').answer, { kind: 'folder', name: 'adder' });
    const again = asked('taken-one\nBad Name!\nadder\n');
    assert.deepEqual(await again.answer, { kind: 'folder', name: 'adder' });
    assert.match(
      again.stderr(),
      /The folder sum-tool exists and is not empty; Groundwork never writes into it\.\nFolder for the project \[sum-tool-2\]: /,
    );
    assert.match(again.stderr(), /groundwork: taken-one already exists/);
    assert.match(again.stderr(), /groundwork: not a folder name/);
  });

  it('three bad names, or stdin closed, keep the proposal', async () => {
    assert.deepEqual(await asked('taken-one\ntaken-one\ntaken-one\nadder\n').answer, {
      kind: 'folder',
      name: 'sum-tool-2',
    });
    assert.deepEqual(await asked('').answer, { kind: 'folder', name: 'sum-tool-2' });
  });

  it('TARGET: existing: w builds in the workspace, s stops, anything else is a new folder', async () => {
    const existing = { existing: true, taken: undefined, free: 'sum-tool' } as Partial<PlaceQuestion>;
    const w = asked('w\n', existing);
    assert.deepEqual(await w.answer, { kind: 'workspace' });
    assert.match(
      w.stderr(),
      /feature on the existing code of the workspace \(TARGET: existing\)[\s\S]*\[w\] workspace, \[n\] a new folder sum-tool\/, \[s\] stop: $/,
    );
    assert.deepEqual(await asked('stop\n', existing).answer, { kind: 'stop' });
    assert.deepEqual(await asked('n\n', existing).answer, { kind: 'folder', name: 'sum-tool' });
    assert.deepEqual(await asked('\n', existing).answer, { kind: 'folder', name: 'sum-tool' });
  });

  it('TARGET: existing with the folder taken: a new folder goes on to ask its name', async () => {
    assert.deepEqual(await asked('n\nadder\n', { existing: true }).answer, { kind: 'folder', name: 'adder' });
  });
});
