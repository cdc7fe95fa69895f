// `groundwork brainstorm` on what an adversarial run left: damaged session files (garbage, cut
// short, `null`), which --list hid and --discard, --restart and a new --slug all refused; round
// counts like `1e1`; and a model that is retried, which must say so while it waits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { reply, type ScriptedModelServer } from '../../support/scriptedModelServer';
import {
  SLUG,
  TOPIC,
  followUp,
  inquisitors,
  planPath,
  runBrainstorm,
  summarize,
  type TerminalOptions,
  useScriptedWorkspace,
} from './brainstormHarness';
import type { CliRun } from '../../support/processes';

const DAMAGED: [string, string][] = [
  ['garbage', 'garbage {{{'],
  [
    'cut short',
    '{"version":1,"slug":"let-customers-export-their-invoices","topic":"Let customers export their invoices","createdAt":17',
  ],
  ['null', 'null'],
];

describe('groundwork brainstorm (in-process): what an adversarial run left', () => {
  let server: ScriptedModelServer;
  let ws: string;
  let env: Record<string, string | undefined>;
  useScriptedWorkspace((s) => ({ server, ws, env } = s));
  const brainstorm = (argv: string[], options: TerminalOptions = {}): Promise<CliRun> =>
    runBrainstorm(ws, env, argv, options);

  describe('damaged brainstorms', () => {
    /** A brainstorm at round 1 whose session file is then replaced by `text`. */
    async function damaged(text: string): Promise<void> {
      server.add(...inquisitors());
      assert.equal((await brainstorm([TOPIC], { stdin: 'a\n' })).code, 2);
      await writeFile(planPath(ws, SLUG, '.brainstorm.json'), text);
    }

    const setAside = async () => (await readdir(planPath(ws, SLUG))).filter((n) => n.startsWith('.damaged-'));

    for (const [what, text] of DAMAGED) {
      test(`${what}: --list shows it as damaged with why; --discard keeps its files in .damaged-<time>/`, async () => {
        await damaged(text);
        const list = await brainstorm(['--list']);
        assert.equal(list.code, 0, list.stderr);
        assert.match(
          list.stdout,
          new RegExp(`^${SLUG} +damaged: \\.groundwork/plans/${SLUG}/\\.brainstorm\\.json is damaged`),
        );
        assert.match(list.stderr, /can be discarded \(--discard SLUG\) or restarted \(--resume SLUG --restart\)/);
        const json = JSON.parse((await brainstorm(['--list', '--json'])).stdout) as {
          brainstorms: { slug: string; phase: string; damaged?: string }[];
        };
        assert.equal(json.brainstorms[0]?.phase, 'damaged');

        const discarded = await brainstorm(['--discard', SLUG]);
        assert.equal(discarded.code, 0, discarded.stderr);
        assert.match(
          discarded.stdout,
          /^Discarded the damaged brainstorm .*; its files are kept in \.groundwork\/plans\/let-customers-export-their-invoices\/\.damaged-/,
        );
        const [folder] = await setAside();
        assert.ok(folder);
        assert.equal(
          await readFile(planPath(ws, SLUG, `${folder}/.brainstorm.json`), 'utf8'),
          text,
          'the damaged file is kept as it was',
        );
        assert.ok(existsSync(planPath(ws, SLUG, `${folder}/rounds/round-1.md`)));
        assert.equal((await brainstorm(['--list'])).stdout, 'no unfinished brainstorms\n');
      });
    }

    test('--resume --discard works on a damaged one too', async () => {
      await damaged('null');
      const r = await brainstorm(['--resume', SLUG, '--discard', '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.match((JSON.parse(r.stdout) as { keptIn: string }).keptIn, /\.damaged-/);
    });

    test('--resume --restart on a damaged one whose topic is readable starts round 1 again, its files kept', async () => {
      await damaged(JSON.stringify({ version: 1, topic: TOPIC, rounds: 'broken' }));
      server.add(...inquisitors());
      const r = await brainstorm(['--resume', SLUG, '--restart'], { stdin: 'a\n' });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stdout, /^Round 1 of at most 5/);
      assert.equal((await setAside()).length, 1);
    });

    test('--resume --restart on one whose topic is lost says how to go on; a new brainstorm with the same --slug then works', async () => {
      await damaged('garbage {{{');
      const refused = await brainstorm(['--resume', SLUG, '--restart'], { stdin: 'a\n' });
      assert.equal(refused.code, 2);
      assert.match(
        refused.stderr,
        /topic cannot be read from it, so it cannot restart: discard it \(its files are kept\), or start a new brainstorm under the same name/,
      );
      server.add(...inquisitors());
      const fresh = await brainstorm(['Invoices as CSV', '--slug', SLUG], { stdin: 'a\n' });
      assert.equal(fresh.code, 2, fresh.stderr);
      assert.match(fresh.stdout, /^Round 1 of at most 5 \(let-customers-export-their-invoices\)/);
      assert.equal((await setAside()).length, 1, 'the damaged files are set aside, not deleted');
    });
  });

  describe('input checks and retries', () => {
    test('--rounds takes whole decimal numbers only: 1e1, 0x5, 3.0 and " 3" are refused', async () => {
      for (const value of ['1e1', '0x5', '3.0', ' 3', '+3', '03a', '']) {
        const r = await brainstorm([TOPIC, '--rounds', value]);
        assert.equal(r.code, 2, `--rounds ${value}`);
        assert.match(r.stderr, /--rounds must be a whole number from 1 to 20/);
      }
      assert.equal(server.requests.length, 0);
    });

    test('a topic of invisible characters is refused before any model call', async () => {
      const r = await brainstorm(['\u200b\u200d\u202e\u2066'], { stdin: 'a\n' });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /The topic is empty \(or only invisible characters\)/);
      assert.equal(server.requests.length, 0);
      assert.equal(existsSync(planPath(ws, '')), false, 'no plan folder');
    });

    test('a retried model call says so on stderr while it waits', async () => {
      server.add(
        ...inquisitors(),
        followUp(reply.error(529, { message: 'busy', retryAfterMs: 1 }), { times: 2 }),
        followUp(),
        summarize(),
      );
      const r = await brainstorm([TOPIC, '--max-rounds', '2'], { stdin: 'a\nb\nc\n/more\ne\nf\n' });
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /coordinator: waiting for the model… \(retry 1 of 3: status 529[^\n]*\)\ncoordinator: waiting for the model… \(retry 2 of 3/,
      );
    });
  });
});
