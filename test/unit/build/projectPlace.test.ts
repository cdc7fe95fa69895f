// Where a new build's project goes: the analyst's folder when it is free; the person asked when it is
// taken or when the analyst reads the brief as a feature on the workspace's code (TARGET: existing);
// the first free name when nobody can be asked. Unit (placeProject) and through the real BuildRunner.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAnalystBrief } from '../../../src/core/build/markers';
import {
  folderProblem,
  placeProject,
  type PlaceAnswer,
  type PlaceQuestion,
} from '../../../src/core/build/projectPlace';
import { ANALYST, buildHarness, happyTurns, PROJECT, say, SUM } from './buildHarness';

const takenOf = (names: string[]) => async (dir: string) => names.includes(dir);

function asker(...answers: PlaceAnswer[]) {
  const questions: PlaceQuestion[] = [];
  return {
    questions,
    ask: async (q: PlaceQuestion) => (questions.push(q), answers.shift() ?? { kind: 'stop' as const }),
  };
}

describe('placeProject', () => {
  it('takes the analyst’s folder when it is free, asking nobody', async () => {
    const a = asker();
    assert.deepEqual(await placeProject('sum-tool', false, { taken: takenOf([]), ask: a.ask }), {
      kind: 'folder',
      dir: 'sum-tool',
    });
    assert.equal(a.questions.length, 0);
  });

  it('without anyone to ask, a taken folder becomes name-2 and TARGET: existing stays a new folder', async () => {
    assert.deepEqual(await placeProject('sum-tool', false, { taken: takenOf(['sum-tool']) }), {
      kind: 'folder',
      dir: 'sum-tool-2',
      note: 'The folder sum-tool exists and is not empty, so the project is sum-tool-2.',
    });
    assert.deepEqual(await placeProject('sum-tool', true, { taken: takenOf([]) }), { kind: 'folder', dir: 'sum-tool' });
  });

  it('asks when the folder is taken, proposing the free name, and takes the name the person gives', async () => {
    const a = asker({ kind: 'folder', name: 'adder' });
    const placed = await placeProject('sum-tool', false, { taken: takenOf(['sum-tool', 'sum-tool-2']), ask: a.ask });
    assert.deepEqual(placed, { kind: 'folder', dir: 'adder', note: "The person named the project's folder adder." });
    assert.equal(a.questions[0]?.taken, 'sum-tool');
    assert.equal(a.questions[0]?.free, 'sum-tool-3');
    assert.equal(a.questions[0]?.existing, false);
    assert.equal(
      await a.questions[0]?.check('sum-tool-2'),
      'sum-tool-2 already exists in the workspace and is not empty: Groundwork never writes into it.',
    );
    assert.match((await a.questions[0]?.check('../etc')) ?? '', /1 to 3 words of a-z/);
    assert.equal(await a.questions[0]?.check('adder'), undefined);
  });

  it('a name that turns out taken or unsafe is never used: the next free one is', async () => {
    const taken = takenOf(['sum-tool', 'adder']);
    assert.deepEqual(
      await placeProject('sum-tool', false, { taken, ask: async () => ({ kind: 'folder', name: 'adder' }) }),
      {
        kind: 'folder',
        dir: 'adder-2',
        note: 'The folder the person named cannot be used, so the project is adder-2.',
      },
    );
    for (const name of ['../outside', '.git', 'a/b', '', 'con']) {
      const placed = await placeProject('sum-tool', false, { taken, ask: async () => ({ kind: 'folder', name }) });
      assert.equal(placed.kind === 'folder' && placed.dir, 'sum-tool-2', name);
    }
  });

  it('asks when the analyst sees a feature on existing code; the workspace or a stop as the person says', async () => {
    const a = asker({ kind: 'workspace' }, { kind: 'stop' });
    assert.equal((await placeProject('invoice-export', true, { taken: takenOf([]), ask: a.ask })).kind, 'workspace');
    assert.equal(a.questions[0]?.existing, true);
    assert.equal(a.questions[0]?.taken, undefined);
    assert.equal((await placeProject('invoice-export', true, { taken: takenOf([]), ask: a.ask })).kind, 'stop');
  });

  it('folderProblem names what is wrong', async () => {
    assert.equal(await folderProblem('  ', takenOf([])), 'Give the folder a name.');
    assert.equal(await folderProblem('price-tracker-2', takenOf([])), undefined);
    assert.match((await folderProblem('Price Tracker', takenOf([]))) ?? '', /a-z and 0-9/);
  });
});

