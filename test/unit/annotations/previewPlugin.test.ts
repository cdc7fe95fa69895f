// The preview plugin through the real markdown-it, configured as VS Code's preview is (html: true).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { annotationsPreview, colorClass, escapeHtml } from '../../../src/core/annotations/previewPlugin';
import { discoveryNote } from '../../../src/core/annotations/annotationText';
import type { DiscoveryCase } from '../../../src/core/cases/caseRecord';
import { make } from '../cases/casesHarness';

const T = '2025-02-01T09:00:00.000Z';
const CASES: DiscoveryCase[] = [
  make('disc-001', {
    content: 'Safari requires   SameSite=None\nfor cookies',
    metadata: { impact: 'high', scope: 'global' },
  }),
  make('disc-002', { status: 'outdated', metadata: { outdatedAt: T, outdatedReason: 'marked by user' } }),
  make('disc-003', { status: 'archived', metadata: { archivedAt: T } }),
  make('disc-004', { status: 'deleted', metadata: { deletedAt: T } }),
  make('disc-005', { content: 'x'.repeat(300) }),
];
const byId = new Map(CASES.map((c) => [c.id, c]));

function render(markdown: string, lookup: (id: string) => DiscoveryCase | undefined = (id) => byId.get(id)): string {
  const md = new MarkdownIt({ html: true });
  md.use(annotationsPreview, { lookup });
  return md.render(markdown);
}

const note = (caseId: string, text = 'a note', task = 'task-001') =>
  `<!--@ax-discovery:${task}:${caseId}-->${text}<!--/@ax-->`;
const span = (status: string, title: string, text: string) =>
  `<span class="groundwork-annotation groundwork-discovery groundwork-status-${status}" title="${title}">${text}</span>`;

/** Every attribute of every tag, for the checks that nothing unsafe is written; a tag that is more than name="value" pairs fails. */
function attributes(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*>/gi)].flatMap((m) => {
    const pairs = [...m[0].matchAll(/\s([a-z-]+)="[^"]*"/gi)];
    assert.match(m[0].replace(/\s([a-z-]+)="[^"]*"/gi, ''), /^<[a-z0-9]+>$/i, m[0]);
    return pairs.map((a) => a[1] ?? '');
  });
}

describe('annotationsPreview: discovery notes', () => {
  test('an active case: yellow span, its tooltip says id, status, impact, scope and content', () => {
    assert.equal(
      render(`Intro ${note('disc-001')} end.`),
      `<p>Intro ${span('active', 'disc-001 · active · high impact · global\nSafari requires SameSite=None for cookies', 'a note')} end.</p>\n`,
    );
  });

  test('each status has its class; an unknown id says it is not in the workspace', () => {
    const html = render(['disc-002', 'disc-003', 'disc-004', 'disc-099'].map((id) => note(id)).join('\n\n'));
    assert.match(html, /groundwork-status-outdated" title="disc-002 · outdated · medium impact · global\n/);
    assert.match(html, /groundwork-status-archived" title="disc-003 · archived/);
    assert.match(html, /groundwork-status-deleted" title="disc-004 · deleted/);
    assert.ok(html.includes(span('unknown', 'disc-099: not in this workspace&#39;s discoveries', 'a note')), html);
  });

  test('without a lookup every case is unknown; the lookup is asked at each render', () => {
    const md = new MarkdownIt({ html: true }).use(annotationsPreview);
    assert.match(md.render(note('disc-001')), /groundwork-status-unknown/);
    let status: 'active' | 'outdated' = 'active';
    const live = new MarkdownIt({ html: true }).use(annotationsPreview, {
      lookup: (id: string) =>
        id === 'disc-002'
          ? make(
              'disc-002',
              status === 'outdated' ? { status, metadata: { outdatedAt: T, outdatedReason: 'marked by user' } } : {},
            )
          : undefined,
    });
    assert.match(live.render(note('disc-002')), /groundwork-status-active/);
    status = 'outdated';
    assert.match(live.render(note('disc-002')), /groundwork-status-outdated/);
  });

  test('a long content is cut in the tooltip', () => {
    const title = /title="([^"]*)"/.exec(render(note('disc-005')))?.[1] ?? '';
    assert.ok(title.endsWith(`\n${'x'.repeat(200)}…`), title);
  });

  test('a note on a line of its own (an HTML block to markdown-it) is a paragraph with the span', () => {
    assert.equal(
      render(`${note('disc-003', 'archived *note*')}\n\nNext.`),
      `<p>${span('archived', 'disc-003 · archived · medium impact · global\nlearning disc-003', 'archived *note*')}</p>\n<p>Next.</p>\n`,
    );
  });

  test('hostile content comes out as text, in both forms: no tag, no handler, no URL', () => {
    const hostile =
      '<script>alert(1)</script> " onmouseover="alert(2) <img src=x onerror=alert(3)> [x](javascript:alert(4)) &lt;!-- &amp;';
    for (const markdown of [
      `Intro ${note('disc-001', hostile)} end`,
      note('disc-001', hostile),
      discoveryNote('task-001', 'disc-001', hostile),
    ]) {
      const html = render(markdown);
      assert.doesNotMatch(html, /<script|<img|<a /i, html);
      assert.deepEqual([...new Set(attributes(html))].sort(), ['class', 'title'], html);
      assert.match(html, /&#60;script&#62;alert\(1\)&#60;\/script&#62; &#34; onmouseover=&#34;alert\(2\)/);
      assert.match(html, /\[x\]\(javascript:alert\(4\)\)/);
    }
    // The escape of annotationText.ts round-trips: what was written is what is shown.
    assert.match(
      render(discoveryNote('task-001', 'disc-001', 'a <!-- b --> `c` &lt;')),
      /">a &#60;!-- b --&#62; `c` &#38;lt;<\/span>/,
    );
  });

  test('hostile task ids and case contents in the tooltip are escaped, their controls visible', () => {
    const evil = make('disc-001', { content: 'x" onmouseover="alert(1)\u202e<b>' });
    const html = render(note('disc-001', 'n', 'task-"x'), () => evil);
    assert.match(
      html,
      /title="disc-001 · active · medium impact · global\nx&#34; onmouseover=&#34;alert\(1\)\\u202e&#60;b&#62;"/,
    );
    assert.deepEqual(attributes(html), ['class', 'title']);
  });
});

