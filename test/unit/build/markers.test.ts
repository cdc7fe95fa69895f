// The parsers of the build phases' replies: the role prompts' own examples, every decoration a
// model adds, and hostile text (control characters, markers in prose, 5 MB replies).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  COMMAND_MAX_CHARS,
  COMMANDS_MAX,
  DELIVERY_FIELD_MAX_CHARS,
  parseAnalystBrief,
  parseDelivery,
  parseProjectCommands,
  parseQaVerdict,
  parseReview,
  VERDICT_REASON_MAX_CHARS,
} from '../../../src/core/build/markers';
import { roleExample } from './buildFixtures';
import { cpuMsSince } from '../../support/cpuTime';

const brief = (text: string) => {
  const parsed = parseAnalystBrief(text);
  assert.ok(parsed.ok, `refused: ${parsed.ok ? '' : parsed.reason}`);
  return parsed.brief;
};
const refusal = (parsed: { ok: true } | { ok: false; reason: string }): string => {
  assert.equal(parsed.ok, false);
  return (parsed as { reason: string }).reason;
};

describe('parseAnalystBrief', () => {
  test("reads the analyst prompt's own example", () => {
    const b = brief(roleExample('build-analyst', 'PROJECT_NAME: price-tracker'));
    assert.equal(b.projectName, 'price-tracker');
    assert.equal(b.language, 'Rust');
    assert.equal(b.database, 'SQLite');
    assert.equal(b.frontend, false);
    assert.match(b.scope ?? '', /^A command-line tool that records the Bitcoin price/);
    assert.deepEqual(b.components, [
      'price source: fetches the current BTC/USD price from CoinGecko',
      'store: keeps price history and thresholds in SQLite',
      'alerter: sends Telegram messages',
      'cli: commands to run the tracker and manage thresholds',
    ]);
  });

  const decorated: [string, string][] = [
    ['bold name and colon', '**PROJECT_NAME:** price-tracker'],
    ['bold name only', '**PROJECT_NAME**: price-tracker'],
    ['bold whole line', '**PROJECT_NAME: price-tracker**'],
    ['underscores', '__PROJECT_NAME__: price-tracker'],
    ['a bullet', '- PROJECT_NAME: price-tracker'],
    ['a star bullet and bold', '* **PROJECT_NAME:** price-tracker'],
    ['code around the line', '`PROJECT_NAME: price-tracker`'],
    ['code around the value', 'PROJECT_NAME: `price-tracker`'],
    ['quotes around the value', 'PROJECT_NAME: "price-tracker"'],
    ['a heading', '## PROJECT_NAME: price-tracker'],
    ['a blockquote', '> PROJECT_NAME: price-tracker'],
    ['indentation and trailing spaces', '   PROJECT_NAME:   price-tracker   '],
  ];
  for (const [name, line] of decorated) {
    test(`takes the name through ${name}`, () => {
      assert.equal(brief(`Here is the brief.\n\n${line}\nLANGUAGE: Go\n`).projectName, 'price-tracker');
    });
  }

  test('takes the block inside a code fence, with CRLF line ends and prose around it', () => {
    const b = brief(
      'Sure! Here it is:\r\n```text\r\nPROJECT_NAME: invoice-export\r\nLANGUAGE: TypeScript\r\nFRONTEND: yes\r\nCOMPONENTS:\r\n- exporter\r\n```\r\nGood luck.\r\n',
    );
    assert.deepEqual(b, {
      projectName: 'invoice-export',
      language: 'TypeScript',
      frontend: true,
      components: ['exporter'],
    });
  });

  test('normalises case, spaces and underscores into kebab-case, and nothing else', () => {
    assert.equal(brief('PROJECT_NAME: My Project').projectName, 'my-project');
    assert.equal(brief('PROJECT_NAME: price_tracker').projectName, 'price-tracker');
    assert.equal(brief('PROJECT_NAME: Price  Tracker  App').projectName, 'price-tracker-app');
    assert.equal(brief('PROJECT_NAME: 3d-printer').projectName, '3d-printer');
  });

  const refused: [string, string, RegExp][] = [
    ['no PROJECT_NAME line', 'LANGUAGE: Rust\nSCOPE: things', /no PROJECT_NAME/],
    ['an empty name', 'PROJECT_NAME:\nLANGUAGE: Rust', /PROJECT_NAME is empty/],
    ['four words', 'PROJECT_NAME: my-price-tracker-app', /not 1 to 3 words/],
    ['a name over 64 characters', `PROJECT_NAME: ${'a'.repeat(65)}`, /not 1 to 3 words/],
    ['a path', 'PROJECT_NAME: ../etc', /not 1 to 3 words/],
    ['a dot', 'PROJECT_NAME: price.tracker', /not 1 to 3 words/],
    ['a trailing hyphen', 'PROJECT_NAME: price-', /not 1 to 3 words/],
    ['accented letters', 'PROJECT_NAME: café', /not 1 to 3 words/],
    ['a Windows device name', 'PROJECT_NAME: CON', /Windows reserves/],
    [
      'two different names',
      'PROJECT_NAME: alpha\nLANGUAGE: Go\nPROJECT_NAME: beta',
      /more than one project \("alpha", "beta"\)/,
    ],
    ['a name only in prose', 'I will call it PROJECT_NAME: tracker, I think.', /no PROJECT_NAME/],
    ['a lower-case field name', 'project_name: tracker', /no PROJECT_NAME/],
    ['a name after an escape sequence', '\u001b[1mPROJECT_NAME: tracker', /no PROJECT_NAME/],
  ];
  for (const [name, text, reason] of refused) {
    test(`refuses ${name}`, () => assert.match(refusal(parseAnalystBrief(text)), reason));
  }

  test('the same name written twice is one project', () => {
    assert.equal(brief('PROJECT_NAME: tracker\n...\nPROJECT_NAME: **tracker**').projectName, 'tracker');
  });

  test('SCOPE goes on until the next field or a blank line; other fields are left out when absent', () => {
    const b = brief('PROJECT_NAME: t\nSCOPE: First sentence.\nSecond sentence.\nCOMPONENTS:\n- a\n');
    assert.equal(b.scope, 'First sentence.\nSecond sentence.');
    const c = brief('PROJECT_NAME: t\nSCOPE: Only this.\n\nThanks for reading!');
    assert.equal(c.scope, 'Only this.');
    assert.deepEqual(brief('PROJECT_NAME: t'), { projectName: 't', components: [] });
  });

  test('COMPONENTS takes every kind of list item, upper-case items included, and stops at the next field', () => {
    const b = brief(
      'PROJECT_NAME: t\nCOMPONENTS:\n- CLI: the commands\n* store\n\n1. API: endpoints\n+ web\nREQUIREMENTS:\n- REQ-001: x\n',
    );
    assert.deepEqual(b.components, ['CLI: the commands', 'store', 'API: endpoints', 'web']);
  });

  test('FRONTEND is yes or no in any case or emphasis, and anything else leaves it unset', () => {
    assert.equal(brief('PROJECT_NAME: t\nFRONTEND: **Yes**').frontend, true);
    assert.equal(brief('PROJECT_NAME: t\nFRONTEND: no (CLI only)').frontend, false);
    assert.equal(brief('PROJECT_NAME: t\nFRONTEND: maybe').frontend, undefined);
    assert.equal(brief('PROJECT_NAME: t\nFRONTEND: nothing').frontend, undefined);
  });

  test('control characters in values are shown, not passed through, and values are capped', () => {
    const b = brief(
      `PROJECT_NAME: t\nLANGUAGE: Rust\u001b[31m\u0000\nDATABASE: ${'x'.repeat(10_000)}\nSCOPE: a\u0007b\tc\nCOMPONENTS:\n- \u202eevil`,
    );
    assert.equal(b.language, 'Rust\\x1b[31m\\x00');
    assert.equal([...(b.database ?? '')].length, 200);
    assert.ok(b.database?.endsWith('…'));
    assert.equal(b.scope, 'a\\x07b\tc');
    assert.deepEqual(b.components, ['\\u202eevil']);
  });
});

