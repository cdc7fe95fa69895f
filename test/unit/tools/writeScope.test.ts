// A role's write scope (`writes:`): the patterns a role file may give, how they match, and
// write_file / edit_file refusing a path outside it — by the path as given and by the path really
// written — with a result that says why, while the paths inside it are written.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentTools, createToolRunCache } from '../../../src/core/tools/registry';
import type { ActingPorts, ToolContext } from '../../../src/core/tools/toolTypes';
import {
  inWriteScope,
  pathMatches,
  patternWithin,
  widerPatterns,
  writePatternProblem,
} from '../../../src/core/tools/writeScope';
import type { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import { contextFor, memoryWorkspace, ROOT } from './toolHarness';

const DELIVERY = { role: 'build-delivery', patterns: ['README.md', 'docs/**'] };

function acting(): ActingPorts {
  return {
    beforeChange: async () => undefined,
    afterChange: async () => undefined,
    runCommand: async () => 'ran',
    sleep: async () => 'woke',
    reportDiscovery: async () => 'noted',
  };
}

function workspace(): MemoryWorkspaceFs {
  const fs = memoryWorkspace({ 'src/x.js': 'code\n', 'README.md': '# old\n', 'docs/a/old.md': 'old\n' });
  fs.symlink(`${ROOT}/docs/src-link`, '../src');
  fs.symlink(`${ROOT}/docs/readme-link.md`, '../src/x.js');
  return fs;
}

function deliveryContext(fs: MemoryWorkspaceFs): ToolContext {
  return contextFor(fs, { acting: acting(), writeScope: DELIVERY });
}

async function write(context: ToolContext, path: string, content = 'new\n') {
  return agentTools.run('write_file', { path, content }, context, createToolRunCache());
}

describe('write scope: patterns', () => {
  test('plain names, * within a name and ** as a whole name are patterns', () => {
    for (const p of ['README.md', 'docs/**', 'docs/*.md', '**', 'a/**/b.md', 'CHANGE LOG.md', '@scope/x+y-z_1.md'])
      assert.equal(writePatternProblem(p), undefined, p);
  });

  test('absolute paths, .., backslashes, empty names, ** inside a name and other glob syntax are not', () => {
    for (const [p, says] of [
      ['', /empty/],
      ['/etc/x', /absolute/],
      ['C:/x', /absolute/],
      ['docs\\a', /uses '\\'/],
      ['docs//a', /empty name/],
      ['docs/', /empty name/],
      ['../x', /'\.\.'/],
      ['./x', /'\.'/],
      ['a**', /'\*\*' inside a name/],
      ['docs/?.md', /no '\?'/],
      ['docs/{a,b}.md', /no '\?'/],
      ['docs/\u202e.md', /character/],
      [' docs', /space/],
      ['x'.repeat(201), /longer than 200/],
      [Array.from({ length: 17 }, () => 'a').join('/'), /more than 16 names/],
    ] as const)
      assert.match(writePatternProblem(p) ?? 'accepted', says, p);
  });

  test('matching: ** at the end is what is below the folder, in the middle any folders, * one name', () => {
    const m = (path: string, pattern: string) => pathMatches(path.split('/'), pattern);
    assert.ok(m('README.md', 'README.md'));
    assert.ok(!m('readme.md', 'README.md'));
    assert.ok(m('docs/a/b.md', 'docs/**'));
    assert.ok(m('docs/USAGE.md', 'docs/**'));
    assert.ok(!m('docs', 'docs/**'));
    assert.ok(!m('src/docs/a.md', 'docs/**'));
    assert.ok(m('a/b.md', 'a/**/b.md'));
    assert.ok(m('a/x/y/b.md', 'a/**/b.md'));
    assert.ok(m('docs/x.md', 'docs/*.md'));
    assert.ok(!m('docs/x/y.md', 'docs/*.md'));
    assert.ok(m('anything/at/all', '**'));
    assert.ok(inWriteScope(['README.md'], DELIVERY.patterns));
    assert.ok(!inWriteScope(['src', 'x.js'], DELIVERY.patterns));
  });

  test('matching is fast on hostile patterns and long paths', () => {
    const started = Date.now();
    const long = Array.from({ length: 200 }, () => 'a'.repeat(200));
    assert.ok(!pathMatches(long, '**/**/**/**/**/**/**/**/b'));
    assert.ok(!pathMatches(['a'.repeat(5000)], '*a*a*a*a*a*a*a*a*a*a*b'));
    assert.ok(Date.now() - started < 1000);
  });

  test('within: the same, a plain path a pattern matches, or a pattern below a folder/** of the scope', () => {
    assert.ok(patternWithin('docs/**', DELIVERY.patterns));
    assert.ok(patternWithin('docs/api/*.md', DELIVERY.patterns));
    assert.ok(patternWithin('docs/x.md', DELIVERY.patterns));
    assert.ok(!patternWithin('src/**', DELIVERY.patterns));
    assert.ok(!patternWithin('**', DELIVERY.patterns));
    assert.ok(!patternWithin('*.md', DELIVERY.patterns));
    assert.deepEqual(widerPatterns(['README.md', 'CHANGELOG.md', 'docs/**'], DELIVERY.patterns), ['CHANGELOG.md']);
    assert.deepEqual(widerPatterns(undefined, DELIVERY.patterns), ['**']);
    assert.deepEqual(widerPatterns(['src/**'], undefined), []);
  });
});

describe('write scope: write_file and edit_file of the delivery role', () => {
  test('delivery writing src/x.js is refused, saying why; nothing is written', async () => {
    const fs = workspace();
    const result = await write(deliveryContext(fs), 'src/x.js');
    assert.equal(result.isError, true);
    assert.match(
      result.content,
      /^Writing 'src\/x\.js' was refused: the build-delivery role may write only README\.md, docs\/\*\* \(the writes: of its role file\)\. .*say so in your answer\.$/,
    );
    assert.equal(fs.text(`${ROOT}/src/x.js`), 'code\n');
    const edit = await agentTools.run(
      'edit_file',
      { path: 'src/x.js', old_text: 'code', new_text: 'evil' },
      deliveryContext(fs),
      createToolRunCache(),
    );
    assert.equal(edit.isError, true);
    assert.match(edit.content, /may write only README\.md, docs\/\*\*/);
    assert.equal(fs.text(`${ROOT}/src/x.js`), 'code\n');
  });

  test('README.md, docs/USAGE.md and docs/a/b.md are written', async () => {
    const fs = workspace();
    for (const path of ['README.md', 'docs/USAGE.md', 'docs/a/b.md', './docs//a/c.md']) {
      const result = await write(deliveryContext(fs), path);
      assert.equal(result.isError, false, `${path}: ${result.content}`);
    }
    assert.equal(fs.text(`${ROOT}/docs/a/b.md`), 'new\n');
    assert.equal(fs.text(`${ROOT}/docs/a/c.md`), 'new\n');
  });

  test('path tricks: case, another root file, a folder named like one, .., and links out of docs/ are refused', async () => {
    const fs = workspace();
    for (const [path, says] of [
      ['readme.md', /may write only/],
      ['README.md.js', /may write only/],
      ['src/README.md', /may write only/],
      ['docs', /may write only/],
      ['Docs/a.md', /may write only/],
      ['docs/../src/x.js', /'\.\.' segment/],
      ['docs\u200b/a.md', /may write only/],
      ['package.json', /may write only/],
      [
        'docs/src-link/x.js',
        /a symbolic link on the way leads to 'src\/x\.js', and the build-delivery role may write only/,
      ],
      ['docs/readme-link.md', /leads to 'src\/x\.js', and the build-delivery role may write only/],
    ] as const) {
      const result = await write(deliveryContext(fs), path);
      assert.equal(result.isError, true, `${path}: ${result.content}`);
      assert.match(result.content, says, path);
    }
    assert.equal(fs.text(`${ROOT}/src/x.js`), 'code\n');
  });

  test('a role without writes: writes where the write tools allow', async () => {
    const fs = workspace();
    const result = await write(contextFor(fs, { acting: acting() }), 'src/x.js');
    assert.equal(result.isError, false, result.content);
  });
});