describe('annotationsPreview: regions', () => {
  test('a green region inline: a span in its colour, the markers gone', () => {
    assert.equal(
      render('Users <!--@ax:0-45:green:task-001-->can log in with *email*<!--/@ax-->.'),
      '<p>Users <span class="groundwork-annotation groundwork-region groundwork-color-green" title="task-001 · green">can log in with <em>email</em></span>.</p>\n',
    );
  });

  test('an odd colour gets the neutral class; its name as written is only in the tooltip', () => {
    const html = render('<!--@ax:1-2:Teal-2:task-001-->x<!--/@ax-->');
    assert.equal(
      html,
      '<p><span class="groundwork-annotation groundwork-region groundwork-color-other" title="task-001 · Teal-2">x</span></p>\n',
    );
    assert.equal(colorClass('BLUE'), 'groundwork-color-blue');
    assert.equal(colorClass('x" onclick="y'), 'groundwork-color-other');
  });

  test('a region and a note nested in it, inline and on a line of their own', () => {
    const text = `<!--@ax:1-9:blue:task-001-->Plan ${note('disc-001', 'n')} here<!--/@ax-->`;
    const inner = `<span class="groundwork-annotation groundwork-region groundwork-color-blue" title="task-001 · blue">Plan ${span('active', 'disc-001 · active · high impact · global\nSafari requires SameSite=None for cookies', 'n')} here</span>`;
    assert.equal(render(text), `<p>${inner}</p>\n`);
    assert.equal(render(`Before ${text} after`), `<p>Before ${inner} after</p>\n`);
  });

  test('markers on lines of their own around blocks: a div around them', () => {
    const html = render('<!--@ax:1-20:green:task-001-->\n# Login\n\nUsers log in.\n<!--/@ax-->\n\nAfter.');
    assert.equal(
      html,
      '<div class="groundwork-annotation groundwork-region groundwork-color-green" title="task-001 · green">\n<h1>Login</h1>\n<p>Users log in.</p>\n</div>\n<p>After.</p>\n',
    );
  });

  test('block regions nest; a closing marker in another container pairs with nothing', () => {
    const nested = render(
      '<!--@ax:1-9:blue:t1-->\n\n<!--@ax:2-3:green:t2-->\n\nx\n\n<!--/@ax-->\n\ny\n\n<!--/@ax-->\n',
    );
    assert.match(
      nested,
      /^<div [^>]*groundwork-color-blue[^>]*>\n<div [^>]*groundwork-color-green[^>]*>\n<p>x<\/p>\n<\/div>\n<p>y<\/p>\n<\/div>\n$/,
    );
    const apart = render('- <!--@ax:1-2:green:t-->\n\n  one\n\n<!--/@ax-->\n');
    assert.doesNotMatch(apart, /<div|<span/);
  });
});