describe('parseProjectCommands', () => {
  test("reads the architect prompt's example: TEST and BUILD, not LINT or RUN", () => {
    const commands = parseProjectCommands(roleExample('build-architect', 'ARCHITECTURE_COMPLETE'));
    assert.deepEqual(commands, { test: ['cargo test'], build: 'cargo build', ignored: [] });
  });

  test('reads them from a fenced Commands section of an architecture document, CRLF included', () => {
    const doc =
      '# Architecture\r\n\r\n## Commands\r\n\r\n```\r\nBUILD: npm run build\r\nTEST: node --test\r\nLINT: none\r\nRUN: node bin/cli.js\r\n```\r\n';
    assert.deepEqual(parseProjectCommands(doc), { test: ['node --test'], build: 'npm run build', ignored: [] });
  });

  test('takes decorated lines, unwraps backticks, keeps TEST lines in order without repeats', () => {
    const doc = '- **TEST:** `npm test`\n* `TEST: npm run e2e`\nTEST: npm test\n**BUILD**: `tsc -p .`\n';
    assert.deepEqual(parseProjectCommands(doc), { test: ['npm test', 'npm run e2e'], build: 'tsc -p .', ignored: [] });
  });

  test('`none` is no command; a placeholder is refused and said so', () => {
    assert.deepEqual(parseProjectCommands('BUILD: none\nTEST: <command>\n'), {
      test: [],
      ignored: ['line 2: TEST: is a placeholder, not a command'],
    });
    assert.equal(parseProjectCommands('BUILD: None (interpreted language)\nTEST: pytest').build, undefined);
  });

  test('the first BUILD line counts; a different later one is reported', () => {
    const parsed = parseProjectCommands('BUILD: cargo build\nTEST: cargo test\nBUILD: make\n');
    assert.equal(parsed.build, 'cargo build');
    assert.deepEqual(parsed.ignored, ['line 3: BUILD: a second build command; the one on line 1 is used']);
  });

  test('refuses commands with control or invisible characters, NUL or over the cap, naming the line', () => {
    const doc = [
      'TEST: npm test\u001b[2J',
      'TEST: a\u0000b',
      `TEST: ${'x'.repeat(COMMAND_MAX_CHARS + 1)}`,
      'TEST: rm -rf \u202e/',
      'TEST: ok\tcommand',
    ].join('\n');
    const parsed = parseProjectCommands(doc);
    assert.deepEqual(parsed.test, ['ok\tcommand']);
    assert.deepEqual(parsed.ignored, [
      'line 1: TEST: contains a control or invisible character',
      'line 2: TEST: contains a NUL character',
      `line 3: TEST: the command is ${COMMAND_MAX_CHARS + 1} characters; the limit is ${COMMAND_MAX_CHARS}`,
      'line 4: TEST: contains a control or invisible character',
    ]);
  });

  test('is not fooled by similar words: TEST_COMMAND, lower case, prose', () => {
    const doc =
      'TEST_COMMAND: cargo test\nTest: cargo test\nWe run TEST: cargo test in CI.\n1. TEST: numbered lists are prose\n';
    assert.deepEqual(parseProjectCommands(doc), { test: [], ignored: [] });
  });

  test(`keeps at most ${COMMANDS_MAX} test commands`, () => {
    const doc = Array.from({ length: 50 }, (_, i) => `TEST: t${i}`).join('\n');
    const parsed = parseProjectCommands(doc);
    assert.equal(parsed.test.length, COMMANDS_MAX);
    assert.equal(parsed.ignored.length, COMMANDS_MAX);
  });
});

