// `.groundwork/panel/brief.json` is a file a cloned repository can plant: the parser takes a brief
// only when every field has its type, size and characters, refuses anything else with a reason,
// and never throws, whatever it is given.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openWorkspaceStore } from '../../../../src/core/node/openWorkspace';
import {
  parsePendingBrief,
  planFileOf,
  PENDING_BRIEF_MAX_BYTES,
  readPendingBrief,
  type PendingBrief,
} from '../../../../src/vscode/discovery/pendingBrief';

const VALID: PendingBrief = {
  request: 'build me a CRM',
  brief: {
    summary: 'A CRM',
    problem: 'p',
    users: 'u',
    mvpScope: 'm',
    technology: 't',
    outOfScope: 'o',
    keyDecisions: 'k',
    constraints: 'c',
  },
  transcript: [
    { round: 1, questions: ['Who uses it?', 'On a phone?'], answer: '1. Bakers' },
    { round: 2, questions: ['How many customers?'] },
  ],
  message: 'The brief is ready.',
  savedAt: '.groundwork/plans/a-crm/idea-brief.md',
};

function refused(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const result = parsePendingBrief(text);
  assert.equal(result.ok, false, `accepted: ${text.slice(0, 200)}`);
  return result.ok ? '' : result.reason;
}

const withField = (key: string, value: unknown) => ({ ...VALID, [key]: value });
const withRound = (round: unknown) => ({ ...VALID, transcript: [round] });

describe('parsePendingBrief: what the panel writes', () => {
  test('reads back a brief as the panel writes it, saved or not, with or without the raw text', () => {
    assert.deepEqual(parsePendingBrief(JSON.stringify(VALID, null, 2) + '\n'), { ok: true, value: VALID });
    const { savedAt: _saved, ...unsaved } = VALID;
    assert.deepEqual(parsePendingBrief(JSON.stringify({ ...unsaved, raw: 'The model wrote no fields.' })), {
      ok: true,
      value: { ...unsaved, raw: 'The model wrote no fields.' },
    });
  });

  test('keeps texts as they are (markup, quotes, newlines, other scripts): the panel shows them as text', () => {
    const request = '<img src=x onerror=alert(1)> "quoted"\nЗдравствуйте 👋';
    const result = parsePendingBrief(JSON.stringify({ ...VALID, request }));
    assert.ok(result.ok);
    assert.equal(result.value.request, request);
  });

  test('a file at the largest sizes the panel can write still reads', () => {
    const big = {
      ...VALID,
      request: 'r'.repeat(256 * 1024),
      transcript: [1, 2, 3].map((round) => ({
        round,
        questions: ['q'.repeat(60_000)],
        answer: 'a'.repeat(256 * 1024),
      })),
    };
    assert.equal(parsePendingBrief(JSON.stringify(big)).ok, true);
  });
});

describe('parsePendingBrief: savedAt, which "Open Plan" opens', () => {
  const hostile = [
    '.groundwork/../../../../etc/passwd',
    '/etc/passwd',
    '.groundwork/plans/../../../etc/passwd',
    '.groundwork/plans/a-crm/../../../etc/idea-brief.md',
    '.groundwork\\plans\\a-crm\\idea-brief.md',
    '.groundwork/plans/a-crm\\..\\..\\idea-brief.md',
    'C:\\Windows\\win.ini',
    'C:/groundwork/plans/a-crm/idea-brief.md',
    '\\\\server\\share\\idea-brief.md',
    '.groundwork/plans/%2e%2e/idea-brief.md',
    '.groundwork%2fplans%2fa-crm%2fidea-brief.md',
    '.groundwork/plans/a-crm/idea-brief.md\u0000.png',
    '.groundwork/plans/a-crm/idea-brief.md\n',
    ' .groundwork/plans/a-crm/idea-brief.md',
    '.groundwork/plans/A-CRM/idea-brief.md',
    '.groundwork/plans/-crm/idea-brief.md',
    '.groundwork/plans/a.crm/idea-brief.md',
    `.groundwork/plans/${'a'.repeat(65)}/idea-brief.md`,
    '.groundwork/plans/a-crm/00-brainstorming.md',
    '.groundwork/plans/a-crm/',
    '.groundwork/plans//idea-brief.md',
    'file:///etc/passwd',
    'https://example.com/idea-brief.md',
    '',
  ];
  for (const savedAt of hostile) {
    test(`refuses ${JSON.stringify(savedAt).slice(0, 60)}`, () => {
      assert.match(refused(withField('savedAt', savedAt)), /savedAt/);
      assert.equal(planFileOf(savedAt), undefined);
    });
  }

  test('accepts exactly .groundwork/plans/<slug>/idea-brief.md, and says which plan file it is', () => {
    assert.deepEqual(planFileOf('.groundwork/plans/a-crm/idea-brief.md'), {
      slug: 'a-crm',
      rel: 'plans/a-crm/idea-brief.md',
    });
    assert.deepEqual(planFileOf(`.groundwork/plans/${'a'.repeat(64)}/idea-brief.md`), {
      slug: 'a'.repeat(64),
      rel: `plans/${'a'.repeat(64)}/idea-brief.md`,
    });
  });

  test('a savedAt that is not text is refused', () => {
    for (const v of [null, 42, ['.groundwork/plans/a/idea-brief.md'], { path: 'x' }, true])
      assert.match(refused(withField('savedAt', v)), /field "savedAt" must be text/);
  });
});

