import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACTING_TOOL_DEFINITIONS } from '../../../src/core/tools/actingDefinitions';
import { agentTools, createToolRunCache, readTools } from '../../../src/core/tools/registry';
import { describeToolActivity } from '../../../src/core/tools/toolActivity';
import { toolLine } from '../../../src/core/tools/toolLines';
import { ToolInputError, type ActingPorts, type ToolContext, type ToolResult } from '../../../src/core/tools/toolTypes';
import { contextFor, memoryWorkspace } from './toolHarness';

/** An acting port that records the thin tools' calls (with the signal each got) and answers with a fixed text. */
function recordingActing(fail?: string): { acting: ActingPorts; calls: unknown[]; signals: AbortSignal[] } {
  const calls: unknown[] = [];
  const signals: AbortSignal[] = [];
  const answer = (call: unknown, reply: string, signal?: AbortSignal) => {
    calls.push(call);
    if (signal !== undefined) signals.push(signal);
    if (fail !== undefined) throw new ToolInputError(fail);
    return Promise.resolve(reply);
  };
  const acting: ActingPorts = {
    beforeChange: async () => void calls.push('beforeChange'),
    afterChange: async () => void calls.push('afterChange'),
    runCommand: async (input, signal) => answer({ runCommand: input }, 'Exit code 0.', signal),
    sleep: async (input, signal) => answer({ sleep: input }, 'Woken after 5 s.', signal),
    reportDiscovery: async (input) => answer({ reportDiscovery: input }, 'Recorded.'),
  };
  return { acting, calls, signals };
}

function run(name: string, input: unknown, context: ToolContext): Promise<ToolResult> {
  return agentTools.run(name, input, context, createToolRunCache());
}

