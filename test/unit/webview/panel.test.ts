// The panel's drawing under Node (test/unit/webview/fakeDom.ts): a section whose data is malformed
// or whose drawing throws becomes an error in its place while the rest of the panel works, and in
// Restricted Mode the panel offers nothing that writes, saying why where the action would be.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { PANEL_STRINGS, type PanelStrings } from '../../../src/shared/panelStrings';
import type { BriefFields, DiscoveryPanelView, PanelState, WebviewMessage } from '../../../src/shared/protocol';
import { BrainstormUi } from '../../../webview/brainstorm';
import { DiscoveryUi } from '../../../webview/discovery';
import { JournalForm } from '../../../webview/journalForm';
import { renderPanel, type PanelParts } from '../../../webview/panel';
import { installFakeDocument, rootOf, type FakeElement } from './fakeDom';

const S: PanelStrings = { ...PANEL_STRINGS };
const BRIEF: BriefFields = { summary: 'A CRM for a bakery', problem: 'p', users: 'u', mvpScope: 'm', technology: 't', outOfScope: 'o', keyDecisions: 'k', constraints: 'c' };

function state(overrides: Partial<PanelState> = {}): PanelState {
  return {
    trusted: true,
    hasWorkspace: true,
    journal: { entries: [{ timestamp: '2026-11-20T10:00:00.000Z', title: 'Retry uploads', description: 'Once.' }], total: 1, skipped: 0 },
    sleepers: [{ agent: 'build-qa', remaining: '2m 00s', overdue: false }],
    model: { status: 'ready', provider: 'anthropic', complex: 'claude-sonnet-4-6', fast: 'claude-haiku-4-5' },
    discovery: { status: 'idle' },
    brainstorm: { status: 'none' },
    notices: [],
    ...overrides,
  };
}

let posted: WebviewMessage[] = [];
let parts: PanelParts;

function draw(value: unknown): FakeElement {
  return rootOf(renderPanel(value, S, parts));
}

beforeEach(() => {
  installFakeDocument();
  posted = [];
  const post = (m: WebviewMessage) => posted.push(m);
  parts = {
    discovery: new DiscoveryUi({ composer: '', answers: {}, extra: '' }, post, () => undefined),
    brainstorm: new BrainstormUi({ answers: {}, skipped: {} }, post, () => undefined),
    form: new JournalForm({ title: '', description: '' }, { onDraft: () => undefined, onSubmit: (requestId, title, description) => post({ type: 'journal.add', requestId, title, description }) }),
    post,
  };
});

/** The journal form works: a title and a description typed, Add clicked, the host is asked. */
function addToJournal(root: FakeElement): void {
  root.find('#journal-title')!.value = 'Cache keys need the path';
  root.find('#journal-description')!.value = 'Key by full path.';
  root.find('#journal-add')!.click();
}