describe('parsePendingBrief: wrong shapes', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"request": ', /not valid JSON/],
    ['empty', '', /not valid JSON/],
    ['null', null, /the file must be a JSON object/],
    ['a list', [VALID], /the file must be a JSON object/],
    ['a string', 'just text', /not valid JSON/],
    ['a JSON string', JSON.stringify('text'), /must be a JSON object/],
    ['a number', '42', /must be a JSON object/],
    ['request missing', (({ request: _r, ...rest }) => rest)(VALID), /field "request" must be text/],
    ['request a number', withField('request', 7), /field "request" must be text/],
    ['message an object', withField('message', { text: 'x' }), /field "message" must be text/],
    ['brief missing', (({ brief: _b, ...rest }) => rest)(VALID), /field "brief" must be an object/],
    ['brief a string', withField('brief', 'A CRM'), /field "brief" must be an object/],
    ['brief a list', withField('brief', ['A CRM']), /field "brief" must be an object/],
    [
      'a brief field missing',
      withField('brief', { ...VALID.brief, constraints: undefined }),
      /field "brief.constraints" must be text/,
    ],
    ['a brief field a number', withField('brief', { ...VALID.brief, users: 5 }), /field "brief.users" must be text/],
    ['an unknown brief field', withField('brief', { ...VALID.brief, budget: 'lots' }), /unknown field "budget"/],
    ['raw a list', withField('raw', ['x']), /field "raw" must be text/],
    ['transcript missing', (({ transcript: _t, ...rest }) => rest)(VALID), /field "transcript" must be a list/],
    ['transcript an object', withField('transcript', { 0: {} }), /field "transcript" must be a list/],
    [
      'too many rounds',
      withField(
        'transcript',
        Array.from({ length: 10 }, () => VALID.transcript[1]),
      ),
      /at most 9 rounds/,
    ],
    ['a round that is a string', withRound('round 1'), /transcript\[0\] must be an object/],
    ['a round that is null', withRound(null), /transcript\[0\] must be an object/],
    [
      'questions not a list',
      withRound({ round: 1, questions: 'not-an-array' }),
      /transcript\[0\]\.questions must be a list/,
    ],
    [
      'questions holding a number',
      withRound({ round: 1, questions: ['ok', 3] }),
      /transcript\[0\]\.questions must be a list of at most 500 texts/,
    ],
    [
      'questions holding an object',
      withRound({ round: 1, questions: [{ toString: 'x' }] }),
      /questions must be a list/,
    ],
    ['too many questions', withRound({ round: 1, questions: Array.from({ length: 501 }, () => 'q') }), /at most 500/],
    ['round a string', withRound({ round: '1', questions: [] }), /transcript\[0\]\.round must be a whole number/],
    ['round a fraction', withRound({ round: 1.5, questions: [] }), /round must be a whole number/],
    ['round zero', withRound({ round: 0, questions: [] }), /round must be a whole number/],
    ['round huge', withRound({ round: 1e308, questions: [] }), /round must be a whole number/],
    ['answer a list', withRound({ round: 1, questions: [], answer: ['a'] }), /transcript\[0\]\.answer" must be text/],
    [
      'an unknown round field',
      withRound({ round: 1, questions: [], onclick: 'x' }),
      /transcript\[0\] has an unknown field "onclick"/,
    ],
    ['an unknown top field', withField('html', '<b>'), /unknown field "html"/],
  ];
  for (const [name, value, reason] of cases) {
    test(name, () => assert.match(refused(value), reason));
  }
});

