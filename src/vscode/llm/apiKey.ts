// The Anthropic API key lives in VS Code's SecretStorage and nowhere else: not in settings,
// files, logs, the webview, terminal environments or prompts.
import * as vscode from 'vscode';

const SECRET_KEY = 'groundwork.anthropic.apiKey';
/** A context key so menus can offer "Clear API Key" only when there is one. */
const CONTEXT_KEY = 'groundwork.hasApiKey';

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private known: boolean | undefined;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key !== SECRET_KEY) return;
      this.known = undefined;
      this.changed.fire();
    });
  }

  get(): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(SECRET_KEY));
  }

  async has(): Promise<boolean> {
    this.known ??= Boolean(await this.get());
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, this.known);
    return this.known;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, key);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** A light check of what was pasted; the service is the judge, this only catches slips. */
export function checkKeyShape(value: string): string | undefined {
  const key = value.trim();
  if (!key) return vscode.l10n.t('Paste the key from the Anthropic Console (it starts with sk-ant-).');
  if (/\s/.test(key)) return vscode.l10n.t('The key has spaces or line breaks in it: paste only the key.');
  if (key.length > 512) return vscode.l10n.t('That is much longer than an API key: paste only the key.');
  return undefined;
}
