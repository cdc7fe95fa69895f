// Fuzzing the files a session resumes from — the brainstorm's `.brainstorm.json`, its context file
// and discovery's round file — with hostile texts and with mutations of valid files. Each parser
// returns a value in its schema or says the file is damaged (its own error, nothing else), and no
// text of the file reaches a prompt outside a data block.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { coordinatorPrompt, inquisitorPrompt } from '../../../src/core/brainstorm/brainstormPrompt';
import { BrainstormError, CONTEXT_SCHEMA_VERSION } from '../../../src/core/brainstorm/brainstormTypes';
import type { BrainstormSession } from '../../../src/core/brainstorm/brainstormTypes';
import { parseContextFile, renderContextFile, toContext } from '../../../src/core/brainstorm/contextFile';
import { proseSummary, SUMMARY_TEXT_MAX_BYTES } from '../../../src/core/brainstorm/harvest';
import { parseSession, serializeSession } from '../../../src/core/brainstorm/sessionFile';
import { buildDiscoveryPrompt } from '../../../src/core/discovery/discoveryPrompt';
import { parseRoundFile, serializeRoundFile } from '../../../src/core/discovery/roundFile';
import type { RoundFileData } from '../../../src/core/discovery/roundFile';
import { CAP_BYTES, utf8Length } from '../../../src/core/prompt/cap';
import { splitPrompt } from '../prompt/dataBlocks';
import { MARKER, RUNS, anyJson, hostileTexts, jsonMutation, mutation } from './arbitraries';

const WHERE = '.groundwork/plans/fuzz/.brainstorm.json';
const places = { state: WHERE, answers: '.groundwork/plans/fuzz/.workers/user.ndjson' };

/** A complete brainstorm: every kind of text a session file holds has a slot. */
function session(texts: string[]): BrainstormSession {
  const t = (i: number) => texts[i % texts.length]!;
  return {
    slug: 'fuzz',
    topic: t(0),
    seed: { slug: 'seed-plan', file: 'idea-brief.md', text: t(1) },
    createdAt: Date.UTC(2026, 10, 24),
    minRounds: 1,
    maxRounds: 3,
    inquisitors: {
      ux: { status: 'success' },
      technical: { status: 'parse_error', detail: t(2) },
      'edge-cases': { status: 'timeout', detail: t(3) },
    },
    rounds: [
      {
        round: 1,
        questions: [
          { text: t(4), angle: 'ux', priority: 1 },
          { text: t(5), angle: 'edge-cases', priority: 5 },
        ],
        answers: [{ kind: 'answered', text: t(6) }, { kind: 'skipped' }],
      },
      {
        round: 2,
        questions: [{ text: t(7), angle: 'technical', priority: 3 }],
        answers: [{ kind: 'answered', text: t(8) }],
      },
    ],
    summary: { topic: t(9), keyInsights: [t(10)], decisions: [t(11), t(12)], openQuestions: [t(13)] },
    phase: { kind: 'complete' },
  };
}
const SLOTS = 14;

/** The same brainstorm, its summary kept as prose (the coordinator never wrote the JSON). */
function proseSession(texts: string[]): BrainstormSession {
  return { ...session(texts), summary: proseSummary(texts[0]!, texts[9 % texts.length]!) };
}

/** The session file parsed, or undefined when it is reported damaged; any other error fails. */
function parsedOrDamaged(text: string): BrainstormSession | undefined {
  try {
    return parseSession(text, WHERE);
  } catch (err) {
    if (err instanceof BrainstormError && err.kind === 'corrupt') return undefined;
    throw err;
  }
}

/** Every prompt a resumed brainstorm can send, each checked to keep MARKER inside data blocks. */
function assertPromptsKeepTextInBlocks(s: BrainstormSession): void {
  const prompts = [
    inquisitorPrompt(s, 'ux', places),
    inquisitorPrompt(s, 'edge-cases', places),
    coordinatorPrompt(s, 'follow-up', places),
    coordinatorPrompt(s, 'summarize', places),
  ];
  for (const prompt of prompts) {
    const { outside } = splitPrompt(prompt);
    assert.ok(!outside.includes(MARKER), `file text outside a data block:\n${outside.slice(0, 2000)}`);
  }
}

