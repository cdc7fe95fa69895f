// The `groundwork` executable (bundled to dist/cli.js, which gets the shebang). Everything is in
// runCli so tests run it in-process; this file only binds it to the real process.
import { nodeDeps, processIo } from './nodeDeps';
import { runCli } from './runCli';

void runCli(process.argv.slice(2), processIo(), nodeDeps).then((code) => {
  // exitCode, not exit(): stdout may still be draining into a pipe.
  process.exitCode = code;
});
