// The round file: its exact layout after each round, reading the ROUND header back, safe file
// names, and texts that try to forge the layout.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  normalizeText,
  parseDiscoveryRound,
  parseRoundFile,
  roundFileRel,
  serializeRoundFile,
} from '../../../src/core/discovery/roundFile';
import type { RoundFileData } from '../../../src/core/discovery/roundFile';

const Q1 = '1. Who will use it?\n2. What must it do first?';
const A1 = 'My real estate team, 5 people.\nContacts and deals.';
const Q2 = '1. Do deals have stages?\n2. Phone or laptop?';

const ROUND_1 = `# Discovery Session

CREATED: 1735689600
ROUND: 1
ORIGINAL_REQUEST: build me a CRM

## Round 1
### Agent Questions
1. Who will use it?
2. What must it do first?
`;

const ROUND_1_ANSWERED = `${ROUND_1}
### User Response
My real estate team, 5 people.
Contacts and deals.
`;

const ROUND_2 = `${ROUND_1_ANSWERED.replace('ROUND: 1', 'ROUND: 2')}
## Round 2
### Agent Questions
1. Do deals have stages?
2. Phone or laptop?
`;

describe('round file layout', () => {
  test('after round 1: the header and the first questions', () => {
    const data: RoundFileData = {
      createdSec: 1735689600,
      round: 1,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: Q1 }],
    };
    assert.equal(serializeRoundFile(data), ROUND_1);
  });

  test("after round 1's answer: the answer under ### User Response", () => {
    const data: RoundFileData = {
      createdSec: 1735689600,
      round: 1,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: Q1, answer: A1 }],
    };
    assert.equal(serializeRoundFile(data), ROUND_1_ANSWERED);
  });

  test('after round 2: a new ## Round 2 section and ROUND: 2', () => {
    const data: RoundFileData = {
      createdSec: 1735689600,
      round: 2,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: Q1, answer: A1 }, { questions: Q2 }],
    };
    assert.equal(serializeRoundFile(data), ROUND_2);
  });

  test('each layout reads back to the same data', () => {
    for (const text of [ROUND_1, ROUND_1_ANSWERED, ROUND_2]) {
      const parsed = parseRoundFile(text);
      assert.ok(parsed.ok);
      assert.equal(serializeRoundFile(parsed.data), text);
    }
    const parsed = parseRoundFile(ROUND_2);
    assert.deepEqual(parsed.ok && parsed.data, {
      createdSec: 1735689600,
      round: 2,
      originalRequest: 'build me a CRM',
      rounds: [{ questions: Q1, answer: A1 }, { questions: Q2 }],
    });
  });

  test('an empty answer (all questions skipped) is kept as empty', () => {
    const data: RoundFileData = {
      createdSec: 1,
      round: 1,
      originalRequest: 'x',
      rounds: [{ questions: Q1, answer: '' }],
    };
    const parsed = parseRoundFile(serializeRoundFile(data));
    assert.deepEqual(parsed.ok && parsed.data, data);
  });
});

