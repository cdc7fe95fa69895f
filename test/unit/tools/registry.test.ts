import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ToolBox } from '../../../src/core/session/agentCall';
import { StorageError } from '../../../src/core/storage/storageError';
import type { WorkspaceFs } from '../../../src/core/storage/workspaceFs';
import { READ_TOOL_DEFINITIONS } from '../../../src/core/tools/definitions';
import { createToolRunCache, readTools, ToolRegistry } from '../../../src/core/tools/registry';
import { ToolInputError } from '../../../src/core/tools/toolTypes';
import { call, contextFor, memoryWorkspace, refused, ROOT } from './toolHarness';

// The session runner takes the registry as its ToolBox.
const asBox: ToolBox = readTools;

describe('registry: definitions', () => {
  test('only the tools it has, in the order asked, each once', () => {
    const names = (list: readonly string[]) => asBox.definitionsFor(list).map((d) => d.name);
    assert.deepEqual(names(['search', 'write_file', 'read_file', 'search']), ['search', 'read_file']);
    assert.deepEqual(names(['run_command', 'sleep']), []);
    assert.deepEqual(names(['read_file', 'list_files', 'search']), ['read_file', 'list_files', 'search']);
    assert.equal(readTools.has('list_files'), true);
    assert.equal(readTools.has('write_file'), false);
  });

  test('each definition reads the workspace and has a closed object schema', () => {
    for (const d of READ_TOOL_DEFINITIONS) {
      assert.equal(d.access, 'read-workspace');
      assert.ok(d.description.length > 40);
      const schema = d.inputSchema as {
        type: string;
        properties: Record<string, { type: string; description: string }>;
        required: string[];
        additionalProperties: boolean;
      };
      assert.equal(schema.type, 'object');
      assert.equal(schema.additionalProperties, false);
      for (const key of schema.required) assert.ok(key in schema.properties, `${d.name}.${key}`);
      for (const [key, p] of Object.entries(schema.properties)) {
        assert.ok(['string', 'integer'].includes(p.type), `${d.name}.${key}`);
        assert.ok(p.description.length > 10, `${d.name}.${key}`);
      }
    }
  });

  test('two tools of one name are a mistake', () => {
    const tool = { definition: READ_TOOL_DEFINITIONS[0]!, implementation: { target: () => '', run: async () => '' } };
    assert.throws(() => new ToolRegistry([tool, tool]), RangeError);
  });

  test('targets: the path as asked (. for the root), the query, ? for nonsense', () => {
    assert.equal(asBox.target('read_file', { path: 'src/a.ts' }), 'src/a.ts');
    assert.equal(asBox.target('list_files', {}), '.');
    assert.equal(asBox.target('list_files', { path: '' }), '.');
    assert.equal(asBox.target('search', { query: 'auth' }), 'auth');
    assert.equal(asBox.target('search', { query: 42 }), '?');
    assert.equal(asBox.target('read_file', null), '?');
    assert.equal(asBox.target('nope', { path: 'x' }), '?');
  });
});

describe('registry: bad input is an error result naming what is wrong', () => {
  const context = contextFor(memoryWorkspace({ 'a.txt': 'a' }));
  const cases: { tool: string; input: unknown; says: RegExp }[] = [
    { tool: 'read_file', input: {}, says: /the field 'path' is missing/ },
    {
      tool: 'read_file',
      input: { path: 'a.txt', limit: -1 },
      says: /'limit' must be a whole number from 1 to 2000, got number -1/,
    },
    {
      tool: 'read_file',
      input: { path: 'a.txt', limit: 'x' },
      says: /'limit' must be a whole number from 1 to 2000, got "x"/,
    },
    { tool: 'read_file', input: { path: 'a.txt', limit: 2001 }, says: /'limit' must be a whole number from 1 to 2000/ },
    { tool: 'read_file', input: { path: 'a.txt', limit: 1.5 }, says: /'limit' must be a whole number/ },
    {
      tool: 'read_file',
      input: { path: 'a.txt', offset: 0 },
      says: /'offset' must be a whole number of at least 1, got number 0/,
    },
    {
      tool: 'read_file',
      input: { path: 'a.txt', offset: null },
      says: /'offset' must be a whole number of at least 1, got null/,
    },
    { tool: 'read_file', input: { path: 7 }, says: /'path' must be a string, got number 7/ },
    {
      tool: 'read_file',
      input: { path: 'a.txt', encoding: 'utf8', lines: 3 },
      says: /unknown fields 'encoding', 'lines'; its fields are path, offset, limit \(path required\)/,
    },
    { tool: 'read_file', input: null, says: /the input must be an object, got null/ },
    { tool: 'read_file', input: ['a.txt'], says: /the input must be an object, got a list/ },
    { tool: 'read_file', input: 'a.txt', says: /the input must be an object, got "a\.txt"/ },
    { tool: 'read_file', input: { path: 'x'.repeat(1001) }, says: /'path' must be at most 1000 characters long/ },
    { tool: 'search', input: { query: '' }, says: /'query' must be at least 1 character long/ },
    { tool: 'search', input: { query: 'q'.repeat(201) }, says: /'query' must be at most 200 characters long, got 201/ },
    { tool: 'search', input: { path: '.' }, says: /the field 'query' is missing/ },
    {
      tool: 'list_files',
      input: { pattern: '' },
      says: /'pattern' must be at least 1 character long; its fields are path, pattern, all optional/,
    },
    { tool: 'list_files', input: { path: ['src'] }, says: /'path' must be a string, got a list/ },
    {
      tool: 'write_file',
      input: { path: 'a.txt' },
      says: /^There is no tool 'write_file'\. The tools are: read_file, list_files, search\.$/,
    },
  ];
  for (const { tool, input, says } of cases) {
    test(`${tool} ${JSON.stringify(input)?.slice(0, 60)}`, async () => {
      const result = await call(tool, input, context);
      assert.equal(result.isError, true);
      assert.match(result.content, says);
      if (tool !== 'write_file') assert.match(result.content, new RegExp(`^Bad input for ${tool}: `));
    });
  }
});

