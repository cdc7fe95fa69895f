// What the plan explorer reads from a folder, a bundle of its own (dist/explorer.js, esbuild.mjs):
// the readers take the parsers of discovery's round files, brainstorm's session files and other
// tools' specs with them, which the extension's own bundle does not carry. Loaded the first time
// the Plans view reads a folder (explorerRoots.ts).
export { findExternalSpecs } from '../../core/build/externalSpec';
export { readExplorer, readPlanFacts, readSessions } from '../../core/explorer/explorerReader';
