// Temporary folders for tests, and what is in them: made under the system's temp folder, removed when the process ends,
// whether a test file has a process of its own (`npm run test:stress`) or shares one with every
// other file (`npm run test:unit`). Not an after() hook of the module that makes them: a shared
// module is loaded once per process, so its top-level hooks would belong to the first test file
// that imported it, and the folders of every later file would stay behind.
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder under the system's temp folder, removed when the process ends. */
export async function tempFolder(prefix = 'groundwork-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (made.push(dir) === 1) process.once('exit', removeTempFolders);
  return dir;
}

function removeTempFolders(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch (err) {
      process.stderr.write(`could not remove the test folder ${dir}: ${(err as Error).message}\n`);
    }
  }
}

/** Every file under `dir`, as [relative path, text]. */
export async function filesUnder(dir: string, rel = ''): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true }).catch(() => [])) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, path)));
    else if (e.isFile()) out.push([path, await readFile(join(dir, path), 'utf8')]);
  }
  return out;
}
