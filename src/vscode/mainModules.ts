// The modules the lazily loaded feature bundles (dist/discovery.js, dist/brainstorm.js,
// dist/agentRun.js, dist/build.js, dist/cases.js) take from the extension's bundle instead of carrying copies of
// their own: the ones whose classes are told apart with `instanceof` on both sides. A StorageError thrown by the window's store (made here)
// must be a StorageError to the core code in a feature bundle, and an LlmError of the model client
// (made here) an LlmError to the brainstorm service. esbuild.mjs reads the keys below, and fails
// the build when a module that declares an error class is bundled twice without being listed.
import * as llmClient from '../core/llm/llmClient';
import * as watchdog from '../core/llm/watchdog';
import * as storageError from '../core/storage/storageError';

export const MAIN_MODULES: Readonly<Record<string, unknown>> = {
  'src/core/llm/llmClient.ts': llmClient,
  'src/core/storage/storageError.ts': storageError,
  'src/core/llm/watchdog.ts': watchdog,
};
