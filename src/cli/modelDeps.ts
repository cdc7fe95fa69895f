// The model and the roles as the CLI gets them: from the environment (never from files or flags,
// so a key is not left in shell history or a workspace) and from the install the CLI runs from.
// nodeDeps.ts makes CliDeps.model and .loadRole of them; the commands that talk to a model share
// the rest (progress lines, redaction, minutes from the environment).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ErrorAdvice } from '../core/llm/errorAdvice';
import type { LlmClient, ModelTier } from '../core/llm/llmClient';
import type { ModelSettings } from '../core/llm/models';
import { LIMIT_SETTINGS, type CallLimits, type LimitRange } from '../core/llm/retryPolicy';
import type { Role } from '../core/roles/roleSchema';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import { visibleText } from '../core/visibleText';
import { UsageError } from './cliTypes';
import type { Env, ModelFromEnv } from './cliTypes';

export const KEY_VAR = 'ANTHROPIC_API_KEY';
export const BASE_URL_VAR = 'ANTHROPIC_BASE_URL';
export const MODEL_VARS: Readonly<Record<ModelTier, string>> = {
  complex: 'GROUNDWORK_MODEL_COMPLEX',
  fast: 'GROUNDWORK_MODEL_FAST',
};
/** The CLI's names for the VS Code settings `groundwork.model.firstByteTimeoutSeconds` and `…retryBudgetSeconds`. */
export const FIRST_BYTE_VAR = 'GROUNDWORK_FIRST_BYTE_TIMEOUT_SECONDS';
export const RETRY_BUDGET_VAR = 'GROUNDWORK_RETRY_BUDGET_SECONDS';

/** What a model error tells the person to change, in the CLI's words: the variables above. */
export const CLI_ADVICE: ErrorAdvice = {
  setKey: `Set a valid key in ${KEY_VAR}.`,
  replaceKey: `Set a valid key in ${KEY_VAR}.`,
  otherKey: `set a valid key in ${KEY_VAR}`,
  baseUrl: BASE_URL_VAR,
  modelIds: `the model ids (${MODEL_VARS.complex}, ${MODEL_VARS.fast})`,
  firstByteTimeout: FIRST_BYTE_VAR,
  retryBudget: RETRY_BUDGET_VAR,
};

/**
 * The Anthropic client from ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and the per-tier overrides.
 * Checks them at once, so that bad settings are exit 2 before any session changes, and never
 * quotes the key or the URL (which may carry a proxy password) in a message.
 */
export function modelFromEnv(env: Env, log?: (line: string) => void, helpTopic?: string): ModelFromEnv {
  const key = env[KEY_VAR]?.trim();
  if (!key)
    throw new UsageError(`no model: set ${KEY_VAR} (and ${BASE_URL_VAR} for a proxy or another endpoint)`, helpTopic);
  const baseURL = env[BASE_URL_VAR]?.trim() || undefined;
  if (baseURL !== undefined && !isHttpUrl(baseURL))
    throw new UsageError(`${BASE_URL_VAR} is not an http:// or https:// URL; fix it or unset it`, helpTopic);
  const settings: ModelSettings = { complex: env[MODEL_VARS.complex], fast: env[MODEL_VARS.fast] };
  const limits = limitsFromEnv(env, helpTopic);
  let client: Promise<LlmClient> | undefined;
  return {
    secrets: [key],
    llm: () =>
      (client ??= (async () => {
        const [{ AnthropicClient }, { resolveModel }] = await Promise.all([
          import('../core/node/anthropicClient'),
          import('../core/llm/models'),
        ]);
        return new AnthropicClient({
          apiKey: async () => key,
          ...(baseURL !== undefined ? { baseURL } : {}),
          models: (tier) => resolveModel({ tier }, settings),
          limits,
          advice: CLI_ADVICE,
          ...(log !== undefined ? { log } : {}),
        });
      })()),
  };
}

