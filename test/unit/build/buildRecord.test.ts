// build.yaml: written in a fixed order, read back exactly, and a damaged or hostile file refused
// whole with a reason naming the field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { stringify } from 'yaml';
import {
  BUILD_ID_PATTERN,
  BUILD_YAML_MAX_BYTES,
  isBuildId,
  newBuildId,
  parseBuildRecord,
  parseBuildYaml,
  serializeBuildRecord,
  VERIFIED_MAX,
} from '../../../src/core/build/buildRecord';
import { PHASE_ATTEMPTS_MAX, RECORD_TEXT_MAX_CHARS } from '../../../src/core/build/buildRecordParts';
import type { BuildRecord } from '../../../src/core/build/buildTypes';
import { WORKFLOW_PHASES_MAX } from '../../../src/core/build/buildTypes';
import { sampleBuild } from './buildFixtures';
import { cpuMsSince } from '../../support/cpuTime';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);

describe('newBuildId', () => {
  test('is the UTC time, the slug and the random part, and matches the pattern', () => {
    const id = newBuildId('price-tracker', T0, '0a1f');
    assert.equal(id, '20250102-030405-price-tracker-0a1f');
    assert.match(id, BUILD_ID_PATTERN);
    assert.ok(isBuildId(id));
  });

  test('refuses a slug, a random part or a time the pattern would not take', () => {
    for (const slug of ['Price', '../x', '', 'a b', 'a'.repeat(65)])
      assert.throws(() => newBuildId(slug, T0, '0a1f'), RangeError, slug);
    for (const hex of ['0A1F', 'abcde', 'xyz1']) assert.throws(() => newBuildId('p', T0, hex), RangeError, hex);
    assert.throws(() => newBuildId('p', Date.UTC(10000, 0, 1), 'abcd'), RangeError);
    assert.throws(() => newBuildId('p', Number.NaN, 'abcd'), RangeError);
  });

  test('isBuildId refuses what is not a build folder name', () => {
    for (const id of [
      '',
      '20250102-030405-x-0a1f/..',
      '20250102-030405--0a1f',
      '2025-01-02-x-0a1f',
      '20250102-030405-X-0a1f',
      '../20250102-030405-x-0a1f',
    ]) {
      assert.equal(isBuildId(id), false, id);
    }
  });
});