describe('renderPanel: one malformed section does not take the panel down', () => {
  test('a well-formed state draws every section and no error', () => {
    const root = draw(state());
    for (const id of ['#discovery', '#model', '#sleepers', '#journal', '#composer']) assert.ok(root.find(id), id);
    assert.equal(root.findAll('.section-error').length, 0);
  });

  test('discovery rounds[0].questions not a list: the discovery part says so, the rest works', () => {
    const broken = { status: 'questions', request: 'build me a CRM', round: 2, maxRounds: 3, rounds: [{ round: 1, questions: 'not-an-array', answer: 'x' }], questions: ['Q'], message: '' };
    const root = draw(state({ discovery: broken as unknown as DiscoveryPanelView }));
    const error = root.find('#discovery-error');
    assert.equal(error?.textContent, 'This part of the panel could not be shown: discovery.rounds[0].questions is not a list');
    assert.equal(error?.getAttribute('role'), 'alert');
    assert.ok(root.find('#model-ready'));
    assert.ok(root.find('#journal-entries'));
    addToJournal(root);
    assert.deepEqual(posted.map((m) => m.type), ['journal.add']);
    root.find('#sleepers')!.find('vscode-button')!.click();
    assert.deepEqual(posted.at(-1), { type: 'sleep.wake', agent: 'build-qa' });
  });

  test('a brainstorm view missing its fields: the brainstorm part says so; discovery and the rest work', () => {
    const root = draw(state({ brainstorm: { status: 'questions', slug: 'x', topic: 'T' } as never }));
    assert.match(root.find('#brainstorm-error')?.textContent ?? '', /could not be shown: brainstorm\.round is not a number/);
    root.find('#composer')!.value = 'build me a CRM';
    root.find('#composer-send')!.click();
    assert.deepEqual(posted, [{ type: 'discovery.send', text: 'build me a CRM' }]);
  });

  test('a section whose drawing throws is caught the same way', () => {
    const throwing = { ...parts, discovery: { render: () => { throw new TypeError('r.questions.map is not a function'); } } as unknown as DiscoveryUi };
    const root = rootOf(renderPanel(state(), S, throwing));
    assert.equal(root.find('#discovery-error')?.textContent, 'This part of the panel could not be shown: r.questions.map is not a function');
    assert.ok(root.find('#journal-entries') && root.find('#model-ready'));
  });

  test('wrong model, journal, sleepers or notices: each fails alone', () => {
    const root = draw({ ...state(), model: { status: 'ready' }, journal: { entries: 'x' }, sleepers: [{ agent: 7 }], notices: {} });
    assert.match(root.find('#model-error')?.textContent ?? '', /model\.provider is not one of/);
    assert.match(root.find('#journal-error')?.textContent ?? '', /journal\.entries is not a list/);
    assert.match(root.find('#sleepers-error')?.textContent ?? '', /sleepers\[0\]\.agent is not text/);
    assert.match(root.find('#notices-error')?.textContent ?? '', /notices is not a list/);
    assert.ok(root.find('#composer'), 'the discovery part still works');
  });

  test('a state that is not an object is one error, not a crash', () => {
    for (const value of [null, undefined, 'text', 42]) {
      assert.match(draw(value).find('#panel-error')?.textContent ?? '', /the panel state is not an object/);
    }
  });
});

describe('renderPanel: Restricted Mode offers nothing that writes', () => {
  test('the journal form is replaced by why, with the way to trust the folder', () => {
    const root = draw(state({ trusted: false }));
    assert.ok(root.find('#restricted-banner'));
    assert.equal(root.find('#journal-add'), undefined);
    assert.equal(root.find('#journal-title'), undefined);
    const note = root.find('#journal-restricted');
    assert.match(note?.textContent ?? '', /Discoveries can be added to the journal once this folder is trusted\./);
    note!.find('button')!.click();
    assert.deepEqual(posted, [{ type: 'command', command: 'manageTrust' }]);
    assert.ok(root.find('#journal-entries'), 'the journal is still shown');
  });

  test('Wake is shown disabled, with why, and posts nothing', () => {
    const root = draw(state({ trusted: false }));
    const wake = root.find('#sleepers')!.find('vscode-button')!;
    assert.ok(wake.hasAttribute('disabled'));
    assert.equal(wake.parent?.getAttribute('title'), S.restrictedWake);
    wake.click();
    assert.deepEqual(posted, []);
    assert.ok(root.find('#sleepers-restricted'));
  });

  test('no composer and no brainstorm: an idle discovery shows nothing', () => {
    const root = draw(state({ trusted: false, brainstorm: { status: 'complete', slug: 'x', topic: 'T', rounds: 1, keyInsights: [], decisions: [], openQuestions: [], documentPath: 'd', contextPath: 'c' } }));
    assert.equal(root.find('#composer'), undefined);
    assert.equal(root.find('#discovery'), undefined);
    assert.equal(root.find('#brainstorm-complete'), undefined);
  });

  test('a brief is shown read-only: Save, Brainstorm Deeper and Discard disabled with why, no Edit', () => {
    const root = draw(state({ trusted: false, discovery: { status: 'brief', request: 'r', brief: BRIEF, transcript: [], message: '' } }));
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
    const root = draw(state({ trusted: false, discovery: { status: 'brief', request: 'r', brief: BRIEF, transcript: [], message: '', savedAt: '.groundwork/plans/a-crm/idea-brief.md' } }));
    root.find('#brief-open')!.click();
    assert.deepEqual(posted, [{ type: 'brief.open' }]);
  });

  test('a live conversation is shown without answer boxes or Cancel', () => {
    const root = draw(state({ trusted: false, discovery: { status: 'questions', request: 'build me a CRM', round: 1, maxRounds: 3, rounds: [], questions: ['Who uses it?'], message: '' } }));
    assert.equal(root.find('#discovery-questions-readonly')?.textContent, 'Who uses it?');
    assert.equal(root.find('#discovery-questions'), undefined);
    assert.equal(root.find('#discovery-cancel'), undefined);
    assert.ok(root.find('#discovery-restricted'));
  });

  test('anything but trusted: true is taken for Restricted Mode', () => {
    const root = draw({ ...state(), trusted: 'yes' });
    assert.equal(root.find('#journal-add'), undefined);
    assert.ok(root.find('#restricted-banner'));
  });
});

