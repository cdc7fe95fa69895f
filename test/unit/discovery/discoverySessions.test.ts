// Session names and turns that meet: names that sanitise to the same file name must not share a
// conversation, and a second turn on a session whose turn is under way elsewhere is refused before
// it reaches the model.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DiscoveryService } from '../../../src/core/discovery/discoveryService';
import { DiscoveryError } from '../../../src/core/discovery/discoveryTypes';
import type { TurnOptions } from '../../../src/core/discovery/discoveryTypes';
import { parseRoleFile } from '../../../src/core/roles/roleFile';
import { until } from '../../support/until';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import type { Turn } from '../../support/scriptedModel';
import { discoveryModel } from './scriptedLlm';

const ROLE = parseRoleFile(
  'roles/build-discovery.md',
  readFileSync(join(__dirname, '..', '..', '..', 'roles', 'build-discovery.md'), 'utf8'),
).role!;
const Q = 'DISCOVERY_QUESTIONS\n1. Who will use it?\n2. What must it do first?';
const opts = (): TurnOptions => ({ lang: 'en', signal: new AbortController().signal });

function service(ws: MemoryWorkspace, script: Turn[]) {
  const llm = discoveryModel(script);
  return {
    llm,
    service: new DiscoveryService({
      store: ws.store,
      llm,
      clock: new FakeClock(Date.UTC(2026, 10, 24)),
      role: async () => ROLE,
      ttlMinutes: 30,
    }),
  };
}

describe('discovery: one conversation per session name', () => {
  test("--session 'a/b' then --session 'a-b': two conversations, the second's request is not round 1's answer", async () => {
    const ws = new MemoryWorkspace();
    const { llm, service: s } = service(ws, [{ text: Q }, { text: Q }]);
    await s.handle('a/b', 'build me a CRM', opts());
    const second = await s.handle('a-b', 'build me a bakery shop', opts());
    assert.equal(second.outcome.kind, 'questions');
    assert.equal((await s.view('a/b'))?.originalRequest, 'build me a CRM');
    assert.equal((await s.view('a-b'))?.originalRequest, 'build me a bakery shop');
    assert.equal(llm.requests[1]!.messages.length, 1, 'the second request starts its own conversation');
  });

  test('names that differ only in case are two conversations too', async () => {
    const ws = new MemoryWorkspace();
    const { service: s } = service(ws, [{ text: Q }, { text: Q }]);
    await s.handle('cli', 'build me a CRM', opts());
    await s.handle('CLI', 'build me a bakery shop', opts());
    assert.equal((await s.view('cli'))?.originalRequest, 'build me a CRM');
    assert.equal((await s.view('CLI'))?.originalRequest, 'build me a bakery shop');
  });

  test('a file that records another session name is refused, not continued', async () => {
    const ws = new MemoryWorkspace();
    const { service: s } = service(ws, [{ text: Q }]);
    await s.handle('a/b', 'build me a CRM', opts());
    const file = ws.fs.paths().find((p) => p.includes('/discovery/a-b-'))!;
    ws.fs.writeRaw(file, ws.fs.text(file)!.replace('SESSION: "a/b"', 'SESSION: "someone else"'));
    await assert.rejects(
      s.view('a/b'),
      (e: unknown) =>
        e instanceof DiscoveryError &&
        e.kind === 'invalid' &&
        /holds the discovery session "someone else", not "a\/b"/.test(e.message),
    );
  });

  test('session names with line breaks, control or only invisible characters are refused', async () => {
    const { llm, service: s } = service(new MemoryWorkspace(), []);
    for (const name of ['a\nCREATED: 0', '\u200b\u200d', 'a\u202eb', 'x'.repeat(201)]) {
      await assert.rejects(
        s.handle(name, 'build me a CRM', opts()),
        (e: unknown) => e instanceof DiscoveryError && e.kind === 'invalid',
      );
    }
    assert.equal(llm.requests.length, 0);
  });
});

describe('discovery: input of invisible characters', () => {
  test('a message of zero-width and direction characters is refused like an empty one, before any call', async () => {
    const { llm, service: s } = service(new MemoryWorkspace(), []);
    await assert.rejects(
      s.handle('s1', '\u200b\u200d\u202e\u2066\ufeff \u2069', opts()),
      (e: unknown) => e instanceof DiscoveryError && e.kind === 'empty' && /only invisible characters/.test(e.message),
    );
    assert.equal(llm.requests.length, 0);
  });
});

describe('discovery: one turn at a time, across windows', () => {
  test('a second answer while the first one waits for the model is refused before anything is sent', async () => {
    const ws = new MemoryWorkspace();
    const first = service(ws, [{ text: Q }, { hang: '' }]);
    await first.service.handle('s1', 'build me a CRM', opts());
    const abort = new AbortController();
    const waiting = first.service.handle('s1', '1. Me\n2. Contacts', { lang: 'en', signal: abort.signal });
    await until(
      'the first answer reached the model',
      () => (first.llm.requests.length === 2 ? true : undefined),
      5_000,
    );
    // Another window: its own service (and busy set) over the same workspace.
    const other = service(ws, [{ text: Q }]);
    await assert.rejects(
      other.service.handle('s1', '1. My team\n2. Deals', opts()),
      (e: unknown) => e instanceof DiscoveryError && e.kind === 'busy' && /waiting for the model/.test(e.message),
    );
    assert.equal(other.llm.requests.length, 0, 'nothing was sent for the second answer');
    abort.abort();
    await waiting;
  });
});
