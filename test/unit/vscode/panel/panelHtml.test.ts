import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { makeNonce, panelHtml } from '../../../../src/vscode/panel/panelHtml';

const input = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abc123',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
  codiconUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css',
  lang: 'en',
};

function csp(html: string): Map<string, string> {
  const content = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  assert.ok(content, 'the document has a CSP meta tag');
  return new Map(
    content.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values.join(' ')];
    }),
  );
}

describe('agent panel document', () => {
  const html = panelHtml(input);

  test('denies everything by default and allows scripts only with the nonce', () => {
    const policy = csp(html);
    assert.equal(policy.get('default-src'), "'none'");
    assert.equal(policy.get('script-src'), "'nonce-abc123'");
    assert.ok(!html.includes('unsafe-inline') && !html.includes('unsafe-eval'));
  });

  test('loads nothing from outside the extension', () => {
    const policy = csp(html);
    for (const [name, value] of policy) {
      for (const source of value.split(' ')) {
        assert.ok(
          ["'none'", 'data:', input.cspSource].includes(source) || source.startsWith("'nonce-"),
          `${name} allows ${source}`,
        );
      }
    }
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.equal(urls.length, 3);
    for (const url of urls) assert.ok(url.startsWith(input.cspSource), url);
  });

  test('every script carries the nonce', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>/g)];
    assert.equal(scripts.length, 1);
    for (const [, attrs] of scripts) assert.match(attrs!, /nonce="abc123"/);
  });

  test('the codicon stylesheet has the id the webview controls look for', () => {
    assert.match(html, /href="[^"]+codicon\.css" id="vscode-codicon-stylesheet"/);
  });

  test('values are escaped into attributes', () => {
    const evil = panelHtml({ ...input, lang: '"><script>alert(1)</script>' });
    assert.equal([...evil.matchAll(/<script/g)].length, 1);
  });

  test('nonces are 32 hex characters and differ per document', () => {
    const a = makeNonce((n) => randomBytes(n));
    const b = makeNonce((n) => randomBytes(n));
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.notEqual(a, b);
  });
});