describe('serializeBuildRecord and parseBuildYaml', () => {
  test('a whole record comes back exactly as it was written', () => {
    const record = sampleBuild();
    assert.deepEqual(parseBuildYaml(serializeBuildRecord(record)), { ok: true, value: record });
  });

  test('a minimal record comes back without fields it never had', () => {
    const record: BuildRecord = {
      version: 1,
      id: '20250102-030405-x-0a1f',
      status: 'running',
      source: { kind: 'brainstorm', slug: 'crm' },
      mode: 'feature',
      phases: [],
      verified: [],
      startedAt: '2025-01-02T03:04:05.000Z',
      updatedAt: '2025-01-02T03:04:05.000Z',
      origin: 'vscode',
    };
    const text = serializeBuildRecord(record);
    assert.deepEqual(parseBuildYaml(text), { ok: true, value: record });
    assert.doesNotMatch(text, /projectDir|summary|endedAt|reason|usage|undefined/);
  });

  test('starts with a comment saying Groundwork writes it, then the fields in a fixed order', () => {
    const text = serializeBuildRecord(sampleBuild());
    assert.match(text, /^# Written by Groundwork/);
    const order = [
      'version:',
      'id:',
      'status:',
      'origin:',
      'mode:',
      'source:',
      'projectName:',
      'projectDir:',
      'startedAt:',
      'updatedAt:',
      'endedAt:',
      'reason:',
      'maxCostUsd:',
      'costUsd:',
      'usage:',
      'summary:',
      'phases:',
      'verified:',
    ];
    const at = order.map((k) => text.search(new RegExp(`^${k}`, 'm')));
    assert.ok(at.every((i) => i >= 0));
    assert.deepEqual(
      at,
      [...at].sort((a, b) => a - b),
    );
    // The same record built in another field order writes the same text.
    const shuffled = Object.fromEntries(Object.entries(sampleBuild()).reverse()) as unknown as BuildRecord;
    assert.equal(serializeBuildRecord(shuffled), text);
  });

  test('a usage object shared between the build and an attempt is written out twice, never as a YAML alias', () => {
    const record = sampleBuild();
    const text = serializeBuildRecord(record);
    assert.doesNotMatch(text, /[&*]\w/);
    assert.ok(parseBuildYaml(text).ok);
  });

  test('any text round-trips: control characters, newlines, quotes, YAML syntax, emoji', () => {
    const texts = fc.string({ unit: 'binary', minLength: 1, maxLength: 200 });
    fc.assert(
      fc.property(texts, texts, texts, (reason, evidence, output) => {
        const base = sampleBuild();
        const phases = base.phases.map((p, i) =>
          i === 1 ? { ...p, attempts: p.attempts.map((a) => ({ ...a, reason, evidence })) } : p,
        );
        const record = sampleBuild({
          reason,
          phases,
          verified: [{ phase: 'qa', command: 'node --test', exitCode: 0, output }],
        });
        assert.deepEqual(parseBuildYaml(serializeBuildRecord(record)), { ok: true, value: record });
      }),
      { numRuns: 300 },
    );
  });

  test('refuses to write a record it could not read back, naming the field', () => {
    assert.throws(
      () => serializeBuildRecord(sampleBuild({ reason: 'x'.repeat(RECORD_TEXT_MAX_CHARS + 1) })),
      /field reason is 8001 characters/,
    );
    assert.throws(
      () => serializeBuildRecord(sampleBuild({ projectDir: '../elsewhere' })),
      /field projectDir has a '\.\.' segment/,
    );
  });
});

/** A record as plain data, changed at `path` (a value of undefined removes the field). */
function mutated(path: (string | number)[], value: unknown): Record<string, unknown> {
  const data = JSON.parse(JSON.stringify(sampleBuild())) as Record<string, unknown>;
  let at: Record<string | number, unknown> = data;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return data;
}

describe('a damaged build.yaml is refused, naming the field', () => {
  const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 1, cacheCreationTokens: 1 };
  const cases: [string, (string | number)[], unknown, RegExp][] = [
    ['version 2', ['version'], 2, /field version number 2 is not 1/],
    ['a version as text', ['version'], '1', /field version "1" is not 1/],
    ['an id that climbs', ['id'], '../../x', /field id "..\/..\/x" is not a build id/],
    ['a missing id', ['id'], undefined, /^field id is missing$/],
    ['an unknown status', ['status'], 'done', /field status "done" is not one of running, completed, failed, stopped/],
    ['an unknown mode', ['mode'], 'both', /field mode/],
    ['an unknown origin', ['origin'], 'web', /field origin/],
    ['a source that is text', ['source'], 'brief.md', /field source is not a mapping/],
    ['an unknown source kind', ['source', 'kind'], 'url', /field source\.kind "url"/],
    ['a source path that is absolute', ['source', 'path'], '/etc/passwd', /field source\.path is an absolute path/],
    ['a source path that is a number', ['source', 'path'], 7, /field source\.path is not text/],
    ['a brainstorm without a slug', ['source'], { kind: 'brainstorm', slug: '../x' }, /field source\.slug/],
    ['a projectDir that climbs', ['projectDir'], 'a/../../b', /field projectDir has a '\.\.' segment/],
    ['a projectDir with a backslash', ['projectDir'], 'a\\b', /field projectDir contains a backslash/],
    ['a projectDir that is a list', ['projectDir'], ['a'], /field projectDir is not text/],
    ['a projectName with capitals', ['projectName'], 'Price', /field projectName "Price" is not a project name/],
    ['a projectName that is a device', ['projectName'], 'nul', /field projectName/],
    ['a startedAt that is not ISO', ['startedAt'], 'yesterday', /field startedAt is not an ISO-8601 UTC time/],
    ['a missing updatedAt', ['updatedAt'], undefined, /field updatedAt/],
    ['an endedAt as a number', ['endedAt'], T0, /field endedAt/],
    [
      'a reason too long',
      ['reason'],
      'x'.repeat(RECORD_TEXT_MAX_CHARS + 1),
      /field reason is 8001 characters; the limit is 8000/,
    ],
    ['a reason as a list', ['reason'], ['x'], /field reason is not text/],
    ['a negative cost', ['costUsd'], -1, /field costUsd is not a number ≥ 0/],
    ['a cost as text', ['costUsd'], '0.1', /field costUsd/],
    ['a ceiling that is text', ['maxCostUsd'], 'five', /field maxCostUsd/],
    ['usage with a fraction', ['usage'], { ...usage, inputTokens: 1.5 }, /field usage is not four whole token counts/],
    ['phases that are not a list', ['phases'], { analyst: {} }, /field phases is not a list/],
    [
      'too many phases',
      ['phases'],
      Array(WORKFLOW_PHASES_MAX + 1).fill(sampleBuild().phases[2]),
      /field phases has 21 entries; the limit is 20/,
    ],
    ['a phase that is text', ['phases', 0], 'analyst', /field phases\[0\] is not a mapping/],
    [
      'a phase name with capitals',
      ['phases', 0, 'name'],
      'Analyst',
      /field phases\[0\]\.name "Analyst" is not a phase name/,
    ],
    ['a phase role that is a path', ['phases', 1, 'role'], '../qa', /field phases\[1\]\.role/],
    [
      'an unknown check',
      ['phases', 1, 'check'],
      'verify',
      /field phases\[1\]\.check "verify" is not one of brief, architecture/,
    ],
    ['an unknown phase status', ['phases', 2, 'status'], 'skipped', /field phases\[2\]\.status/],
    ['attempts that are missing', ['phases', 2, 'attempts'], undefined, /field phases\[2\]\.attempts is not a list/],
    [
      'too many attempts',
      ['phases', 2, 'attempts'],
      Array(PHASE_ATTEMPTS_MAX + 1).fill({ status: 'failed', startedAt: '2025-01-02T03:04:05.000Z' }),
      /field phases\[2\]\.attempts has 51 entries; the limit is 50/,
    ],
    [
      'an attempt status',
      ['phases', 1, 'attempts', 0, 'status'],
      'pending',
      /field phases\[1\]\.attempts\[0\]\.status "pending"/,
    ],
    [
      'an attempt startedAt',
      ['phases', 1, 'attempts', 1, 'startedAt'],
      '2025-02-30T00:00:00Z',
      /field phases\[1\]\.attempts\[1\]\.startedAt/,
    ],
    [
      'an attempt endedAt',
      ['phases', 1, 'attempts', 0, 'endedAt'],
      'later',
      /field phases\[1\]\.attempts\[0\]\.endedAt/,
    ],
    [
      'an attempt runId',
      ['phases', 0, 'attempts', 0, 'runId'],
      '../../runs/x',
      /field phases\[0\]\.attempts\[0\]\.runId/,
    ],
    [
      'an attempt transient as text',
      ['phases', 1, 'attempts', 0, 'transient'],
      'yes',
      /field phases\[1\]\.attempts\[0\]\.transient is not true or false/,
    ],
    [
      'an attempt cause',
      ['phases', 1, 'attempts', 0, 'cause'],
      'because',
      /field phases\[1\]\.attempts\[0\]\.cause "because"/,
    ],
    [
      'an attempt evidence too long',
      ['phases', 1, 'attempts', 0, 'evidence'],
      'e'.repeat(RECORD_TEXT_MAX_CHARS + 1),
      /field phases\[1\]\.attempts\[0\]\.evidence is 8001 characters/,
    ],
    [
      'an attempt reason as a number',
      ['phases', 1, 'attempts', 1, 'reason'],
      42,
      /field phases\[1\]\.attempts\[1\]\.reason is not text/,
    ],
    [
      'an attempt usage',
      ['phases', 0, 'attempts', 0, 'usage'],
      { inputTokens: 1 },
      /field phases\[0\]\.attempts\[0\]\.usage/,
    ],
    [
      'an attempt cost',
      ['phases', 0, 'attempts', 0, 'costUsd'],
      Number.POSITIVE_INFINITY,
      /field phases\[0\]\.attempts\[0\]\.costUsd/,
    ],
    ['two phases of one name', ['phases', 2, 'name'], 'qa', /field phases names the phase qa twice/],
    ['verified that is not a list', ['verified'], 'node --test', /field verified is not a list/],
    [
      'too many verified commands',
      ['verified'],
      Array(VERIFIED_MAX + 1).fill({ phase: 'qa', command: 'x', exitCode: 0 }),
      /field verified has 201 entries; the limit is 200/,
    ],
    [
      'a verified command with an escape',
      ['verified', 0, 'command'],
      'node --test\u001b[2J',
      /field verified\[0\]\.command contains a control or invisible character/,
    ],
    [
      'a verified command with NUL',
      ['verified', 0, 'command'],
      'a\u0000b',
      /field verified\[0\]\.command contains a NUL character/,
    ],
    ['an empty verified command', ['verified', 0, 'command'], ' ', /field verified\[0\]\.command is empty/],
    [
      'a verified exit code as text',
      ['verified', 0, 'exitCode'],
      '0',
      /field verified\[0\]\.exitCode "0" is not a whole number or null/,
    ],
    [
      'a missing verified exit code',
      ['verified', 1, 'exitCode'],
      undefined,
      /^field verified\[1\]\.exitCode is missing$/,
    ],
    [
      'a verified phase not in phases',
      ['verified', 0, 'phase'],
      'developer',
      /field verified names the phase developer, which is not in phases/,
    ],
    [
      'a verified output too long',
      ['verified', 0, 'output'],
      'o'.repeat(RECORD_TEXT_MAX_CHARS + 1),
      /field verified\[0\]\.output/,
    ],
    ['a summary that is text', ['summary'], 'done', /field summary is not a mapping/],
    ['a summary without usage', ['summary', 'usage'], undefined, /field summary\.usage is not text/],
    ['a summary with an empty project', ['summary', 'project'], '  ', /field summary\.project is empty/],
    [
      'a summary location too long',
      ['summary', 'location'],
      'l'.repeat(1001),
      /field summary\.location is 1001 characters/,
    ],
  ];
  for (const [name, path, value, reason] of cases) {
    test(name, () => {
      const yaml = stringify(mutated(path, value), { aliasDuplicateObjects: false });
      const parsed = parseBuildYaml(yaml);
      assert.equal(parsed.ok, false, 'the damaged file was accepted');
      assert.match((parsed as { reason: string }).reason, reason);
    });
  }

  const texts: [string, string, RegExp][] = [
    ['an empty file', '', /not a mapping of fields/],
    ['a list', '- version: 1\n', /not a mapping of fields/],
    ['a file cut in half', serializeBuildRecord(sampleBuild()).slice(0, 900), /./],
    ['a YAML syntax error', 'version: 1\nid: "unclosed\nstatus: running\n', /^line \d+: YAML: /],
    [
      'a key set twice',
      `${serializeBuildRecord(sampleBuild())}status: completed\n`,
      /line \d+: YAML: Map keys must be unique/,
    ],
    [
      'two documents',
      `${serializeBuildRecord(sampleBuild())}---\nversion: 1\n`,
      /YAML: Source contains multiple documents/,
    ],
    [
      'an alias',
      serializeBuildRecord(sampleBuild())
        .replace('usage:\n  inputTokens', 'usage: &u\n  inputTokens')
        .replace(/(\n {8})usage:\n(?: {10}\w+: \d+\n)+/, '$1usage: *u\n'),
      /line \d+: YAML aliases are not part of build.yaml/,
    ],
    [
      'a binary tag',
      serializeBuildRecord(sampleBuild()).replace(/^reason: .*$/m, 'reason: !!binary aGk='),
      /field reason is not text/,
    ],
  ];
  for (const [name, text, reason] of texts) {
    test(name, () => {
      const parsed = parseBuildYaml(text);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { reason: string }).reason, reason);
    });
  }

  test('a file over the cap is refused before it is parsed', () => {
    const started = process.cpuUsage();
    const parsed = parseBuildYaml(`# ${'x'.repeat(BUILD_YAML_MAX_BYTES)}\n`);
    assert.deepEqual(parsed, {
      ok: false,
      reason: `the file is ${BUILD_YAML_MAX_BYTES + 3} bytes, over the cap of ${BUILD_YAML_MAX_BYTES}`,
    });
    assert.ok(cpuMsSince(started) < 2000);
  });

  test('unknown fields are ignored and not kept; __proto__ pollutes nothing', () => {
    const text = `${serializeBuildRecord(sampleBuild())}extra: 1\n__proto__:\n  polluted: true\n`;
    const parsed = parseBuildYaml(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, sampleBuild());
    assert.equal(Object.hasOwn(parsed.value, 'extra'), false);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  test('parseBuildRecord refuses what is not a mapping', () => {
    for (const value of [null, [], 'build', 1, undefined]) assert.equal(parseBuildRecord(value).ok, false);
  });
});

