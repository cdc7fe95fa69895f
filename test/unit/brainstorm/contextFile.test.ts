// The context file a later build reads: what it records of a session, that every text comes back
// exactly as written, that a newer or damaged file is refused with a message naming it, and the
// digest under the frontmatter.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { BrainstormError, CONTEXT_SCHEMA_VERSION, SKIPPED_ANSWER } from '../../../src/core/brainstorm/brainstormTypes';
import type {
  BrainstormContext,
  BrainstormRound,
  BrainstormSession,
} from '../../../src/core/brainstorm/brainstormTypes';
import {
  brainstormDigest,
  CONTEXT_FILE_MAX_BYTES,
  parseContextFile,
  renderContextFile,
  toContext,
} from '../../../src/core/brainstorm/contextFile';
import { cpuMsSince } from '../../support/cpuTime';

const WHERE = '.groundwork/plans/crm/00-brainstorming.context.md';

/** A complete two-round brainstorm, seeded from plan `crm-brief`; `over` replaces any part. */
function session(over: Partial<BrainstormSession> = {}): BrainstormSession {
  const rounds: BrainstormRound[] = [
    {
      round: 1,
      questions: [
        { text: 'Who will use it day to day?', angle: 'ux', priority: 1 },
        { text: 'Which database?', angle: 'technical', priority: 2 },
        { text: 'What if two agents edit one contact?', angle: 'edge-cases', priority: 4 },
      ],
      answers: [
        { kind: 'answered', text: 'Five agents, on phones.' },
        { kind: 'answered', text: 'Postgres.' },
        { kind: 'skipped' },
      ],
    },
    {
      round: 2,
      questions: [{ text: 'Must it work offline?', angle: 'technical', priority: 3 }],
      answers: [{ kind: 'answered', text: 'Yes, in open houses.' }],
    },
  ];
  return {
    slug: 'crm',
    topic: 'A CRM for realtors',
    seed: { slug: 'crm-brief', file: 'idea-brief.md', text: 'the brief' },
    createdAt: Date.UTC(2025, 0, 2, 9, 30),
    minRounds: 1,
    maxRounds: 5,
    inquisitors: {
      ux: { status: 'success' },
      technical: { status: 'success' },
      'edge-cases': { status: 'timeout', detail: 'no reply within 120 s' },
    },
    rounds,
    summary: {
      topic: 'A phone-first CRM for a small realty team',
      keyInsights: ['Agents work from phones'],
      decisions: ['Postgres behind a web app'],
      openQuestions: ['How is it priced?'],
    },
    phase: { kind: 'complete' },
    ...over,
  };
}

/** One round whose only question and answer are `text`, for round trips of awkward strings. */
function sessionWith(text: string): BrainstormSession {
  return session({
    topic: text,
    rounds: [{ round: 1, questions: [{ text, angle: 'ux', priority: 3 }], answers: [{ kind: 'answered', text }] }],
    summary: { topic: text, keyInsights: [text], decisions: [text, 'plain'], openQuestions: [text] },
  });
}

function frontmatterOf(file: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(file);
  assert.ok(m, 'the file starts with a frontmatter block');
  return parseYaml(m[1]!) as Record<string, unknown>;
}

/** The rendered file with its frontmatter data changed by `mutate` (the body kept). */
function withFrontmatter(mutate: (data: Record<string, any>) => void): string {
  const file = renderContextFile(toContext(session()));
  const data = frontmatterOf(file);
  mutate(data);
  return `---\n${stringifyYaml(data)}---\n\nbody\n`;
}

function parseError(text: string): BrainstormError {
  try {
    parseContextFile(text, WHERE);
  } catch (err) {
    assert.ok(err instanceof BrainstormError, `a BrainstormError, not ${String(err)}`);
    return err;
  }
  assert.fail('the file was accepted');
}

