// The host side of the panel (agentPanel.ts) under Node, with a fake `vscode` and a fake webview:
// nothing before `ready`; then the words once and a snapshot; a feature's slice only when it
// changed; streams numbered with the rest; every message validated by its feature's parser and
// routed to it; requests answered through the one request helper; and one discovery turn costs
// two state messages, however often the workspace's files change under it.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { DiscoveryApi, TurnResult } from '../../../../src/core/discovery/discoveryTypes';
import { JOURNAL_INBOUND, type JournalMessage } from '../../../../src/shared/protocol/journal';
import { DISCOVERY_INBOUND, type DiscoveryMessage } from '../../../../src/shared/protocol/discovery';
import { DiscoveryController } from '../../../../src/vscode/discovery/discoveryController';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import { ComputedFeature, LazyFeature } from '../../../../src/vscode/panel/panelParts';
import { sessionView } from '../../discovery/sessionView';
import { FakeView, installFakeVscode, settle } from '../fakeVscode';

const fake = installFakeVscode();
const { AgentPanel } =
  require('../../../../src/vscode/panel/agentPanel') as typeof import('../../../../src/vscode/panel/agentPanel');

const log = { warn: () => undefined, error: () => undefined, info: () => undefined } as never;
const journal = (total: number) => ({ entries: [], total, skipped: 0 });

function setup() {
  const panel = new AgentPanel({ path: '/ext' } as never, true, log);
  const changes = new Emitter<void>();
  let total = 0;
  const handled: JournalMessage[] = [];
  const feature = new ComputedFeature(
    'journal',
    JOURNAL_INBOUND,
    async () => journal(total),
    [changes.event],
    async (m: JournalMessage) => {
      handled.push(m);
      if (m.type === 'journal.add' && m.title === 'refuse') throw new Error('Not added: Restricted Mode.');
    },
    () => undefined,
  );
  panel.register(feature);
  const view = new FakeView();
  panel.resolveWebviewView(view as never);
  return { panel, view, changes, handled, setTotal: (n: number) => (total = n), feature };
}

let s: ReturnType<typeof setup>;
beforeEach(() => {
  s = setup();
});

describe('AgentPanel: the handshake', () => {
  test('posts nothing before ready; then the words once, and one snapshot of every slice', async () => {
    s.changes.fire();
    await settle();
    assert.equal(s.view.posted.length, 0);
    s.view.send({ type: 'ready' });
    await s.panel.whenReady();
    assert.deepEqual(
      s.view.posted.map((m) => m.type),
      ['strings', 'snapshot'],
    );
    const snapshot = s.view.of('snapshot')[0]!;
    assert.deepEqual(snapshot.slices, {
      panel: { trusted: true, hasWorkspace: true, notices: [] },
      journal: journal(0),
    });
    assert.equal(typeof snapshot.now, 'number');
    assert.deepEqual(s.panel.lastSnapshot()?.journal, journal(0));
  });
});

describe('AgentPanel: a slice when, and only when, it changed', () => {
  test('a change that changes nothing sends nothing; a real one sends that slice alone', async () => {
    s.view.send({ type: 'ready' });
    await s.panel.whenReady();
    s.changes.fire();
    s.changes.fire();
    await settle();
    assert.deepEqual(s.view.of('state'), [], 'the file watcher saw a write that changed nothing shown');
    s.setTotal(3);
    s.changes.fire();
    await settle();
    assert.deepEqual(
      s.view.of('state').map((m) => [m.feature, m.state]),
      [['journal', journal(3)]],
    );
    assert.ok(!s.view.posted.slice(2).some((m) => m.type === 'strings'), 'the words are not sent again');
  });

  test('trust granted sends the panel’s slice', async () => {
    s.view.send({ type: 'ready' });
    await s.panel.whenReady();
    fake.workspace.isTrusted = false;
    fake.trustGranted.fire();
    fake.workspace.isTrusted = true;
    assert.deepEqual(
      s.view.of('state').map((m) => m.feature),
      ['panel'],
    );
  });
});