describe('acting tools: the registry', () => {
  test('agentTools has the read tools, then the five acting tools; readTools is unchanged', () => {
    const all = [
      'read_file',
      'list_files',
      'search',
      'write_file',
      'edit_file',
      'run_command',
      'sleep',
      'report_discovery',
    ];
    assert.deepEqual(
      agentTools.definitionsFor(all).map((d) => d.name),
      all,
    );
    assert.deepEqual(
      readTools.definitionsFor(all).map((d) => d.name),
      ['read_file', 'list_files', 'search'],
    );
  });

  test('each acting definition: its access, a closed schema, described fields of the types the registry checks', () => {
    const access = ACTING_TOOL_DEFINITIONS.map((d) => `${d.name}:${d.access}`);
    assert.deepEqual(access, [
      'write_file:write-workspace',
      'edit_file:write-workspace',
      'run_command:run-command',
      'sleep:run-state',
      'report_discovery:run-state',
    ]);
    for (const d of ACTING_TOOL_DEFINITIONS) {
      assert.ok(d.description.length > 80, d.name);
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
    assert.match(ACTING_TOOL_DEFINITIONS[2]!.description, /approval.*8 KB.*10 minutes/s);
  });
});

describe('acting tools: bad input, enums included', () => {
  const context = contextFor(memoryWorkspace(), { acting: recordingActing().acting });
  const cases: { tool: string; input: unknown; says: RegExp }[] = [
    { tool: 'sleep', input: { mode: 'nap' }, says: /'mode' must be one of 'timer', 'event', 'manual', got "nap"/ },
    { tool: 'sleep', input: { mode: 7 }, says: /'mode' must be a string, got number 7/ },
    { tool: 'sleep', input: { mode: 'timer', seconds: 0 }, says: /'seconds' must be a whole number from 1 to 86400/ },
    {
      tool: 'sleep',
      input: { mode: 'event', event: 'e'.repeat(201) },
      says: /'event' must be at most 200 characters long/,
    },
    {
      tool: 'sleep',
      input: {},
      says: /the field 'mode' is missing; its fields are mode, seconds, event, reason \(mode required\)/,
    },
    {
      tool: 'report_discovery',
      input: { scope: 'team', content: 'x' },
      says: /'scope' must be one of 'local', 'global', got "team"/,
    },
    {
      tool: 'report_discovery',
      input: { scope: 'local', content: 'x', impact: 'huge' },
      says: /'impact' must be one of 'low', 'medium', 'high', 'critical'/,
    },
    {
      tool: 'report_discovery',
      input: { scope: 'local', content: '' },
      says: /'content' must be at least 1 character long/,
    },
    {
      tool: 'report_discovery',
      input: { scope: 'local', content: 'x'.repeat(4001) },
      says: /'content' must be at most 4000 characters long/,
    },
    { tool: 'run_command', input: { command: '' }, says: /'command' must be at least 1 character long/ },
    {
      tool: 'run_command',
      input: { command: 'x'.repeat(10_001) },
      says: /'command' must be at most 10000 characters long/,
    },
    {
      tool: 'run_command',
      input: { command: 'ls', timeout_seconds: 3601 },
      says: /'timeout_seconds' must be a whole number from 1 to 3600/,
    },
    { tool: 'run_command', input: { command: 'ls', cwd: '/' }, says: /unknown field 'cwd'/ },
    { tool: 'edit_file', input: { path: 'a', old_text: 'x' }, says: /the field 'new_text' is missing/ },
  ];
  for (const { tool, input, says } of cases) {
    test(`${tool} ${JSON.stringify(input).slice(0, 60)}`, async () => {
      const result = await run(tool, input, context);
      assert.equal(result.isError, true);
      assert.match(result.content, says);
    });
  }
});

describe('acting tools: run_command, sleep and report_discovery go to the run', () => {
  test('run_command: the command and timeout_seconds as timeoutSeconds, with the run signal; the run text back', async () => {
    const { acting, calls, signals } = recordingActing();
    const signal = new AbortController().signal;
    const context = contextFor(memoryWorkspace(), { acting, signal });
    assert.deepEqual(await run('run_command', { command: 'npm test', timeout_seconds: 60 }, context), {
      isError: false,
      content: 'Exit code 0.',
    });
    assert.deepEqual(await run('run_command', { command: 'ls' }, context), { isError: false, content: 'Exit code 0.' });
    assert.deepEqual(calls, [
      { runCommand: { command: 'npm test', timeoutSeconds: 60 } },
      { runCommand: { command: 'ls' } },
    ]);
    assert.equal(signals[0], signal);
  });

  test('sleep: each field passed on only when given', async () => {
    const { acting, calls } = recordingActing();
    const context = contextFor(memoryWorkspace(), { acting });
    assert.equal(
      (await run('sleep', { mode: 'timer', seconds: 5, reason: 'waiting for CI' }, context)).content,
      'Woken after 5 s.',
    );
    await run('sleep', { mode: 'event', event: 'build-qa' }, context);
    await run('sleep', { mode: 'manual' }, context);
    assert.deepEqual(calls, [
      { sleep: { mode: 'timer', seconds: 5, reason: 'waiting for CI' } },
      { sleep: { mode: 'event', event: 'build-qa' } },
      { sleep: { mode: 'manual' } },
    ]);
  });

  test('report_discovery: scope, content, impact and task (passed as given: the run checks it)', async () => {
    const { acting, calls } = recordingActing();
    const context = contextFor(memoryWorkspace(), { acting });
    assert.equal(
      (await run('report_discovery', { scope: 'global', content: 'Tests need Node 20.', impact: 'high' }, context))
        .content,
      'Recorded.',
    );
    await run('report_discovery', { scope: 'local', content: 'x' }, context);
    assert.equal(
      (await run('report_discovery', { scope: 'local', content: 'y', task: 'not a: task' }, context)).content,
      'Recorded.',
    );
    assert.deepEqual(calls, [
      { reportDiscovery: { scope: 'global', content: 'Tests need Node 20.', impact: 'high' } },
      { reportDiscovery: { scope: 'local', content: 'x' } },
      { reportDiscovery: { scope: 'local', content: 'y', task: 'not a: task' } },
    ]);
  });

  test("the run's refusal goes back as an error result", async () => {
    const context = contextFor(memoryWorkspace(), {
      acting: recordingActing('The command was not run: the person denied it.').acting,
    });
    assert.deepEqual(await run('run_command', { command: 'rm -rf /' }, context), {
      isError: true,
      content: 'The command was not run: the person denied it.',
    });
  });

  for (const [tool, input] of [
    ['run_command', { command: 'ls' }],
    ['sleep', { mode: 'manual' }],
    ['report_discovery', { scope: 'local', content: 'x' }],
  ] as const) {
    test(`${tool} without an agent run is refused`, async () => {
      assert.deepEqual(await run(tool, input, contextFor(memoryWorkspace())), {
        isError: true,
        content: `${tool} is only available in an agent run; here you can only read the workspace.`,
      });
    });
  }
});

describe('acting tools: what the people watching see', () => {
  const cases: { tool: string; input: Record<string, unknown>; target: string; said: string; kind: string }[] = [
    {
      tool: 'write_file',
      input: { path: 'src/a.js', content: '' },
      target: 'src/a.js',
      said: 'wrote src/a.js',
      kind: 'write',
    },
    {
      tool: 'edit_file',
      input: { path: 'src/a.js', old_text: 'a', new_text: 'b' },
      target: 'src/a.js',
      said: 'edited src/a.js',
      kind: 'write',
    },
    {
      tool: 'run_command',
      input: { command: 'npm test' },
      target: 'npm test',
      said: 'ran `npm test`',
      kind: 'command',
    },
    {
      tool: 'sleep',
      input: { mode: 'timer', seconds: 5 },
      target: 'timer 5s',
      said: 'slept (timer 5s)',
      kind: 'other',
    },
    {
      tool: 'sleep',
      input: { mode: 'event', event: 'build-qa' },
      target: 'event build-qa',
      said: 'slept (event build-qa)',
      kind: 'other',
    },
    { tool: 'sleep', input: { mode: 'manual' }, target: 'manual', said: 'slept (manual)', kind: 'other' },
    {
      tool: 'report_discovery',
      input: { scope: 'local', content: 'x' },
      target: 'local',
      said: 'reported a local discovery',
      kind: 'other',
    },
  ];
  for (const { tool, input, target, said, kind } of cases) {
    test(`${tool} ${JSON.stringify(input)}: '${said}'`, () => {
      assert.equal(agentTools.target(tool, input), target);
      assert.equal(describeToolActivity({ tool, target }), said);
      assert.equal(toolLine({ id: '1', tool, target, status: 'done' }).kind, kind);
    });
  }

  test('the read tools keep their words and kinds', () => {
    assert.equal(describeToolActivity({ tool: 'read_file', target: 'README.md' }), 'read README.md');
    assert.equal(toolLine({ id: '1', tool: 'search', target: 'auth', status: 'done' }).kind, 'search');
  });
});
