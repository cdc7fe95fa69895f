// Every page object of one workbench window, for a test to take what it uses:
//   const { palette, panel, explorer } = ui();
import type { Page } from 'playwright-core';
import { Modal, Notifications } from './dialogs';
import { Editors } from './editors';
import { PlanExplorer } from './explorer';
import { Palette } from './palette';
import { AgentPanel } from './panel';
import { Terminals } from './terminals';
import { workbench } from './workbench';

export interface Ui {
  page: Page;
  palette: Palette;
  panel: AgentPanel;
  explorer: PlanExplorer;
  terminals: Terminals;
  modal: Modal;
  notifications: Notifications;
  editors: Editors;
}

/** The page objects of `page` (default: the window the runner opened). */
export function ui(page: Page = workbench().page): Ui {
  return {
    page,
    palette: new Palette(page),
    panel: new AgentPanel(page),
    explorer: new PlanExplorer(page),
    terminals: new Terminals(page),
    modal: new Modal(page),
    notifications: new Notifications(page),
    editors: new Editors(page),
  };
}