/** What the schema promises of a parsed session, checked apart from the parser. */
function assertInSchema(s: BrainstormSession): void {
  assert.match(s.slug, /^[a-z0-9][a-z0-9-]{0,63}$/);
  assert.ok(Number.isSafeInteger(s.minRounds) && s.minRounds >= 1 && s.minRounds <= s.maxRounds && s.maxRounds <= 20);
  for (const r of s.rounds) {
    assert.ok(r.questions.length >= 1 && r.questions.length <= 8);
    for (const q of r.questions)
      assert.ok(typeof q.text === 'string' && utf8Length(q.text) <= CAP_BYTES && Number.isInteger(q.priority));
    for (const a of r.answers ?? [])
      assert.ok(a.kind === 'skipped' || (typeof a.text === 'string' && utf8Length(a.text) <= CAP_BYTES));
  }
  if (s.seed)
    assert.ok(
      utf8Length(s.seed.text) <= 16 * 1024 &&
        /^[a-z0-9][a-z0-9-]*\.md$/.test(s.seed.file) &&
        /^[a-z0-9][a-z0-9-]{0,63}$/.test(s.seed.slug),
    );
  assert.ok(utf8Length(s.topic) <= 64 * 1024);
  for (const o of Object.values(s.inquisitors ?? {})) assert.ok(o.detail === undefined || utf8Length(o.detail) <= 1024);
  if ('error' in s.phase) assert.ok(utf8Length(s.phase.error) <= 8 * 1024);
  for (const list of s.summary ? [s.summary.keyInsights, s.summary.decisions, s.summary.openQuestions] : [])
    assert.ok(list.length <= 50 && list.every((x) => utf8Length(x) <= CAP_BYTES));
  if (s.summary?.format !== undefined) {
    assert.equal(s.summary.format, 'text');
    assert.ok(typeof s.summary.text === 'string' && utf8Length(s.summary.text) <= SUMMARY_TEXT_MAX_BYTES);
    assert.equal(s.summary.keyInsights.length + s.summary.decisions.length + s.summary.openQuestions.length, 0);
  } else if (s.summary !== undefined) {
    assert.equal(s.summary.text, undefined);
  }
  // What was read is what would be written: nothing outside the schema rode along.
  assert.deepEqual(parseSession(serializeSession(s), WHERE), s);
}

/** A file read back is damaged, or a session in its schema whose prompts keep its texts in blocks. */
function assertDamagedOrSound(text: string): void {
  const read = parsedOrDamaged(text);
  if (read === undefined) return;
  assertInSchema(read);
  assertPromptsKeepTextInBlocks(read);
}

describe('fuzz: the brainstorm session file', () => {
  test('hostile texts in every field: read back as written, and only ever inside data blocks', () => {
    fc.assert(
      fc.property(hostileTexts(SLOTS), (texts) => {
        const s = session(texts);
        const read = parsedOrDamaged(serializeSession(s));
        // A text of only invisible characters and MARKER's neighbours is still visible text.
        assert.ok(read !== undefined, 'a session Groundwork wrote reads back');
        assertInSchema(read);
        assertPromptsKeepTextInBlocks(read);
        assertPromptsKeepTextInBlocks({
          ...read,
          phase: { kind: 'summarizing' },
          summary: undefined,
        } as BrainstormSession);
      }),
      RUNS,
    );
  });

  test('a summary kept as prose, of hostile text: read back as written; mutated, damaged or in the schema', () => {
    fc.assert(
      fc.property(hostileTexts(SLOTS), fc.array(mutation, { maxLength: 3 }), (texts, changes) => {
        const s = proseSession(texts);
        const read = parsedOrDamaged(serializeSession(s));
        assert.ok(read !== undefined, 'a session Groundwork wrote reads back');
        assert.deepEqual(read, s);
        assertInSchema(read);
        assertPromptsKeepTextInBlocks(read);
        assertDamagedOrSound(changes.reduce((t, change) => change(t), serializeSession(s)));
      }),
      RUNS,
    );
  });

  test('mutated files (cut, bytes changed, lines moved): damaged, or a session in its schema', () => {
    fc.assert(
      fc.property(hostileTexts(SLOTS), fc.array(mutation, { minLength: 1, maxLength: 4 }), (texts, changes) => {
        const text = changes.reduce((t, change) => change(t), serializeSession(session(texts)));
        assertDamagedOrSound(text);
      }),
      RUNS,
    );
  });

  test('any field replaced by any JSON value: damaged, or a session in its schema', () => {
    const base = JSON.parse(serializeSession(session(['topic'])));
    fc.assert(
      fc.property(jsonMutation(base), (text) => {
        assertDamagedOrSound(text);
      }),
      RUNS,
    );
  });

  test('each field, one at a time, replaced by any JSON value (huge texts included): damaged, or in the schema', () => {
    const base = JSON.parse(serializeSession(session(['topic']))) as Record<string, unknown>;
    const paths = [
      ['topic'],
      ['slug'],
      ['createdAt'],
      ['minRounds'],
      ['maxRounds'],
      ['version'],
      ['seed'],
      ['seed', 'slug'],
      ['seed', 'file'],
      ['seed', 'text'],
      ['inquisitors', 'technical', 'detail'],
      ['inquisitors', 'ux', 'status'],
      ['rounds'],
      ['rounds', 0, 'questions', 0, 'text'],
      ['rounds', 0, 'questions', 0, 'priority'],
      ['rounds', 0, 'questions', 0, 'angle'],
      ['rounds', 0, 'answers', 0, 'text'],
      ['rounds', 1, 'round'],
      ['summary', 'topic'],
      ['summary', 'decisions'],
      ['summary', 'decisions', 0],
      ['phase'],
      ['phase', 'kind'],
      ['summary', 'format'],
      ['summary', 'text'],
    ];
    const prose = JSON.parse(serializeSession(proseSession(['topic']))) as Record<string, unknown>;
    const prosePaths = [
      ['summary', 'format'],
      ['summary', 'text'],
      ['summary', 'keyInsights'],
      ['summary', 'topic'],
      ['summary'],
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...paths).map((p) => [base, p] as const),
          fc.constantFrom(...prosePaths).map((p) => [prose, p] as const),
        ),
        anyJson,
        ([root, path], value) => {
          const copy = structuredClone(root) as any;
          let node = copy;
          for (const key of path.slice(0, -1)) node = node[key];
          node[path.at(-1)!] = value;
          assertDamagedOrSound(JSON.stringify(copy));
        },
      ),
      { numRuns: RUNS.numRuns * 2 },
    );
  });

  test('random text is reported damaged, never thrown at', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => void parsedOrDamaged(text)),
      RUNS,
    );
  });
});

