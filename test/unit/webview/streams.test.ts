// The panel routes each stream to the part that shows it (two sessions streaming at once do not
// mix), draws tool calls as a native chat does, asks for a snapshot when something is missing, and
// redraws only the parts a state message concerns; requests and their answers; countdowns that tick
// without the host.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { BrainstormPanelView } from '../../../src/shared/protocol/brainstorm';
import type { DiscoveryPanelView, ToolLine } from '../../../src/shared/protocol/discovery';
import { removeFakeDocument } from './fakeDom';
import { Harness, S, T0, slices } from './harness';

const discoveryRunning = (
  over: Partial<Extract<DiscoveryPanelView, { status: 'running' }>> = {},
): DiscoveryPanelView => ({
  status: 'running',
  request: 'build me a CRM',
  round: 1,
  maxRounds: 3,
  rounds: [],
  streamed: '',
  tools: [],
  actions: ['cancel'],
  ...over,
});
const header = {
  slug: 'invoices',
  topic: 'Invoices',
  round: 1,
  minRounds: 1,
  maxRounds: 5,
  rounds: [],
  actions: ['stop' as const],
};
const brainstormRunning = (
  over: Partial<Extract<BrainstormPanelView, { status: 'running' }>> = {},
): BrainstormPanelView => ({
  status: 'running',
  ...header,
  step: 'follow-up',
  streamed: '',
  tools: [],
  ...over,
});
const line = (over: Partial<ToolLine> = {}): ToolLine => ({
  id: 't1',
  kind: 'read',
  tool: 'read_file',
  target: 'README.md',
  status: 'running',
  ...over,
});

let h: Harness;
beforeEach(() => {
  h = new Harness();
});
afterEach(removeFakeDocument);

describe('two streams at once', () => {
  test('discovery text goes to the discovery card, the coordinator’s to the brainstorm: no cross-talk', () => {
    const root = h.open(slices({ discovery: discoveryRunning(), brainstorm: brainstormRunning() }));
    h.append('discovery:panel', 0, 'Who will ');
    h.append('brainstorm:invoices:coordinator', 0, '{"questions"');
    h.append('discovery:panel', 9, 'use it?');
    h.append('brainstorm:invoices:coordinator', 12, ': []}');
    assert.equal(root.find('#discovery-stream')?.textContent, 'Who will use it?');
    assert.equal(root.find('#brainstorm-stream')?.textContent, '{"questions": []}');
    assert.deepEqual(h.posted, [], 'nothing was missing');
  });

  test('a stream of another brainstorm, or of an inquisitor’s text, is not shown: the panel asks for a snapshot', () => {
    const root = h.open(slices({ brainstorm: brainstormRunning() }));
    h.append('brainstorm:other-plan:coordinator', 0, 'not this one');
    assert.equal(root.find('#brainstorm-stream')?.textContent, '');
    assert.deepEqual(h.posted, [{ type: 'resync' }]);
  });

  test('text that arrives twice (before and after a snapshot) is shown once', () => {
    const root = h.open(slices({ discovery: discoveryRunning({ streamed: 'Who will' }) }));
    h.append('discovery:panel', 3, ' will use');
    assert.equal(root.find('#discovery-stream')?.textContent, 'Who will use');
    h.append('discovery:panel', 0, 'Who');
    assert.equal(root.find('#discovery-stream')?.textContent, 'Who will use');
  });

  test('text with a hole before it, or a message missed, asks for a snapshot once; the snapshot mends it', () => {
    const root = h.open(slices({ discovery: discoveryRunning() }));
    h.append('discovery:panel', 5, 'later text');
    h.append('discovery:panel', 15, 'more', h.seq + 5);
    assert.deepEqual(h.posted, [{ type: 'resync' }], 'asked once');
    assert.equal(root.find('#discovery-stream')?.textContent, '');
    h.open(slices({ discovery: discoveryRunning({ streamed: 'early later textmore' }) }));
    assert.equal(root.find('#discovery-stream')?.textContent, 'early later textmore');
    h.append('discovery:panel', 20, '!');
    assert.equal(root.find('#discovery-stream')?.textContent, 'early later textmore!');
  });

  test('text for a turn no longer on screen asks for a snapshot', () => {
    h.open(slices());
    h.append('discovery:panel', 0, 'late');
    assert.deepEqual(h.posted, [{ type: 'resync' }]);
  });
});