describe('toContext', () => {
  test('records every question with its answer or as skipped, the statuses, the seed and the summary', () => {
    const ctx = toContext(session());
    assert.deepEqual(ctx, {
      schemaVersion: 1,
      slug: 'crm',
      topic: 'A CRM for realtors',
      created: '2025-01-02T09:30:00.000Z',
      rounds: 2,
      inquisitorStatus: { ux: 'success', technical: 'success', 'edge-cases': 'timeout' },
      seededFrom: 'crm-brief',
      questions: [
        {
          round: 1,
          angle: 'ux',
          priority: 1,
          text: 'Who will use it day to day?',
          answer: 'Five agents, on phones.',
          skipped: false,
        },
        { round: 1, angle: 'technical', priority: 2, text: 'Which database?', answer: 'Postgres.', skipped: false },
        { round: 1, angle: 'edge-cases', priority: 4, text: 'What if two agents edit one contact?', skipped: true },
        {
          round: 2,
          angle: 'technical',
          priority: 3,
          text: 'Must it work offline?',
          answer: 'Yes, in open houses.',
          skipped: false,
        },
      ],
      summary: {
        keyInsights: ['Agents work from phones'],
        decisions: ['Postgres behind a web app'],
        openQuestions: ['How is it priced?'],
      },
    } satisfies BrainstormContext);
  });

  test('no seed, no inquisitor outcomes and no summary: no seeded_from, every angle empty, empty lists', () => {
    const { seed: _seed, inquisitors: _inq, summary: _sum, ...rest } = session();
    const ctx = toContext(rest);
    assert.equal('seededFrom' in ctx, false);
    assert.deepEqual(ctx.inquisitorStatus, { ux: 'empty', technical: 'empty', 'edge-cases': 'empty' });
    assert.deepEqual(ctx.summary, { keyInsights: [], decisions: [], openQuestions: [] });
    assert.deepEqual(parseContextFile(renderContextFile(ctx), WHERE), ctx);
  });

  test('a round still waiting for answers is refused, not written as unanswered', () => {
    const s = session();
    s.rounds[1] = { round: 2, questions: s.rounds[1]!.questions };
    assert.throws(
      () => toContext(s),
      (err: unknown) => err instanceof BrainstormError && err.kind === 'wrong-phase' && /round 2/.test(err.message),
    );
  });
});