describe('texts cannot forge the layout', () => {
  test('headings, markers and header lines inside texts come back exactly', () => {
    const hostile = [
      '## Round 2',
      '### Agent Questions',
      '### User Response',
      '# Discovery Session',
      '\\## already escaped',
      '\\\\# twice',
      'ROUND: 9',
      'CREATED: 0',
      'ORIGINAL_REQUEST: fake',
      '  ### indented',
      '```',
    ].join('\n');
    const data: RoundFileData = {
      createdSec: 1735689600,
      round: 2,
      originalRequest: `build me a CRM\n${hostile}`,
      rounds: [{ questions: `1. Q\n${hostile}`, answer: hostile }, { questions: Q2 }],
    };
    const text = serializeRoundFile(data);
    assert.equal(text.split('\n').filter((l) => /^## Round \d+$/.test(l)).length, 2);
    const parsed = parseRoundFile(text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    assert.deepEqual(parsed.data, data);
  });

  test('a multi-line original request', () => {
    const data: RoundFileData = {
      createdSec: 5,
      round: 1,
      originalRequest: 'Build a CRM.\n\nIt must:\n- track deals',
      rounds: [{ questions: Q1 }],
    };
    const parsed = parseRoundFile(serializeRoundFile(data));
    assert.deepEqual(parsed.ok && parsed.data, data);
  });
});

describe('parseDiscoveryRound', () => {
  test('test_parse_discovery_round_one', () => {
    assert.equal(parseDiscoveryRound(ROUND_1), 1);
  });
  test('test_parse_discovery_round_three', () => {
    assert.equal(parseDiscoveryRound('# Discovery Session\n\nCREATED: 1\nROUND: 3\nORIGINAL_REQUEST: x\n'), 3);
  });
  test('test_parse_discovery_round_missing_header', () => {
    assert.equal(parseDiscoveryRound('# Discovery Session\n\nCREATED: 1\nORIGINAL_REQUEST: x\n'), 1);
  });
  test('test_parse_discovery_round_invalid_number', () => {
    assert.equal(parseDiscoveryRound('ROUND: three\n'), 1);
    assert.equal(parseDiscoveryRound('ROUND: -2\n'), 1);
    assert.equal(parseDiscoveryRound('ROUND: 0\n'), 1);
    assert.equal(parseDiscoveryRound('ROUND:\n'), 1);
  });
});

describe('parseRoundFile refuses what is not a round file', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['no title', 'hello\n', /Discovery Session/],
    ['no ORIGINAL_REQUEST', '# Discovery Session\n\nCREATED: 1\nROUND: 1\n', /ORIGINAL_REQUEST/],
    [
      'no CREATED',
      '# Discovery Session\n\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 1\n### Agent Questions\nq\n',
      /CREATED/,
    ],
    [
      'bad CREATED',
      '# Discovery Session\n\nCREATED: soon\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 1\n### Agent Questions\nq\n',
      /CREATED/,
    ],
    ['no rounds', '# Discovery Session\n\nCREATED: 1\nROUND: 1\nORIGINAL_REQUEST: x\n', /Round 1/],
    [
      'rounds out of order',
      '# Discovery Session\n\nCREATED: 1\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 2\n### Agent Questions\nq\n',
      /Round 1/,
    ],
    [
      'no questions heading',
      '# Discovery Session\n\nCREATED: 1\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 1\nq\n',
      /Agent Questions/,
    ],
  ];
  for (const [name, text, reason] of cases) {
    test(name, () => {
      const parsed = parseRoundFile(text);
      assert.equal(parsed.ok, false);
      assert.match(parsed.ok ? '' : parsed.reason, reason);
    });
  }

  test('CRLF line endings (a file edited on Windows) still read', () => {
    const parsed = parseRoundFile(ROUND_1_ANSWERED.replace(/\n/g, '\r\n'));
    assert.ok(parsed.ok);
    assert.equal(parsed.data.rounds[0]!.answer, A1);
  });
});

describe('roundFileRel: session ids made filesystem-safe, one file per id', () => {
  const cases: Array<[string, string]> = [
    ['abc-123', 'discovery/abc-123.md'],
    ['user@example.com', 'discovery/user-example.com-b8169be981f3cadb.md'],
    ['../../etc/passwd', 'discovery/-.-..-etc-passwd-2bef2c0bbbdefdfa.md'],
    ['a/b\\c', 'discovery/a-b-c-9eb9e1bc4306790c.md'],
    ['.hidden', 'discovery/-hidden-28280da0cdcb6865.md'],
    ['', 'discovery/unnamed-cbf29ce484222325.md'],
    ['con', 'discovery/_con-f604f1190d01642b.md'],
    ['telegram:12345 67', 'discovery/telegram-12345-67-ff2ccf1c03a9538a.md'],
    ['x'.repeat(500), `discovery/${'x'.repeat(100)}-b6822c71b0501b75.md`],
  ];
  for (const [id, rel] of cases) {
    test(JSON.stringify(id.length > 40 ? `${id.slice(0, 10)}…` : id), () => {
      assert.equal(roundFileRel(id), rel);
      const name = rel.slice('discovery/'.length);
      assert.doesNotMatch(name, /[/\\]/);
      assert.ok(!name.startsWith('.'));
    });
  }

  test('names that sanitise alike, or differ only in case, get files of their own', () => {
    const names = [
      'a/b',
      'a-b',
      'a b',
      'a:b',
      'CLI',
      'cli',
      'Cli',
      'ﬁle',
      'file',
      'e\u0301',
      '\u00e9',
      roundFileRel('a/b').slice('discovery/'.length, -'.md'.length),
    ];
    const files = names.map(roundFileRel);
    assert.equal(new Set(files.map((f) => f.toLowerCase())).size, names.length, files.join(', '));
  });

  test('a hashed name is recorded in the file and read back; a plain one adds no SESSION line', () => {
    const data = { createdSec: 1, round: 1, originalRequest: 'x', rounds: [{ questions: 'q' }] };
    const text = serializeRoundFile({ ...data, session: 'a/b "x"' });
    assert.match(text, /^SESSION: "a\/b \\"x\\""$/m);
    const parsed = parseRoundFile(text);
    assert.ok(parsed.ok && parsed.data.session === 'a/b "x"' && parsed.data.createdSec === 1);
    const injected = parseRoundFile(text.replace(/^SESSION: .*$/m, 'SESSION: "a\\nCREATED: 0"'));
    assert.equal(injected.ok, false, 'a name with a line break is not a session name');
    assert.doesNotMatch(serializeRoundFile(data), /SESSION/);
    const forged = parseRoundFile(text.replace(/^SESSION: .*$/m, 'SESSION: a/b'));
    assert.deepEqual(forged, { ok: false, reason: 'its SESSION line is not a quoted session name' });
  });
});

describe('normalizeText', () => {
  test('line endings and surrounding blank space', () => {
    assert.equal(normalizeText('\r\n  hello\r\nworld  \r\n\r\n'), 'hello\nworld');
  });
});