describe('tool calls, as a native chat shows them', () => {
  test('a line per call with its codicon, updated in place as it ends', () => {
    const root = h.open(slices({ discovery: discoveryRunning() }));
    h.tool('discovery:panel', line());
    h.tool('discovery:panel', line({ id: 't2', kind: 'list', tool: 'list_files', target: 'src' }));
    h.tool('discovery:panel', line({ id: 't3', kind: 'search', tool: 'search', target: 'auth', status: 'done' }));
    h.tool('discovery:panel', line({ status: 'done' }));
    const lines = root.find('#discovery-tools')!.findAll('.tool-line');
    assert.deepEqual(
      lines.map((l) => [l.find('vscode-icon')!.getAttribute('name'), l.find('.tool-text')!.textContent]),
      [
        ['file', 'Read README.md'],
        ['loading', 'Listing src'],
        ['search', "Searched 'auth'"],
      ],
    );
    assert.ok(lines[1]!.find('vscode-icon')!.hasAttribute('spin'), 'a running call spins');
    assert.equal(root.find('#discovery-tools')!.getAttribute('aria-label'), S.toolCalls);
  });

  test('a failed call shows the error icon and why; an unknown tool is named', () => {
    const root = h.open(
      slices({
        discovery: discoveryRunning({
          tools: [
            line({ status: 'error', error: 'no such file' }),
            line({ id: 'x', kind: 'other', tool: 'fetch_url', target: 'example.com', status: 'done' }),
          ],
        }),
      }),
    );
    const [failed, other] = root.find('#discovery-tools')!.findAll('.tool-line');
    assert.equal(failed!.find('vscode-icon')!.getAttribute('name'), 'error');
    assert.equal(failed!.find('.tool-text')!.textContent, 'Could not read README.md');
    assert.equal(failed!.find('.tool-error')!.textContent, 'no such file');
    assert.equal(other!.find('.tool-text')!.textContent, 'Used fetch_url: example.com');
    assert.equal(other!.find('vscode-icon')!.getAttribute('name'), 'tools');
  });

  test('the target is text, never markup', () => {
    const root = h.open(slices({ discovery: discoveryRunning() }));
    h.tool('discovery:panel', line({ target: '<img src=x onerror=alert(1)>' }));
    const text = root.find('#discovery-tools')!.find('.tool-text')!;
    assert.equal(text.textContent, 'Reading <img src=x onerror=alert(1)>');
    assert.equal(text.findAll('img').length, 0);
  });

  test('each inquisitor’s calls go under it; the coordinator’s above its text', () => {
    const running = brainstormRunning({
      step: 'inquisitors',
      inquisitors: [
        { angle: 'ux', state: 'running', tools: [] },
        { angle: 'technical', state: 'running', tools: [] },
      ],
    });
    const root = h.open(slices({ brainstorm: running }));
    h.tool('brainstorm:invoices:technical', line({ kind: 'search', tool: 'search', target: 'export' }));
    assert.equal(root.find('#brainstorm-tools-technical')!.findAll('.tool-line').length, 1);
    assert.equal(root.find('#brainstorm-tools-ux')!.findAll('.tool-line').length, 0);
    assert.equal(root.find('#brainstorm-tools')!.findAll('.tool-line').length, 0);
    h.tool('brainstorm:invoices:coordinator', line({ id: 'c1' }));
    assert.equal(root.find('#brainstorm-tools')!.findAll('.tool-line').length, 1);
    assert.deepEqual(h.posted, []);
  });

  test('a line of the wrong shape is dropped', () => {
    const root = h.open(slices({ discovery: discoveryRunning() }));
    h.tool('discovery:panel', { ...line(), status: 'exploded' });
    assert.equal(root.find('#discovery-tools')!.findAll('.tool-line').length, 0);
  });
});