describe('parsePendingBrief: sizes and characters', () => {
  test('a text over its limit is refused with the limit', () => {
    assert.match(
      refused(withField('request', 'x'.repeat(256 * 1024 + 1))),
      /field "request" is 262145 characters; the limit is 262144/,
    );
    assert.match(
      refused(withField('brief', { ...VALID.brief, problem: 'x'.repeat(64 * 1024 + 1) })),
      /field "brief.problem" is \d+ characters/,
    );
    assert.match(
      refused(withRound({ round: 1, questions: ['q'.repeat(64 * 1024 + 1)] })),
      /transcript\[0\]\.questions\[0\] is \d+ characters/,
    );
  });

  test('a file over the cap is refused before it is parsed', () => {
    const huge = ' '.repeat(PENDING_BRIEF_MAX_BYTES) + JSON.stringify(VALID);
    assert.match(
      refused(huge),
      new RegExp(`is ${huge.length} characters; a brief kept for the panel is at most ${PENDING_BRIEF_MAX_BYTES}`),
    );
  });

  test('10 MB is refused for its size, not parsed', () => {
    assert.match(
      refused('['.repeat(10 * 1024 * 1024)),
      /is 10485760 characters; a brief kept for the panel is at most/,
    );
  });

  test('a NUL character in any text is refused', () => {
    assert.match(refused(withField('request', 'a\u0000b')), /field "request" holds a NUL character/);
    assert.match(refused(withField('brief', { ...VALID.brief, summary: '\u0000' })), /brief.summary" holds a NUL/);
    assert.match(refused(withRound({ round: 1, questions: ['q\u0000'] })), /questions\[0\] holds a NUL/);
  });

  test('absurd nesting does not overflow into a throw', () => {
    const deep = '{"request":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}';
    assert.equal(parsePendingBrief(deep).ok, false);
  });
});

describe('parsePendingBrief: prototype pollution', () => {
  test('a __proto__, constructor or prototype key is an unknown field, and nothing is polluted', () => {
    const top = `{"__proto__":{"polluted":"yes"},${JSON.stringify(VALID).slice(1)}`;
    assert.match(refused(top), /unknown field "__proto__"/);
    const inBrief = JSON.stringify(VALID).replace('"summary"', '"__proto__":{"isAdmin":true},"summary"');
    assert.match(refused(inBrief), /field "brief" has an unknown field "__proto__"/);
    const inRound = JSON.stringify(VALID).replace('"round":1', '"constructor":{"prototype":{"x":1}},"round":1');
    assert.match(refused(inRound), /transcript\[0\] has an unknown field "constructor"/);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(({} as Record<string, unknown>)['isAdmin'], undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'x'), false);
  });

  test('an accepted brief is a fresh plain object holding only the known fields', () => {
    const result = parsePendingBrief(JSON.stringify(VALID));
    assert.ok(result.ok);
    assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
    assert.deepEqual(Object.keys(result.value).sort(), ['brief', 'message', 'request', 'savedAt', 'transcript']);
  });

  test('a field name shown in a reason is short and printable', () => {
    const reason = refused(`{"${'\\u202e'.repeat(3)}${'k'.repeat(100)}":1}`);
    assert.ok(!/[\u202e]/.test(reason), reason);
    assert.match(reason, /"\?\?\?k+…"/);
  });
});

