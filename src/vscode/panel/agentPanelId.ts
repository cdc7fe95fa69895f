/** The agent panel's view id (package.json); `${AGENT_PANEL_ID}.focus` shows it. */
export const AGENT_PANEL_ID = 'groundwork.agentPanel';
