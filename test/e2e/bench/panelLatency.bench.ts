// What a person waits for: from pressing Send in the panel to the first character of the model's
// reply on screen, with the scripted model server answering at once. `npm run bench:panel`
// (needs `npm run build`); prints median and p90 of 20 runs after 3 warm-ups. Not a test.
import { reply, match } from '../../support/scriptedModelServer';
import { ui } from '../../support/e2e/ui';
import { workbench } from '../../support/e2e/workbench';

const RUNS = 20;
const WARMUP = 3;

describe('panel latency (benchmark)', function () {
  this.timeout(300_000);

  it('Send → first streamed character', async () => {
    const { modelServer, log } = workbench();
    const { panel } = ui();
    await panel.ensureKey('sk-ant-bench-0000');
    // the first characters at once, the rest after a pause so the stream is on screen to be seen
    modelServer.add({
      name: 'bench',
      match: match.system('DISCOVERY_QUESTIONS'),
      reply: reply.text(['DISCOVERY_QUESTIONS\nHere are', ' two questions:\n1. Who uses it?\n2. Why now?'], {
        chunkDelayMs: 400,
      }),
      times: Infinity,
    });
    const times: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      await panel.open();
      await panel.locator('#composer textarea').fill(`build me a tool number ${i}`);
      const started = performance.now();
      await panel.locator('#composer-send').click();
      await panel.locator('#discovery-stream', { hasText: 'Here are' }).waitFor({ state: 'visible', timeout: 15_000 });
      if (i >= WARMUP) times.push(performance.now() - started);
      await panel.locator('#discovery-questions').waitFor({ state: 'visible', timeout: 15_000 });
      await panel.locator('#discovery-cancel').click();
      await panel.locator('#composer').waitFor({ state: 'visible', timeout: 15_000 });
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    log(
      `panel: Send → first streamed character, ${RUNS} runs: median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${times[0]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
    );
  });
});
