// `groundwork discover` shows the agent's tool calls as they finish, one progress line each on
// stderr ("groundwork: read README.md"), like a retry. The service is a fake that reports tool
// calls through TurnOptions.onTool; the targets are model text, so they are shown made visible.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { discover } from '../../../src/cli/commands/discover';
import type { CliDeps } from '../../../src/cli/cliTypes';
import type { DiscoveryApi, DiscoveryView, TurnOptions, TurnResult } from '../../../src/core/discovery/discoveryTypes';
import type { Role } from '../../../src/core/roles/roleSchema';
import type { ToolActivity } from '../../../src/core/tools/toolActivity';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { T0, cliHere, scriptedDeps, type TerminalOptions } from './cliHarness';
import type { CliRun } from '../../support/processes';

const SECRET = 'sk-ant-fake-secret-for-redaction';

const VIEW: DiscoveryView = {
  session: 'cli',
  createdAt: T0,
  expiresAt: T0 + 30 * 60_000,
  originalRequest: 'Build me a CRM',
  round: 1,
  maxRounds: 3,
  rounds: [{ round: 1, questionsText: '1. Who uses it?', intro: '', questions: ['Who uses it?'] }],
  state: 'awaiting-answers',
  file: '.groundwork/discovery/cli.md',
};

const QUESTIONS: TurnResult = {
  outcome: { kind: 'questions', view: VIEW, questions: ['Who uses it?'], message: '1. Who uses it?' },
};

/** A turn that, in order, streams `text` (when given) and reports each of `calls` as it starts and as it ends. */
interface Script {
  text?: string;
  calls: ToolActivity[];
}

function fakeService(script: Script): DiscoveryApi {
  const turn = async (options: TurnOptions): Promise<TurnResult> => {
    if (script.text !== undefined) options.onText?.(script.text);
    for (const done of script.calls) {
      options.onTool?.({ id: done.id, tool: done.tool, target: done.target, status: 'running' });
      options.onTool?.(done);
    }
    return QUESTIONS;
  };
  return {
    handle: (_session, _message, options) => turn(options),
    retry: (_session, options) => turn(options),
    cancel: async () => undefined,
    view: async () => undefined,
    saveBrief: async () => ({ slug: 'crm', path: '.groundwork/plans/crm/idea-brief.md' }),
    cleanupExpired: async () => [],
  };
}

async function run(
  script: Script,
  argv: string[],
  terminal: TerminalOptions = {},
  env: Record<string, string> = {},
): Promise<CliRun> {
  const ws = new MemoryWorkspace();
  const deps: CliDeps = scriptedDeps(terminal, {
    openStore: () => ws.store,
    isDirectory: async () => true,
    model: () => ({ llm: async () => Promise.reject(new Error('the fake service calls no model')), secrets: [SECRET] }),
    loadRole: async () => ({}) as Role,
    discovery: async () => fakeService(script),
  });
  return cliHere(['discover', ...argv], deps, { env, commands: [discover] });
}

const read = (target: string, id = 't1'): ToolActivity => ({ id, tool: 'read_file', target, status: 'done' });

describe('groundwork discover: tool calls', () => {
  test('each finished call is one progress line on stderr; the reply alone is on stdout', async () => {
    const r = await run(
      { calls: [read('README.md'), { id: 't2', tool: 'list_files', target: 'src', status: 'done' }] },
      ['Build me a CRM'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '1. Who uses it?\n');
    assert.equal(
      r.stderr,
      'groundwork: read README.md\ngroundwork: listed src\ngroundwork: answer with: groundwork discover "<your answers>" (or "cancel")\n',
    );
  });

  test('a failed call says why', async () => {
    const r = await run(
      { calls: [{ id: 't1', tool: 'search', target: 'auth', status: 'error', error: 'the query is empty' }] },
      ['Build me a CRM'],
    );
    assert.match(r.stderr, /^groundwork: searched 'auth' — failed: the query is empty\n/);
  });

  test('the target and the error are model text: control characters shown visibly, the key redacted', async () => {
    const evil = 'notes\x1b[2J\x1b]0;owned\x07.md';
    const r = await run(
      {
        calls: [
          read(evil),
          { id: 't2', tool: 'read_file', target: `${SECRET}.txt`, status: 'error', error: 'no such file\r\nreally' },
        ],
      },
      ['Build me a CRM'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      !r.stderr.includes('\x1b') && !r.stderr.includes('\x07') && !r.stderr.includes('\r'),
      JSON.stringify(r.stderr),
    );
    assert.match(r.stderr, /^groundwork: read notes\\x1b\[2J\\x1b\]0;owned\\x07\.md\n/);
    assert.ok(!r.stderr.includes(SECRET), r.stderr);
    assert.match(
      r.stderr,
      /\ngroundwork: read \[redacted\]\.txt — failed: no such file really\n/,
      'a line break in the error becomes a space: one line per call',
    );
  });

  test('with --json the lines stay on stderr, and stdout is the one JSON result', async () => {
    const r = await run({ calls: [read('README.md')] }, ['--json', 'Build me a CRM']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'groundwork: read README.md\n');
    assert.equal((JSON.parse(r.stdout) as { outcome: { kind: string } }).outcome.kind, 'questions');
  });

  test('after streamed text a call starts a line of its own', async () => {
    const r = await run(
      { text: 'Let me look at the project', calls: [read('README.md')] },
      ['Build me a CRM'],
      { stderrIsTTY: true },
      { NO_COLOR: '1' },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.startsWith('Let me look at the project\ngroundwork: read README.md\n\n'),
      JSON.stringify(r.stderr),
    );
  });
});
