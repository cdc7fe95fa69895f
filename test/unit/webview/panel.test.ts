// The panel's side of the protocol under Node (test/unit/webview/fakeDom.ts): the host's messages
// drawn part by part; a malformed slice (or a part whose drawing throws) becomes an error in its
// part while the rest works; Restricted Mode offers nothing that writes, saying why where the action
// would be.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { BrainstormPanelView } from '../../../src/shared/protocol/brainstorm';
import type { DiscoveryPanelView } from '../../../src/shared/protocol/discovery';
import type { WebviewMessage } from '../../../src/shared/protocol/panel';
import { removeFakeDocument, type FakeElement } from './fakeDom';
import { BRIEF, Harness, S, slices } from './harness';

let h: Harness;
let posted: WebviewMessage[];
const draw = (value: unknown) => h.open(value);

beforeEach(() => {
  h = new Harness();
  posted = h.posted;
});
afterEach(removeFakeDocument);

/** The journal form works: a title and a description typed, Add clicked, the host is asked. */
function addToJournal(root: FakeElement): void {
  root.find('#journal-title')!.value = 'Cache keys need the path';
  root.find('#journal-description')!.value = 'Key by full path.';
  root.find('#journal-add')!.click();
}

describe('the panel: one malformed slice does not take the panel down', () => {
  test('well-formed slices draw every part and no error', () => {
    const root = draw(slices());
    for (const id of ['#discovery', '#model', '#sleepers', '#journal', '#composer']) assert.ok(root.find(id), id);
    assert.equal(root.findAll('.section-error').length, 0);
  });

  test('discovery rounds[0].questions not a list: the discovery part says so, the rest works', () => {
    const broken = {
      status: 'questions',
      request: 'build me a CRM',
      round: 2,
      maxRounds: 3,
      rounds: [{ round: 1, questions: 'not-an-array', answer: 'x' }],
      questions: ['Q'],
      message: '',
      actions: [],
    };
    const root = draw(slices({ discovery: broken as unknown as DiscoveryPanelView }));
    const error = root.find('#discovery-error');
    assert.equal(
      error?.textContent,
      'This part of the panel could not be shown: discovery.rounds[0].questions is not a list',
    );
    assert.equal(error?.getAttribute('role'), 'alert');
    assert.ok(root.find('#model-ready'));
    assert.ok(root.find('#journal-entries'));
    addToJournal(root);
    assert.equal(posted.at(-1)?.type, 'journal.add');
    root.find('#sleepers')!.find('vscode-button')!.click();
    assert.deepEqual(posted.at(-1), { type: 'sleep.wake', agent: 'build-qa' });
  });

  test('a brainstorm view missing its fields: the brainstorm part says so; discovery and the rest work', () => {
    const root = draw(slices({ brainstorm: { status: 'questions', slug: 'x', topic: 'T' } as never }));
    assert.match(
      root.find('#brainstorm-error')?.textContent ?? '',
      /could not be shown: brainstorm\.round is not a number/,
    );
    root.find('#composer')!.value = 'build me a CRM';
    root.find('#composer-send')!.click();
    assert.deepEqual(posted, [{ type: 'discovery.send', text: 'build me a CRM' }]);
  });

  test('a part whose drawing throws is caught the same way', () => {
    h = new Harness((parts) =>
      parts.map((p) =>
        p.feature === 'discovery'
          ? {
              feature: 'discovery',
              element: p.element,
              render: () => {
                throw new TypeError('r.questions.map is not a function');
              },
            }
          : p,
      ),
    );
    const root = h.open(slices());
    assert.equal(
      root.find('#discovery-error')?.textContent,
      'This part of the panel could not be shown: r.questions.map is not a function',
    );
    assert.ok(root.find('#journal-entries') && root.find('#model-ready'));
  });

  test('wrong model, journal, sleepers or notices: each fails alone', () => {
    const root = draw({
      ...slices(),
      model: { status: 'ready' },
      journal: { entries: 'x' },
      sleep: { sleepers: [{ agent: 7 }] },
    });
    assert.match(root.find('#model-error')?.textContent ?? '', /model\.provider is not one of/);
    assert.match(root.find('#journal-error')?.textContent ?? '', /journal\.entries is not a list/);
    assert.match(root.find('#sleep-error')?.textContent ?? '', /sleep\.sleepers\[0\]\.agent is not text/);
    assert.ok(root.find('#composer'), 'the discovery part still works');
    const notices = draw({ ...slices(), panel: { trusted: true, hasWorkspace: true, notices: {} } });
    assert.match(notices.find('#panel-error')?.textContent ?? '', /panel\.notices is not a list/);
  });

  test('slices that are not an object are errors, not a crash', () => {
    for (const value of [null, undefined, 'text', 42]) {
      h = new Harness();
      assert.match(h.open(value).find('#panel-error')?.textContent ?? '', /panel is not an object/);
    }
  });

  test('a message of the wrong shape is dropped', () => {
    const root = draw(slices());
    for (const m of [
      null,
      'state',
      { type: 'state', seq: 'x', feature: 'journal', state: {} },
      { type: 'state', seq: 99, feature: 'toString', state: {} },
      { type: 'append', seq: 99, stream: 'discovery:panel', at: -1, text: 'x' },
    ])
      h.app.receive(m);
    assert.ok(root.find('#journal-entries'));
    assert.deepEqual(posted, []);
  });
});

