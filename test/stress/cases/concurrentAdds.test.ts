// Two processes (two windows, or a window and the CLI) adding cases at the same moment: every id
// is given once, counters.json ends at the total, and the store reads back whole.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { sha256 } from '../../support/sha256';
import { CaseStore } from '../../../src/core/cases/caseStore';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { repo, tsx } from '../../unit/cli/cliHarness';

const temps: string[] = [];
after(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

function adder(workspace: string, count: number, tag: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', tsx, join(repo, 'test/stress/cases/addCases.ts'), workspace, String(count), tag],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`adder ${tag} exited ${code}: ${err}`)),
    );
  });
}

test(
  'two processes adding 500 cases each at once: 1,000 distinct ids, and a store that loads whole',
  { timeout: 240_000 },
  async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'gw-cases-'));
    temps.push(workspace);
    const [one, two] = await Promise.all([adder(workspace, 500, 'alpha'), adder(workspace, 500, 'beta')]);
    assert.equal(one.length, 500);
    assert.equal(two.length, 500);
    const ids = new Set([...one, ...two]);
    assert.equal(ids.size, 1000, 'no id given twice');
    const expected = Array.from({ length: 1000 }, (_, i) => `disc-${String(i + 1).padStart(3, '0')}`).sort();
    assert.deepEqual([...ids].sort(), expected);

    const { cases, problems } = await new CaseStore(openWorkspaceStore(workspace), systemClock, sha256).load();
    assert.deepEqual(problems, []);
    assert.equal(cases.length, 1000);
    assert.equal(cases.filter((c) => c.metadata.sourceAgentId === 'alpha').length, 500);
    assert.equal(
      JSON.parse(await readFile(join(workspace, '.groundwork/metrics/counters.json'), 'utf8')).discovery,
      1000,
    );
  },
);