/** The time to first byte and the retry budget from the environment; unset ones keep their defaults. */
export function limitsFromEnv(env: Env, helpTopic?: string): Partial<CallLimits> {
  const firstByteTimeoutMs = secondsFromEnv(env, FIRST_BYTE_VAR, LIMIT_SETTINGS.firstByte, helpTopic);
  const retryBudgetMs = secondsFromEnv(env, RETRY_BUDGET_VAR, LIMIT_SETTINGS.budget, helpTopic);
  return {
    ...(firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs } : {}),
    ...(retryBudgetMs !== undefined ? { retryBudgetMs } : {}),
  };
}

/** Seconds within `range` from `name`, as milliseconds; undefined when unset. Out of range is a usage error, not a silent clamp. */
function secondsFromEnv(env: Env, name: string, range: LimitRange, helpTopic?: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < range.min || seconds > range.max) {
    throw new UsageError(
      `${name} must be a number of seconds from ${range.min} to ${range.max}, not '${visibleText(raw)}'; fix it or unset it`,
      helpTopic,
    );
  }
  return Math.round(seconds * 1000);
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** `text` with every secret replaced; the last guard before anything is printed. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((t, s) => (s ? t.split(s).join('[redacted]') : t), text);
}

/**
 * The folder of the install the CLI runs from: the one holding `roles/<role>.md`, found walking up
 * from this file (`dist/cli.js` → `..`; `src/cli/modelDeps.ts` under tsx → `../..`).
 */
export function findExtensionRoot(role: string, from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'roles', `${role}.md`))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The bundled `roles/build.workflow.yaml` beside the install. */
export async function readBundledWorkflow(from?: string): Promise<string> {
  const root = findExtensionRoot('build-analyst', from);
  if (root === undefined)
    throw new Error(
      `the bundled build workflow (roles/build.workflow.yaml) was not found beside the groundwork CLI; reinstall Groundwork`,
    );
  const { readFile } = await import('node:fs/promises');
  return readFile(join(root, 'roles', 'build.workflow.yaml'), 'utf8');
}

/**
 * The role `name`: the bundled file, or the workspace's override in `.groundwork/roles/`. Problems
 * with the files are reported through `warn` (one line each); a missing role throws.
 */
export async function loadCliRole(
  name: string,
  store: WorkspaceStore,
  warn: (line: string) => void,
  from?: string,
): Promise<Role> {
  const root = findExtensionRoot(name, from);
  if (root === undefined) {
    throw new Error(
      `the bundled role files (roles/${name}.md) were not found beside the groundwork CLI (looked upwards from ${visibleText(from ?? __dirname)}); reinstall Groundwork`,
    );
  }
  const [{ loadRoles, requireRole }, { bundledRoleSource }, { workspaceRoleSource }] = await Promise.all([
    import('../core/roles/roleLoader'),
    import('../core/node/roleFiles'),
    import('../core/roles/workspaceRoleSource'),
  ]);
  const loaded = await loadRoles(bundledRoleSource(root), workspaceRoleSource(store));
  for (const problem of loaded.problems) warn(`${problem.severity}: ${visibleText(problem.text)}`);
  return requireRole(loaded, name).role;
}

/** The bundled roles beside the install, by name; a role that does not load is left out (loadCliRole says why when it is used). */
export async function loadBundledCliRoles(from?: string): Promise<ReadonlyMap<string, Role>> {
  const root = findExtensionRoot('build-analyst', from);
  if (root === undefined) return new Map();
  const [{ loadRoles }, { bundledRoleSource }] = await Promise.all([
    import('../core/roles/roleLoader'),
    import('../core/node/roleFiles'),
  ]);
  const loaded = await loadRoles(bundledRoleSource(root));
  return new Map([...loaded.roles].map(([name, l]) => [name, l.role]));
}

/** A positive number of minutes from `name`, or `fallback` when unset. */
export function minutesFromEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes <= 0)
    throw new UsageError(`${name} must be a positive number of minutes, not '${visibleText(raw)}'`);
  return minutes;
}

/** The progress line of a model call that is tried again, for stderr (the reason is plain words). */
export function retryLine(retry: { attempt: number; of: number; reason: string }): string {
  return `waiting for the model… (retry ${retry.attempt} of ${retry.of}: ${visibleText(retry.reason)})`;
}