describe('registry: failures never throw', () => {
  function throwingFs(make: (path: string) => unknown): WorkspaceFs {
    const fs = memoryWorkspace({ 'a.txt': 'a' });
    return Object.assign(Object.create(fs) as WorkspaceFs, {
      read: async (path: string) => {
        throw make(path);
      },
    });
  }

  test('a storage error: its message, with the workspace path made relative', async () => {
    const fs = throwingFs(
      (path) =>
        new StorageError(
          'io',
          path,
          `Could not read '${path}' (EACCES). Check the permissions of the file and its folder.`,
        ),
    );
    const message = await refused(
      'read_file',
      { path: 'a.txt' },
      contextFor(fs),
      /^read_file failed: Could not read 'a\.txt' \(EACCES\)\. Check the permissions/,
    );
    assert.ok(!message.includes(`${ROOT}/`), message);
  });

  test('any other exception: only its kind, never its message', async () => {
    const fs = throwingFs(() => new TypeError('boom at /home/someone/secret/path'));
    const message = await refused(
      'read_file',
      { path: 'a.txt' },
      contextFor(fs),
      /^read_file failed unexpectedly \(TypeError\)\./,
    );
    assert.doesNotMatch(message, /secret/);
    await refused(
      'read_file',
      { path: 'a.txt' },
      contextFor(throwingFs(() => 'a string')),
      /failed unexpectedly \(string\)/,
    );
  });

  test('an implementation that throws ToolInputError: its message as it is', async () => {
    const registry = new ToolRegistry([
      {
        definition: { ...READ_TOOL_DEFINITIONS[0]!, name: 'probe' },
        implementation: {
          target: () => '.',
          run: async () => {
            throw new ToolInputError('Say this to the model.');
          },
        },
      },
    ]);
    assert.deepEqual(await registry.run('probe', { path: 'x' }, contextFor(memoryWorkspace()), createToolRunCache()), {
      isError: true,
      content: 'Say this to the model.',
    });
  });

  test('a missing workspace root is an error result too', async () => {
    const result = await call('list_files', {}, contextFor(memoryWorkspace(), { root: '/gone' }));
    assert.equal(result.isError, true);
    assert.match(result.content, /^list_files failed: Could not resolve/);
  });
});

describe('registry: the run cache', () => {
  test('makes each value once, and forgets a failure so the next call tries again', async () => {
    const cache = createToolRunCache();
    let made = 0;
    const make = async () => ++made;
    assert.equal(await cache.get('k', make), 1);
    assert.equal(await cache.get('k', make), 1);
    assert.equal(await cache.get('other', make), 2);
    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error('once');
      return 'ok';
    };
    await assert.rejects(cache.get('f', flaky), /once/);
    fail = false;
    assert.equal(await cache.get('f', flaky), 'ok');
  });

  test('the .gitignore is read once per run', async () => {
    const fs = memoryWorkspace({ '.gitignore': 'x\n', 'a.txt': 'a' });
    let reads = 0;
    const counting = Object.assign(Object.create(fs) as WorkspaceFs, {
      read: (path: string, max: number) => {
        if (path.endsWith('/.gitignore')) reads++;
        return fs.read(path, max);
      },
    });
    const cache = createToolRunCache();
    const context = contextFor(counting);
    for (let i = 0; i < 3; i++)
      assert.equal((await call('read_file', { path: 'a.txt' }, context, cache)).isError, false);
    assert.equal(reads, 1);
  });
});
