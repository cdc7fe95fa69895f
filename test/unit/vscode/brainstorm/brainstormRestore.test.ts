// A window reload, as the brainstorm controller meets it: a controller made anew over the workspace
// another one wrote (the real BrainstormService on both sides, the model scripted) reads back what
// the panel showed, and the person goes on from there. The e2e suite reloads the window for real
// only for the discovery and a build (test/e2e/panelDiscovery.e2e.ts, build.e2e.ts): this is the
// brainstorm's side of it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COORDINATOR_ROLE } from '../../../../src/core/brainstorm/brainstormTypes';
import type { BrainstormApi } from '../../../../src/core/brainstorm/brainstormTypes';
import type { BrainstormPanelView } from '../../../../src/shared/protocol/brainstorm';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import { BrainstormController } from '../../../../src/vscode/brainstorm/brainstormController';
import { inquisitors, json, setup, type Script } from '../../brainstorm/brainstormBench';
import type { MemoryWorkspace } from '../../fakes/memoryWorkspace';

/** Where the panel keeps the brainstorm it shows, as brainstormFeature.ts does. */
const CURRENT = 'panel/brainstorm.json';

/** A window on `ws`: its own service and controller, the panel's brainstorm kept in the workspace. */
function windowOn(ws: MemoryWorkspace | undefined, scripts: Record<string, Script>) {
  const { ws: workspace, llm, service } = setup(scripts, ws ? { ws } : {});
  const controller = new BrainstormController({
    service: async () => service as BrainstormApi,
    current: {
      read: async () => {
        const text = await workspace.store.readText(CURRENT);
        return text === undefined ? undefined : (JSON.parse(text) as { slug: string }).slug;
      },
      write: async (slug) => {
        if (slug) await workspace.store.writeText(CURRENT, `${JSON.stringify({ slug })}\n`);
        else await workspace.store.remove(CURRENT);
      },
    },
    trusted: () => true,
    onTrustGranted: new Emitter<void>().event,
    window: {
      allows: () => true,
      setRunning: () => undefined,
      busy: () => undefined,
      completed: () => undefined,
      couldNotStart: (m) => assert.fail(`could not start: ${m}`),
      reveal: async () => undefined,
      run: async () => undefined,
    },
    log: { warn: () => undefined },
    open: async () => undefined,
    build: async () => undefined,
  });
  return { ws: workspace, llm, controller };
}

const questionsOf = (view: BrainstormPanelView) =>
  view.status === 'questions' ? view.questions.map((q) => `${q.angle}: ${q.text}`) : [];

const followUp: Record<string, Script> = {
  [COORDINATOR_ROLE]: () => json('ux', 'Should accountants get a login of their own?'),
};

describe('BrainstormController: after a reload', () => {
  test('the question form of round 1 is shown again, with the same questions grouped by angle, and no model call', async () => {
    const before = windowOn(undefined, inquisitors(1));
    await before.controller.restore();
    await before.controller.start('Let customers export their invoices', { minRounds: 1, maxRounds: 5 });
    const shown = before.controller.state;
    assert.equal(shown.status, 'questions');
    assert.equal(questionsOf(shown).length, 4);

    const after = windowOn(before.ws, {});
    await after.controller.restore();
    const restored = after.controller.state;
    assert.equal(restored.status, 'questions');
    assert.deepEqual(questionsOf(restored), questionsOf(shown));
    assert.equal(restored.status === 'questions' && restored.round, 1);
    assert.equal(restored.status === 'questions' && restored.maxRounds, 5);
    assert.equal(restored.status === 'questions' && restored.topic, 'Let customers export their invoices');
    assert.equal(after.llm.requests.length, 0, 'reading back asks no model');
  });

  test('answers sent from the restored form go on with the same brainstorm: round 2', async () => {
    const before = windowOn(undefined, inquisitors(1));
    await before.controller.restore();
    await before.controller.start('Let customers export their invoices', { minRounds: 1, maxRounds: 5 });

    const after = windowOn(before.ws, followUp);
    await after.controller.restore();
    await after.controller.handle({
      type: 'brainstorm.answer',
      answers: ['Mostly the accountant', 'CSV first', null, 'Email a link'],
      action: 'more',
    });
    const next = after.controller.state;
    assert.equal(next.status, 'questions');
    assert.equal(next.status === 'questions' && next.round, 2);
    assert.deepEqual(questionsOf(next), ['ux: Should accountants get a login of their own?']);
    const sent = JSON.stringify(after.llm.requests.at(-1)?.messages);
    assert.match(sent, /Mostly the accountant/, 'the answers reached the coordinator');
    assert.match(sent, /\[skipped by user\]/);
  });

  test('a brainstorm the panel closed is not shown again', async () => {
    const before = windowOn(undefined, inquisitors(1));
    await before.controller.restore();
    await before.controller.start('Let customers export their invoices', { minRounds: 1, maxRounds: 5 });
    await before.controller.handle({ type: 'brainstorm.close' });

    const after = windowOn(before.ws, {});
    await after.controller.restore();
    assert.equal(after.controller.state.status, 'none');
  });
});