describe('parseQaVerdict', () => {
  test("reads the QA prompt's PASS and FAIL examples", () => {
    const pass = parseQaVerdict(roleExample('build-qa', 'VERIFICATION: PASS'));
    assert.deepEqual(pass, {
      verdict: 'pass',
      verify: ['cargo build', 'cargo clippy -- -D warnings', 'cargo test'],
      ignored: [],
    });
    const fail = parseQaVerdict(roleExample('build-qa', 'VERIFICATION: FAIL'));
    assert.equal(fail.verdict, 'fail');
    assert.equal(fail.reason, '<one line: what fails>');
  });

  test('collects VERIFY commands in order, without repeats, through decoration', () => {
    const reply =
      'All good.\n\n```\nVERIFICATION: PASS\nVERIFY: cargo build\n- VERIFY: `cargo test`\n**VERIFY:** cargo build\nVERIFY: cargo clippy -- -D warnings\n```\n';
    assert.deepEqual(parseQaVerdict(reply), {
      verdict: 'pass',
      verify: ['cargo build', 'cargo test', 'cargo clippy -- -D warnings'],
      ignored: [],
    });
  });

  test('a command in a code span followed by a note is the code span; otherwise the value is taken whole', () => {
    const v = parseQaVerdict(
      'VERIFY: `cargo test` — 24 passed\nVERIFY: `npm run lint` (clean)\nVERIFY: `npm test` && `npm run e2e`\nVERIFY: make `echo x`',
    );
    assert.deepEqual(v.verify, ['cargo test', 'npm run lint', '`npm test` && `npm run e2e`', 'make `echo x`']);
  });

  test('a FAIL anywhere makes the verdict FAIL, whatever the order', () => {
    assert.equal(parseQaVerdict('VERIFICATION: PASS\nVERIFICATION: FAIL\nREASON: x').verdict, 'fail');
    assert.equal(parseQaVerdict('VERIFICATION: FAIL\nREASON: x\n...fixed it...\nVERIFICATION: PASS').verdict, 'fail');
  });

  const verdicts: [string, string, 'pass' | 'fail' | 'none'][] = [
    ['bold', '**VERIFICATION: PASS**', 'pass'],
    ['bold value', 'VERIFICATION: **PASS**', 'pass'],
    ['a heading', '### VERIFICATION: FAIL', 'fail'],
    ['mixed case value', 'VERIFICATION: Pass', 'pass'],
    ['a value with a note', 'VERIFICATION: PASS (24 tests)', 'pass'],
    ['CRLF', 'VERIFICATION: PASS\r\n', 'pass'],
    ['a marker in prose', 'I will not write VERIFICATION: PASS yet, the tests fail.', 'none'],
    ['a lower-case marker', 'verification: pass', 'none'],
    ['another word', 'VERIFICATION: PASSED', 'none'],
    ['an escape sequence before it', '\u001b[32mVERIFICATION: PASS\u001b[0m', 'none'],
    ['a carriage return before it', 'progress 100%\rVERIFICATION: PASS', 'none'],
    ['nothing', '', 'none'],
  ];
  for (const [name, reply, verdict] of verdicts) {
    test(`${name} → ${verdict}`, () => assert.equal(parseQaVerdict(reply).verdict, verdict));
  }

  test('REASON goes on until the next QA field or a blank line, with control characters shown', () => {
    const v = parseQaVerdict(
      'VERIFICATION: FAIL\nREASON: two tests fail\nin tests/alerts.rs \u001b[31mred\u001b[0m\nDETAILS:\n- x\n',
    );
    assert.equal(v.reason, 'two tests fail\nin tests/alerts.rs \\x1b[31mred\\x1b[0m');
    assert.equal(parseQaVerdict('VERIFICATION: FAIL\nREASON: short\n\nThanks!').reason, 'short');
    assert.equal(parseQaVerdict('VERIFICATION: FAIL\nREASON:\n').reason, undefined);
  });

  test('refuses hostile VERIFY commands and keeps at most the cap', () => {
    const v = parseQaVerdict(
      [
        'VERIFICATION: PASS',
        'VERIFY: npm test\u0000; rm -rf ~',
        'VERIFY: \u001b]0;title\u0007npm test',
        'VERIFY: npm test',
      ].join('\n'),
    );
    assert.deepEqual(v.verify, ['npm test']);
    assert.deepEqual(v.ignored, [
      'line 2: VERIFY: contains a NUL character',
      'line 3: VERIFY: contains a control or invisible character',
    ]);
    const many = parseQaVerdict(Array.from({ length: 25 }, (_, i) => `VERIFY: check ${i}`).join('\n'));
    assert.equal(many.verify.length, COMMANDS_MAX);
    assert.deepEqual(many.verify.slice(-1), [`check ${COMMANDS_MAX - 1}`]);
  });
});