describe('parsePendingBrief: fuzzing', () => {
  /** A small, seeded generator: the same inputs every run. */
  function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const rand = random(9);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const ATOMS: unknown[] = [
    null,
    true,
    0,
    -1,
    1.5,
    1e308,
    '',
    'x',
    '\u0000',
    '..',
    '__proto__',
    [],
    {},
    ['a'],
    { round: 1 },
  ];
  const KEYS = [
    'request',
    'brief',
    'raw',
    'transcript',
    'message',
    'savedAt',
    'round',
    'questions',
    'answer',
    'summary',
    '__proto__',
    'constructor',
    'x',
  ];

  function value(depth: number): unknown {
    if (depth <= 0 || rand() < 0.3) return pick(ATOMS);
    if (rand() < 0.5) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth - 1));
    return Object.fromEntries(Array.from({ length: Math.floor(rand() * 5) }, () => [pick(KEYS), value(depth - 1)]));
  }

  /** The valid brief with one field, somewhere, replaced by something else. */
  function mutated(): string {
    const copy = JSON.parse(JSON.stringify(VALID)) as Record<string, unknown>;
    const paths: Array<(v: unknown) => void> = [
      (v) => (copy[pick(['request', 'brief', 'raw', 'transcript', 'message', 'savedAt', 'extra'])] = v),
      (v) => ((copy['brief'] as Record<string, unknown>)[pick(['summary', 'users', 'constraints', 'other'])] = v),
      (v) => ((copy['transcript'] as unknown[])[Math.floor(rand() * 3)] = v),
      (v) =>
        ((copy['transcript'] as Array<Record<string, unknown>>)[0]![pick(['round', 'questions', 'answer', 'x'])] = v),
    ];
    pick(paths)(value(3));
    return JSON.stringify(copy);
  }

  /** Bytes of a valid file cut or with characters changed: torn writes and hand edits. */
  function damaged(): string {
    const text = JSON.stringify(VALID);
    const at = Math.floor(rand() * text.length);
    return rand() < 0.5
      ? text.slice(0, at)
      : text.slice(0, at) + pick(['"', '}', ']', ',', '\\', '\u0000', 'x']) + text.slice(at + 1);
  }

  test('never throws, and whatever it accepts has the declared shape', () => {
    for (let i = 0; i < 3000; i++) {
      const input = i % 3 === 0 ? JSON.stringify(value(4)) : i % 3 === 1 ? mutated() : damaged();
      let result;
      try {
        result = parsePendingBrief(input);
      } catch (err) {
        assert.fail(`threw on ${input.slice(0, 200)}: ${String(err)}`);
      }
      if (!result.ok) {
        assert.equal(typeof result.reason, 'string');
        assert.ok(result.reason.length > 0 && result.reason.length < 300, result.reason);
        continue;
      }
      const v = result.value;
      assert.equal(typeof v.request, 'string');
      assert.equal(typeof v.message, 'string');
      for (const f of Object.values(v.brief)) assert.equal(typeof f, 'string');
      for (const r of v.transcript) {
        assert.ok(Number.isInteger(r.round));
        assert.ok(Array.isArray(r.questions) && r.questions.every((q) => typeof q === 'string'));
        assert.ok(r.answer === undefined || typeof r.answer === 'string');
      }
      assert.ok(v.savedAt === undefined || planFileOf(v.savedAt) !== undefined);
    }
  });

  test('never throws on values that are not text at all', () => {
    for (const v of [undefined, null, 42, {}, [], Symbol('s'), () => 1]) {
      assert.equal((parsePendingBrief as (x: unknown) => { ok: boolean })(v).ok, false);
    }
  });
});

describe('readPendingBrief on disk: what a cloned repository can plant at .groundwork/panel/brief.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'gw-brief-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  /** A fresh workspace whose brief.json is made by `plant` (given its path). */
  function workspace(plant: (file: string) => void) {
    const ws = join(root, `ws-${++n}`);
    mkdirSync(join(ws, '.groundwork', 'panel'), { recursive: true });
    plant(join(ws, '.groundwork', 'panel', 'brief.json'));
    return openWorkspaceStore(ws);
  }
  const damaged = async (plant: (file: string) => void) => {
    const read = await readPendingBrief(workspace(plant));
    assert.equal(read.kind, 'damaged');
    return read.kind === 'damaged' ? read.reason : '';
  };

  test('a brief as the panel writes it reads back; no file is no brief', async () => {
    assert.deepEqual(await readPendingBrief(workspace((f) => writeFileSync(f, JSON.stringify(VALID)))), {
      kind: 'ok',
      brief: VALID,
    });
    assert.deepEqual(await readPendingBrief(workspace(() => undefined)), { kind: 'none' });
  });

  test('a symbolic link to /etc/passwd is refused, naming the link', async () => {
    assert.match(
      await damaged((f) => symlinkSync('/etc/passwd', f)),
      /brief\.json.*symbolic link.*outside the \.groundwork folder/,
    );
  });

  test('a FIFO is refused without hanging', { skip: spawnSync('mkfifo', ['--version']).status !== 0 }, async () => {
    assert.match(await damaged((f) => spawnSync('mkfifo', [f])), /not a regular file/);
  });

  test('a folder in its place is refused', async () => {
    assert.match(await damaged((f) => mkdirSync(f)), /not a regular file/);
  });

  test('10 MB is refused for its size before it is read whole', async () => {
    assert.match(
      await damaged((f) => writeFileSync(f, Buffer.alloc(10 * 1024 * 1024, 0x20))),
      /larger|too large|over/i,
    );
  });

  test('traversal in savedAt is refused', async () => {
    assert.match(
      await damaged((f) =>
        writeFileSync(f, JSON.stringify({ ...VALID, savedAt: '.groundwork/../../../../etc/passwd' })),
      ),
      /savedAt/,
    );
  });
});
