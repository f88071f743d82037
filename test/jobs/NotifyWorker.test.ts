import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { workerSchema, type WebhookConfig } from '../../src/config/schema.js';
import { NotifyWorker } from '../../src/jobs/NotifyWorker.js';
import { openQueues, queueOutboxDrain, redisConnection, type Queues } from '../../src/jobs/queues.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { noAttempts, NoticeOutbox } from '../../src/notices/NoticeOutbox.js';
import { RunStore } from '../../src/storage/RunStore.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { capturingLogger } from '../support/syncFixture.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let receiver: TestReceiver;
let connections: Redis[] = [];
let queues: Queues | undefined;
let worker: NotifyWorker | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startTestReceiver();
});
afterEach(async () => {
  await worker?.close();
  await queues?.close();
  for (const connection of connections.splice(0)) connection.disconnect();
  worker = undefined;
  queues = undefined;
  receiver.reset();
});
afterAll(async () => {
  await receiver.close();
  await database.drop();
});

/** A notify worker over the test database's outbox, or over `outbox` when given (a stub at that seam). */
async function startNotifyWorker(options: { webhook?: Partial<WebhookConfig>; outbox?: NoticeOutbox } = {}): Promise<{ worker: NotifyWorker; queues: Queues }> {
  const webhook: WebhookConfig = { baseUrl: receiver.baseUrl, uuid: randomUUID(), secret: undefined, timeoutMs: 2_000, concurrency: 4, retryScheduleMs: [60_000], giveUpAfterMs: 3_600_000, ...options.webhook };
  const shared = redisConnection(inject('redisUrl'), 'worker');
  const own = redisConnection(inject('redisUrl'), 'worker');
  connections = [shared, own];
  const opened = openQueues(shared, workerSchema.parse({ prefix: `test-${randomBytes(4).toString('hex')}` }));
  // No sweep during a test: every drain is one the test asked for (the first, at start, finds nothing).
  const outbox = options.outbox ?? new NoticeOutbox(database.db, webhook, capturingLogger().logger);
  const started = new NotifyWorker(outbox, own, opened, capturingLogger().logger, 3_600_000);
  queues = opened;
  worker = started;
  void started.run();
  await waitFor('the drain at start to end', () => idle(opened.notify), 5_000);
  return { worker: started, queues: opened };
}

/** Has a drain post this many new notices, and the receiver hold every answer: the drain is still delivering until `release`. */
async function drainHoldingPosts(queues: Queues, notices: number): Promise<{ release(): void }> {
  await Promise.all(Array.from({ length: notices }, () => queuedNotice()));
  const held: (() => void)[] = [];
  receiver.answer = (response) => void held.push(() => response.end());
  await queueOutboxDrain(queues);
  await waitFor('the drain to post every notice', () => held.length === notices, 5_000);
  return {
    release() {
      receiver.answer = (response) => response.end();
      for (const answer of held) answer();
    },
  };
}

async function queuedNotice(): Promise<string> {
  const store = new RunStore(database.db);
  const run = await store.claim({ runKey: `notify-test/${randomUUID()}`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
  let id = '';
  await store.finish(run.id, { status: 'succeeded' }, (finished) => {
    const notice = completionNotice(finished);
    id = notice.id;
    return notice;
  });
  return id;
}

/** Records the jobs added to a queue from now on (drains now, and wake-ups with their delay). */
function recordAdds(queue: Queues['notify']): () => { delay: number | undefined }[] {
  const added: { delay: number | undefined }[] = [];
  const add = queue.add.bind(queue);
  queue.add = (name, data, options) => {
    added.push({ delay: options?.delay });
    return add(name, data, options);
  };
  return () => added;
}

const noticeState = (id: string) => database.pool.query<{ state: string }>('select state from notices where id = $1', [id]).then((result) => result.rows[0]?.state);

const idle = async (notify: Queues['notify']) => {
  const counts = await notify.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
  return Object.values(counts).every((count) => count === 0);
};

describe('NotifyWorker', () => {
  it('delivers every due notice when a drain is asked for, then goes idle', async () => {
    const { queues } = await startNotifyWorker();
    const ids = await Promise.all(Array.from({ length: 6 }, () => queuedNotice()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(0);

    await queueOutboxDrain(queues);

    await waitFor('every notice delivered', () => receiver.received.length >= ids.length, 10_000);
    const delivered = receiver.received.map(({ body }) => (JSON.parse(body) as { data: { runId: string } }).data.runId);
    expect(new Set(delivered).size).toBe(ids.length);
    await waitFor('the notify queue to be idle', () => idle(queues.notify), 5_000);
  });

  it('lets a drain delivering take up a notice committed meanwhile, and delivers it without another drain', async () => {
    // A timeout far beyond the test: the held posts must not end on their own.
    const { worker, queues } = await startNotifyWorker({ webhook: { timeoutMs: 60_000 } });
    // Two notices: fewer than a batch, so the drain leased both and is still delivering them.
    const held = await drainHoldingPosts(queues, 2);

    const late = await queuedNotice();
    expect(worker.takeUp()).toBe(true);
    const drainsQueued = recordAdds(queues.notify);
    held.release();

    await waitFor('the late notice delivered', async () => (await noticeState(late)) === 'delivered', 5_000);
    await waitFor('the notify queue to be idle', () => idle(queues.notify), 5_000);
    expect(receiver.received).toHaveLength(3);
    // Without the take-up the late notice is delivered too, by a drain queued when this one ends.
    expect(drainsQueued()).toEqual([]);
  });

  it('takes up nothing once it is closing, so that closing waits for no stream of take-ups', async () => {
    const { worker, queues } = await startNotifyWorker({ webhook: { timeoutMs: 60_000 } });
    const held = await drainHoldingPosts(queues, 1);

    const closed = worker.close();
    const takenUp = worker.takeUp();
    held.release();
    await closed;

    expect(takenUp).toBe(false);
  });

  it('hands what it took up to a queued drain when its next lease fails', async () => {
    let leases = 0;
    let releaseFirst: () => void = () => undefined;
    const firstLease = new Promise<void>((resolve) => (releaseFirst = resolve));
    // A stub outbox: the first lease is held open, the second fails as if Postgres had gone away.
    const outbox = {
      async deliverDue() {
        leases += 1;
        if (leases === 2) await firstLease;
        if (leases === 3) throw new Error('connection terminated');
        return noAttempts();
      },
      nextDueInMs: () => Promise.resolve(undefined),
    } as unknown as NoticeOutbox;
    const { worker, queues } = await startNotifyWorker({ outbox });
    await queueOutboxDrain(queues);
    await waitFor('the drain to lease', () => leases === 2, 5_000);
    const drainsQueued = recordAdds(queues.notify);

    expect(worker.takeUp()).toBe(true);
    releaseFirst();

    await waitFor('the drain to queue its hand-off and its retry', () => drainsQueued().length === 2, 5_000);
    expect(drainsQueued()).toEqual([{ delay: undefined }, { delay: expect.any(Number) as number }]);
  });

  it('takes up nothing when no drain is delivering', async () => {
    const { worker } = await startNotifyWorker();

    expect(worker.takeUp()).toBe(false);
  });

  it('with nothing pending, a drain queues no further drain', async () => {
    await database.pool.query(`update notices set state = 'delivered'`);
    const { queues } = await startNotifyWorker();

    await queueOutboxDrain(queues);
    await waitFor('the drain to run', async () => (await queues.notify.getJobCounts('completed', 'active', 'waiting')).waiting === 0, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(await idle(queues.notify)).toBe(true);
    expect(receiver.received).toHaveLength(0);
  });
});