describe('parseReview', () => {
  test("reads the reviewer prompt's example as changes, with the findings as reasons", () => {
    const r = parseReview(roleExample('build-reviewer', 'REVIEW: CHANGES_REQUESTED'));
    assert.equal(r.verdict, 'changes');
    assert.match(r.reasons ?? '', /^SUMMARY: <two sentences/);
    assert.match(r.reasons ?? '', /\[blocking\] src\/store\.rs:42/);
  });

  test('APPROVED, with what follows as reasons; none without a verdict', () => {
    assert.deepEqual(parseReview('REVIEW: APPROVED\nSUMMARY: Fine.\nFINDINGS:\n- none'), {
      verdict: 'approved',
      reasons: 'SUMMARY: Fine.\nFINDINGS:\n- none',
    });
    assert.deepEqual(parseReview('**REVIEW: APPROVED**'), { verdict: 'approved' });
    assert.deepEqual(parseReview('Looks good to me, I would say REVIEW: APPROVED.'), { verdict: 'none' });
    assert.deepEqual(parseReview('REVIEW: LGTM'), { verdict: 'none' });
  });

  test('CHANGES, CHANGES_REQUESTED and "CHANGES REQUESTED" are changes; text on the verdict line starts the reasons', () => {
    assert.deepEqual(parseReview('REVIEW: CHANGES — the SQL is built from input'), {
      verdict: 'changes',
      reasons: 'the SQL is built from input',
    });
    assert.deepEqual(parseReview('REVIEW: CHANGES REQUESTED\n- [blocking] x'), {
      verdict: 'changes',
      reasons: '- [blocking] x',
    });
    assert.equal(parseReview('- **REVIEW:** changes_requested').verdict, 'changes');
  });

  test('changes win over an approval in the same reply', () => {
    const r = parseReview('REVIEW: APPROVED\nHmm, wait.\nREVIEW: CHANGES\n- [blocking] a.ts:1 — bug');
    assert.deepEqual(r, { verdict: 'changes', reasons: '- [blocking] a.ts:1 — bug' });
  });

  test('drops the fence the block was written in, shows control characters, caps the reasons', () => {
    assert.deepEqual(parseReview('```\nREVIEW: CHANGES\n- [blocking] x\n```\n'), {
      verdict: 'changes',
      reasons: '- [blocking] x',
    });
    assert.equal(parseReview('REVIEW: CHANGES\n\u001b[2Jgone').reasons, '\\x1b[2Jgone');
    const long = parseReview(`REVIEW: CHANGES\n${'finding\n'.repeat(100_000)}`);
    assert.equal([...(long.reasons ?? '')].length, VERDICT_REASON_MAX_CHARS);
    assert.ok(long.reasons?.endsWith('…'));
  });
});

