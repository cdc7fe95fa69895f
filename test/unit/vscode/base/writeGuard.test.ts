// Restricted Mode's backstop: the window's store sits on a port that refuses every change while the
// folder is not trusted. Driven here through the core services the panel and the commands call,
// each one's workspace must come out byte-for-byte unchanged; once trusted, the same store writes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DiscoveryService } from '../../../../src/core/discovery/discoveryService';
import { serializeRoundFile } from '../../../../src/core/discovery/roundFile';
import { Journal } from '../../../../src/core/journal/journal';
import { parseJournalEntry } from '../../../../src/core/journal/journalEntry';
import { parseRoleFile } from '../../../../src/core/roles/roleFile';
import { SleepLog } from '../../../../src/core/sleep/sleepLog';
import type { WorkspaceFs } from '../../../../src/core/storage/workspaceFs';
import { WorkspaceStore } from '../../../../src/core/storage/workspaceStore';
import { RestrictedModeError, writeGuardedFs } from '../../../../src/vscode/base/writeGuard';
import { FakeClock } from '../../../support/fakeClock';
import { MemoryWorkspaceFs } from '../../fakes/memoryWorkspaceFs';
import { JOURNAL_FILE, SLEEP_FILE } from '../../../../src/core/plan/layout';

const root = join(__dirname, '..', '..', '..', '..');
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const BRIEF = {
  summary: 'A CRM',
  problem: 'p',
  users: 'u',
  mvpScope: 'm',
  technology: 't',
  outOfScope: 'o',
  keyDecisions: 'k',
  constraints: 'c',
  text: 'One-line summary: A CRM',
};

function setup() {
  const fs = new MemoryWorkspaceFs();
  let trusted = false;
  const store = new WorkspaceStore(
    writeGuardedFs(fs, () => trusted),
    '/ws',
  );
  // What a trusted session left: an expired round file, the journal, a sleeper, a pending brief.
  fs.writeRaw(
    '/ws/.groundwork/discovery/panel.md',
    serializeRoundFile({
      createdSec: 1_000_000,
      round: 1,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: '1. Who uses it?' }],
    }),
  );
  fs.writeRaw(
    `/ws/.groundwork/${JOURNAL_FILE}`,
    `${JSON.stringify({ timestamp: '2026-11-20T10:00:00.000Z', title: 'Retry uploads', description: 'Once.' })}\n`,
  );
  fs.writeRaw(
    `/ws/.groundwork/${SLEEP_FILE}`,
    `${JSON.stringify({ event: 'started', agent: 'build-qa', mode: { kind: 'manual' }, startedAt: T0, maxDurationMs: 600_000 })}\n`,
  );
  fs.writeRaw('/ws/.groundwork/panel/brief.json', '{"request":"x"}\n');
  const snapshot = () => fs.paths().map((p) => `${p}=${fs.text(p) ?? ''}`);
  const role = parseRoleFile(
    'roles/build-discovery.md',
    readFileSync(join(root, 'roles', 'build-discovery.md'), 'utf8'),
  ).role!;
  const clock = new FakeClock(T0);
  const discovery = new DiscoveryService({
    store,
    llm: async () => assert.fail('no model call'),
    clock,
    role: async () => role,
    ttlMinutes: 30,
  });
  const journal = new Journal(store.log(JOURNAL_FILE, parseJournalEntry), clock);
  const sleep = new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), clock);
  return { fs, store, snapshot, discovery, journal, sleep, trust: () => (trusted = true) };
}

describe('writeGuardedFs: Restricted Mode changes nothing', () => {
  test('every write the panel and the commands reach is refused, and the workspace is unchanged', async () => {
    const { store, snapshot, discovery, journal, sleep } = setup();
    const before = snapshot();
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['sweep of expired sessions', () => discovery.cleanupExpired()],
      ['view of an expired session (it removes the file)', () => discovery.view('panel')],
      ['cancel', () => discovery.cancel('panel', 'en')],
      [
        'save the brief',
        () => discovery.saveBrief({ brief: BRIEF, originalRequest: 'build me a CRM', transcript: [] }),
      ],
      ['journal add', () => journal.append({ title: 'T', description: 'D' })],
      ['wake', () => sleep.recordWake('build-qa', 'woken from the panel')],
      ['write the pending brief', () => store.writeText('panel/brief.json', '{}')],
      ['discard the pending brief', () => store.remove('panel/brief.json')],
      ['take the lock', () => store.withLock(async () => undefined)],
    ];
    for (const [name, attempt] of attempts) {
      await assert.rejects(attempt(), RestrictedModeError, name);
    }
    assert.deepEqual(snapshot(), before);
  });

  test('reads pass: what the panel shows in Restricted Mode', async () => {
    const { store, journal, sleep } = setup();
    assert.match((await store.readText('discovery/panel.md')) ?? '', /ORIGINAL_REQUEST: build me a CRM/);
    assert.deepEqual(await store.list('discovery'), ['panel.md']);
    assert.equal((await store.info('panel/brief.json'))?.kind, 'file');
    assert.equal((await journal.load()).records[0]?.title, 'Retry uploads');
    assert.deepEqual(
      (await sleep.sleepers(T0)).map((s) => s.agent),
      ['build-qa'],
    );
  });

  test('the refusal says what happened and what to do', async () => {
    const { store } = setup();
    await assert.rejects(store.writeText('panel/brief.json', '{}'), {
      name: 'RestrictedModeError',
      message: /changes nothing in Restricted Mode.*Trust the folder \(Manage Workspace Trust\) to continue/,
    });
  });

  test('once the folder is trusted, the same store writes (the guard asks at each call)', async () => {
    const { fs, discovery, journal, trust } = setup();
    await assert.rejects(journal.append({ title: 'T', description: 'D' }), RestrictedModeError);
    trust();
    await journal.append({ title: 'T', description: 'D' });
    assert.deepEqual(await discovery.cleanupExpired(), ['panel']);
    assert.equal(fs.text('/ws/.groundwork/discovery/panel.md'), undefined);
    assert.match(fs.text(`/ws/.groundwork/${JOURNAL_FILE}`) ?? '', /"title":"T"/);
  });

  test('fails closed: a method the port gains later counts as a write', async () => {
    const calls: string[] = [];
    const port = {
      read: async () => (calls.push('read'), undefined),
      futureWrite: async () => calls.push('futureWrite'),
    } as unknown as WorkspaceFs & { futureWrite(path: string): Promise<void> };
    const guarded = writeGuardedFs(port, () => false) as typeof port;
    await guarded.read('/ws/.groundwork/x', 10);
    await assert.rejects(guarded.futureWrite('/ws/.groundwork/x'), RestrictedModeError);
    assert.deepEqual(calls, ['read']);
  });
});