describe("build.yaml's input: where a spec came from", () => {
  const spec = { kind: 'spec', format: 'kiro', path: '.kiro/specs/todo' } as const;

  test('is written after the source and read back; a file without it (older builds) reads as before', () => {
    const record = sampleBuild({ source: { kind: 'brief', path: '.kiro/specs/todo/requirements.md' }, input: spec });
    const text = serializeBuildRecord(record);
    assert.match(
      text,
      /^source:\n {2}kind: brief\n {2}path: \.kiro\/specs\/todo\/requirements\.md\ninput:\n {2}kind: spec\n {2}format: kiro\n {2}path: \.kiro\/specs\/todo\n/m,
    );
    assert.deepEqual(parseBuildYaml(text), { ok: true, value: record });
    const older = parseBuildYaml(serializeBuildRecord(sampleBuild()));
    assert.ok(older.ok && older.value.input === undefined);
    assert.deepEqual(
      parseBuildRecord({
        ...JSON.parse(JSON.stringify(sampleBuild())),
        input: { kind: 'spec', format: 'spec-kit', path: '.' },
      }).ok,
      true,
    );
  });

  const cases: [string, unknown, RegExp][] = [
    ['text', 'specs/a', /^field input is not a mapping of fields$/],
    ['an unknown kind', { ...spec, kind: 'url' }, /^field input\.kind "url" is not spec$/],
    [
      'an unknown format',
      { ...spec, format: 'openspec' },
      /^field input\.format "openspec" is not one of spec-kit, kiro$/,
    ],
    ['a missing format', { kind: 'spec', path: 'specs/a' }, /^field input\.format is missing$/],
    ['a path that climbs', { ...spec, path: 'specs/../../x' }, /^field input\.path has a '\.\.' segment$/],
    ['an absolute path', { ...spec, path: '/etc' }, /^field input\.path is an absolute path$/],
    ['a path as a number', { ...spec, path: 3 }, /^field input\.path is not text$/],
  ];
  for (const [name, input, reason] of cases) {
    test(`refuses ${name}`, () => {
      const parsed = parseBuildRecord({ ...JSON.parse(JSON.stringify(sampleBuild())), input });
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.reason, reason);
    });
  }
});

