// What a person sees: the Groundwork container in the activity bar, its Plans welcome text (and
// the walkthrough it opens: test-artifacts/vscode/groundwork-walkthrough.png) and its Agent webview.
// The first UI file (E2E_ORDER in scripts/vscode/bundleTests.mjs): a fresh window on an empty
// workspace, with no model.
import * as assert from 'node:assert/strict';
import { ui } from '../support/e2e/ui';
import {
  PATIENCE,
  activityBarItem,
  commandTitle,
  screenshot,
  sideBar,
  sideBarTitle,
  workbench,
} from '../support/e2e/workbench';

describe('Groundwork container (UI)', function () {
  this.timeout(120_000);

  it('has a Groundwork entry in the activity bar', async () => {
    const { page } = workbench();
    await activityBarItem(page, 'Groundwork').waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });

  it('opens the Groundwork container with its Agent and Plans views', async () => {
    const { page } = workbench();
    await activityBarItem(page, 'Groundwork').click();
    await sideBarTitle(page, /groundwork/i).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    for (const name of ['Agent', 'Plans']) {
      await sideBar(page)
        .locator('.pane-header', { hasText: new RegExp(`^\\s*${name}`, 'i') })
        .first()
        .waitFor({ state: 'visible', timeout: PATIENCE.soon });
    }
  });

  it('shows the Plans welcome text while there are no plans', async () => {
    const { page } = workbench();
    const welcome = sideBar(page).locator('.welcome-view-content', { hasText: 'No plans yet' });
    await welcome.waitFor({ state: 'visible', timeout: PATIENCE.soon });
  });

  it('opens the walkthrough from the Plans welcome; its steps show, and one completes when the person does it', async () => {
    const { page, editors } = ui();
    const link = sideBar(page).locator('.welcome-view-content a', { hasText: 'Get Started with Groundwork' });
    await link.click();
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough
      .getByText('Get Started with Groundwork')
      .first()
      .waitFor({ state: 'visible', timeout: PATIENCE.soon });
    const steps = walkthrough.locator('.getting-started-step');
    await steps.first().waitFor({ state: 'visible' });
    const titles = (await steps.locator('.step-title').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(titles, [
      'Connect a model',
      'Discover an idea',
      'Brainstorm',
      'Build',
      'Review what the agents learned',
    ]);
    const connect = steps.filter({ hasText: 'Connect a model' });
    assert.equal(
      await connect.locator('.codicon-getting-started-step-checked').count(),
      0,
      'not done before the person does it',
    );
    // The step's own button, as a person does it (the palette can lose the focus to the walkthrough's page).
    await connect.getByText('Check Model Connection', { exact: true }).first().click();
    await connect
      .locator('.codicon-getting-started-step-checked')
      .waitFor({ state: 'attached', timeout: PATIENCE.work });
    await screenshot(page, 'groundwork-walkthrough.png');
    // Its tab first: the walkthrough's page may otherwise take back the focus the palette needs.
    await editors.tab('Welcome').click();
    await editors.closeAll();
  });

  it('renders the Agent webview', async () => {
    const { page, panel } = ui();
    // the panel's page has loaded and drawn text a person can read (two frames deep)
    const body = panel.locator('body').filter({ hasText: /\S/ });
    await body.waitFor({ state: 'visible', timeout: PATIENCE.work });
    assert.ok((await body.innerText()).trim().length > 0, 'the Agent webview is empty');
    await screenshot(page, 'groundwork-container.png');
  });

  it('opens the Agent panel from the command palette', async () => {
    const { page, palette, panel } = ui();
    // leave the container first, as a person who was in the Explorer would be
    await activityBarItem(page, 'Explorer').click();
    await sideBarTitle(page, /explorer/i).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await palette.run(commandTitle('groundwork.openPanel'));
    await sideBarTitle(page, /groundwork/i).waitFor({ state: 'visible', timeout: PATIENCE.soon });
    await panel.locator('body').filter({ hasText: /\S/ }).waitFor({ state: 'visible', timeout: PATIENCE.work });
  });
});
