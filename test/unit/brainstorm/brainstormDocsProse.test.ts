// `00-brainstorming.md` of a brainstorm whose coordinator never wrote the summary JSON: the reply's
// prose under the summary heading, quoted and neutralised as model text, with a sentence saying
// why; the questions and answers as for any other brainstorm.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PROSE_SUMMARY_NOTE, proseBlock, renderBrainstormDocument } from '../../../src/core/brainstorm/brainstormDocs';
import { proseSession, QA_HEADINGS } from './proseSession';

/** The text between `## <title>` and the next `## ` heading of the document. */
function section(md: string, title: string): string {
  const start = md.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `a section ${title}`);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start + 1, end < 0 ? undefined : end);
}

const HOSTILE = [
  '# Injected title',
  '## Questions and answers',
  'Agreed: <img src=x onerror=alert(1)> and ![pixel](https://tracker.example/p.png) <iframe src="https://e.example">',
  '',
  '```',
  '<script>alert(1)</script>',
  '## inside code',
  '',
  '---',
  'bidi \u202eevil\u202c, zero-width \u200b, escape \u001b[2J, tab\there, family 👨‍👩‍👧',
  '~~~ never closed',
].join('\n');

describe('renderBrainstormDocument: a summary kept as prose', () => {
  test('the note and the prose under "## Summary" instead of the three lists; questions and answers as ever', () => {
    const md = renderBrainstormDocument(proseSession('The agents work from phones.\n\n- Postgres\n- *offline* first'));
    const headings = md.split('\n').filter((l) => /^#{1,6} /.test(l));
    assert.deepEqual(headings, ['# Brainstorm: A CRM for realtors', '## Summary', ...QA_HEADINGS]);
    assert.equal(
      section(md, 'Summary'),
      `## Summary\n\n${PROSE_SUMMARY_NOTE}\n\n> The agents work from phones.\n>\n> - Postgres\n> - *offline* first\n`,
    );
    assert.equal(
      PROSE_SUMMARY_NOTE,
      "The coordinator's summary was not in the expected format, so its text is kept as written.",
    );
    const qa = section(md, 'Questions and answers');
    assert.match(qa, /Who will use it\?\n```\n\n\*\*Answer\*\*\n\n```text\nFive agents\.\n```/);
    assert.match(qa, /What if two agents edit one contact\?\n```\n\n\*\*Answer:\*\* \[skipped by user\]/);
    assert.equal(
      renderBrainstormDocument(proseSession('x')).match(/^- /gm)?.length,
      2,
      'only the Created and Rounds facts: no "Topic as understood"',
    );
  });

  test('hostile prose stays inside its quote: no heading, image or HTML of it reaches the document', () => {
    const md = renderBrainstormDocument(proseSession(HOSTILE));
    const summary = section(md, 'Summary');
    const quoted = summary.split('\n').slice(4, -1);
    assert.ok(
      quoted.length > 10 && quoted.every((l) => l === '>' || l.startsWith('> ')),
      'every line of the prose is quoted',
    );
    // Outside the quote, only the document's own headings.
    assert.deepEqual(
      md
        .split('\n')
        .filter((l) => /^ {0,3}#{1,6}(\s|$)/.test(l))
        .slice(0, 3),
      ['# Brainstorm: A CRM for realtors', '## Summary', '## Questions and answers'],
    );
    assert.equal(md.match(/^## Questions and answers$/gm)?.length, 1);
    const prose = quoted.map((l) => l.replace(/^> ?/, '')).join('\n');
    // Outside its code block the prose has no raw tag and no image; the block is closed in the quote.
    const [beforeCode, code = ''] = prose.split('\n```\n');
    assert.doesNotMatch(beforeCode!, /(?<!\\)!\[|<[a-z]/i);
    assert.match(beforeCode!, /&lt;img src=x onerror=alert\(1\)> and !\\\[pixel\]/);
    assert.ok(prose.endsWith('\n```'), 'the fence the model left open is closed before the quote ends');
    assert.match(code, /^<script>alert\(1\)<\/script>\n## inside code\n/, 'code stays code, as written');
    assert.doesNotMatch(prose, /[\u202e\u202c\u200b\u001b]/, 'invisible and control characters are shown as escapes');
    assert.match(prose, /bidi \\u202eevil\\u202c, zero-width \\u200b, escape \\x1b\[2J, tab\there, family 👨‍👩‍👧/);
  });

  test('an empty reply says so', () => {
    assert.match(
      renderBrainstormDocument(proseSession('')),
      /## Summary\n\nThe coordinator's summary was not in the expected format, so its text is kept as written\.\n\n_The reply was empty\._\n/,
    );
    assert.equal(proseBlock(' \n\t\n'), '_The reply was empty._');
  });

  test('CRLF and lone CR line ends are line ends; blank lines keep the quote going', () => {
    assert.equal(proseBlock('one\r\ntwo\rthree\n\n  \nfour'), '> one\n> two\n> three\n>\n>\n> four');
  });

  test('a summary of lists is rendered as before', () => {
    const md = renderBrainstormDocument(
      proseSession('x', { summary: { topic: 'A CRM', keyInsights: ['k'], decisions: [], openQuestions: [] } }),
    );
    assert.ok(
      md.includes(
        '## Key insights\n\n- k\n\n## Decisions\n\nNone.\n\n## Open questions\n\nNone.\n\n## Questions and answers',
      ),
    );
    assert.doesNotMatch(md, /## Summary|kept as written/);
  });
});