describe('renderContextFile / parseContextFile', () => {
  test('the frontmatter has the snake_case fields a reader of the file expects', () => {
    const file = renderContextFile(toContext(session()));
    const data = frontmatterOf(file);
    assert.deepEqual(Object.keys(data), [
      'schema_version',
      'slug',
      'topic',
      'created',
      'rounds',
      'inquisitor_status',
      'seeded_from',
      'questions',
      'summary',
    ]);
    assert.equal(data['schema_version'], CONTEXT_SCHEMA_VERSION);
    assert.deepEqual(data['inquisitor_status'], { ux: 'success', technical: 'success', 'edge-cases': 'timeout' });
    assert.deepEqual(data['summary'], {
      key_insights: ['Agents work from phones'],
      decisions: ['Postgres behind a web app'],
      open_questions: ['How is it priced?'],
    });
    const questions = data['questions'] as Record<string, unknown>[];
    assert.deepEqual(questions[2], {
      round: 1,
      angle: 'edge-cases',
      priority: 4,
      text: 'What if two agents edit one contact?',
      skipped: true,
    });
    assert.ok(file.startsWith('---\nschema_version: 1\n'), 'schema_version is the first line, where a person looks');
  });

  test('round trip', () => {
    const ctx = toContext(session());
    assert.deepEqual(parseContextFile(renderContextFile(ctx), WHERE), ctx);
  });

  const NASTY: [string, string][] = [
    ['a document marker line', 'before\n---\nafter'],
    ['only a marker', '---'],
    ['a document end marker', 'a\n...\nb'],
    ['key: value', 'key: value'],
    ['a comment', '# not a comment'],
    ['a hash after a space', 'C # sharp'],
    ['quotes', `"double" and 'single' and \`back\``],
    ['newlines, blank lines and a trailing newline', 'one\n\nthree\n'],
    ['two trailing newlines (kept as |+), last of the frontmatter', 'last\n\n'],
    ['leading spaces on the first line', '   indented\nnot'],
    ['trailing spaces', 'spaces   '],
    ['tabs and CRLF', 'a\tb\r\nc'],
    ['emoji with joiners', 'family 👨‍👩‍👧 and 👍🏽'],
    ['RTL and bidi controls', 'שלום \u202eevil\u202c \u2066iso\u2069 \u200f'],
    ['control characters', 'bell\u0007 nul\u0000 esc\u001b[31m'],
    ['yaml-looking scalars', 'true'],
    ['a number', '0x1F'],
    ['null', 'null'],
    ['a list item', '- item'],
    ['an alias and a tag', '*ref !!binary &anchor'],
    ['flow characters', '{a: [1, 2]}'],
    ['an empty string', ''],
    ['line and paragraph separators', 'a\u2028b\u2029c\u0085d'],
  ];
  for (const [name, text] of NASTY) {
    test(`round trip of ${name}`, () => {
      const ctx = toContext(sessionWith(text));
      const back = parseContextFile(renderContextFile(ctx), WHERE);
      assert.deepEqual(back, ctx);
      assert.equal(back.questions[0]!.text, text);
      assert.equal(back.questions[0]!.answer, text);
    });
  }

  test('round trip of 8 KB texts of many lines and of one line', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}: --- # "x" ${'é'.repeat(i % 7)}`)
      .join('\n')
      .slice(0, 8 * 1024);
    const oneLine = 'word '.repeat(1640);
    const ctx = toContext(sessionWith(lines));
    ctx.questions.push({
      round: 1,
      angle: 'technical',
      priority: 5,
      text: oneLine.trim(),
      answer: oneLine.trim(),
      skipped: false,
    });
    const file = renderContextFile(ctx);
    assert.deepEqual(parseContextFile(file, WHERE), ctx);
    assert.match(
      file,
      new RegExp(`^    text: ${oneLine.trim()}$`, 'm'),
      'a long line is not folded, so it can be found with grep',
    );
  });

  test('a file saved with a BOM and CRLF line ends is read the same', () => {
    const ctx = toContext(session());
    const crlf = `\ufeff${renderContextFile(ctx).replace(/\n/g, '\r\n')}`;
    assert.deepEqual(parseContextFile(crlf, WHERE), ctx);
  });

  test('a newer schema is refused with kind schema, naming the file and saying to update', () => {
    const err = parseError(withFrontmatter((d) => (d['schema_version'] = 2)));
    assert.equal(err.kind, 'schema');
    assert.equal(
      err.message,
      `${WHERE} was written by a newer Groundwork (schema_version 2; this version reads 1). Update Groundwork to read it.`,
    );
  });

  const DAMAGED: [string, (d: Record<string, any>) => void, RegExp][] = [
    ['schema_version missing', (d) => delete d['schema_version'], /schema_version is missing/],
    ['schema_version as text', (d) => (d['schema_version'] = '1'), /schema_version must be/],
    ['schema_version 0', (d) => (d['schema_version'] = 0), /schema_version must be/],
    ['slug missing', (d) => delete d['slug'], /field slug is missing/],
    ['slug a path', (d) => (d['slug'] = '../etc'), /field slug must be/],
    ['topic a number', (d) => (d['topic'] = 5), /field topic must be text/],
    ['created not a time', (d) => (d['created'] = 'last Tuesday'), /field created must be/],
    ['rounds 0', (d) => (d['rounds'] = 0), /field rounds must be/],
    ['rounds 2.5', (d) => (d['rounds'] = 2.5), /field rounds must be/],
    ['inquisitor_status missing', (d) => delete d['inquisitor_status'], /inquisitor_status is missing/],
    [
      'an unknown status',
      (d) => (d['inquisitor_status'].technical = 'fine'),
      /inquisitor_status\.technical must be one of/,
    ],
    [
      'a status missing',
      (d) => delete d['inquisitor_status']['edge-cases'],
      /inquisitor_status\.edge-cases is missing/,
    ],
    ['seeded_from a path', (d) => (d['seeded_from'] = 'a/b'), /seeded_from must be/],
    ['questions not a list', (d) => (d['questions'] = 'none'), /questions must be a list/],
    ['a question a string', (d) => (d['questions'][1] = 'Which database?'), /questions\[1\] must be/],
    ['an unknown angle', (d) => (d['questions'][0].angle = 'design'), /questions\[0\]\.angle must be one of/],
    ['priority 9', (d) => (d['questions'][0].priority = 9), /questions\[0\]\.priority must be/],
    ['a round beyond rounds', (d) => (d['questions'][3].round = 3), /questions\[3\]\.round must be/],
    ['skipped as text', (d) => (d['questions'][0].skipped = 'no'), /questions\[0\]\.skipped must be true or false/],
    ['neither answer nor skipped', (d) => delete d['questions'][0].answer, /questions\[0\]\.answer is missing/],
    [
      'skipped with an answer',
      (d) => (d['questions'][2].answer = 'sneaky'),
      /questions\[2\] is skipped and has an answer/,
    ],
    ['summary missing', (d) => delete d['summary'], /field summary is missing/],
    ['decisions not texts', (d) => (d['summary'].decisions = [1, 2]), /summary\.decisions must be a list of texts/],
  ];
  for (const [name, mutate, problem] of DAMAGED) {
    test(`corrupt: ${name}`, () => {
      const err = parseError(withFrontmatter(mutate));
      assert.equal(err.kind, 'corrupt');
      assert.match(err.message, problem);
      assert.ok(err.message.startsWith(WHERE), err.message);
    });
  }

  const BROKEN: [string, string, RegExp][] = [
    ['no frontmatter', '# Brainstorm digest\n\nschema_version: 1\n', /no frontmatter/],
    ['an empty file', '', /no frontmatter/],
    ['no closing line', '---\nschema_version: 1\nslug: crm\n', /no closing '---'/],
    ['bad YAML', '---\nschema_version: 1\ntopic: "unterminated\nslug: crm\n---\n', /not valid YAML/],
    [
      'a key twice',
      '---\nschema_version: 1\nslug: crm\nslug: other\n---\n',
      /not valid YAML at line 4 \(Map keys must be unique\)/,
    ],
    ['a list, not fields', '---\n- schema_version\n- 1\n---\n', /not a set of fields/],
    ['an empty frontmatter', '---\n---\nbody\n', /not a set of fields/],
  ];
  for (const [name, text, problem] of BROKEN) {
    test(`corrupt: ${name}`, () => {
      const err = parseError(text);
      assert.equal(err.kind, 'corrupt');
      assert.match(err.message, problem);
      assert.ok(err.message.includes(WHERE));
    });
  }

  test('a billion-laughs alias bomb is refused at once, not expanded', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const bomb = `---\nschema_version: 1\n${levels.join('\n')}\n---\n`;
    const started = process.cpuUsage();
    const err = parseError(bomb);
    assert.equal(err.kind, 'corrupt');
    assert.match(err.message, /aliases expand too much/);
    assert.ok(cpuMsSince(started) < 2000, 'refused quickly');
  });

  test('more than a few alias uses are refused, even where they would expand to little', () => {
    const file = renderContextFile(toContext(session()));
    const few = file
      .replace('decisions:\n', 'decisions: &d\n')
      .replace('---\n\n', `extra: [${Array(3).fill('*d').join(', ')}]\n---\n\n`);
    assert.equal(parseContextFile(few, WHERE).slug, 'crm', 'three uses are fine, and an unknown field is ignored');
    const many = few.replace('extra: [', `extra: [${Array(20).fill('*d').join(', ')}, `);
    assert.match(parseError(many).message, /aliases expand too much \(more than 10 uses\)/);
  });

  test('a file over 8 MB is refused before it is parsed', () => {
    const file = renderContextFile(toContext(session()));
    const err = parseError(`${file}${'x'.repeat(CONTEXT_FILE_MAX_BYTES)}`);
    assert.equal(err.kind, 'corrupt');
    assert.match(err.message, /over the 8388608 bytes/);
    // Multi-byte text counts in bytes: 4.2 M two-byte characters are over the cap too.
    assert.equal(parseError(`${file}${'é'.repeat(4_200_000)}`).kind, 'corrupt');
  });
});