describe('the analyst’s TARGET field', () => {
  it('reads existing (or feature) and new; anything else is left out', () => {
    const target = (value: string) => {
      const parsed = parseAnalystBrief(`PROJECT_NAME: sum-tool\nTARGET: ${value}\nLANGUAGE: JavaScript\n`);
      return parsed.ok ? parsed.brief.target : 'not a brief';
    };
    assert.equal(target('existing'), 'existing');
    assert.equal(target('**Existing** code'), 'existing');
    assert.equal(target('feature'), 'existing');
    assert.equal(target('new'), 'new');
    assert.equal(target('maybe'), undefined);
    const parsed = parseAnalystBrief(ANALYST);
    assert.equal(parsed.ok && parsed.brief.target, undefined);
  });
});

describe('BuildRunner: the person places the project', () => {
  const withTarget = (target: string) => {
    const turns = happyTurns();
    turns.analyst = [say(ANALYST.replace('LANGUAGE:', `TARGET: ${target}\nLANGUAGE:`))];
    return turns;
  };

  it('a taken folder: the name the person gives is the project folder, and the existing folder is left alone', async () => {
    const h = buildHarness(happyTurns(), { files: { [`${PROJECT}/notes.txt`]: 'mine\n' } });
    const a = asker({ kind: 'folder', name: 'adder' });
    h.deps.place = a.ask;
    const build = await h.start();
    assert.equal(build.status, 'completed');
    assert.equal(build.projectDir, 'adder');
    assert.equal(h.file('adder/src/sum.js'), SUM);
    assert.deepEqual(
      h.paths().filter((p) => p.startsWith(`${PROJECT}/`)),
      [`${PROJECT}/notes.txt`],
    );
    assert.equal(a.questions.length, 1);
    assert.match(
      h.file(`.groundwork/builds/${build.id}/build.log`) ?? '',
      /The person named the project's folder adder\./,
    );
  });

  it('TARGET: existing and the person says the workspace: a feature build, the later phases rooted in the workspace', async () => {
    const h = buildHarness(withTarget('existing'));
    const a = asker({ kind: 'workspace' });
    h.deps.place = a.ask;
    const build = await h.start();
    assert.equal(build.status, 'completed');
    assert.equal(build.mode, 'feature');
    assert.equal(build.projectDir, '.');
    assert.equal(h.file('src/sum.js'), SUM);
    assert.match(h.file('specs/brief.md') ?? '', /^TARGET: existing$/m);
    assert.match(h.script.tasksOf('architect')[0] ?? '', /adds a feature to existing code/);
  });

  it('TARGET: existing and the person says stop: the build stops at the analyst, nothing written outside .groundwork, and Resume asks again', async () => {
    const h = buildHarness({
      ...withTarget('existing'),
      analyst: [say(ANALYST.replace('LANGUAGE:', 'TARGET: existing\nLANGUAGE:')), ...withTarget('existing').analyst!],
    });
    const a = asker({ kind: 'stop' }, { kind: 'folder', name: PROJECT });
    h.deps.place = a.ask;
    const stopped = await h.start();
    assert.equal(stopped.status, 'stopped');
    assert.equal(stopped.phases[0]?.status, 'stopped');
    assert.match(stopped.phases[0]?.attempts[0]?.reason ?? '', /the person stopped the build/);
    assert.deepEqual(
      h.paths().filter((p) => !p.startsWith('.groundwork')),
      ['brief.md'],
    );
    const resumed = await h.runner.resume(stopped.id, new AbortController().signal, h.emit, {
      approve: ['node --test'],
    });
    assert.equal(resumed.status, 'completed', resumed.reason);
    assert.equal(resumed.projectDir, PROJECT);
    assert.equal(a.questions.length, 2);
  });

  it('TARGET: new with a free folder asks nobody', async () => {
    const h = buildHarness(withTarget('new'));
    const a = asker();
    h.deps.place = a.ask;
    assert.equal((await h.start()).projectDir, PROJECT);
    assert.equal(a.questions.length, 0);
  });
});
