// The other process in multi-process tests, bundled once per test file and run with plain
// `node` (fast to start). It prints one line to stdout after each operation resolves.
import { writeSync } from 'node:fs';
import { FileLock } from '../../../../src/core/node/fileLock';
import { withFileLock } from '../../../../src/core/node/lockQueue';
import { openWorkspaceStore } from '../../../../src/core/node/openWorkspace';
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
        const record = makeRecord(a, seq, big ? 96 * 1024 + Math.floor(Math.random() * 64 * 1024) : Math.floor(Math.random() * 200));
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
    case 'counter': {
      // counter <workspace> <n>: n ids from the discovery counter.
      for (let i = 0; i < Number(a); i++) say(String(await store.counters.next('discovery', 0)));
      return;
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
    case 'exit-holding': {
      // exit-holding <lockPath>: takes the lock and exits normally without releasing it.
      await FileLock.acquire(workspace);
      say('locked');
      process.exit(0);
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
