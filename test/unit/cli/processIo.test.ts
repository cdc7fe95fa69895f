import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { processIo } from '../../../src/cli/nodeDeps';

/** A stream whose every write fails with `code`, as a pipe whose reader left, or a full disk. */
function failing(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback(Object.assign(new Error(`write ${code}`), { code }));
    },
  });
}

function collecting(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      stream.text += chunk.toString();
      callback();
    },
  }) as Writable & { text: string };
  stream.text = '';
  return stream;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('processIo', () => {
  test('stdout closed by its reader (EPIPE): later output is dropped, nothing is reported, no failure', async () => {
    const stderr = collecting();
    let failures = 0;
    const io = processIo({ stdout: failing('EPIPE'), stderr, onWriteFailure: () => failures++ });
    io.stdout('first\n');
    await tick();
    io.stdout('second\n');
    io.stderr('a warning still goes out\n');
    await tick();
    assert.equal(stderr.text, 'a warning still goes out\n');
    assert.equal(failures, 0);
  });

  test('any other write error on stdout is reported once and is a failure', async () => {
    const stderr = collecting();
    let failures = 0;
    const io = processIo({ stdout: failing('EIO'), stderr, onWriteFailure: () => failures++ });
    io.stdout('first\n');
    await tick();
    io.stdout('second\n');
    await tick();
    assert.equal(stderr.text, 'groundwork: could not write the output (EIO); it is incomplete\n');
    assert.equal(failures, 1);
  });

  test('stderr closed (EPIPE) is quiet; another stderr error is a failure', async () => {
    let failures = 0;
    const quiet = processIo({ stdout: collecting(), stderr: failing('EPIPE'), onWriteFailure: () => failures++ });
    quiet.stderr('x\n');
    await tick();
    quiet.stderr('y\n');
    assert.equal(failures, 0);
    const broken = processIo({ stdout: collecting(), stderr: failing('ENOSPC'), onWriteFailure: () => failures++ });
    broken.stderr('x\n');
    await tick();
    assert.equal(failures, 1);
  });
});
