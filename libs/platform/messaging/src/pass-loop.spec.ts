import { describe, jest, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { PassLoop } from './pass-loop';

function recordingLogger() {
  const lines: { level: 'info' | 'warn'; msg?: string }[] = [];
  return { lines, info: (_: object, msg?: string) => lines.push({ level: 'info', msg }), warn: (_: object, msg?: string) => lines.push({ level: 'warn', msg }) };
}

/** Resolves once `check` holds, polling every few ms (fails after 2 s). */
async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 2000) assert.fail('condition not reached within 2 s');
    await sleep(5);
  }
}

describe('PassLoop', () => {
  test('runs a pass on start and then only every pollMs; a kick runs one at once', async () => {
    let passes = 0;
    const loop = new PassLoop({ name: 'test', pollMs: 60_000, logger: recordingLogger(), pass: async () => (passes++, false) });
    loop.start();
    await until(() => passes === 1);
    await sleep(30);
    assert.equal(passes, 1, 'no pass before the poll');
    loop.kick();
    await until(() => passes === 2);
    await loop.stop();
  });

  test("passes start every pollMs from the start of the last one: a pass's length does not lengthen the wait", async () => {
    jest.useFakeTimers();
    try {
      const starts: number[] = [];
      const loop = new PassLoop({
        name: 'test',
        pollMs: 100,
        logger: recordingLogger(),
        pass: async () => {
          starts.push(performance.now());
          await new Promise((resolve) => setTimeout(resolve, 60));
          return false;
        },
      });
      loop.start();
      await jest.advanceTimersByTimeAsync(1_000);
      const stopped = loop.stop();
      await jest.advanceTimersByTimeAsync(100);
      await stopped;
      const gaps = starts.slice(1).map((at, i) => Math.round(at - starts[i]));
      assert.ok(gaps.length >= 8, `passes: ${starts.length}`);
      assert.deepEqual(new Set(gaps), new Set([100]), `gaps between starts: ${gaps.join(', ')}`);
    } finally {
      jest.useRealTimers();
    }
  });

  test('a kick during a pass runs one more right after it, not two at once', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    let release!: () => void;
    const loop = new PassLoop({
      name: 'test',
      pollMs: 60_000,
      logger: recordingLogger(),
      pass: async () => {
        most = Math.max(most, ++running);
        passes++;
        if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
        running--;
        return false;
      },
    });
    loop.start();
    await until(() => passes === 1);
    loop.kick();
    loop.kick();
    release();
    await until(() => passes === 2);
    await sleep(20);
    assert.equal(passes, 2, 'two kicks during a pass make one more pass');
    assert.equal(most, 1);
    await loop.stop();
  });

  test('a pass answering that more is waiting is followed at once', async () => {
    let passes = 0;
    const loop = new PassLoop({ name: 'test', pollMs: 60_000, logger: recordingLogger(), pass: async () => ++passes < 5 });
    loop.start();
    await until(() => passes === 5);
    await loop.stop();
  });

  test('failing passes are retried with backoff, logged once, and the recovery is logged', async () => {
    let passes = 0;
    const logger = recordingLogger();
    const loop = new PassLoop({
      name: 'test loop',
      pollMs: 1,
      logger,
      pass: async () => {
        if (++passes <= 3) throw new Error('database away');
        return false;
      },
    });
    loop.start();
    await until(() => passes >= 4);
    await loop.stop();
    assert.deepEqual(
      logger.lines.map((l) => `${l.level} ${l.msg}`),
      ['warn test loop failed; retrying', 'info test loop recovered'],
    );
  });

  test('stop waits for the running pass, and nothing runs after it (kicks included)', async () => {
    let passes = 0;
    let finished = false;
    const loop = new PassLoop({
      name: 'test',
      pollMs: 1,
      logger: recordingLogger(),
      pass: async () => {
        passes++;
        await sleep(20);
        finished = true;
        return true;
      },
    });
    loop.start();
    await until(() => passes === 1);
    await loop.stop();
    assert.equal(finished, true);
    const after = passes;
    loop.kick();
    await sleep(30);
    assert.equal(passes, after);
  });
});
