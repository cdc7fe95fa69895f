// The panel's words in the user's language, and the language discovery talks in.
import * as vscode from 'vscode';
import { PANEL_STRINGS, type PanelStringKey, type PanelStrings } from '../../shared/panelStrings';

export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

let cached: PanelStrings | undefined;

/** PANEL_STRINGS through vscode.l10n: the bundle for VS Code's display language, or English. */
export function panelStrings(): PanelStrings {
  if (cached) return cached;
  const out = {} as PanelStrings;
  for (const key of Object.keys(PANEL_STRINGS) as PanelStringKey[]) out[key] = vscode.l10n.t(PANEL_STRINGS[key]);
  cached = out;
  return out;
}

/** `groundwork.language` when set, else VS Code's display language when supported, else English. */
export function discoveryLanguage(): Language {
  const setting = vscode.workspace.getConfiguration('groundwork').get<string>('language');
  if (setting && (LANGUAGES as readonly string[]).includes(setting)) return setting as Language;
  const display = vscode.env.language.toLowerCase().split('-')[0] ?? 'en';
  return (LANGUAGES as readonly string[]).includes(display) ? (display as Language) : 'en';
}
