import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRoleFile, ROLE_FILE_MAX_BYTES } from '../../../src/core/roles/roleFile';
import { roleText } from './roleFixtures';
import { cpuMsSince } from '../../support/cpuTime';

const FILE = 'roles/build-qa.md';
const KNOWN_TOOLS = 'known: read_file, write_file, edit_file, list_files, search, run_command, report_discovery, sleep';
const SHAPE =
  "a role file starts with a line '---', then its fields (name, description, tools, model, permissionMode, maxTurns), then a line '---', then the prompt";

function errorsOf(text: string, file = FILE): string[] {
  const parsed = parseRoleFile(file, text);
  assert.equal(parsed.role, undefined, 'expected the file to be refused');
  return parsed.errors.map((e) => e.text);
}

/** Three levels of nine aliases each: 729 strings if expanded, far more with a fourth level. */
function billionLaughs(levels: number): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]`,
    );
  return roleText('build-qa', { extra: lines.join('\n') });
}

describe('parseRoleFile: a valid file', () => {
  test('gives the role with its prompt', () => {
    const parsed = parseRoleFile(
      FILE,
      roleText('build-qa', {
        tools: '\n  - read_file\n  - run_command',
        permissionMode: 'workspaceWrite',
        maxTurns: '80',
        prompt: '# QA\n\nVerify.',
      }),
    );
    assert.deepEqual(parsed.role, {
      name: 'build-qa',
      description: 'The build-qa role for tests.',
      tools: ['read_file', 'run_command'],
      model: { tier: 'fast' },
      permissionMode: 'workspaceWrite',
      maxTurns: 80,
      prompt: '# QA\n\nVerify.',
    });
  });

  test('a concrete model id is kept as an id; a tier as a tier', () => {
    assert.deepEqual(parseRoleFile(FILE, roleText('build-qa', { model: 'claude-sonnet-4-5-20250929' })).role?.model, {
      id: 'claude-sonnet-4-5-20250929',
    });
    assert.deepEqual(parseRoleFile(FILE, roleText('build-qa', { model: 'copilot/gpt-4o' })).role?.model, {
      id: 'copilot/gpt-4o',
    });
    assert.deepEqual(parseRoleFile(FILE, roleText('build-qa', { model: 'complex' })).role?.model, { tier: 'complex' });
  });

  test('CRLF line endings and a byte-order mark are accepted', () => {
    assert.equal(parseRoleFile(FILE, roleText('build-qa').replace(/\n/g, '\r\n')).role?.name, 'build-qa');
    assert.equal(parseRoleFile(FILE, `\ufeff${roleText('build-qa')}`).role?.name, 'build-qa');
  });

  test('an empty tool list is allowed, and a few aliases are', () => {
    assert.deepEqual(parseRoleFile(FILE, roleText('build-qa', { tools: '[]' })).role?.tools, []);
    assert.equal(
      parseRoleFile(FILE, roleText('build-qa', { name: '&n build-qa', description: '*n' })).role?.description,
      'build-qa',
    );
  });

  test('writes: is optional; given, it is the list of paths and patterns the role may write', () => {
    assert.equal(parseRoleFile(FILE, roleText('build-qa')).role?.writes, undefined);
    assert.deepEqual(
      parseRoleFile(FILE, roleText('build-qa', { extra: 'writes:\n  - README.md\n  - docs/**\n  - README.md' })).role
        ?.writes,
      ['README.md', 'docs/**'],
    );
    assert.deepEqual(parseRoleFile(FILE, roleText('build-qa', { extra: 'writes: []' })).role?.writes, []);
  });

  test('a file of exactly the cap loads; one byte more does not', () => {
    const base = roleText('build-qa', { prompt: '' });
    const fill = (bytes: number) => base + 'x'.repeat(bytes - Buffer.byteLength(base));
    assert.equal(parseRoleFile(FILE, fill(ROLE_FILE_MAX_BYTES)).role?.name, 'build-qa');
    assert.deepEqual(errorsOf(fill(ROLE_FILE_MAX_BYTES + 1)), [
      `${FILE}:1: the file is ${ROLE_FILE_MAX_BYTES + 1} bytes, over the cap of ${ROLE_FILE_MAX_BYTES} bytes for a role; a role prompt needs a few KB — shorten it`,
    ]);
  });
});

describe('parseRoleFile: broken files name the file, the line and the field', () => {
  const cases: { what: string; text: string; errors: string[] }[] = [
    {
      what: 'bad YAML (an unclosed list)',
      text: roleText('build-qa', { tools: '[read_file, search' }),
      errors: [
        `${FILE}:4: tools: YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`,
      ],
    },
    {
      what: 'bad YAML (an unclosed quote)',
      text: roleText('build-qa', { description: '"Checks the build' }),
      errors: [`${FILE}:3: description: YAML: Missing closing "quote`],
    },
    {
      what: 'an unknown tool, at its own line in a block list',
      text: roleText('build-qa', { tools: '\n  - read_file\n  - rm_rf' }),
      errors: [`${FILE}:6: tools: unknown tool "rm_rf" (${KNOWN_TOOLS})`],
    },
    {
      what: 'a tool listed twice',
      text: roleText('build-qa', { tools: '[search, search]' }),
      errors: [`${FILE}:4: tools: search is listed twice`],
    },
    {
      what: 'no name',
      text: roleText('build-qa').replace('name: build-qa\n', ''),
      errors: [
        `${FILE}:1: name: missing; every role file sets name, description, tools, model, permissionMode, maxTurns`,
      ],
    },
    {
      what: 'a name other than the file name',
      text: roleText('build-qa', { name: 'build-dev' }),
      errors: [
        `${FILE}:2: name: "build-dev" does not match the file name; a role file is named <name>.md, so here name: build-qa`,
      ],
    },
    {
      what: 'an unknown field',
      text: roleText('build-qa', { extra: 'colour: yellow' }),
      errors: [
        `${FILE}:8: colour: unknown field (known: name, description, tools, model, permissionMode, maxTurns, writes)`,
      ],
    },
    {
      what: 'writes: that is not a list',
      text: roleText('build-qa', { extra: 'writes: docs/**' }),
      errors: [
        `${FILE}:8: writes: must be a list of paths and patterns (e.g. ['README.md', 'docs/**']), got "docs/**"`,
      ],
    },
    {
      what: 'a writes: pattern that leads out, at its own line',
      text: roleText('build-qa', { extra: 'writes:\n  - docs/**\n  - ../src/**' }),
      errors: [`${FILE}:10: writes: "../src/**" may not use '..'`],
    },
    {
      what: 'a writes: pattern that is absolute, or not text',
      text: roleText('build-qa', { extra: 'writes: [/etc/passwd]' }),
      errors: [
        `${FILE}:8: writes: "/etc/passwd" is absolute; give a path relative to the project folder, such as 'docs/**'`,
      ],
    },
    {
      what: 'a writes: item that is not text',
      text: roleText('build-qa', { extra: 'writes: [{a: 1}]' }),
      errors: [`${FILE}:8: writes: each item is a path or pattern, got an object`],
    },
    {
      what: 'a field set twice',
      text: roleText('build-qa', { extra: 'name: build-qa' }),
      errors: [`${FILE}:8: name: is set twice; keep one of them`],
    },
    {
      what: '__proto__ (an unknown field, not a prototype)',
      text: roleText('build-qa', { extra: '__proto__: {tools: [run_command]}' }),
      errors: [
        `${FILE}:8: __proto__: unknown field (known: name, description, tools, model, permissionMode, maxTurns, writes)`,
      ],
    },
    {
      what: 'wrong types, every one reported',
      text: roleText('build-qa', {
        description: '[a]',
        tools: 'read_file',
        model: '42',
        permissionMode: 'root',
        maxTurns: '"5"',
      }),
      errors: [
        `${FILE}:3: description: must be a non-empty line of text saying what the role does, got a list`,
        `${FILE}:4: tools: must be a list of tools ([] for none), got "read_file" (${KNOWN_TOOLS})`,
        `${FILE}:5: model: must be a tier (complex or fast) or a model id, got number 42`,
        `${FILE}:6: permissionMode: must be one of readOnly, askBeforeCommands, workspaceWrite, got "root"`,
        `${FILE}:7: maxTurns: must be a whole number from 1 to 500, got "5"`,
      ],
    },
    ...['0', '2.5', '501'].map((turns) => ({
      what: `maxTurns ${turns}`,
      text: roleText('build-qa', { maxTurns: turns }),
      errors: [`${FILE}:7: maxTurns: must be a whole number from 1 to 500, got number ${turns}`],
    })),
    {
      what: 'a model family instead of an id',
      text: roleText('build-qa', { model: 'opus' }),
      errors: [
        `${FILE}:5: model: "opus" is a model family, not a model id; use a tier (complex or fast) or a full id such as claude-sonnet-4-5`,
      ],
    },
    {
      what: 'a model that is not an id',
      text: roleText('build-qa', { model: '"fast please"' }),
      errors: [
        `${FILE}:5: model: "fast please" is neither a tier (complex or fast) nor a model id (letters, digits and . _ : / @ -, up to 128)`,
      ],
    },
    {
      what: 'write tools in a readOnly role',
      text: roleText('build-qa', { tools: '[read_file, write_file, run_command]' }),
      errors: [
        `${FILE}:4: tools: write_file, run_command cannot be given to a readOnly role; remove them or choose another permissionMode`,
      ],
    },
    {
      what: 'no frontmatter',
      text: '# QA\n\nYou verify builds.\n',
      errors: [`${FILE}:1: no frontmatter: ${SHAPE}`],
    },
    {
      what: 'frontmatter never closed',
      text: '---\nname: build-qa\n\nYou verify builds.\n',
      errors: [`${FILE}:1: the frontmatter has no closing '---' line: ${SHAPE}`],
    },
    {
      what: 'empty frontmatter',
      text: '---\n---\nYou verify builds.\n',
      errors: [`${FILE}:1: the frontmatter is empty: ${SHAPE}`],
    },
    {
      what: 'frontmatter that is a list',
      text: '---\n- name\n- tools\n---\nYou verify builds.\n',
      errors: [`${FILE}:2: the frontmatter must be fields such as \`name: build-qa\`, not a list or a single value`],
    },
    {
      what: 'an empty body',
      text: roleText('build-qa', { prompt: ' \n\n ' }),
      errors: [`${FILE}:8: the prompt is empty; write the role's system prompt after the closing '---'`],
    },
    {
      what: 'an unknown YAML tag',
      text: roleText('build-qa', { model: '!!js/function fast' }),
      errors: [`${FILE}:5: model: YAML: Unresolved tag: tag:yaml.org,2002:js/function`],
    },
    {
      what: 'a control character in a value is shown escaped',
      text: roleText('build-qa', { tools: '["read_\u202efile"]' }),
      errors: [`${FILE}:4: tools: unknown tool "read_\\u202efile" (${KNOWN_TOOLS})`],
    },
  ];
  for (const c of cases) {
    test(c.what, () => assert.deepEqual(errorsOf(c.text), c.errors));
  }

  test('each problem carries its parts as well as its text', () => {
    const [problem] = parseRoleFile(FILE, roleText('build-qa', { tools: '[rm_rf]' })).errors ?? [];
    assert.deepEqual(
      { severity: problem?.severity, file: problem?.file, line: problem?.line, field: problem?.field },
      { severity: 'error', file: FILE, line: 4, field: 'tools' },
    );
  });

  test('a billion-laughs file fails fast, naming the field with the first alias', () => {
    const started = process.cpuUsage();
    assert.deepEqual(errorsOf(billionLaughs(8)), [
      `${FILE}:9: a1: YAML aliases expand too much (more than 10 uses); a role file needs no aliases — write the values out`,
    ]);
    assert.ok(cpuMsSince(started) < 1000, 'the alias cap must stop the expansion early');
  });
});
