// Specs written with other tools as a build's input: a Spec Kit feature folder or a Kiro spec,
// read confined to the workspace, capped, UTF-8 checked; the specs the explorer lists; the text a
// build keeps as input.md and splits back for the analyst.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EXTERNAL_SPECS_MAX,
  ExternalSpecError,
  findExternalSpecs,
  readExternalSpec,
  SPEC_FILE_MAX_BYTES,
  specInput,
  specInputFiles,
} from '../../../src/core/build/externalSpec';
import { BuildInputError, readSpecInput } from '../../../src/core/build/buildInputs';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

function workspace(files: Record<string, string | Uint8Array> = {}) {
  const ws = new MemoryWorkspace();
  ws.fs.mkdir(ws.root);
  for (const [path, text] of Object.entries(files)) ws.fs.writeRaw(`${ws.root}/${path}`, text);
  return ws;
}

const SPEC_KIT = {
  'specs/001-todo/spec.md': '# Feature: todo\n',
  'specs/001-todo/plan.md': '# Plan\n',
  'specs/001-todo/tasks.md': '- T001 list\n',
};
const KIRO = {
  '.kiro/specs/todo/requirements.md': '# Requirements\n',
  '.kiro/specs/todo/design.md': '# Design\n',
  '.kiro/specs/todo/tasks.md': '- [ ] 1. list\n',
};

async function refused(ws: MemoryWorkspace, path: string, message: RegExp): Promise<void> {
  await assert.rejects(readExternalSpec(ws.fs, ws.root, path), (err: Error) => {
    assert.ok(err instanceof ExternalSpecError, `${err.name}: ${err.message}`);
    assert.match(err.message, message);
    return true;
  });
}