describe('parseDelivery', () => {
  test("reads the delivery prompt's example", () => {
    const parsed = parseDelivery(roleExample('build-delivery', 'BUILD_COMPLETE'));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.summary, {
      project: 'price-tracker',
      location: 'price-tracker/',
      language: 'Rust',
      summary:
        'A command-line tool that records the Bitcoin price every 5 minutes in SQLite and sends a Telegram alert once each time the price crosses a threshold you set.',
      usage: 'price-tracker run',
    });
  });

  test('takes a decorated, fenced block with CRLF and prose, and a SUMMARY over several lines', () => {
    const reply =
      'Docs written.\r\n\r\n```\r\n**BUILD_COMPLETE**\r\n- **PROJECT:** t\r\n- **LOCATION:** t/\r\n- **LANGUAGE:** Go\r\n- **SUMMARY:** One.\r\nTwo.\r\n- **USAGE:** `t run`\r\n```\r\nBye.';
    const parsed = parseDelivery(reply);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.summary, {
      project: 't',
      location: 't/',
      language: 'Go',
      summary: 'One.\nTwo.',
      usage: '`t run`',
    });
  });

  test('without a BUILD_COMPLETE line alone on its line, there is no summary', () => {
    const fields = 'PROJECT: t\nLOCATION: t/\nLANGUAGE: Go\nSUMMARY: s\nUSAGE: u';
    assert.match(refusal(parseDelivery(fields)), /no BUILD_COMPLETE/);
    assert.match(
      refusal(parseDelivery(`BUILD_COMPLETE is what I would say if the tests passed.\n${fields}`)),
      /no BUILD_COMPLETE/,
    );
    assert.match(refusal(parseDelivery(`I am not done. build_complete\n${fields}`)), /no BUILD_COMPLETE/);
  });

  test('a missing or empty field is named; fields before BUILD_COMPLETE do not count', () => {
    assert.match(
      refusal(parseDelivery('BUILD_COMPLETE\nPROJECT: t\nLOCATION: t/\nLANGUAGE: Go\nSUMMARY: s\n')),
      /not followed by USAGE:/,
    );
    assert.match(
      refusal(parseDelivery('USAGE: u\nBUILD_COMPLETE\nPROJECT: t\nLOCATION: t/\nLANGUAGE: Go\nSUMMARY: s\n')),
      /USAGE:/,
    );
    assert.match(
      refusal(parseDelivery('BUILD_COMPLETE\nPROJECT: \nLOCATION: t/\nLANGUAGE: Go\n')),
      /PROJECT:, SUMMARY:, USAGE:/,
    );
  });

  test('the last BUILD_COMPLETE block counts, and values are shown safely and capped', () => {
    const reply = `BUILD_COMPLETE\nPROJECT: old\n\nBUILD_COMPLETE\nPROJECT: new\u0000\nLOCATION: ${'d/'.repeat(5000)}\nLANGUAGE: Go\nSUMMARY: s\nUSAGE: u`;
    const parsed = parseDelivery(reply);
    assert.ok(parsed.ok);
    assert.equal(parsed.summary.project, 'new\\x00');
    assert.equal([...parsed.summary.location].length, DELIVERY_FIELD_MAX_CHARS.location);
  });
});

