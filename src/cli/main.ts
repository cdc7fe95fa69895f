// The `groundwork` executable (bundled to dist/cli.js, which gets the shebang). Everything is in
// runCli so tests run it in-process; this file only binds it to the real process.
import { EXIT_FAILURE } from './cliTypes';
import { createNodeDeps, processIo } from './nodeDeps';
import { runCli } from './runCli';

let writeFailed = false;
const io = processIo({
  onWriteFailure: () => {
    writeFailed = true;
    process.exitCode = EXIT_FAILURE;
  },
});

void runCli(process.argv.slice(2), io, createNodeDeps()).then((code) => {
  // exitCode, not exit(): stdout may still be draining into a pipe.
  process.exitCode = writeFailed ? Math.max(code, EXIT_FAILURE) : code;
});
