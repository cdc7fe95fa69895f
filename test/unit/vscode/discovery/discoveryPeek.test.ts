// Restricted Mode reads the panel's discovery session without DiscoveryService.view(), which removes
// a round file it finds expired: an expired session is reported, and its file stays.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serializeRoundFile } from '../../../../src/core/discovery/roundFile';
import { peekDiscovery } from '../../../../src/vscode/discovery/discoveryPeek';
import { MemoryWorkspace } from '../../fakes/memoryWorkspace';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const TTL = 30 * 60_000;
const FILE = 'discovery/panel.md';

function roundFile(createdMs: number, answered = false): string {
  return serializeRoundFile({
    createdSec: Math.floor(createdMs / 1000),
    round: 1,
    originalRequest: 'build me a CRM',
    rounds: [{ questions: '1. Who uses it?\n2. On a phone?', ...(answered ? { answer: '1. Bakers' } : {}) }],
  });
}

describe('peekDiscovery', () => {
  test('no round file: nothing to show', async () => {
    const ws = new MemoryWorkspace();
    assert.deepEqual(await peekDiscovery(ws.store, 'panel', T0, TTL), { kind: 'none' });
  });

  test('a live session is shown as DiscoveryService.view() shows it', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path(FILE), roundFile(T0 - 60_000));
    const peek = await peekDiscovery(ws.store, 'panel', T0, TTL);
    assert.equal(peek.kind, 'live');
    if (peek.kind !== 'live') return;
    assert.equal(peek.view.originalRequest, 'build me a CRM');
    assert.equal(peek.view.state, 'awaiting-answers');
    assert.deepEqual(peek.view.rounds[0]?.questions, ['Who uses it?', 'On a phone?']);
  });

  test('an expired session is reported as expired, and its file is left as it was', async () => {
    const ws = new MemoryWorkspace();
    const text = roundFile(Date.UTC(2001, 0, 1), true);
    ws.fs.writeRaw(ws.path(FILE), text);
    const before = ws.fs.paths();
    assert.deepEqual(await peekDiscovery(ws.store, 'panel', T0, TTL), { kind: 'expired', request: 'build me a CRM' });
    assert.equal(ws.fs.text(ws.path(FILE)), text);
    assert.deepEqual(ws.fs.paths(), before, 'no audit log, no lock file');
  });

  test('a round file that is not one, or cannot be read, is unreadable with why', async () => {
    const ws = new MemoryWorkspace();
    ws.fs.writeRaw(ws.path(FILE), 'not a session');
    const peek = await peekDiscovery(ws.store, 'panel', T0, TTL);
    assert.equal(peek.kind, 'unreadable');
    const linked = new MemoryWorkspace();
    linked.fs.writeRaw('/etc/passwd', 'root:x:0:0');
    linked.fs.symlink(linked.path(FILE), '/etc/passwd');
    const refused = await peekDiscovery(linked.store, 'panel', T0, TTL);
    assert.equal(refused.kind, 'unreadable');
    assert.match(refused.kind === 'unreadable' ? refused.reason : '', /symbolic link/);
  });
});
