// The fake clock is test/support/fakeClock.ts (the stress tests use it too). This re-export is for
// test/unit/vscode/base/writeGuard.test.ts, which still imports it from here.
export { FakeClock } from '../../support/fakeClock';
