// The bundles the extension ships besides dist/extension.js. esbuild.mjs reads this file as text
// (scripts/featureBundles.mjs) and checks it against the tree:
//
// - FEATURE_BUNDLES: every `src/vscode/<feature>/<name>Feature.ts` is a feature's code loaded the
//   first time it is used, as `dist/<name>.js` (`import('./discoveryFeature')` becomes
//   `require('./discovery.js')`): activation neither evaluates nor parses it. A `*Feature.ts` file
//   missing here, or listed here and missing, fails the build; a file that is no lazy bundle must
//   not be named `*Feature.ts`.
// - MAIN_MODULES: the modules the bundles loaded after activation take from the extension's bundle
//   instead of carrying copies of their own: the ones whose classes are told apart with `instanceof`
//   on both sides. A StorageError thrown by the window's store (made in extension.js) must be a
//   StorageError to the core code in a feature bundle, and an LlmError of the model client an
//   LlmError to the brainstorm service. The build fails when a module that declares an error class
//   is in extension.js and in a bundle the extension host loads without being listed. The CLI, which
//   has no extension.js, takes them from dist/chunk-main-cli.js.
//
// The bundles loaded after activation (the features, the CLI) hold each module they share once, in
// chunks (scripts/featureBundles.mjs's planBundles); extension.js keeps its own copy of what it uses,
// so that activation loads what it did.
import * as llmClient from '../core/llm/llmClient';
import * as watchdog from '../core/llm/watchdog';
import * as storageError from '../core/storage/storageError';

export const FEATURE_BUNDLES: readonly string[] = [
  'src/vscode/agentRun/agentRunFeature.ts',
  'src/vscode/annotations/annotationsFeature.ts',
  'src/vscode/brainstorm/brainstormFeature.ts',
  'src/vscode/build/buildFeature.ts',
  'src/vscode/cases/casesFeature.ts',
  'src/vscode/chat/chatFeature.ts',
  'src/vscode/discovery/discoveryFeature.ts',
  'src/vscode/explorer/explorerFeature.ts',
];

export const MAIN_MODULES: Readonly<Record<string, unknown>> = {
  'src/core/llm/llmClient.ts': llmClient,
  'src/core/storage/storageError.ts': storageError,
  'src/core/llm/watchdog.ts': watchdog,
};