describe('the panel: Restricted Mode offers nothing that writes', () => {
  const restricted = { trusted: false, hasWorkspace: true, notices: [] };

  test('the journal form is replaced by why, with the way to trust the folder', () => {
    const root = draw(slices({ panel: restricted }));
    assert.ok(root.find('#restricted-banner'));
    assert.equal(root.find('#journal-add'), undefined);
    assert.equal(root.find('#journal-title'), undefined);
    const note = root.find('#journal-restricted');
    assert.match(note?.textContent ?? '', /Discoveries can be added to the journal once this folder is trusted\./);
    note!.find('button')!.click();
    assert.deepEqual(posted, [{ type: 'panel.command', command: 'manageTrust' }]);
    assert.ok(root.find('#journal-entries'), 'the journal is still shown');
  });

  test('Wake is shown disabled, with why, and posts nothing', () => {
    const root = draw(slices({ panel: restricted }));
    const wake = root.find('#sleepers')!.find('vscode-button')!;
    assert.ok(wake.hasAttribute('disabled'));
    assert.equal(wake.parent?.getAttribute('title'), S.restrictedWake);
    wake.click();
    assert.deepEqual(posted, []);
    assert.ok(root.find('#sleepers-restricted'));
  });

  test('no composer and no brainstorm: an idle discovery shows nothing', () => {
    const complete: BrainstormPanelView = {
      status: 'complete',
      slug: 'x',
      topic: 'T',
      rounds: 1,
      keyInsights: [],
      decisions: [],
      openQuestions: [],
      documentPath: 'd',
      contextPath: 'c',
      actions: [],
    };
    const root = draw(slices({ panel: restricted, brainstorm: complete }));
    assert.equal(root.find('#composer'), undefined);
    assert.equal(root.find('#discovery'), undefined);
    assert.equal(root.find('#brainstorm-complete'), undefined);
  });

  test('a brief is shown read-only: Save, Brainstorm Deeper and Discard disabled with why, no Edit', () => {
    const root = draw(
      slices({
        panel: restricted,
        discovery: {
          status: 'brief',
          request: 'r',
          brief: BRIEF,
          transcript: [],
          message: '',
          actions: ['edit', 'save', 'brainstorm', 'discard'],
        },
      }),
    );
    assert.equal(root.find('#brief-summary')?.textContent, 'A CRM for a bakery');
    assert.equal(root.find('#brief-edit'), undefined);
    for (const id of ['#brief-save', '#brief-brainstorm', '#brief-discard']) {
      const button = root.find(id)!;
      assert.ok(button.hasAttribute('disabled'), id);
      assert.equal(button.parent?.getAttribute('title'), S.restrictedBrief);
      button.click();
    }
    assert.deepEqual(posted, []);
    assert.match(root.find('#brief-restricted')?.textContent ?? '', /once this folder is trusted/);
  });

  test('a saved brief still opens (reading is allowed)', () => {
    const root = draw(
      slices({
        panel: restricted,
        discovery: {
          status: 'brief',
          request: 'r',
          brief: BRIEF,
          transcript: [],
          message: '',
          savedAt: '.groundwork/plans/a-crm/idea-brief.md',
          actions: ['open-plan', 'brainstorm', 'discard'],
        },
      }),
    );
    root.find('#brief-open')!.click();
    assert.deepEqual(posted, [{ type: 'brief.open' }]);
  });

  test('a live conversation is shown without answer boxes or Cancel', () => {
    const root = draw(
      slices({
        panel: restricted,
        discovery: {
          status: 'questions',
          request: 'build me a CRM',
          round: 1,
          maxRounds: 3,
          rounds: [],
          questions: ['Who uses it?'],
          message: '',
          actions: ['answer', 'cancel'],
        },
      }),
    );
    assert.equal(root.find('#discovery-questions-readonly')?.textContent, 'Who uses it?');
    assert.equal(root.find('#discovery-questions'), undefined);
    assert.equal(root.find('#discovery-cancel'), undefined);
    assert.ok(root.find('#discovery-restricted'));
  });

  test('anything but trusted: true is taken for Restricted Mode', () => {
    const root = draw({ ...slices(), panel: { trusted: 'yes', hasWorkspace: true, notices: [] } });
    assert.equal(root.find('#journal-add'), undefined);
  });

  test('without a folder only the way to open one is shown', () => {
    const root = draw(slices({ panel: { trusted: true, hasWorkspace: false, notices: [] } }));
    assert.ok(root.find('#no-workspace'));
    assert.equal(root.find('#composer'), undefined);
    assert.equal(root.find('#journal'), undefined);
    root.find('#no-workspace')!.find('vscode-button')!.click();
    assert.deepEqual(posted, [{ type: 'panel.command', command: 'openFolder' }]);
  });
});