describe('annotationsPreview: what stays as it is', () => {
  test('a marker in a fenced code block or inline code stays code', () => {
    const fenced = render(`\`\`\`md\n${note('disc-001')}\n\`\`\`\n`);
    assert.equal(fenced, `<pre><code class="language-md">${escapeMarkdownItText(note('disc-001'))}\n</code></pre>\n`);
    const inline = render(`Write \`${note('disc-001')}\` like this.`);
    assert.equal(inline, `<p>Write <code>${escapeMarkdownItText(note('disc-001'))}</code> like this.</p>\n`);
  });

  test('unbalanced markers are left as HTML comments, which show nothing', () => {
    assert.equal(render('x <!--@ax:1-2:green:t1-->never closed'), '<p>x <!--@ax:1-2:green:t1-->never closed</p>\n');
    assert.equal(render('stray <!--/@ax--> close'), '<p>stray <!--/@ax--> close</p>\n');
    assert.equal(
      render('<!--@ax-discovery:task-001:disc-001-->never closed\n'),
      '<!--@ax-discovery:task-001:disc-001-->never closed\n',
    );
    assert.equal(render('<!--@ax:1-2:green:t-->\n\nno end\n'), '<!--@ax:1-2:green:t-->\n<p>no end</p>\n');
  });

  test('a closing marker in an image text closes nothing: the span still ends in its paragraph', () => {
    const html = render('a <!--@ax:1-2:green:t-->b ![y<!--/@ax-->](z) c');
    assert.equal((html.match(/<span/g) ?? []).length, (html.match(/<\/span>/g) ?? []).length, html);
  });

  test('ordinary comments and a document without markers are untouched', () => {
    const plain = '# T\n\n<!-- a comment -->\n\nText <!-- inline --> here.\n';
    assert.equal(render(plain), new MarkdownIt({ html: true }).render(plain));
  });

  test('the stylesheet styles every class the plugin writes, with no remote URL', () => {
    const css = readFileSync(join(import.meta.dirname, '../../../media/annotationsPreview.css'), 'utf8');
    for (const cls of [
      'groundwork-discovery',
      'groundwork-status-outdated',
      'groundwork-status-archived',
      'groundwork-status-deleted',
      'groundwork-status-unknown',
      'groundwork-color-other',
    ]) {
      assert.ok(css.includes(`.${cls}`), cls);
    }
    for (const c of ['green', 'yellow', 'red', 'blue', 'orange', 'purple'])
      assert.ok(css.includes(`.vscode-dark .groundwork-color-${c}`), c);
    assert.match(css, /var\(--vscode-groundwork-discoveryBackground, rgba\(255, 214, 0, 0\.25\)\)/);
    assert.match(css, /\.groundwork-status-outdated \{[^}]*text-decoration: line-through/);
    assert.doesNotMatch(css, /url\(|@import|https?:/);
  });

  test('escapeHtml leaves nothing that ends an attribute or starts a tag', () => {
    assert.equal(escapeHtml(`<a href="x" onclick='y'>&`), '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;');
  });
});

/** Text as markdown-it escapes it in code. */
function escapeMarkdownItText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

describe('annotationsPreview: what raw HTML hid stays hidden', () => {
  test('a line that starts with a note and then opens a comment stays raw HTML: the tag in the comment is not made live', () => {
    const src = `${note('disc-001', 'n')}<!-- <img src=x onerror=alert(1)>\n-->\n`;
    // Without the plugin the browser reads the <img> inside a comment that never closes: inert.
    assert.equal(render(src), new MarkdownIt({ html: true }).render(src), 'the block renders as without the plugin');
  });

  test('a link or image written after a note in a comment left open is not fetched or linked', () => {
    const html = render(`${note('disc-001', 'n')}<!-- ![t](http://evil.example/t.png) [l](http://evil.example)\n-->\n`);
    assert.doesNotMatch(html, /<img|<a /, html);
  });

  test('a line of notes and regions and plain text is still read as a paragraph and highlighted', () => {
    const html = render(
      `<!--@ax:0-1:green:task-001-->Req **one**<!--/@ax--> and ${note('disc-001', 'n')} then text.\n`,
    );
    assert.match(
      html,
      /^<p><span class="groundwork-annotation groundwork-region groundwork-color-green"[^>]*>Req <strong>one<\/strong><\/span> and <span class="groundwork-annotation groundwork-discovery/,
    );
  });
});

describe('annotationsPreview: markers in image text', () => {
  test("a region around an image whose text holds another region's marker closes where its own marker is", () => {
    const html = render('<!--@ax:0-1:green:t-->a ![<!--@ax:0-1:red:u-->](x) b<!--/@ax--> c<!--/@ax--> d\n');
    const green =
      /<span class="groundwork-annotation groundwork-region groundwork-color-green"[^>]*>(.*?)<\/span>/.exec(html);
    assert.ok(green, html);
    assert.doesNotMatch(green[1] ?? '', / d/, html);
  });

  test('many images with markers in their text are each read once (the paragraph is not parsed again per image)', () => {
    const src = '![<!--@ax-discovery:t:disc-001-->n<!--/@ax-->](http://x) '.repeat(300);
    let parses = 0;
    const md = new MarkdownIt({ html: true });
    md.use(annotationsPreview, {
      lookup: (id) => {
        parses++;
        return byId.get(id);
      },
    });
    const html = md.render(src);
    assert.equal((html.match(/<img /g) ?? []).length, 300);
    assert.ok(parses <= 300, `${parses} lookups`);
  });
});
