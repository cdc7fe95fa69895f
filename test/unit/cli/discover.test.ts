// `groundwork discover` against the scripted model server, through the real SDK: in-process
// through runCli on real temporary workspaces (as a child process, for what only a real process
// shows: test/stress/cli/discoverProcess.test.ts). The API key is a canary that must appear nowhere.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover as discoverCommand } from '../../../src/cli/commands/discover';
import { findExtensionRoot } from '../../../src/cli/modelDeps';
import { parseRoundFile, serializeRoundFile } from '../../../src/core/discovery/roundFile';
import {
  match,
  reply,
  startScriptedModelServer,
  type MessagesBody,
  type ScriptedModelServer,
} from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import { cliHere, scriptedDeps, type TerminalOptions } from './cliHarness';
import { filesUnder } from '../../support/tempDirs';
import { repo, type CliRun } from '../../support/processes';
import {
  assertKeyNotPrinted,
  BRIEF,
  CANARY,
  QUESTIONS_1,
  ROLE,
  round,
  tempWorkspace,
} from '../../support/discoverScript';

const QUESTIONS_2 = 'DISCOVERY_QUESTIONS\n1. Which mail provider do you use?\n2. How many contacts?\n3. Any deadline?';
const SPECIFIC_BRIEF = BRIEF.replace(
  'A small web CRM for a five-person sales team',
  'A Rust CLI that tracks Bitcoin prices',
);

