import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageError, quotePath, relabelStorageError } from '../../../src/core/storage/storageError';

describe('relabelStorageError', () => {
  const relabel = (path: string, message: string, prefix: string) =>
    relabelStorageError(new StorageError('unsafe-path', path, message), prefix);

  test('cuts the workspace folder from the start of the error path and of each quoted path', () => {
    const err = relabel(
      '/w/.groundwork/x',
      "Refused to use '/w/.groundwork/x': '/w/.groundwork/x' is a symbolic link (to '/w/y').",
      '/w/',
    );
    assert.equal(err.message, "Refused to use '.groundwork/x': '.groundwork/x' is a symbolic link (to 'y').");
    assert.equal(err.path, '.groundwork/x');
    assert.equal(err.code, 'unsafe-path');
    assert.ok(err.stack?.startsWith("StorageError: Refused to use '.groundwork/x'"));
  });

  test('leaves a path that holds the workspace folder further on whole', () => {
    const err = relabel('/w/.groundwork/x', "'/w/.groundwork/x' is a symbolic link to '/srv/w/data', outside", '/w/');
    assert.equal(err.message, "'.groundwork/x' is a symbolic link to '/srv/w/data', outside");
    const deeper = relabel(
      '/tmp/rvw/.groundwork/p',
      "'/tmp/rvw/.groundwork/p' links to '/tmp/rvo/tmp/rvw/data'",
      '/tmp/rvw/',
    );
    assert.equal(deeper.message, "'.groundwork/p' links to '/tmp/rvo/tmp/rvw/data'");
  });

  test('leaves an error path that does not start with the folder whole', () => {
    assert.equal(relabel('/srv/w/x', 'x', '/w/').path, '/srv/w/x');
    assert.equal(relabel('/w-other/x', "'/w-other/x'", '/w/').message, "'/w-other/x'");
  });

  test('a quote inside a path is not the start of another path', () => {
    const path = "/w/it's/w/x";
    const err = relabel(path, `Refused to use ${quotePath(path)}.`, '/w/');
    assert.equal(err.message, "Refused to use 'it's/w/x'.");
  });

  test('a folder whose name holds a control character is matched as quotePath shows it', () => {
    const prefix = '/odd\nname/';
    const err = relabel(`${prefix}.groundwork/x`, `Refused to use ${quotePath(`${prefix}.groundwork/x`)}.`, prefix);
    assert.equal(err.message, "Refused to use '.groundwork/x'.");
    assert.equal(err.path, '.groundwork/x');
  });

  test('an empty prefix changes nothing', () => {
    const original = new StorageError('io', '/x', "'/x'");
    assert.equal(relabelStorageError(original, ''), original);
  });
});
