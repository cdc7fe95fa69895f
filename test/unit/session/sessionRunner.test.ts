import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUDIT_FILE } from '../../../src/core/plan/layout';
import { replaceIfUnchanged } from '../../../src/core/session/savedState';
import { SessionRunner } from '../../../src/core/session/sessionRunner';
import type { Machine } from '../../../src/core/session/sessionRunner';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { fakeToolBox, toolScript } from './toolScript';

/** A counter machine: 'add' emits a log effect and, below 3, a 'tick' whose reply adds again. */
type Ev = { type: 'add' } | { type: 'bad' };
type Ef = { type: 'log'; n: number } | { type: 'tick' } | { type: 'reject'; reason: string };
const counter: Machine<number, Ev, Ef> = {
  step(state, event) {
    if (event.type === 'bad') return { state, effects: [{ type: 'reject', reason: 'cannot take bad' }] };
    const next = state + 1;
    return {
      state: next,
      effects: next < 3 ? [{ type: 'log', n: next }, { type: 'tick' }] : [{ type: 'log', n: next }],
    };
  },
};

function runner(ws = new MemoryWorkspace(), llm = toolScript([])) {
  return new SessionRunner({
    store: ws.store,
    llm,
    clock: new FakeClock(Date.parse('2026-11-24T10:00:00Z')),
    tools: { box: fakeToolBox(), root: '/ws', cache: () => ({ get: (_k, make) => make() }) },
  });
}

describe('SessionRunner.drive', () => {
  it('carries out effects in order, each reply stepping the machine and queueing behind the rest', async () => {
    const seen: string[] = [];
    const final = await runner().drive(counter, 0, { event: { type: 'add' } }, async (effect, state) => {
      seen.push(`${effect.type}${effect.type === 'log' ? effect.n : ''}@${state}`);
      return effect.type === 'tick' ? { type: 'add' } : undefined;
    });
    assert.equal(final, 3);
    assert.deepEqual(seen, ['log1@1', 'tick@1', 'log2@2', 'tick@2', 'log3@3']);
  });

  it('starts from effects already due, without an event', async () => {
    const seen: string[] = [];
    const final = await runner().drive(
      counter,
      5,
      { effects: [{ type: 'log', n: 0 }] },
      async (effect) => void seen.push(effect.type),
    );
    assert.deepEqual([final, seen], [5, ['log']]);
  });

  it('an invalid event comes back as data (a reject effect), the state unchanged', async () => {
    const seen: Ef[] = [];
    const final = await runner().drive(
      counter,
      1,
      { event: { type: 'bad' } },
      async (effect) => void seen.push(effect),
    );
    assert.deepEqual([final, seen], [1, [{ type: 'reject', reason: 'cannot take bad' }]]);
  });
});

describe('SessionRunner.exclusive', () => {
  const busy = () => new Error('busy!');

  it('a second step of the same session in this process is refused before it starts', async () => {
    const r = runner();
    let release!: () => void;
    const first = r.exclusive('s-1', busy, () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(r.isBusy('s-1'), true);
    let ran = false;
    await assert.rejects(
      r.exclusive('s-1', busy, async () => void (ran = true)),
      /busy!/,
    );
    assert.equal(ran, false);
    assert.equal(await r.exclusive('s-2', busy, async () => 'other session'), 'other session');
    release();
    assert.equal(await first, 'first');
    assert.equal(r.isBusy('s-1'), false);
  });

  it('a step held by another window (another runner on the same workspace) is refused as busy', async () => {
    const ws = new MemoryWorkspace();
    const a = runner(ws);
    const b = runner(ws);
    let release!: () => void;
    const held = a.exclusive('s', busy, () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(
      b.exclusive('s', busy, async () => undefined),
      /busy!/,
    );
    release();
    await held;
    assert.equal(await b.exclusive('s', busy, async () => 'after'), 'after');
  });

  it('an error in the step is passed on and frees the session', async () => {
    const r = runner();
    await assert.rejects(
      r.exclusive('s', busy, async () => Promise.reject(new Error('inner'))),
      /inner/,
    );
    assert.equal(r.isBusy('s'), false);
  });
});

describe('replaceIfUnchanged (the save with a compare)', () => {
  const conflict = () => new Error('changed elsewhere');
  const cases: {
    name: string;
    onDisk: string | undefined;
    expected: string | undefined;
    next: string | undefined;
    after: string | undefined;
    error?: RegExp;
  }[] = [
    { name: 'unchanged: replaced', onDisk: 'a', expected: 'a', next: 'b', after: 'b' },
    { name: 'new file: written', onDisk: undefined, expected: undefined, next: 'b', after: 'b' },
    {
      name: 'changed meanwhile: refused, the other writer wins',
      onDisk: 'theirs',
      expected: 'a',
      next: 'b',
      after: 'theirs',
      error: /changed elsewhere/,
    },
    {
      name: 'created meanwhile: refused',
      onDisk: 'theirs',
      expected: undefined,
      next: 'b',
      after: 'theirs',
      error: /changed elsewhere/,
    },
    {
      name: 'removed meanwhile: refused',
      onDisk: undefined,
      expected: 'a',
      next: 'b',
      after: undefined,
      error: /changed elsewhere/,
    },
    { name: 'remove when unchanged', onDisk: 'a', expected: 'a', next: undefined, after: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const ws = new MemoryWorkspace();
      if (c.onDisk !== undefined) await ws.store.writeText('plans/p/state.json', c.onDisk);
      const save = replaceIfUnchanged(ws.store, 'plans/p/state.json', c.expected, c.next, 1024, conflict);
      if (c.error) await assert.rejects(save, c.error);
      else await save;
      assert.equal(await ws.store.readText('plans/p/state.json'), c.after);
    });
  }
});

describe('SessionRunner.call', () => {
  it('runs tool turns and records each tool call in the audit log', async () => {
    const ws = new MemoryWorkspace();
    const llm = toolScript([
      {
        tools: [
          { name: 'read_file', input: { path: 'README.md' } },
          { name: 'write_file', input: { path: 'x' } },
        ],
      },
      { text: 'answer' },
    ]);
    const r = runner(ws, llm);
    const role = {
      name: 'build-discovery',
      prompt: 'S',
      model: { tier: 'complex' as const },
      tools: ['read_file'],
      maxTurns: 4,
    };
    const reply = await r.call(
      role,
      { messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 },
      new AbortController().signal,
      {},
      { kind: 'discovery', what: 'DISCOVERY', name: 's1' },
    );
    assert.equal(reply.text, 'answer');
    const audit = (ws.lines(AUDIT_FILE) ?? []).map(
      (l) => JSON.parse(l) as { kind: string; status: string; detail: string; input: string },
    );
    assert.deepEqual(
      audit.map((e) => [e.kind, e.status, e.detail.split(' (')[0]]),
      [
        ['discovery.tool', 'ok', 'build-discovery: read README.md'],
        ['discovery.tool', 'error', 'build-discovery: wrote x'],
      ],
    );
    assert.match(audit[0]!.input, /DISCOVERY/);
  });

  it('usageFields: usage, model and cost for a priced model, nothing for none', () => {
    const r = runner();
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
    const fields = r.usageFields('claude-sonnet-4-6', usage);
    assert.equal(fields.model, 'claude-sonnet-4-6');
    assert.ok((fields.costUsd ?? 0) > 0);
    assert.deepEqual(r.usageFields(undefined, undefined), {});
  });
});