describe('the panel: a damaged brief file', () => {
  const damaged: DiscoveryPanelView = {
    status: 'damaged',
    file: '.groundwork/panel/brief.json',
    reason: 'transcript[0].questions must be a list of at most 500 texts',
    actions: ['discard', 'send'],
  };

  test('says what is wrong and offers Discard; the composer and the rest still work', () => {
    const root = draw(slices({ discovery: damaged }));
    assert.equal(
      root.find('#brief-damaged')?.find('p')?.textContent,
      'The Idea Brief kept in .groundwork/panel/brief.json cannot be shown: transcript[0].questions must be a list of at most 500 texts',
    );
    root.find('#brief-discard')!.click();
    assert.deepEqual(posted, [{ type: 'brief.discard' }]);
    assert.ok(root.find('#composer'));
    addToJournal(root);
    assert.equal(posted.at(-1)?.type, 'journal.add');
  });

  test('in Restricted Mode, Discard says it cannot', () => {
    const root = draw(slices({ panel: { trusted: false, hasWorkspace: true, notices: [] }, discovery: damaged }));
    const discard = root.find('#brief-discard')!;
    assert.ok(discard.hasAttribute('disabled'));
    assert.equal(discard.parent?.getAttribute('title'), S.restrictedDiscard);
    assert.match(
      root.find('#brief-damaged')?.textContent ?? '',
      /The file can be discarded once this folder is trusted\./,
    );
    discard.click();
    assert.deepEqual(posted, []);
  });
});

describe('the panel: notices', () => {
  test('each dismissible notice has a close button that asks the host to drop it', () => {
    const root = draw(
      slices({
        panel: {
          trusted: true,
          hasWorkspace: true,
          notices: [{ id: 'notice-1', text: 'This workspace changes a Groundwork agent: …' }],
        },
      }),
    );
    assert.match(root.find('#notice-1')?.textContent ?? '', /changes a Groundwork agent/);
    root.find('#notice-1')!.find('.notice-dismiss')!.click();
    assert.deepEqual(posted, [{ type: 'notice.dismiss', id: 'notice-1' }]);
  });

  test('a sleep log that cannot be read is said where the sleepers would be', () => {
    const root = draw(slices({ sleep: { sleepers: [], error: 'sleep.jsonl: line 3 is damaged' } }));
    assert.match(root.find('#sleepers')?.textContent ?? '', /line 3 is damaged/);
  });
});

describe('the panel: a model call that is retried', () => {
  const conversation = {
    request: 'build me a CRM',
    round: 1,
    maxRounds: 3,
    rounds: [],
    streamed: '',
    tools: [],
    actions: ['cancel' as const],
  };

  test('discovery says it waits for the model, with the retry, instead of only "Thinking…"', () => {
    const waiting = draw(slices({ discovery: { status: 'running', ...conversation, retry: { attempt: 2, of: 3 } } }));
    assert.equal(waiting.find('#discovery-progress')?.textContent, 'Waiting for the model… (retry 2 of 3)');
    const thinking = new Harness().open(slices({ discovery: { status: 'running', ...conversation } }));
    assert.equal(thinking.find('#discovery-progress')?.textContent, S.thinking);
  });

  test('the brainstorm says which inquisitor waits, or that the coordinator does', () => {
    const header = {
      slug: 'crm',
      topic: 'CRM',
      round: 1,
      minRounds: 1,
      maxRounds: 5,
      rounds: [],
      streamed: '',
      tools: [],
      actions: ['stop' as const],
    };
    const ux = draw(
      slices({
        brainstorm: { status: 'running', ...header, step: 'inquisitors', retry: { who: 'ux', attempt: 1, of: 3 } },
      }),
    );
    assert.equal(ux.find('#brainstorm-retry')?.textContent, 'UX: Waiting for the model… (retry 1 of 3)');
    const coordinator = new Harness().open(
      slices({
        brainstorm: { status: 'running', ...header, step: 'summary', retry: { who: 'coordinator', attempt: 3, of: 3 } },
      }),
    );
    assert.equal(coordinator.find('#brainstorm-retry')?.textContent, 'Waiting for the model… (retry 3 of 3)');
    assert.equal(
      new Harness()
        .open(slices({ brainstorm: { status: 'running', ...header, step: 'summary' } }))
        .find('#brainstorm-retry'),
      undefined,
    );
  });

  test('a retry of the wrong shape is an error in the discovery part only', () => {
    const root = draw(
      slices({
        discovery: { status: 'running', ...conversation, retry: { attempt: 'two' } } as unknown as DiscoveryPanelView,
      }),
    );
    assert.equal(
      root.find('#discovery-error')?.textContent,
      'This part of the panel could not be shown: discovery.retry.attempt is not a number',
    );
    assert.ok(root.find('#journal-entries'));
  });
});
