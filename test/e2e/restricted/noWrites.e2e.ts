// Restricted Mode changes nothing: in an untrusted window, with what a cloned repository (or an
// earlier trusted session) left in .groundwork — an expired discovery session, a brief on the
// panel's card, a sleeping agent — every action that would write is tried from wherever a person
// (or a stale panel) could start it, and the workspace is then found byte for byte as it was.
// Runs first in the untrusted window (files run in name order), before anything opened the panel;
// what it plants stays for restricted.e2e.ts, which needs none of it absent.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { until } from '../../support/until';
import { ui } from '../../support/e2e/ui';
import { PATIENCE, screenshot, workbench } from '../../support/e2e/workbench';

const BRIEF = {
  request: 'build me a CRM for the bakery',
  brief: {
    summary: 'A customer and order book for a small bakery',
    problem: 'Orders and allergies live on paper and get lost.',
    users: 'The owner and two counter staff.',
    mvpScope: 'Customers, allergies, standing orders, a daily pick list.',
    technology: 'A web app usable on a phone.',
    outOfScope: 'Payments.',
    keyDecisions: 'Staff log in; customers do not.',
    constraints: 'Under 200 customers.',
  },
  transcript: [{ round: 1, questions: ['Who will use it?'], answer: 'The owner and two counter staff' }],
  message: 'The brief is ready.',
};