describe('fuzz: the brainstorm context file', () => {
  const parsed = (text: string) => {
    try {
      return parseContextFile(text, '.groundwork/plans/fuzz/00-brainstorming.context.md');
    } catch (err) {
      if (err instanceof BrainstormError && (err.kind === 'corrupt' || err.kind === 'schema')) return undefined;
      throw err;
    }
  };

  test('hostile texts round-trip; mutations are damaged or in the schema', () => {
    fc.assert(
      fc.property(
        hostileTexts(SLOTS),
        fc.array(mutation, { maxLength: 3 }),
        fc.boolean(),
        (texts, changes, asProse) => {
          const written = renderContextFile(toContext(asProse ? proseSession(texts) : session(texts)));
          const clean = parsed(written);
          assert.ok(clean !== undefined, 'a context file Groundwork wrote reads back');
          assert.equal(clean.schemaVersion, CONTEXT_SCHEMA_VERSION);
          assert.deepEqual(clean, toContext(asProse ? proseSession(texts) : session(texts)));
          const read = parsed(changes.reduce((t, change) => change(t), written));
          if (read === undefined) return;
          assert.equal(read.schemaVersion, CONTEXT_SCHEMA_VERSION);
          assert.ok(
            read.summary.format === undefined
              ? read.summary.text === undefined
              : read.summary.format === 'text' && typeof read.summary.text === 'string',
          );
          assert.ok(
            Array.isArray(read.questions) &&
              read.questions.every((q) => typeof q.text === 'string' && typeof q.skipped === 'boolean'),
          );
          assert.deepEqual(parsed(renderContextFile(read)), read);
        },
      ),
      RUNS,
    );
  });
});

describe('fuzz: the discovery round file', () => {
  const data = (texts: string[], session?: string): RoundFileData => ({
    ...(session !== undefined ? { session } : {}),
    createdSec: 1_767_000_000,
    round: 2,
    originalRequest: texts[0]!,
    rounds: [
      { questions: texts[1]!, answer: texts[2]! },
      { questions: texts[3]!, answer: texts[4]! },
    ],
  });

  async function assertPromptKeepsTextInBlocks(d: RoundFileData): Promise<void> {
    const answered = d.rounds.filter((r) => r.answer !== undefined);
    for (const final of [false, true]) {
      const prompt = await buildDiscoveryPrompt(
        { round: answered.length + 1, final, request: d.originalRequest, rounds: answered },
        { lang: 'en', maxRounds: 3, keptIn: '.groundwork/discovery/x.md' },
      );
      for (const m of prompt.messages) {
        const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
        assert.ok(
          !splitPrompt(text).outside.includes(MARKER),
          `file text outside a data block in a ${m.role} message:\n${text.slice(0, 2000)}`,
        );
      }
    }
  }

  test('hostile texts and mutations: parsed or refused, never thrown; no text outside a data block', async () => {
    await fc.assert(
      fc.asyncProperty(hostileTexts(5), fc.array(mutation, { maxLength: 4 }), async (texts, changes) => {
        const text = changes.reduce((t, change) => change(t), serializeRoundFile(data(texts, 'a/b')));
        const parsed = parseRoundFile(text);
        if (!parsed.ok) {
          assert.equal(typeof parsed.reason, 'string');
          return;
        }
        const d = parsed.data;
        assert.ok(Number.isSafeInteger(d.createdSec) && d.createdSec >= 0 && d.round >= 1 && d.rounds.length >= 1);
        assert.ok(d.session === undefined || !/[\n\r]/.test(d.session));
        // Idempotent: what was read is what would be written, and reads back the same.
        const again = parseRoundFile(serializeRoundFile(d));
        assert.ok(again.ok);
        assert.deepEqual(again.data, d);
        await assertPromptKeepsTextInBlocks(d);
      }),
      RUNS,
    );
  });

  test('random text is refused with a reason, never thrown at', () => {
    fc.assert(
      fc.property(fc.string(), (text) => void parseRoundFile(text)),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.string(),
        (text) =>
          void parseRoundFile(
            `# Discovery Session\n\nCREATED: 1\nROUND: 1\nORIGINAL_REQUEST: ${text}\n\n## Round 1\n### Agent Questions\n${text}`,
          ),
      ),
      RUNS,
    );
  });
});
