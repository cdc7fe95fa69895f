// Two processes (two windows, or a window and the CLI) adding cases at the same moment: every id
// is given once, counters.json ends at the total, and the store reads back whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { sha256 } from '../../support/sha256';
import { CaseStore } from '../../../src/core/cases/caseStore';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { repo, runNode } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';

/** test/stress/cases/addCases.ts in a process of its own: the ids it was given. */
async function adder(workspace: string, count: number, tag: string): Promise<string[]> {
  const r = await runNode(join(repo, 'test/stress/cases/addCases.ts'), [workspace, String(count), tag]);
  if (r.code !== 0) throw new Error(`adder ${tag} exited ${r.code}: ${r.stderr}`);
  return r.stdout.trim().split('\n');
}

test(
  'two processes adding 500 cases each at once: 1,000 distinct ids, and a store that loads whole',
  { timeout: 240_000 },
  async () => {
    const workspace = await tempFolder('gw-cases-');
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