describe('groundwork discover (in-process, scripted model server)', () => {
  let server: ScriptedModelServer;
  let ws: string;
  let env: Record<string, string | undefined>;

  beforeEach(async () => {
    server = await startScriptedModelServer();
    ws = await tempWorkspace();
    env = { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseURL, LANG: 'C.UTF-8' };
  });
  afterEach(async () => {
    assert.deepEqual(
      server.unmatched.map((r) => r.seq),
      [],
      'every model request was scripted',
    );
    for (const [path, text] of await filesUnder(ws)) assert.ok(!text.includes(CANARY), `the key is in ${path}`);
    await server.close();
  });

  async function discover(
    argv: string[],
    options: TerminalOptions & { env?: Record<string, string | undefined> } = {},
  ): Promise<CliRun> {
    const r = await cliHere(['--workspace', ws, 'discover', ...argv], scriptedDeps(options), {
      env: options.env ?? env,
      cwd: ws,
      commands: [discoverCommand],
    });
    assertKeyNotPrinted(r.stdout, r.stderr);
    return r;
  }

  const roundFile = (session = 'cli') => join(ws, '.groundwork/discovery', `${session}.md`);
  const readRoundFile = async (session = 'cli') => {
    const parsed = parseRoundFile(await readFile(roundFile(session), 'utf8'));
    assert.ok(parsed.ok);
    return parsed.data;
  };
  async function briefFile(): Promise<{ path: string; text: string }> {
    const plans = await readdir(join(ws, '.groundwork/plans'));
    assert.equal(plans.length, 1, `one plan: ${plans.join(', ')}`);
    const path = `.groundwork/plans/${plans[0]}/idea-brief.md`;
    return { path, text: await readFile(join(ws, path), 'utf8') };
  }

  test('the model reads README.md first: the read is shown on stderr and the file reaches it fenced as data; ../ is refused', async () => {
    await writeFile(join(ws, 'README.md'), '# Ledger\nA budgeting CLI tested with vitest.\n');
    const readmeDone = match.toolResult('toolu_cli_readme');
    const escapeDone = match.toolResult('toolu_cli_escape');
    server.add(
      {
        name: 'read README',
        match: (b) => ROLE(b) && !match.toolResult()(b),
        reply: reply.toolUse('read_file', { path: 'README.md' }, { id: 'toolu_cli_readme' }),
      },
      {
        name: 'escape',
        match: readmeDone,
        reply: reply.toolUse('read_file', { path: '../outside.txt' }, { id: 'toolu_cli_escape' }),
      },
      { name: 'ask', match: escapeDone, reply: reply.text(QUESTIONS_1) },
    );
    const r = await discover(['Build a phone app for this project']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^groundwork: read README\.md$/m);
    assert.match(r.stderr, /^groundwork: read \.\.\/outside\.txt — failed: .+$/m);
    assert.match(r.stdout, /1\. Who will use the CRM\?/);
    const bodies = server.requests.map((q) => q.body as MessagesBody);
    const result = (bodies[1]!.messages.at(-1)!.content as Record<string, unknown>[])[0]!;
    assert.equal(result['tool_use_id'], 'toolu_cli_readme');
    assert.match(
      String(result['content']),
      /<untrusted-data boundary="[0-9a-f]+" source="[^"]*README\.md[^"]*">[\s\S]*A budgeting CLI tested with vitest/,
    );
    assert.equal((bodies[2]!.messages.at(-1)!.content as Record<string, unknown>[])[0]!['is_error'], true);
  });

  test('a vague request: questions, answers, round 2, answers, then the brief saved with the request verbatim', async () => {
    server.add(
      {
        name: 'round 1',
        match: match.all(ROLE, round('Discovery round 1/3')),
        reply: reply.text([
          'DISCOVERY_QUEST',
          'IONS\n1. Who will use',
          ' the CRM?\n2. Which data must it keep?\n3. Web or desktop?',
        ]),
      },
      { name: 'round 2', match: match.all(ROLE, round('Discovery round 2/3')), reply: reply.text(QUESTIONS_2) },
      { name: 'brief', match: match.all(ROLE, round('Discovery round 3/3')), reply: reply.text(BRIEF) },
    );
    const request = 'Build me a CRM — for my "sales" team; `quotes` & *stars*\n  and a second line';

    const r1 = await discover([request]);
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stdout, /\(1\/3\)/);
    assert.match(r1.stdout, /1\. Who will use the CRM\?\n2\. Which data must it keep\?\n3\. Web or desktop\?/);
    assert.ok(!r1.stdout.includes('DISCOVERY_QUESTIONS'), 'no protocol marker in the reply');
    assert.match(r1.stderr, /answer with: groundwork discover "<your answers>"/);
    assert.equal((await readRoundFile()).originalRequest, request);

    const r2 = await discover(['My', 'sales', 'team;', 'contacts', 'and', 'deals;', 'web']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.match(r2.stdout, /\(2\/3\)/);
    assert.match(r2.stdout, /Which mail provider/);
    const afterTwo = await readRoundFile();
    assert.equal(afterTwo.round, 2);
    assert.equal(
      afterTwo.rounds[0]?.answer,
      'My sales team; contacts and deals; web',
      'the words are joined into one answer',
    );

    const r3 = await discover(['Gmail; 500; two weeks']);
    assert.equal(r3.code, 0, r3.stderr);
    assert.match(r3.stdout, /One-line summary: A small web CRM/);
    assert.match(r3.stdout, /Constraints: Two weeks\./);
    const brief = await briefFile();
    assert.equal(brief.path, '.groundwork/plans/a-small-web-crm-for-a-five-person-sales-team/idea-brief.md');
    assert.ok(r3.stdout.endsWith(`\nIdea Brief saved to ${brief.path}\n`), r3.stdout);
    assert.ok(brief.text.includes(`\`\`\`text\n${request}\n\`\`\``), 'the original request verbatim');
    assert.match(brief.text, /Gmail; 500; two weeks/);
    assert.equal(existsSync(roundFile()), false, 'the round file is gone');

    // The model saw the answers, and the key it got was the one from the environment.
    assert.equal(server.requests.length, 3);
    assert.ok(JSON.stringify(server.requests[1]?.body).includes('My sales team; contacts and deals; web'));
    assert.ok(server.requests.every((q) => q.apiKey.present && q.apiKey.length === CANARY.length));
    assert.ok(
      server.requests.every((q) => (q.body as MessagesBody).model === 'claude-sonnet-4-6'),
      'discovery runs on the complex tier',
    );
  });

  test('a specific request: the brief in one turn, no round file left behind; --json has the result and the path', async () => {
    server.add({ match: ROLE, reply: reply.text(SPECIFIC_BRIEF) });
    const r = await discover(['--json', 'A Rust CLI that tracks Bitcoin prices from CoinGecko and alerts on Telegram']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      session: string;
      outcome: { kind: string; rounds: number; brief: { summary: string } };
      saved: { path: string };
      usage: { inputTokens: number };
      model: string;
    };
    assert.equal(out.session, 'cli');
    assert.equal(out.outcome.kind, 'complete');
    assert.equal(out.outcome.rounds, 0);
    assert.equal(out.outcome.brief.summary, 'A Rust CLI that tracks Bitcoin prices');
    assert.equal(out.saved.path, '.groundwork/plans/a-rust-cli-that-tracks-bitcoin-prices/idea-brief.md');
    assert.ok(out.usage.inputTokens > 0);
    assert.equal(out.model, 'claude-sonnet-4-6');
    assert.ok(existsSync(join(ws, out.saved.path)));
    assert.deepEqual(await readdir(join(ws, '.groundwork/discovery')).catch(() => []), [], 'no round file');
  });

  test('no build keyword: discovery starts anyway; GROUNDWORK_MODEL_COMPLEX picks the model', async () => {
    server.add({ match: match.all(ROLE, match.model('claude-opus-4-1')), reply: reply.text(QUESTIONS_1) });
    const r = await discover(['a CRM'], { env: { ...env, GROUNDWORK_MODEL_COMPLEX: 'claude-opus-4-1' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Who will use the CRM/);
  });

  test('--cancel ends the session in the chosen language; again, there is none', async () => {
    server.add({ match: ROLE, reply: reply.text(QUESTIONS_1) });
    assert.equal((await discover(['--session', 'team/42', 'Build me a CRM'])).code, 0);
    const file = join(ws, '.groundwork/discovery');
    assert.equal((await readdir(file)).length, 1);

    const c = await discover(['--cancel', '--session', 'team/42', '--lang', 'de'], { env: { LANG: 'C' } });
    assert.equal(c.code, 0, c.stderr);
    assert.equal(c.stdout, 'Discovery abgebrochen.\n');
    assert.deepEqual(await readdir(file), [], 'the round file is gone');

    const again = await discover(['--cancel', '--session', 'team/42']);
    assert.equal(again.code, 0);
    assert.equal(again.stdout, 'no discovery session team/42\n');
    const json = await discover(['--cancel', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), {
      session: 'cli',
      cancelled: false,
      message: 'no discovery session cli',
    });
  });

  test('a cancel word as the answer cancels; LANG picks the language', async () => {
    server.add({ match: ROLE, reply: reply.text(QUESTIONS_1) });
    const es = { ...env, LANG: 'es_ES.UTF-8' };
    const r1 = await discover(['Constrúyeme un CRM'], { env: es });
    assert.match(r1.stdout, /^Antes de empezar a construir/);
    const r2 = await discover(['cancelar'], { env: es });
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.stdout, 'Descubrimiento cancelado.\n');
    assert.equal(existsSync(roundFile()), false);
    assert.equal(server.requests.length, 1, 'cancelling calls no model');
  });

  test('an expired session is cleaned up and reported on stderr, and the message handled fresh', async () => {
    server.add({ match: match.all(ROLE, round('Discovery round 1/3')), reply: reply.text(QUESTIONS_1) });
    const old = Math.floor(Date.now() / 1000) - 31 * 60;
    await mkdir(join(ws, '.groundwork/discovery'), { recursive: true });
    await writeFile(
      roundFile(),
      serializeRoundFile({
        createdSec: old,
        round: 1,
        originalRequest: 'build me a todo app',
        rounds: [{ questions: '1. For whom?' }],
      }),
    );

    const r = await discover(['Build me a CRM']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /The discovery session expired\./);
    assert.match(r.stdout, /\(1\/3\)/);
    const now = await readRoundFile();
    assert.equal(now.originalRequest, 'Build me a CRM', 'a fresh session');
    assert.ok(now.createdSec > old);
    assert.ok(
      !JSON.stringify(server.requests[0]?.body).includes('todo app'),
      'nothing of the old session reached the model',
    );
    const audit = await readFile(join(ws, '.groundwork/audit.jsonl'), 'utf8');
    assert.match(audit, /"kind":"discovery\.expire"/);
  });

  test('GROUNDWORK_DISCOVERY_TTL_MINUTES sets the TTL', async () => {
    server.add({ match: ROLE, reply: reply.text(QUESTIONS_2) });
    await mkdir(join(ws, '.groundwork/discovery'), { recursive: true });
    const created = Math.floor(Date.now() / 1000) - 40 * 60;
    await writeFile(
      roundFile(),
      serializeRoundFile({
        createdSec: created,
        round: 1,
        originalRequest: 'build me a CRM',
        rounds: [{ questions: QUESTIONS_1 }],
      }),
    );
    const r = await discover(['my team'], { env: { ...env, GROUNDWORK_DISCOVERY_TTL_MINUTES: '60' } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stderr.includes('expired'), r.stderr);
    assert.match(r.stdout, /\(2\/3\)/);
  });

  test('bad usage exits 2 and calls no model', async () => {
    const cases: [string[], RegExp, Record<string, string | undefined>?][] = [
      [['--frobnicate', 'Build me a CRM'], /unknown option '--frobnicate'/],
      [['--lang', 'xx', 'Build me a CRM'], /--lang must be one of en, es, pt, fr, de, it, nl, ru, not 'xx'/],
      [['--session', '', 'Build me a CRM'], /--session: the session name is empty/],
      [['--cancel', 'Build me a CRM'], /--cancel takes no message/],
      [['--retry', 'again'], /--retry takes no message/],
      [['Build me a CRM'], /set ANTHROPIC_API_KEY/, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }],
      [['Build me a CRM'], /set ANTHROPIC_API_KEY/, { ANTHROPIC_API_KEY: '  ' }],
      [
        ['Build me a CRM'],
        /ANTHROPIC_BASE_URL is not an http/,
        { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: `ftp://user:${CANARY}@host` },
      ],
      [
        ['Build me a CRM'],
        /GROUNDWORK_DISCOVERY_TTL_MINUTES must be a positive number/,
        { ANTHROPIC_API_KEY: CANARY, GROUNDWORK_DISCOVERY_TTL_MINUTES: '-3' },
      ],
      [['--retry'], /Nothing to retry/],
    ];
    for (const [argv, expected, caseEnv] of cases) {
      const r = await discover(argv, caseEnv ? { env: caseEnv } : {});
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, expected);
      assert.equal(r.stdout, '');
    }
    assert.equal(server.requests.length, 0);
  });

  test('a model error exits 1 with the session kept; the same command again retries without saving the answer twice', async () => {
    server.add(
      { name: 'round 1', match: round('Discovery round 1/3'), reply: reply.text(QUESTIONS_1) },
      // The first attempt and the SDK's three retries.
      {
        name: 'failing',
        match: round('Discovery round 2/3'),
        times: 4,
        reply: reply.error(500, { message: 'scripted outage', retryAfterMs: 1 }),
      },
      { name: 'round 2', match: round('Discovery round 2/3'), reply: reply.text(QUESTIONS_2) },
    );
    assert.equal((await discover(['Build me a CRM'])).code, 0);

    const failed = await discover(['My sales team']);
    assert.equal(failed.code, 1);
    assert.equal(failed.stdout, '');
    assert.match(failed.stderr, /The Anthropic API failed \(500: scripted outage, still after 4 attempts\)/);
    assert.match(
      failed.stderr,
      /the session is kept \(\.groundwork\/discovery\/cli\.md, with your answer\): run the same command again/,
    );
    const kept = await readRoundFile();
    assert.equal(kept.rounds[0]?.answer, 'My sales team', 'the answer is saved');

    const retried = await discover(['My sales team']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(retried.stderr, /asking it again/);
    assert.match(retried.stdout, /\(2\/3\)/);
    const after = await readRoundFile();
    assert.equal(after.rounds[0]?.answer, 'My sales team', 'not saved twice');
    assert.equal(after.round, 2);
    assert.deepEqual(server.pending(), []);
  });

  test('a model error on the first message: nothing saved, exit 1; --retry after a failed answer works', async () => {
    server.add(
      {
        name: 'failing start',
        times: 4,
        match: round('Discovery round 1/3'),
        reply: reply.error(529, { retryAfterMs: 1 }),
      },
      { name: 'round 1', match: round('Discovery round 1/3'), reply: reply.text(QUESTIONS_1) },
      {
        name: 'failing answer',
        match: round('Discovery round 2/3'),
        times: 4,
        reply: reply.error(500, { retryAfterMs: 1 }),
      },
      { name: 'brief', match: round('Discovery round 2/3'), reply: reply.text(BRIEF) },
    );
    const failed = await discover(['Build me a CRM']);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /overloaded/);
    assert.match(failed.stderr, /nothing was saved: run the same command again to retry/);
    assert.equal(existsSync(roundFile()), false);
    assert.equal((await discover(['Build me a CRM'])).code, 0);
    assert.equal((await discover(['my team'])).code, 1);
    const retried = await discover(['--retry']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(retried.stdout, /Idea Brief saved to \.groundwork\/plans\//);
  });

  test('an empty message retries a saved answer, and is bad input when there is none', async () => {
    server.add(
      { name: 'round 1', match: round('Discovery round 1/3'), reply: reply.text(QUESTIONS_1) },
      { name: 'failing', match: round('Discovery round 2/3'), times: 4, reply: reply.error(500, { retryAfterMs: 1 }) },
      { name: 'round 2', match: round('Discovery round 2/3'), reply: reply.text(QUESTIONS_2) },
    );
    const none = await discover(['']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /The message is empty/);
    assert.equal((await discover(['Build me a CRM'])).code, 0);
    assert.equal((await discover(['my team'])).code, 1);
    const retried = await discover(['']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(retried.stdout, /\(2\/3\)/);
    assert.equal((await readRoundFile()).rounds[0]?.answer, 'my team');
  });

  test('a refused key: exit 1, the CLI says where the key comes from, and the key is not echoed', async () => {
    server.add({ match: ROLE, reply: reply.error(401, { message: `invalid x-api-key ${CANARY}` }) });
    const r = await discover(['Build me a CRM']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Set a valid key in ANTHROPIC_API_KEY/);
    assert.ok(!r.stderr.includes('Groundwork: Set Anthropic API Key'), r.stderr);
  });

  test('Ctrl-C during a model call stops it, keeps the session, exits 130; --retry then continues', async () => {
    server.add(
      { name: 'round 1', match: round('Discovery round 1/3'), reply: reply.text(QUESTIONS_1) },
      {
        name: 'slow',
        match: round('Discovery round 2/3'),
        reply: reply.text(QUESTIONS_2, { firstChunkDelayMs: 10_000 }),
      },
      { name: 'round 2', match: round('Discovery round 2/3'), reply: reply.text(QUESTIONS_2) },
    );
    assert.equal((await discover(['Build me a CRM'])).code, 0);
    const stopped = await discover(['My sales team'], {
      onInterrupt: (fire) =>
        void until('the slow request', () => (server.requests.length === 2 ? true : undefined)).then(fire),
    });
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.match(stopped.stderr, /Stopped\. Your answer is saved/);
    assert.equal((await readRoundFile()).rounds[0]?.answer, 'My sales team');
    await until('the request closed', () => (server.requests[1]?.clientClosed ? true : undefined));

    const retried = await discover(['--retry']);
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(retried.stdout, /\(2\/3\)/);
  });

  test('interactive on piped stdin: blocks separated by empty lines are the messages, until the brief', async () => {
    server.add(
      { match: round('Discovery round 1/3'), reply: reply.text(QUESTIONS_1) },
      { match: round('Discovery round 2/3'), reply: reply.text(BRIEF) },
    );
    const r = await discover([], {
      stdin: '\n\nBuild me a CRM\n\nMy sales team\r\nContacts and deals\r\n\r\nthis is never read\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(1\/3\)[\s\S]*One-line summary: A small web CRM[\s\S]*Idea Brief saved to/);
    assert.ok(
      JSON.stringify(server.requests[1]?.body).includes('My sales team\\nContacts and deals'),
      'a multi-line answer',
    );
    assert.equal(r.stderr, '', 'no prompts when stdin is not a terminal');
    assert.equal(server.requests.length, 2);
  });

  test('interactive: empty stdin that is not a terminal is exit 2; end of input mid-session keeps it', async () => {
    const empty = await discover([]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /give a message or pipe answers|give one .* or pipe answers on stdin/);

    server.add({ match: ROLE, reply: reply.text(QUESTIONS_1) });
    const r = await discover(['--json'], { stdin: 'Build me a CRM\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).outcome.kind, 'questions');
    assert.match(r.stderr, /the discovery session cli is kept/);
    assert.ok(existsSync(roundFile()));
  });

  test('interactive on a terminal: prompts and the streamed reply go to stderr, the reply alone to stdout; a pending answer is retried first', async () => {
    server.add(
      { name: 'round 1', match: round('Discovery round 1/3'), reply: reply.text(QUESTIONS_1) },
      { name: 'failing', match: round('Discovery round 2/3'), times: 4, reply: reply.error(500, { retryAfterMs: 1 }) },
      {
        name: 'round 2',
        match: round('Discovery round 2/3'),
        reply: reply.text(['DISCOVERY_QUESTIONS\n1. Which mail', ' provider?\n']),
      },
      { name: 'cancel?', match: round('Discovery round 3/3'), reply: reply.text(BRIEF) },
    );
    const first = await discover([], {
      stdin: 'Build me a CRM\n\nMy team\n\n',
      stdinIsTTY: true,
      stderrIsTTY: true,
      env: { ...env, NO_COLOR: '1' },
    });
    assert.equal(first.code, 1, 'the model failed on the answer');
    assert.match(first.stderr, /Describe what you want to build/);
    assert.match(first.stderr, /Your answers \(an empty line sends them/);
    assert.match(first.stderr, /1\. Who will use the CRM\?/, 'streamed');
    assert.ok(!first.stderr.includes('DISCOVERY_QUESTIONS'), 'markers are not streamed');
    assert.ok(!first.stdout.includes('\x1b'), 'no escapes on stdout');

    const second = await discover([], { stdin: 'nein\n', stdinIsTTY: true, stderrIsTTY: true });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /waiting for the model: asking it again/);
    assert.match(second.stderr, /\x1b\[2m1\. Which mail/, 'streamed, dimmed');
    assert.match(second.stdout, /\(2\/3\):\n\n1\. Which mail provider\?\n[\s\S]*Discovery cancelled\.\n$/);
    assert.equal(existsSync(roundFile()), false);
  });

  test('a damaged round file is bad input (exit 2); --cancel clears it', async () => {
    await mkdir(join(ws, '.groundwork/discovery'), { recursive: true });
    await writeFile(roundFile(), 'hand-edited notes\n');
    const r = await discover(['my answers']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /\.groundwork\/discovery\/cli\.md is not a discovery session: .*cancel the session to start again/,
    );
    const c = await discover(['--cancel']);
    assert.equal(c.code, 0, c.stderr);
    assert.equal(c.stdout, 'Discovery cancelled.\n');
    assert.equal(existsSync(roundFile()), false);
    assert.equal(server.requests.length, 0);
  });

  test('a cancel word with no session starts nothing', async () => {
    const r = await discover(['stop']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'no discovery session cli\n');
    assert.equal(server.requests.length, 0);
  });

  test('a broken role override in the workspace: a warning on stderr, the bundled role used', async () => {
    server.add({ match: ROLE, reply: reply.text(QUESTIONS_1) });
    await mkdir(join(ws, '.groundwork/roles'), { recursive: true });
    await writeFile(
      join(ws, '.groundwork/roles/build-discovery.md'),
      '---\nname: build-discovery\ntools: [run_command]\n---\nYou are a file deleter.\n',
    );
    const r = await discover(['Build me a CRM']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /groundwork: warning: \.groundwork\/roles\/build-discovery\.md: .*the bundled build-discovery role is used instead/,
    );
    assert.equal((r.stderr.match(/this override is not used/g) ?? []).length, 1, 'said once');
  });

  test('help describes the session default, the environment and the exit codes', async () => {
    const r = await discover(['--help']);
    assert.equal(r.code, 0);
    for (const text of [
      "default: 'cli'",
      'ANTHROPIC_API_KEY',
      'GROUNDWORK_MODEL_COMPLEX',
      'GROUNDWORK_DISCOVERY_TTL_MINUTES',
      'an empty',
      '130',
    ]) {
      assert.ok(r.stdout.includes(text), text);
    }
  });
});

describe('where the CLI finds its roles', () => {
  test('walking up from the bundle (dist/) or the sources (src/cli/) to the folder with roles/', () => {
    assert.equal(findExtensionRoot('build-discovery', join(repo, 'dist')), repo);
    assert.equal(findExtensionRoot('build-discovery', join(repo, 'src/cli')), repo);
    assert.equal(findExtensionRoot('build-discovery'), repo, 'from modelDeps.ts itself');
    assert.equal(findExtensionRoot('build-discovery', tmpdir()), undefined);
  });
});
