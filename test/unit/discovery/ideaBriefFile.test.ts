// The saved brief: fields as sections, the request verbatim in a fence nothing can close, the transcript.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { briefTitle, renderIdeaBrief } from '../../../src/core/discovery/ideaBriefFile';
import { fenceFor } from '../../../src/core/markdownText';
import { parseIdeaBrief } from '../../../src/core/discovery/discoveryParser';

const BRIEF = parseIdeaBrief(
  'One-line summary: A CRM for realtors\nProblem: Lost leads\nUsers: Five agents\nMVP scope: Contacts\nTechnology: Web\nOut of scope: Email\nKey decisions: Web only\nConstraints: none mentioned',
);

describe('renderIdeaBrief', () => {
  test('the whole file', () => {
    const text = renderIdeaBrief({
      brief: BRIEF,
      originalRequest: 'build me a CRM',
      transcript: [
        {
          round: 1,
          questionsText: '1. Who?\n2. What?',
          intro: '',
          questions: ['Who?', 'What?'],
          answer: 'Agents.\n\nContacts.',
        },
      ],
    });
    assert.equal(
      text,
      `# Idea Brief: A CRM for realtors

## One-line summary

A CRM for realtors

## Problem

Lost leads

## Users

Five agents

## MVP scope

Contacts

## Technology

Web

## Out of scope

Email

## Key decisions

Web only

## Constraints

none mentioned

## Original request

\`\`\`text
build me a CRM
\`\`\`

## Discovery transcript

### Round 1

**Questions**

> 1. Who?
> 2. What?

**Answer**

> Agents.
>
> Contacts.
`,
    );
  });

  test('a request with backtick fences gets a longer fence', () => {
    assert.equal(fenceFor('no ticks'), '```');
    assert.equal(fenceFor('```js\nx\n```'), '````');
    assert.equal(fenceFor('`````'), '``````');
    const text = renderIdeaBrief({ brief: BRIEF, originalRequest: 'a\n```\n## Not a heading\n```', transcript: [] });
    assert.ok(text.includes('````text\na\n```\n## Not a heading\n```\n````'));
    assert.ok(!text.includes('Discovery transcript'));
  });

  test('a brief with no labels is kept as its text; missing fields say so', () => {
    const noLabels = parseIdeaBrief('Just a CRM.');
    const text = renderIdeaBrief({ brief: noLabels, originalRequest: 'r', transcript: [] });
    assert.ok(text.startsWith('# Idea Brief: Just a CRM.\n\n## Brief\n\nJust a CRM.\n'));
    const partial = renderIdeaBrief({ brief: parseIdeaBrief('Problem: p'), originalRequest: 'r', transcript: [] });
    assert.ok(partial.includes('## Users\n\n_Not stated._'));
  });

  test('briefTitle: the summary, or the first line of the text', () => {
    assert.equal(briefTitle(BRIEF), 'A CRM for realtors');
    assert.equal(briefTitle(parseIdeaBrief('## A dashboard\nmore')), 'A dashboard');
  });

  test('images and raw HTML the model wrote are shown as text, not loaded; lists, emphasis and code stay', () => {
    const brief = parseIdeaBrief(
      [
        'One-line summary: A CRM ![logo](https://tracker.example/p.png)',
        'Problem: Leads are lost <img src="https://tracker.example/q.png"> <iframe src="https://evil.example"></iframe>',
        'MVP scope: The **Contacts**, `deals` and ![][ref] reminders',
        'Technology: <script>alert(1)</script> <!-- hidden --> a < b',
        'Key decisions: ```html',
        'Constraints: none',
      ].join('\n'),
    );
    const text = renderIdeaBrief({
      brief,
      originalRequest: 'r',
      transcript: [
        {
          round: 1,
          questionsText: '1. Like ![this](http://x.example/i.png)?',
          intro: '',
          questions: [],
          answer: 'no <b>bold</b>',
        },
      ],
    });
    assert.doesNotMatch(text, /(^|[^\\])!\[/m, 'no image syntax is left');
    assert.doesNotMatch(text, /<(img|iframe|script|b|!--)/i, 'no raw HTML is left');
    assert.match(text, /# Idea Brief: A CRM !\\\[logo\]\(https:\/\/tracker\.example\/p\.png\)/);
    assert.match(text, /&lt;img src="https:\/\/tracker\.example\/q\.png">/);
    assert.match(text, /\*\*Contacts\*\*, `deals`/);
    assert.match(text, /a < b/, 'a plain < stays');
    assert.match(text, /> 1\. Like !\\\[this\]/);
    assert.match(text, /> no &lt;b>bold&lt;\/b>/);
    assert.match(
      text,
      /## Key decisions\n\n```html\n```\n\n## Constraints/,
      'a fence left open is closed before the next section',
    );
  });

  test('a line that only looks like a fence does not stop the escaping (what CommonMark would render is escaped)', () => {
    const render = (technology: string, summary = 'A CRM') =>
      renderIdeaBrief({ brief: { ...BRIEF, summary, technology }, originalRequest: 'r', transcript: [] });
    const cases: [string, string][] = [
      [
        'a backtick in the info string is no fence',
        'Web\n```js`\n![p](http://evil.example/p.png)\n<img src=http://evil.example/r.png>',
      ],
      ['a fence inside a list item ends with the item', '- item\n  ```\n![x](http://evil.example/x.png)'],
      ['an indented fence', '   ```\n<img src=http://evil.example/y.png>'],
      ['a closer indented by up to three spaces closes', '```\ncode\n   ```\n![z](http://evil.example/z.png)'],
      ['a closer ending in CR closes', '```\r\ncode\r\n```\r\n![w](http://evil.example/w.png)'],
    ];
    for (const [what, technology] of cases) {
      const text = render(technology);
      const outsideFences = text.replace(/^```[^`\n]*\n[\s\S]*?^```\s*$/gm, '');
      assert.doesNotMatch(outsideFences, /(^|[^\\])!\[|<img/, what);
    }
    assert.doesNotMatch(
      render('x', '~~~ ![t](http://evil.example/t.png) <img src=x>'),
      /# Idea Brief: .*(?:[^\\]!\[|<img)/,
      'the title is escaped whole',
    );
  });

  test('fenced code in a field is kept as the model wrote it', () => {
    const text = renderIdeaBrief({
      brief: { ...BRIEF, technology: 'Web:\n```html\n<img src="x.png">\n```\nthen <img src="y">' },
      originalRequest: 'r',
      transcript: [],
    });
    assert.match(text, /```html\n<img src="x\.png">\n```\nthen &lt;img src="y">/);
  });
});
