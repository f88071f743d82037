import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { workerSchema } from '../../src/config/worker/workerSchema.js';
import { NOTIFY_QUEUE, openQueues, queueOutboxDrain, type Queues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { waitFor } from '../support/feedsyncProcess.js';

const closers: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function notifyQueue(): Queues {
  const connection = openRedis(inject('redisUrl'), 'worker');
  const queues = openQueues(connection, workerSchema.parse({ prefix: `test-${randomBytes(4).toString('hex')}` }));
  closers.push(() => connection.disconnect(), () => queues.close());
  return queues;
}

/** A notify worker whose drains end only when the test lets them. */
function heldDrains(queues: Queues) {
  let drains = 0;
  let ended = 0;
  let release: () => void = () => undefined;
  const connection = openRedis(inject('redisUrl'), 'worker');
  const worker = new Worker(
    NOTIFY_QUEUE,
    () => {
      drains += 1;
      return new Promise<void>((resolve) => (release = resolve));
    },
    { connection, prefix: queues.prefix },
  );
  worker.on('completed', () => (ended += 1));
  closers.push(() => connection.disconnect(), () => worker.close(true));
  return { drains: () => drains, ended: () => ended, release: () => release() };
}

/** Drains queued and not yet ended, whether waiting, running or delayed. */
const drainsLeft = async (queues: Queues) => {
  const counts = await queues.notify.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
};

describe('queueOutboxDrain', () => {
  it('asked for while a drain waits, adds no second one', async () => {
    const queues = notifyQueue();

    await queueOutboxDrain(queues);
    await queueOutboxDrain(queues);

    expect((await queues.notify.getJobCounts('waiting')).waiting).toBe(1);
  });

  it('asked for while a drain runs, runs exactly one more after it, however often asked', async () => {
    const queues = notifyQueue();
    const worker = heldDrains(queues);
    await queueOutboxDrain(queues);
    await waitFor('the first drain to run', () => worker.drains() === 1, 5_000);

    await queueOutboxDrain(queues);
    await queueOutboxDrain(queues);
    worker.release();

    await waitFor('a second drain to run', () => worker.drains() === 2, 5_000);
    worker.release();
    await waitFor('the second drain to end', () => worker.ended() === 2, 5_000);
    // A third drain, had one been queued, would be waiting or running by now.
    expect(await drainsLeft(queues)).toBe(0);
    expect(worker.drains()).toBe(2);
  });

  it('for later, adds one delayed drain per second it falls in, a whole second included', async () => {
    const queues = notifyQueue();
    // A whole second, where rounding up would split [s, s + 1000) in two.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 1000) * 1000);
    closers.push(() => {
      vi.useRealTimers();
    });

    await queueOutboxDrain(queues, 60_000);
    await queueOutboxDrain(queues, 60_100);
    await queueOutboxDrain(queues, 60_999);
    expect((await queues.notify.getJobCounts('delayed')).delayed).toBe(1);

    await queueOutboxDrain(queues, 61_000);
    expect((await queues.notify.getJobCounts('delayed')).delayed).toBe(2);
  });
});