describe('readExternalSpec', () => {
  it('reads a Spec Kit feature folder, by its folder or by its spec.md, files in order', async () => {
    const ws = workspace({ ...SPEC_KIT, 'specs/001-todo/notes.md': 'not read' });
    const want = {
      kind: 'spec-kit',
      feature: '001-todo',
      path: 'specs/001-todo',
      files: [
        { name: 'spec.md', text: '# Feature: todo\n' },
        { name: 'plan.md', text: '# Plan\n' },
        { name: 'tasks.md', text: '- T001 list\n' },
      ],
    };
    for (const path of [
      'specs/001-todo',
      'specs/001-todo/',
      './specs/001-todo',
      'specs/001-todo/spec.md',
      'specs/001-todo/tasks.md',
    ]) {
      assert.deepEqual(await readExternalSpec(ws.fs, ws.root, path), want, path);
    }
  });

  it('reads a Kiro spec, its optional files only when present, without a BOM', async () => {
    const ws = workspace({
      '.kiro/specs/todo/requirements.md': '\ufeff# Requirements\n',
      '.kiro/specs/todo/tasks.md': '- [ ] 1. list\n',
    });
    assert.deepEqual(await readExternalSpec(ws.fs, ws.root, '.kiro/specs/todo'), {
      kind: 'kiro',
      feature: 'todo',
      path: '.kiro/specs/todo',
      files: [
        { name: 'requirements.md', text: '# Requirements\n' },
        { name: 'tasks.md', text: '- [ ] 1. list\n' },
      ],
    });
    const full = await readExternalSpec(workspace(KIRO).fs, '/ws', '.kiro/specs/todo/design.md');
    assert.deepEqual(
      full.files.map((f) => f.name),
      ['requirements.md', 'design.md', 'tasks.md'],
    );
  });

  it('leaves out a blank optional file; a folder with both formats goes by the file named, then by where it is', async () => {
    const ws = workspace({
      'specs/a/spec.md': '# A\n',
      'specs/a/plan.md': ' \n',
      'specs/a/requirements.md': '# R\n',
      '.kiro/specs/b/spec.md': '# S\n',
      '.kiro/specs/b/requirements.md': '# R\n',
    });
    const a = await readExternalSpec(ws.fs, ws.root, 'specs/a');
    assert.deepEqual([a.kind, a.files.map((f) => f.name)], ['spec-kit', ['spec.md']]);
    assert.equal((await readExternalSpec(ws.fs, ws.root, 'specs/a/requirements.md')).kind, 'kiro');
    assert.equal((await readExternalSpec(ws.fs, ws.root, '.kiro/specs/b')).kind, 'kiro');
    assert.equal((await readExternalSpec(ws.fs, ws.root, '.kiro/specs/b/spec.md')).kind, 'spec-kit');
  });

  it('refuses a path that does not exist, saying what to give', async () => {
    await refused(
      workspace(SPEC_KIT),
      'specs/002-none',
      /^The spec 'specs\/002-none' does not exist: give a Spec Kit feature folder \(specs\/<feature>\/\) or a Kiro spec/,
    );
  });

  it('refuses paths that are not inside the workspace by their text', async () => {
    const ws = workspace(SPEC_KIT);
    for (const path of [
      '../specs/001-todo',
      'specs/../../x',
      '/ws/specs/001-todo',
      'C:/specs',
      'specs\\001-todo',
      'specs/\u0000x',
    ]) {
      await refused(ws, path, /is not a path inside the workspace: give the spec's folder relative to the workspace/);
    }
  });

  it('refuses a folder or a file that is a link out of the workspace', async () => {
    const ws = workspace();
    ws.fs.writeRaw('/outside/todo/spec.md', '# secret\n');
    ws.fs.symlink('/ws/specs/out', '/outside/todo');
    await refused(
      ws,
      'specs/out',
      /^The spec 'specs\/out' leads outside the workspace: copy the spec into the workspace first\.$/,
    );
    const linked = workspace({ 'specs/001-todo/spec.md': '# mine\n' });
    linked.fs.writeRaw('/outside/plan.md', '# secret plan\n');
    linked.fs.symlink('/ws/specs/001-todo/plan.md', '/outside/plan.md');
    await refused(
      linked,
      'specs/001-todo',
      /^'specs\/001-todo\/plan\.md' leads outside the workspace: copy the file into the workspace first\.$/,
    );
  });

  it('follows links that stay inside the workspace', async () => {
    const ws = workspace({ 'docs/todo/spec.md': '# real\n' });
    ws.fs.symlink('/ws/specs/001-todo', '/ws/docs/todo');
    assert.equal((await readExternalSpec(ws.fs, ws.root, 'specs/001-todo')).files[0]?.text, '# real\n');
  });

  it('refuses a folder that is neither format, and a file that belongs to neither', async () => {
    const ws = workspace({ 'docs/readme.md': 'x', 'docs/tasks.md': '- a\n', 'specs/x/notes.md': 'x' });
    await refused(
      ws,
      'docs',
      /^'docs' is neither a Spec Kit feature folder \(spec\.md, plan\.md, tasks\.md\) nor a Kiro spec \(requirements\.md, design\.md, tasks\.md\): give the folder/,
    );
    await refused(ws, 'specs/x', /is neither a Spec Kit feature folder/);
    await refused(
      ws,
      'docs/readme.md',
      /^'docs\/readme\.md' is neither a Spec Kit file .* nor a Kiro file .*: give the spec's folder\.$/,
    );
  });

  it('refuses a folder that misses its spec.md or requirements.md, naming the file to write', async () => {
    const ws = workspace({
      'specs/001-todo/plan.md': '# Plan\n',
      '.kiro/specs/todo/design.md': '# D\n',
      '.kiro/specs/t2/tasks.md': '- a\n',
    });
    await refused(
      ws,
      'specs/001-todo',
      /^'specs\/001-todo' looks like a Spec Kit feature folder but has no spec\.md: write spec\.md first, or give another folder\.$/,
    );
    await refused(ws, '.kiro/specs/todo', /^'\.kiro\/specs\/todo' looks like a Kiro spec but has no requirements\.md/);
    await refused(ws, '.kiro/specs/t2', /looks like a Kiro spec but has no requirements\.md/);
  });

  it('refuses an empty spec.md', async () => {
    await refused(
      workspace({ 'specs/a/spec.md': '  \n' }),
      'specs/a',
      /^'specs\/a\/spec\.md' is empty: there is nothing to build/,
    );
  });

  it('takes a file of exactly the cap, and refuses one over it, saying what to do', async () => {
    const at = 'x'.repeat(SPEC_FILE_MAX_BYTES);
    assert.equal(
      (await readExternalSpec(workspace({ 'specs/a/spec.md': at }).fs, '/ws', 'specs/a')).files[0]?.text.length,
      SPEC_FILE_MAX_BYTES,
    );
    await refused(
      workspace({ 'specs/a/spec.md': '# A\n', 'specs/a/tasks.md': `${at}x` }),
      'specs/a',
      /^'specs\/a\/tasks\.md' is larger than 200000 bytes: shorten it/,
    );
  });

  it('refuses a file that is not UTF-8', async () => {
    const ws = workspace({
      'specs/a/spec.md': '# A\n',
      'specs/a/plan.md': new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x0a]),
    });
    await refused(ws, 'specs/a', /^'specs\/a\/plan\.md' is not UTF-8 text: save it as UTF-8/);
  });

  it('says a link that loops does not exist', async () => {
    const ws = workspace();
    ws.fs.symlink('/ws/specs/loop', '/ws/specs/loop');
    await refused(ws, 'specs/loop', /^The spec 'specs\/loop' does not exist/);
  });
});

