// The other process in multi-process tests, bundled once per test file and run with plain
// `node` (fast to start). It prints one line to stdout after each operation resolves.
import {
  existsSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  statSync,
  statfsSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { FileLock } from '../../../src/core/node/fileLock';
import { withFileLock } from '../../../src/core/node/lockQueue';
import { openWorkspaceStore } from '../../../src/core/node/openWorkspace';
import { makeRecord, parseTestRecord } from './records';

function say(line: string): void {
  // Synchronous, so the line is out before the next operation starts.
  writeSync(1, `${line}\n`);
}

async function main(): Promise<void> {
  const [mode, workspace = '', a = '', b = ''] = process.argv.slice(2);
  const store = openWorkspaceStore(workspace);
  switch (mode) {
    case 'append': {
      // append <workspace> <writer> <count>: `count` records (or forever when 0), now and then a
      // large one so that a kill can land inside a write.
      const log = store.log('records.jsonl', parseTestRecord, { maxBytes: 1 << 30 });
      const count = Number(b);
      for (let seq = 1; count === 0 || seq <= count; seq++) {
        const big = count === 0 && Math.random() < 0.05;
        const record = makeRecord(
          a,
          seq,
          big ? 96 * 1024 + Math.floor(Math.random() * 64 * 1024) : Math.floor(Math.random() * 200),
        );
        await log.append(record);
        say(`ack ${record.id}`);
      }
      return;
    }
    case 'rewrite': {
      // rewrite <workspace> <writer>: replaces state.json forever.
      for (let seq = 1; ; seq++) {
        const record = makeRecord(a, seq, 20_000 + Math.floor(Math.random() * 50_000));
        await store.writeText('state.json', JSON.stringify(record));
        say(`ack ${seq}`);
      }
    }
    case 'hold': {
      // hold <lockPath> <ms>: takes the lock, says so, keeps it for ms.
      await withFileLock(workspace, async () => {
        say('locked');
        await new Promise((resolve) => setTimeout(resolve, Number(a)));
      });
      say('released');
      return;
    }
    case 'hold-session': {
      // hold-session <workspace> <name>: takes the session's lock, says so, and keeps it until killed.
      await store.withSessionLock(a, async () => {
        say('locked');
        // A timer keeps the process alive, as a model call would: a bare pending promise does not.
        await new Promise(() => setInterval(() => undefined, 60_000));
      });
      return;
    }
    case 'exit-holding': {
      // exit-holding <lockPath>: takes the lock and exits normally without releasing it.
      await FileLock.acquire(workspace);
      say('locked');
      process.exit(0);
    }
    case 'full-disk': {
      // full-disk <workspace>: on a small file system of its own (see diskFull.test.ts), appends
      // and replaces with a block or two left, then with none, then with the disk freed. After
      // each step it prints a JSON line: the step, the error's message if any, and the size of
      // each file left in .groundwork. Waits that could only end by a timeout are made very
      // long: a step that spins never ends.
      const long = { timeoutMs: 600_000, stealStaleMs: 600_000 };
      const slow = openWorkspaceStore(workspace, { lock: long });
      const log = slow.log('records.jsonl', parseTestRecord, { maxBytes: 1 << 30 });
      const gw = join(workspace, '.groundwork');
      const filler = join(workspace, 'filler');
      const block = statfsSync(workspace).bsize;
      const step = async (name: string, fn: () => Promise<unknown>) => {
        let error: string | undefined;
        await fn().catch((err: unknown) => (error = err instanceof Error ? err.message : String(err)));
        // The top of .groundwork and its locks folder (a log's lock lives in locks/).
        const names = [
          ...readdirSync(gw).filter((n) => n !== 'locks'),
          ...(existsSync(join(gw, 'locks')) ? readdirSync(join(gw, 'locks')).map((n) => `locks/${n}`) : []),
        ];
        const left = Object.fromEntries(names.sort().map((n) => [n, statSync(join(gw, n)).size]));
        say(JSON.stringify({ step: name, error, left }));
      };
      await step('append', () => log.append(makeRecord('w', 1, 10)));
      // The lock takes one block, the record is cut after the next: a torn tail over a block long.
      fillDisk(filler, block, 2);
      await step('append, two blocks free', () => log.append(makeRecord('w', 2, 3 * block)));
      await step('replace, one block free', () => slow.writeText('state.json', 'x'.repeat(3 * block)));
      // The lock takes one block, the torn tail's copy in .corrupt runs out after the next.
      fillDisk(filler, block, 2);
      await step('append over the torn tail, two blocks free', () => log.append(makeRecord('w', 3, 10)));
      fillDisk(filler, block, 0);
      await step('append, disk full', () => log.append(makeRecord('w', 4, 10)));
      await step('replace, disk full', () => slow.writeText('state.json', 'x'));
      unlinkSync(filler);
      await step('append, disk freed', () => log.append(makeRecord('w', 5, 10)));
      const { records, problems } = await log.readAll();
      say(JSON.stringify({ step: 'read back', ids: records.map((r) => r.id), problems: problems.length }));
      return;
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

/** Grows `file` until the disk is full, then frees `leave` blocks of it. */
function fillDisk(file: string, block: number, leave: number): void {
  const fd = openSync(file, 'a');
  const chunk = Buffer.alloc(block, 0x78);
  let size = fstatSync(fd).size;
  try {
    for (;;) size += writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  ftruncateSync(fd, Math.max(0, size - leave * block));
  closeSync(fd);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