describe('renderPanel: a damaged brief file', () => {
  const damaged: DiscoveryPanelView = { status: 'damaged', file: '.groundwork/panel/brief.json', reason: 'transcript[0].questions must be a list of at most 500 texts' };

  test('says what is wrong and offers Discard; the composer and the rest still work', () => {
    const root = draw(state({ discovery: damaged }));
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
    const root = draw(state({ trusted: false, discovery: damaged }));
    const discard = root.find('#brief-discard')!;
    assert.ok(discard.hasAttribute('disabled'));
    assert.equal(discard.parent?.getAttribute('title'), S.restrictedDiscard);
    assert.match(root.find('#brief-damaged')?.textContent ?? '', /The file can be discarded once this folder is trusted\./);
    discard.click();
    assert.deepEqual(posted, []);
  });
});

describe('renderPanel: dismissible notices', () => {
  test('each notice has a close button that asks the host to drop it', () => {
    const root = draw(state({ notices: [{ id: 'notice-1', text: 'This workspace changes a Groundwork agent: …' }] }));
    assert.match(root.find('#notice-1')?.textContent ?? '', /changes a Groundwork agent/);
    root.find('#notice-1')!.find('.notice-dismiss')!.click();
    assert.deepEqual(posted, [{ type: 'notice.dismiss', id: 'notice-1' }]);
  });
});

describe('renderPanel: a model call that is retried', () => {
  const conversation = { request: 'build me a CRM', round: 1, maxRounds: 3, rounds: [], streamed: '' };

  test('discovery says it waits for the model, with the retry, instead of only "Thinking…"', () => {
    const waiting = draw(state({ discovery: { status: 'running', ...conversation, retry: { attempt: 2, of: 3 } } }));
    assert.equal(waiting.find('#discovery-progress')?.textContent, 'Waiting for the model… (retry 2 of 3)');
    const thinking = draw(state({ discovery: { status: 'running', ...conversation } }));
    assert.equal(thinking.find('#discovery-progress')?.textContent, S.thinking);
  });

  test('the brainstorm says which inquisitor waits, or that the coordinator does', () => {
    const header = { slug: 'crm', topic: 'CRM', round: 1, minRounds: 1, maxRounds: 5, rounds: [] };
    const ux = draw(state({ brainstorm: { status: 'running', ...header, step: 'inquisitors', streamed: '', retry: { who: 'ux', attempt: 1, of: 3 } } }));
    assert.equal(ux.find('#brainstorm-retry')?.textContent, 'UX: Waiting for the model… (retry 1 of 3)');
    const coordinator = draw(state({ brainstorm: { status: 'running', ...header, step: 'summary', streamed: '', retry: { who: 'coordinator', attempt: 3, of: 3 } } }));
    assert.equal(coordinator.find('#brainstorm-retry')?.textContent, 'Waiting for the model… (retry 3 of 3)');
    assert.equal(draw(state({ brainstorm: { status: 'running', ...header, step: 'summary', streamed: '' } })).find('#brainstorm-retry'), undefined);
  });

  test('a retry of the wrong shape is an error in the discovery part only', () => {
    const root = draw(state({ discovery: { status: 'running', ...conversation, retry: { attempt: 'two' } } as unknown as DiscoveryPanelView }));
    assert.equal(root.find('#discovery-error')?.textContent, 'This part of the panel could not be shown: discovery.retry.attempt is not a number');
    assert.ok(root.find('#journal-entries'));
  });
});