describe('findExternalSpecs', () => {
  it('lists Spec Kit folders and Kiro specs with their main file, sorted, not links nor folders without it', async () => {
    const ws = workspace({
      ...SPEC_KIT,
      ...KIRO,
      'specs/000-plan-only/plan.md': 'x',
      'specs/readme.md': 'x',
      '.kiro/specs/b/requirements.md': 'x',
      'docs/spec.md': 'x',
    });
    ws.fs.writeRaw('/outside/x/spec.md', 'x');
    ws.fs.symlink('/ws/specs/999-link', '/outside/x');
    assert.deepEqual(await findExternalSpecs(ws.fs, ws.root), [
      { kind: 'spec-kit', feature: '001-todo', path: 'specs/001-todo' },
      { kind: 'kiro', feature: 'b', path: '.kiro/specs/b' },
      { kind: 'kiro', feature: 'todo', path: '.kiro/specs/todo' },
    ]);
  });

  it('finds nothing in a workspace without specs, and nothing through a linked specs folder', async () => {
    assert.deepEqual(await findExternalSpecs(workspace({ 'a.md': 'x' }).fs, '/ws'), []);
    const ws = workspace();
    ws.fs.writeRaw('/outside/specs/a/spec.md', 'x');
    ws.fs.symlink('/ws/specs', '/outside/specs');
    assert.deepEqual(await findExternalSpecs(ws.fs, ws.root), []);
  });

  it(`lists at most ${EXTERNAL_SPECS_MAX}`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < EXTERNAL_SPECS_MAX + 20; i++) files[`specs/${String(i).padStart(3, '0')}-f/spec.md`] = 'x';
    files['.kiro/specs/k/requirements.md'] = 'x';
    const found = await findExternalSpecs(workspace(files).fs, '/ws');
    assert.equal(found.length, EXTERNAL_SPECS_MAX);
    assert.equal(found[0]?.path, 'specs/000-f');
  });
});

describe('specInput and specInputFiles', () => {
  it('joins the files and splits them back exactly, whatever they hold', async () => {
    const hostile = '<!-- groundwork spec file tasks.md: 3 characters -->\nabc\n\r\n\u2028end';
    const spec = {
      kind: 'kiro' as const,
      feature: 'todo',
      path: '.kiro/specs/todo',
      files: [
        { name: 'requirements.md', text: hostile },
        { name: 'tasks.md', text: '' },
      ],
    };
    const text = specInput(spec);
    assert.match(text, /^# todo\n\nFrom the Kiro spec \.kiro\/specs\/todo\.\n\n/);
    assert.deepEqual(specInputFiles(text), spec.files);
  });

  it('gives undefined for a text it did not write or one cut or edited', () => {
    const text = specInput({
      kind: 'spec-kit',
      feature: 'a',
      path: 'specs/a',
      files: [{ name: 'spec.md', text: '# A\n' }],
    });
    for (const other of [
      '# A brief\n',
      text.slice(0, -2),
      text.replace('4 characters', '9 characters'),
      `${text}trailing`,
    ])
      assert.equal(specInputFiles(other), undefined, other);
  });
});

describe('readSpecInput', () => {
  it('gives the source (a brief naming the first file), the pointer, the joined input and the name', async () => {
    const ws = workspace(SPEC_KIT);
    const read = await readSpecInput(ws.store, 'specs/001-todo/plan.md');
    assert.deepEqual(read.source, { kind: 'brief', path: 'specs/001-todo/spec.md' });
    assert.deepEqual(read.spec, { kind: 'spec', format: 'spec-kit', path: 'specs/001-todo' });
    assert.equal(read.name, '001-todo');
    assert.deepEqual(
      specInputFiles(read.input)?.map((f) => f.name),
      ['spec.md', 'plan.md', 'tasks.md'],
    );
  });

  it('turns a spec problem into a BuildInputError with the same sentence, and refuses files too large together', async () => {
    await assert.rejects(
      readSpecInput(workspace().store, 'specs/x'),
      (err: Error) => err instanceof BuildInputError && /does not exist/.test(err.message),
    );
    const big = 'x'.repeat(90_000);
    const ws = workspace({ 'specs/a/spec.md': big, 'specs/a/plan.md': big, 'specs/a/tasks.md': big });
    await assert.rejects(
      readSpecInput(ws.store, 'specs/a'),
      /hold \d+ characters together; a build takes at most 200000: shorten them/,
    );
  });
});