describe('AgentPanel: messages from the panel', () => {
  test('validated by the feature that owns them; anything else is dropped', async () => {
    s.view.send({ type: 'ready' });
    await s.panel.whenReady();
    s.view.send({ type: 'journal.open' });
    s.view.send({ type: 'journal.add', requestId: 'r', title: '', description: 'd' });
    s.view.send({ type: 'discovery.send', text: 'no discovery part is registered' });
    s.view.send({ type: 'command', command: 'rm -rf /' });
    s.view.send('ready');
    await settle();
    assert.deepEqual(s.handled, [{ type: 'journal.open' }]);
  });

  test('a request is answered with its id: ok, or what went wrong', async () => {
    s.view.send({ type: 'ready' });
    await s.panel.whenReady();
    s.view.send({ type: 'journal.add', requestId: 'panel-1', title: 'Keys', description: 'By path' });
    s.view.send({ type: 'journal.add', requestId: 'panel-2', title: 'refuse', description: 'x' });
    await settle();
    assert.deepEqual(s.view.of('response'), [
      { type: 'response', requestId: 'panel-1' },
      { type: 'response', requestId: 'panel-2', error: 'Not added: Restricted Mode.' },
    ]);
  });

  test('the host’s ping goes out as a request and settles with the panel’s answer', async () => {
    s.view.send({ type: 'ready' });
    const echo = s.panel.ping('round trip ✓');
    await settle();
    const request = s.view.of('request')[0]!;
    assert.deepEqual(request.request, { kind: 'ping', text: 'round trip ✓' });
    s.view.send({ type: 'response', requestId: 'host-forged', result: 'nope' });
    s.view.send({ type: 'response', requestId: request.requestId, result: 'round trip ✓' });
    assert.equal(await echo, 'round trip ✓');
  });

  test('a closed view leaves no subscription behind', async () => {
    assert.equal(s.view.listeners, 1);
    s.view.close();
    assert.equal(s.view.listeners, 0);
    const again = new FakeView();
    s.panel.resolveWebviewView(again as never);
    s.panel.dispose();
    assert.equal(again.listeners, 0);
  });
});

describe('AgentPanel: one discovery turn', () => {
  const view = sessionView();

  test('costs two state messages (running, then the questions) and its stream, whatever the file watcher sees', async () => {
    const workspaceWrites = s.changes;
    const service = {
      view: async () => undefined,
      cleanupExpired: async () => [],
      handle: async (_s: string, _t: string, options: { onText?: (t: string) => void }): Promise<TurnResult> => {
        // The round file and the audit log are written while the model streams: the watcher fires.
        workspaceWrites.fire();
        for (const chunk of ['Who ', 'uses ', 'it?']) options.onText?.(chunk);
        workspaceWrites.fire();
        return { outcome: { kind: 'questions', view, questions: ['Who?'], message: 'A few questions:' } };
      },
    } as unknown as DiscoveryApi;
    const controller = new DiscoveryController({
      service: async () => service,
      pending: { read: async () => ({ kind: 'none' }), write: async () => undefined },
      peek: async () => ({ kind: 'none' }),
      trusted: () => true,
      onTrustGranted: new Emitter<void>().event,
      window: {
        allows: () => true,
        setActive: () => undefined,
        say: () => undefined,
        couldNotStart: () => undefined,
        language: () => 'en',
        noAnswer: () => '',
      },
      log: { info: () => undefined, warn: () => undefined },
      open: async () => undefined,
      build: async () => undefined,
      brainstorm: async () => undefined,
    });
    s.panel.register(
      new LazyFeature('discovery', DISCOVERY_INBOUND, async () => controller) as LazyFeature<
        'discovery',
        DiscoveryMessage,
        DiscoveryController
      >,
    );
    s.view.send({ type: 'ready' });
    await s.panel.whenReady();
    const before = s.view.posted.length;
    s.view.send({ type: 'discovery.send', text: 'build me a CRM' });
    await settle();
    await settle();
    const turn = s.view.posted.slice(before);
    assert.deepEqual(
      turn.map((m) =>
        m.type === 'state' ? `state:${m.feature}:${(m.state as { status: string }).status}` : `${m.type}:${m.at}`,
      ),
      ['state:discovery:running', 'append:0', 'append:4', 'append:9', 'state:discovery:questions'],
    );
    const seqs = turn.map((m) => m.seq as number);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => seqs[0]! + i),
      'numbered without a gap',
    );
    assert.equal(turn.filter((m) => m.type === 'strings').length, 0);
  });
});
