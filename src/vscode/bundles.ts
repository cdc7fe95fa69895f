// The bundles the extension ships besides dist/extension.js. esbuild.mjs reads this file as text
// (scripts/featureBundles.mjs) and checks it against the tree:
//
// - FEATURE_BUNDLES: every `src/vscode/<feature>/<name>Feature.ts` is a feature's code loaded the
//   first time it is used, as `dist/<name>.js` (`import('./discoveryFeature')` becomes
//   `require('./discovery.js')`): activation neither evaluates nor parses it. A `*Feature.ts` file
//   missing here, or listed here and missing, fails the build; a file that is no lazy bundle must
//   not be named `*Feature.ts`.
//
// A module that several bundles need (the extension, the features, the CLI) is in one of them only,
// and the others take it from there (scripts/featureBundles.mjs's planBundles): a class told apart
// with `instanceof` on both sides of a bundle's edge is one class. A StorageError thrown by the
// window's store (made in extension.js) is a StorageError to the core code in a feature bundle, and
// an LlmError of the model client an LlmError to the brainstorm service. The build fails when a
// module is in two bundles.

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