describe('hostile sizes', () => {
  const MB5 = 5 * 1024 * 1024;
  const shapes: [string, string][] = [
    ['one line of letters', 'a'.repeat(MB5)],
    ['one line of stars', '*'.repeat(MB5)],
    ['one line of underscores', '_'.repeat(MB5)],
    ['one line of backticks after a marker', `VERIFY: ${'`'.repeat(MB5)}`],
    ['spaces then a letter', `${' '.repeat(MB5)}x`],
    ['one upper-case key with no colon', 'A'.repeat(MB5)],
    ['a key then underscores', `K${'_'.repeat(MB5)}:`],
    ['blockquotes', '> '.repeat(MB5 / 2)],
    ['newlines', '\n'.repeat(MB5)],
    ['CRLFs', '\r\n'.repeat(MB5 / 2)],
    ['a field with a long continuation', `SCOPE: x\nREASON: y\nSUMMARY: z\n${'word\n'.repeat(MB5 / 5)}`],
    ['marker lines', 'VERIFY: x\nTEST: y\nPROJECT_NAME: a\nREVIEW: CHANGES\n'.repeat(MB5 / 60)],
    ['distinct commands', Array.from({ length: 300_000 }, (_, i) => `VERIFY: c${i}\nTEST: t${i}`).join('\n')],
    ['list items', `PROJECT_NAME: t\nCOMPONENTS:\n${'- c\n'.repeat(MB5 / 4)}`],
    ['carriage returns', '\r'.repeat(MB5)],
    ['markers after carriage returns on one line', '\rVERIFY: x\u2028REVIEW: CHANGES'.repeat(MB5 / 30)],
    ['a word after verdict prefixes', `VERIFICATION: ${'('.repeat(MB5)}1`],
  ];
  for (const [name, text] of shapes) {
    test(`5 MB of ${name}: every parser answers in linear time`, () => {
      for (const parse of [parseAnalystBrief, parseProjectCommands, parseQaVerdict, parseReview, parseDelivery]) {
        const started = process.cpuUsage();
        const out = parse(text);
        const ms = cpuMsSince(started);
        // Linear work on 5 MB takes well under a second; a backtracking pattern would take hours.
        assert.ok(ms < 3000, `${parse.name}: ${Math.round(ms)} ms`);
        assert.ok(JSON.stringify(out).length < 64 * 1024, `${parse.name} returned more than its caps allow`);
      }
    });
  }

  test('a block after 5 MB of prose is still found', () => {
    const text = `${'blah '.repeat(MB5 / 5)}\nVERIFICATION: PASS\nVERIFY: npm test\n`;
    assert.deepEqual(parseQaVerdict(text), { verdict: 'pass', verify: ['npm test'], ignored: [] });
  });
});