/** Every entry under `dir` (symbolic links not followed) with a hash of its bytes, sorted. */
function fingerprint(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.push(`${rel} -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(`${rel} ${st.size} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

describe('Restricted Mode writes nothing (UI)', function () {
  this.timeout(180_000);
  before(() => {
    const { workspace } = workbench();
    const gw = join(workspace, '.groundwork');
    mkdirSync(join(gw, 'discovery'), { recursive: true });
    mkdirSync(join(gw, 'panel'), { recursive: true });
    // CREATED in 2001: long past the 30-minute TTL (round file format: src/core/discovery/roundFile.ts)
    writeFileSync(
      join(gw, 'discovery', 'panel.md'),
      '# Discovery Session\n\nCREATED: 978307200\nROUND: 1\nORIGINAL_REQUEST: build me a CRM\n\n## Round 1\n### Agent Questions\n1. Who will use it?\n',
    );
    writeFileSync(join(gw, 'panel', 'brief.json'), JSON.stringify(BRIEF, null, 2) + '\n');
    const sleeping = {
      event: 'started',
      agent: 'build-qa',
      mode: { kind: 'manual' },
      startedAt: Date.now(),
      maxDurationMs: 3_600_000,
    };
    writeFileSync(join(gw, 'sleep.jsonl'), JSON.stringify(sleeping) + '\n');
  });

  it('tries every writing action and finds the workspace byte for byte unchanged', async () => {
    const { workspace, modelServer } = workbench();
    const { page, palette, panel: gw, explorer, notifications } = ui();
    const before = fingerprint(workspace);
    assert.ok(
      before.some((l) => l.startsWith('.groundwork/discovery/panel.md ')),
      'the expired session is there to be swept',
    );
    const modelCalls = modelServer.requests.length;

    // Opening the panel: no sweep of the expired session; the brief is shown read-only.
    const panel = await gw.open();
    await panel.locator('#restricted-banner').waitFor({ state: 'visible', timeout: PATIENCE.work });
    const card = panel.locator('#brief-card');
    await card.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.equal(await panel.locator('#brief-summary').innerText(), BRIEF.brief.summary);
    assert.match(await panel.locator('#brief-restricted').innerText(), /once this folder is trusted/);
    for (const id of ['brief-save', 'brief-brainstorm', 'brief-discard']) {
      assert.equal(await panel.locator(`#${id}`).getAttribute('disabled'), '', `${id} is disabled`);
    }
    await panel.locator('#sleepers .sleeper', { hasText: 'build-qa' }).waitFor({ state: 'visible' });
    assert.equal(await panel.locator('#sleepers vscode-button').getAttribute('disabled'), '', 'Wake is disabled');
    assert.equal(await panel.locator('#journal-add').count(), 0, 'no journal form');
    assert.match(
      await panel.locator('#journal-restricted').innerText(),
      /can be added to the journal once this folder is trusted/,
    );
    await panel.locator('#brief-restricted').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'groundwork-restricted-brief.png');
    await panel.locator('#sleepers').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'groundwork-restricted-journal.png');

    // The disabled controls, clicked anyway.
    await panel.locator('#brief-save').click({ force: true });
    await panel.locator('#sleepers vscode-button').click({ force: true });

    // A stale panel's buttons: each message the host acts on, sent as the page would send it.
    const attempts: Array<[unknown, string]> = [
      [
        { type: 'journal.add', requestId: 'r1', title: 'Planted', description: 'Should not be written.' },
        'cannot add to the journal in Restricted Mode',
      ],
      [{ type: 'sleep.wake', agent: 'build-qa' }, 'cannot wake an agent in Restricted Mode'],
      [{ type: 'brief.save', brief: BRIEF.brief }, 'cannot save the brief as a plan in Restricted Mode'],
      [{ type: 'brief.brainstorm' }, 'cannot brainstorm deeper in Restricted Mode'],
      [{ type: 'discovery.cancel' }, 'cannot cancel the discovery in Restricted Mode'],
      [{ type: 'brief.discard' }, 'cannot discard the brief in Restricted Mode'],
      [{ type: 'brainstorm.close' }, 'cannot close the brainstorm in Restricted Mode'],
      [{ type: 'discovery.send', text: 'build me a CRM' }, 'cannot start a discovery in Restricted Mode'],
    ];
    // The notification center stays open while the messages are posted: each refusal is listed there.
    await notifications.clear();
    await notifications.show();
    for (const [message, refusal] of attempts) {
      await gw.post(message);
      await notifications.waitFor(refusal);
    }
    await notifications.clear();

    // The command palette.
    await palette.runGroundwork('groundwork.journal.add');
    await notifications.waitFor('cannot add to the journal in Restricted Mode');
    assert.equal(await palette.title('Add Discovery (1/2)').count(), 0, 'no title box');
    await palette.runGroundwork('groundwork.discover');
    await notifications.waitFor('cannot start a discovery in Restricted Mode');
    await notifications.clear();
    await notifications.hide();

    // A keybinding is one more way to start a command that no menu offers here: Cancel Discovery,
    // bound in test/e2e/restricted/keybindings.json (the profile has it from the start: a window
    // reads its keybindings when it loads).
    const row = await explorer.shown('build-qa');
    const refusal = notifications.center.getByText('cannot cancel the discovery in Restricted Mode').first();
    await until(
      'the keybinding to run Cancel Discovery',
      async () => {
        await row.click();
        await page.keyboard.press('Control+Alt+Shift+K');
        await notifications.show();
        if (
          await refusal.waitFor({ state: 'visible', timeout: 2_000 }).then(
            () => true,
            () => false,
          )
        )
          return true;
        await notifications.hide();
        return undefined;
      },
      PATIENCE.work,
    );
    await screenshot(page, 'groundwork-restricted-refusal.png');
    await notifications.hide();

    // The plan explorer offers no Wake on the sleeping agent here (its menu is for trusted folders);
    // the command behind it refuses too, as the panel's wake message above showed.
    await row.hover();
    await row
      .locator('.monaco-action-bar')
      .first()
      .waitFor({ state: 'attached', timeout: 5_000 })
      .catch(() => undefined);
    assert.equal(
      await row.locator('.action-label[aria-label^="Wake"]').count(),
      0,
      'no Wake action in Restricted Mode',
    );

    // Opening the panel again (a fresh snapshot) still sweeps nothing.
    await palette.runGroundwork('groundwork.refreshExplorer');
    await gw.reopen();
    await panel.locator('#brief-card').waitFor({ state: 'visible', timeout: PATIENCE.work });
    await until(
      'the tree to list the sleeper again',
      async () => ((await explorer.row('build-qa').count()) > 0 ? true : undefined),
      PATIENCE.work,
    );

    assert.deepEqual(fingerprint(workspace), before, 'the workspace is byte for byte unchanged');
    assert.equal(modelServer.requests.length, modelCalls, 'no model call');
    await notifications.clear();
  });
});