describe('state messages redraw only what they concern', () => {
  test('a journal change leaves the discovery card alone (a draft, the stream)', () => {
    const root = h.open(slices({ discovery: discoveryRunning() }));
    const stream = root.find('#discovery-stream');
    h.state('journal', { entries: [], total: 0, skipped: 0 });
    assert.equal(root.find('#discovery-stream'), stream, 'not redrawn');
    assert.ok(root.find('#journal-empty'));
  });

  test('a brainstorm that ends hides its ways in beside the composer, or shows them', () => {
    const root = h.open(slices());
    assert.ok(root.find('#brainstorm-start'));
    h.state('brainstorm', brainstormRunning());
    assert.equal(root.find('#brainstorm-start'), undefined);
    assert.ok(root.find('#brainstorm-stream'));
  });

  test('a brainstorm that appears is scrolled into view once, not at each redraw', () => {
    const root = h.open(slices());
    h.state('brainstorm', brainstormRunning());
    const section = root.find('#brainstorm')!;
    assert.equal(section.scrolledIntoView, 1);
    h.state('brainstorm', brainstormRunning({ streamed: 'x' }));
    assert.equal(section.scrolledIntoView, 1);
  });

  test('trust granted redraws everything', () => {
    const root = h.open(slices({ panel: { trusted: false, hasWorkspace: true, notices: [] } }));
    assert.equal(root.find('#composer'), undefined);
    h.state('panel', { trusted: true, hasWorkspace: true, notices: [] });
    assert.ok(root.find('#composer'));
    assert.equal(root.find('#restricted-banner'), undefined);
  });

  test('the words come once, before the snapshot; later messages use them', () => {
    h.app.receive({ type: 'strings', strings: { ...S, journalHeading: 'Diario' } });
    h.app.receive({ type: 'snapshot', seq: ++h.seq, now: T0, slices: slices() });
    h.state('journal', { entries: [], total: 0, skipped: 0 });
    assert.equal(h.root.find('#journal-heading')?.textContent, 'Diario');
  });
});

describe('requests and answers', () => {
  test('adding to the journal is a request; its answer settles the form', async () => {
    const root = h.open(slices());
    root.find('#journal-title')!.value = 'Cache keys';
    root.find('#journal-description')!.value = 'Key by path.';
    root.find('#journal-add')!.click();
    const sent = h.posted.at(-1) as { type: string; requestId: string };
    assert.equal(sent.type, 'journal.add');
    assert.match(sent.requestId, /^panel-/);
    h.app.receive({ type: 'response', requestId: 'panel-forged', error: 'ignored' });
    h.app.receive({ type: 'response', requestId: sent.requestId, error: 'Not added: Restricted Mode.' });
    await new Promise((r) => setImmediate(r));
    assert.equal(root.find('.form-status')?.textContent, 'Not added: Restricted Mode.');
  });

  test('the host’s ping is answered with its text', () => {
    h.open(slices());
    h.app.receive({ type: 'request', requestId: 'host-1', request: { kind: 'ping', text: 'round trip ✓' } });
    assert.deepEqual(h.posted, [{ type: 'response', requestId: 'host-1', result: 'round trip ✓' }]);
  });
});

describe('sleepers count down in the panel', () => {
  test('from when each sleep started, on the host’s clock, with no message from the host', () => {
    h.clock = T0 + 5_000;
    const root = h.open(slices());
    const remaining = root.find('.sleeper-remaining')!;
    assert.equal(remaining.textContent, '1m 55s');
    h.clock += 1_000;
    for (const tick of h.ticks) tick();
    assert.equal(remaining.textContent, '1m 54s');
    h.clock = T0 + 130_000;
    for (const tick of h.ticks) tick();
    assert.equal(remaining.textContent, 'Overdue by 10s');
    assert.equal(root.find('.sleeper')!.find('vscode-icon')!.getAttribute('name'), 'warning');
    assert.deepEqual(h.posted, []);
  });

  test('a host clock ahead of the panel’s is followed', () => {
    h.clock = T0;
    h.app.receive({ type: 'strings', strings: S });
    h.app.receive({ type: 'snapshot', seq: ++h.seq, now: T0 + 60_000, slices: slices() });
    assert.equal(h.root.find('.sleeper-remaining')!.textContent, '1m 00s');
  });

  test('one ticker at a time, none without sleepers', () => {
    h.open(slices());
    h.state('sleep', { sleepers: [{ agent: 'b', mode: 'manual', startedAt: T0, maxDurationMs: 60_000 }] });
    assert.equal(h.ticks.length, 1);
    h.state('sleep', { sleepers: [] });
    assert.equal(h.ticks.length, 0);
  });
});
