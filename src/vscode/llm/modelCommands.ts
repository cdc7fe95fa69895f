// Commands that connect Groundwork to a model: the API key, the model per tier, a live check.
import * as vscode from 'vscode';
import { LlmError, MODEL_TIERS, type ModelTier } from '../../core/llm/llmClient';
import { DEFAULT_PRICES } from '../../core/llm/usage';
import { requireTrust } from '../base/trust';
import { checkKeyShape } from './apiKey';
import { onboardingMessage, type ModelService } from './modelService';

export interface ModelCheck {
  ok: boolean;
  /** What a person reads: "claude-haiku-4-5 answered in 0.8 s" or the error. */
  text: string;
}

export function registerModelCommands(
  service: ModelService,
  onCheck: (check: ModelCheck) => void,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('groundwork.setApiKey', async () => {
      const key = await vscode.window.showInputBox({
        title: vscode.l10n.t('Anthropic API Key'),
        prompt: vscode.l10n.t(
          "Stored in VS Code's secret storage, never in settings or files. Create one in the Anthropic Console.",
        ),
        placeHolder: 'sk-ant-…',
        password: true,
        ignoreFocusOut: true,
        validateInput: checkKeyShape,
      });
      if (key === undefined) return;
      await service.keys.set(key.trim());
      const check = vscode.l10n.t('Check Connection');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('The Anthropic API key is stored.'),
        check,
      );
      if (choice === check) await vscode.commands.executeCommand('groundwork.checkModel');
    }),
    vscode.commands.registerCommand('groundwork.clearApiKey', async () => {
      await service.keys.clear();
      void vscode.window.showInformationMessage(vscode.l10n.t('The Anthropic API key is removed from this machine.'));
    }),
    vscode.commands.registerCommand('groundwork.selectModel', () => selectModel(service)),
    vscode.commands.registerCommand('groundwork.checkModel', async () => onCheck(await checkModel(service))),
  ];
}

async function selectModel(service: ModelService): Promise<void> {
  const choice = await service.choice();
  if (choice.kind === 'onboarding') {
    void vscode.window.showWarningMessage(onboardingMessage(choice.need));
    return;
  }
  const section = choice.kind === 'anthropic' ? 'groundwork.models' : 'groundwork.languageModel';
  const config = vscode.workspace.getConfiguration(section);
  const tierLabels: Record<ModelTier, string> = {
    complex: vscode.l10n.t('Complex tier: discovery, analyst, architect, brainstorm coordinator'),
    fast: vscode.l10n.t('Fast tier: the other build phases and the inquisitors'),
  };
  const tierPick = await vscode.window.showQuickPick(
    MODEL_TIERS.map((tier) => ({
      label: tierLabels[tier],
      description: config.get<string>(tier) || vscode.l10n.t('first available'),
      tier,
    })),
    { title: vscode.l10n.t('Select Model (1/2): which tier?') },
  );
  if (!tierPick) return;
  const items: Array<vscode.QuickPickItem & { id: string }> =
    choice.kind === 'anthropic'
      ? Object.keys(DEFAULT_PRICES).map((id) => ({ label: id, id }))
      : (await vscode.lm.selectChatModels()).map((m) => ({
          label: m.name,
          description: `${m.vendor} · ${m.family}`,
          detail: m.id,
          id: m.id,
        }));
  const other = { label: vscode.l10n.t('Other model id…'), id: '' };
  const picked = await vscode.window.showQuickPick(choice.kind === 'anthropic' ? [...items, other] : items, {
    title: vscode.l10n.t('Select Model (2/2): {0}', tierPick.label),
  });
  if (!picked) return;
  let id = picked.id;
  if (!id) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Anthropic model id'),
      placeHolder: 'claude-…',
    });
    if (!typed?.trim()) return;
    id = typed.trim();
  }
  await config.update(tierPick.tier, id, vscode.ConfigurationTarget.Global);
}

/** One tiny real call through the chosen provider: proves the key, the address and the model. */
async function checkModel(service: ModelService): Promise<ModelCheck> {
  if (!requireTrust(vscode.l10n.t('call a model'))) {
    return { ok: false, text: vscode.l10n.t('Not checked: the workspace is in Restricted Mode.') };
  }
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Groundwork: checking the model connection…'),
      cancellable: true,
    },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const started = Date.now();
      let answer = '';
      let model = '';
      let cancelled = false;
      try {
        const client = await service.client();
        const request = {
          system: 'You are checking that a connection works. Answer with the single word OK.',
          messages: [{ role: 'user' as const, content: 'Reply with OK.' }],
          model: { tier: 'fast' as const },
          maxTokens: 16,
        };
        for await (const event of client.stream(request, abort.signal)) {
          if (event.type === 'text') answer += event.text;
          if (event.type === 'usage') model = event.model;
          if (event.type === 'stop' && event.reason === 'cancelled') cancelled = true;
        }
      } catch (err) {
        const text =
          err instanceof LlmError
            ? err.message
            : vscode.l10n.t('The check failed: {0}', err instanceof Error ? err.message : String(err));
        void offerFix(text, err instanceof LlmError ? err.kind : undefined);
        return { ok: false, text };
      } finally {
        sub.dispose();
      }
      if (cancelled) return { ok: false, text: vscode.l10n.t('Check cancelled.') };
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const text = vscode.l10n.t('{0} answered in {1} s.', model || vscode.l10n.t('The model'), seconds);
      void vscode.window.showInformationMessage(vscode.l10n.t('Model connection works: {0}', text));
      return { ok: true, text };
    },
  );
}

async function offerFix(message: string, kind: string | undefined): Promise<void> {
  const setKey = vscode.l10n.t('Set API Key…');
  const select = vscode.l10n.t('Select Model…');
  const actions =
    kind === 'auth' || kind === 'no-provider'
      ? [setKey]
      : kind === 'consent' || kind === 'quota'
        ? [select, setKey]
        : [];
  const choice = await vscode.window.showErrorMessage(message, ...actions);
  if (choice === setKey) await vscode.commands.executeCommand('groundwork.setApiKey');
  if (choice === select) await vscode.commands.executeCommand('groundwork.selectModel');
}