describe("build.yaml's commands, test contract and final verification", () => {
  const H = 'a'.repeat(64);
  const AT = new Date(T0).toISOString();
  const contract = {
    phase: 'qa',
    frozenAt: AT,
    tests: [{ path: 'test/sum.test.js', sha256: H, declared: 2 }],
    entries: [
      { file: 'package.json', key: 'scripts.test', sha256: H },
      { file: '.mocharc.yml', key: '', sha256: null },
      { file: 'pyproject.toml', key: 'sections', sha256: null },
    ],
    coverage: [{ requirement: 'task-001', test: 'task-001 adds', file: 'test/sum.test.js' }],
    accepted: [{ path: 'test/sum.test.js', phase: 'developer', at: AT, before: H, after: 'b'.repeat(64) }],
  };
  const final = {
    at: AT,
    passed: true,
    requirements: [
      { id: 'task-001', result: 'passed', tests: ['task-001 adds (passed)'] },
      { id: 'task-002', result: 'untested', tests: [] },
    ],
    tests: { runner: 'node', ran: 1, passed: 1, failed: 0, skipped: 0, complete: true, named: true },
  } as const;
  const full = () =>
    sampleBuild({
      commands: { test: ['npm test'], build: 'tsc' },
      contract: JSON.parse(JSON.stringify(contract)),
      final: JSON.parse(JSON.stringify(final)),
      verified: [{ phase: 'final', command: 'npm test', exitCode: 0 }],
    });

  test('round-trip whole; the final verification is recorded under the phase name final', () => {
    const record = full();
    assert.deepEqual(parseBuildYaml(serializeBuildRecord(record)), { ok: true, value: record });
  });

  const cases: [string, (string | number)[], unknown, RegExp][] = [
    ['a TEST command with a line break', ['commands', 'test', 0], 'npm test\nrm -rf /', /field commands\.test\[0\]/],
    ['commands that are text', ['commands'], 'npm test', /field commands is not a mapping/],
    ['a contract phase not in phases', ['contract', 'phase'], 'ghost', /contract\.phase names the phase ghost/],
    ['a frozen test that climbs', ['contract', 'tests', 0, 'path'], '../x.test.js', /contract\.tests\[0\]\.path/],
    ['a frozen test without a hash', ['contract', 'tests', 0, 'sha256'], null, /contract\.tests\[0\]\.sha256/],
    ['a hash that is not hex', ['contract', 'tests', 0, 'sha256'], 'z'.repeat(64), /contract\.tests\[0\]\.sha256/],
    ['a negative declared count', ['contract', 'tests', 0, 'declared'], -1, /contract\.tests\[0\]\.declared/],
    ['an entry key of its own', ['contract', 'entries', 0, 'key'], 'dependencies.x', /contract\.entries\[0\]\.key/],
    ['an absolute entry file', ['contract', 'entries', 0, 'file'], '/etc/passwd', /contract\.entries\[0\]\.file/],
    ['a requirement id with a space', ['final', 'requirements', 0, 'id'], 'task 1', /final\.requirements\[0\]\.id/],
    ['a result of its own', ['final', 'requirements', 0, 'result'], 'green', /final\.requirements\[0\]\.result/],
    ['a count that is text', ['final', 'tests', 'ran'], '1', /final\.tests\.ran/],
    ['passed as text', ['final', 'passed'], 'yes', /final\.passed/],
    ['a stray verified phase', ['verified', 0, 'phase'], 'after', /verified names the phase after/],
  ];
  for (const [name, path, value, reason] of cases)
    test(`refuses ${name}`, () => {
      const data = JSON.parse(JSON.stringify(full())) as Record<string, unknown>;
      let at: Record<string | number, unknown> = data;
      for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
      at[path[path.length - 1] as string | number] = value;
      const parsed = parseBuildRecord(data);
      assert.equal(parsed.ok, false, name);
      assert.match(parsed.ok ? '' : parsed.reason, reason);
    });

  test('too many frozen tests or requirements are refused, not read', () => {
    const many = full();
    many.contract!.tests = Array(1001).fill(contract.tests[0]);
    assert.match(
      JSON.stringify(parseBuildRecord(JSON.parse(JSON.stringify(many)))),
      /contract\.tests has 1001 entries/,
    );
  });
});