describe('brainstormDigest', () => {
  const ctx = toContext(session());
  const digest = brainstormDigest(ctx);
  const section = (title: string) => {
    const start = digest.indexOf(`\n## ${title}\n`);
    assert.ok(start >= 0, `a section ${title}`);
    const end = digest.indexOf('\n## ', start + 1);
    return digest.slice(start, end < 0 ? undefined : end);
  };

  test('is the body of the context file, and says where it was synthesised from', () => {
    assert.ok(renderContextFile(ctx).endsWith(`---\n\n${digest}`));
    assert.match(digest, /synthesised from `\.groundwork\/plans\/crm\/00-brainstorming\.context\.md`/i);
  });

  test('sections in order: Vision, Constraints, Open questions, Questions and answers', () => {
    const order = ['Vision', 'Constraints', 'Open questions', 'Questions and answers'].map((t) =>
      digest.indexOf(`\n## ${t}\n`),
    );
    assert.ok(order.every((i) => i > 0));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
  });

  test('the vision is the topic and the key insights; the constraints are the decisions', () => {
    assert.match(section('Vision'), /A CRM for realtors/);
    assert.match(section('Vision'), /^- Agents work from phones$/m);
    assert.match(section('Constraints'), /^- Postgres behind a web app$/m);
    assert.doesNotMatch(section('Constraints'), /Agents work from phones/);
  });

  test('a skipped question is an open question, and is not given as answered', () => {
    const open = section('Open questions');
    assert.match(open, /^- How is it priced\?$/m);
    assert.match(open, /^- What if two agents edit one contact\? .*skipped in round 1/m);
    const qa = section('Questions and answers');
    const skipped = qa.slice(qa.indexOf('What if two agents edit one contact?'));
    assert.match(skipped, /^```\n\n\*\*Answer:\*\* \[skipped by user\]/m);
    assert.ok(qa.includes(SKIPPED_ANSWER));
    assert.doesNotMatch(open, /Which database|Five agents/, 'answered questions are not open');
  });

  test('answered questions come with their answers, by round and angle', () => {
    const qa = section('Questions and answers');
    const at = (s: string) => {
      const i = qa.indexOf(s);
      assert.ok(i >= 0, `${s} is in the questions and answers`);
      return i;
    };
    assert.ok(at('### Round 1') < at('#### UX') && at('#### UX') < at('Who will use it day to day?'));
    assert.ok(at('Who will use it day to day?') < at('Five agents, on phones.'));
    assert.ok(at('Five agents, on phones.') < at('#### Technical') && at('#### Technical') < at('Which database?'));
    assert.ok(
      at('### Round 2') < at('Must it work offline?') && at('Must it work offline?') < at('Yes, in open houses.'),
    );
  });

  test('an open question that was also skipped is listed once', () => {
    const s = session();
    s.summary!.openQuestions = ['what if  two agents edit one contact?', 'How is it priced?'];
    const open = brainstormDigest(toContext(s)).split('## Open questions')[1]!.split('\n## ')[0]!;
    assert.equal(open.match(/two agents edit one contact/gi)?.length, 1);
  });

  test('nothing decided, nothing open: "None."', () => {
    const s = session({
      rounds: [
        {
          round: 1,
          questions: [{ text: 'Q?', angle: 'ux', priority: 3 }],
          answers: [{ kind: 'answered', text: 'A.' }],
        },
      ],
    });
    s.summary = { topic: '', keyInsights: [], decisions: [], openQuestions: [] };
    const d = brainstormDigest(toContext(s));
    assert.match(d, /## Constraints\n\nNone\.\n/);
    assert.match(d, /## Open questions\n\nNone\.\n/);
  });
});
