import { randomBytes, randomUUID } from 'node:crypto';
import type { RedisClient } from '../../src/redis/RedisTarget.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { WebhookConfig } from '../../src/config/worker/webhookSchema.js';
import { workerSchema } from '../../src/config/worker/workerSchema.js';
import { NotifyWorker } from '../../src/notices/NotifyWorker.js';
import { openQueues, queueOutboxDrain, type Queues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { noAttempts, NoticeOutbox } from '../../src/notices/NoticeOutbox.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { capturingLogger } from '../support/syncFixture.js';
import { startTestReceiver, type HeldAnswers, type TestReceiver } from '../support/testReceiver.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let receiver: TestReceiver;
let connections: RedisClient[] = [];
let queues: Queues | undefined;
let worker: NotifyWorker | undefined;
/** Runs the current test made: deleting them deletes their notices and attempts (cascade). */
const runsMade: string[] = [];

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
  await database.pool.query('delete from sync_runs where id = any($1::uuid[])', [runsMade.splice(0)]);
});
afterAll(async () => {
  await receiver.close();
  await database.drop();
});

/** A notify worker over the test database's outbox, or over `outbox` when given (a stub at that seam). */
async function startNotifyWorker(options: { webhook?: Partial<WebhookConfig>; outbox?: NoticeOutbox } = {}): Promise<{ worker: NotifyWorker; queues: Queues }> {
  const webhook: WebhookConfig = { baseUrl: receiver.baseUrl, uuid: randomUUID(), secret: undefined, timeoutMs: 2_000, concurrency: 4, retryScheduleMs: [60_000], giveUpAfterMs: 3_600_000, notices: 'run', ...options.webhook };
  const shared = openRedis(inject('redisUrl'), 'worker');
  const own = openRedis(inject('redisUrl'), 'worker');
  connections = [shared, own];
  const opened = openQueues(shared, workerSchema.parse({ prefix: `test-${randomBytes(4).toString('hex')}` }));
  // No sweep during a test: every drain is one the test asked for (the first, at start, finds nothing).
  const outbox = options.outbox ?? new NoticeOutbox(database.db, webhook, capturingLogger().logger);
  const started = new NotifyWorker(outbox, own, opened, capturingLogger().logger, 3_600_000);
  queues = opened;
  worker = started;
  const startDrainQueued = nextAdd(opened.notify);
  void started.run();
  // Once the drain at start is in the queue, a queue with no drain due means it has ended.
  await startDrainQueued;
  await waitFor('the drain at start to end', () => noDrainDue(opened.notify), 5_000);
  return { worker: started, queues: opened };
}

/** Has a drain post this many new notices, and the receiver hold every answer: the drain is still delivering until `end`. */
async function drainHoldingPosts(queues: Queues, notices: number): Promise<{ ids: string[]; held: HeldAnswers }> {
  const ids = await Promise.all(Array.from({ length: notices }, () => queuedNotice()));
  const held = receiver.hold();
  await queueOutboxDrain(queues);
  await waitFor('the drain to post every notice', () => held.waiting === notices, 5_000);
  return { ids, held };
}

async function queuedNotice(): Promise<string> {
  const store = openRunStore(database.db);
  const run = await store.claims.claim({ runKey: `notify-test/${randomUUID()}`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
  runsMade.push(run.id);
  let id = '';
  await store.finishes.finish(run.id, { status: 'succeeded' }, (finished) => {
    const notice = completionNotice(finished);
    id = notice.id;
    return notice;
  });
  return id;
}

/** Settles once the next job added to the queue is in it. */
function nextAdd(queue: Queues['notify']): Promise<unknown> {
  const add = queue.add.bind(queue);
  return new Promise((resolve) => {
    queue.add = (name, data, options) => {
      queue.add = add;
      const added = add(name, data, options);
      resolve(added);
      return added;
    };
  });
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

/** The notice ids the receiver was posted, in the order they arrived. */
const postedIds = () => receiver.received.map((request) => request.headers['webhook-id']);

const noticeState = (id: string) => database.pool.query<{ state: string }>('select state from notices where id = $1', [id]).then((result) => result.rows[0]?.state);

const noJobIn = async (notify: Queues['notify'], states: ('active' | 'waiting' | 'prioritized' | 'delayed')[]) =>
  Object.values(await notify.getJobCounts(...states)).every((count) => count === 0);
/** No drain waiting or running: every drain asked for now has ended (a wake-up for later may be delayed). */
const noDrainDue = (notify: Queues['notify']) => noJobIn(notify, ['active', 'waiting', 'prioritized']);
/** No drain due, and no wake-up delayed either. */
const idle = (notify: Queues['notify']) => noJobIn(notify, ['active', 'waiting', 'prioritized', 'delayed']);

describe('NotifyWorker', () => {
  it('delivers every due notice when a drain is asked for, then goes idle', async () => {
    const { queues } = await startNotifyWorker();
    const ids = await Promise.all(Array.from({ length: 6 }, () => queuedNotice()));
    // No drain is queued or running: only the one asked for below can deliver them.
    expect(await idle(queues.notify)).toBe(true);

    await queueOutboxDrain(queues);

    await waitFor('every notice delivered', async () => (await Promise.all(ids.map(noticeState))).every((state) => state === 'delivered'), 10_000);
    await waitFor('the notify queue to be idle', () => idle(queues.notify), 5_000);
    expect(postedIds().sort()).toEqual([...ids].sort());
  });

  it('lets a drain delivering accept a notice handed over meanwhile, and delivers it without another drain', async () => {
    // A timeout far beyond the test: the held posts must not end on their own.
    const { worker, queues } = await startNotifyWorker({ webhook: { timeoutMs: 60_000 } });
    // Two notices: fewer than a batch, so the drain leased both and is still delivering them.
    const { ids, held } = await drainHoldingPosts(queues, 2);

    const late = await queuedNotice();
    expect(worker.handToRunningDrain()).toBe(true);
    const drainsQueued = recordAdds(queues.notify);
    held.end();

    await waitFor('the late notice delivered', async () => (await noticeState(late)) === 'delivered', 5_000);
    await waitFor('the notify queue to be idle', () => idle(queues.notify), 5_000);
    expect(postedIds().sort()).toEqual([...ids, late].sort());
    // Without the hand-over the late notice is delivered too, by a drain queued when this one ends.
    expect(drainsQueued()).toEqual([]);
  });

  it('accepts no hand-over once it is closing, so that closing waits for no stream of them', async () => {
    const { worker, queues } = await startNotifyWorker({ webhook: { timeoutMs: 60_000 } });
    const { held } = await drainHoldingPosts(queues, 1);

    const closed = worker.close();
    const handedOver = worker.handToRunningDrain();
    held.end();
    await closed;

    expect(handedOver).toBe(false);
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

    expect(worker.handToRunningDrain()).toBe(true);
    releaseFirst();

    await waitFor('the drain to queue its hand-off and its retry', () => drainsQueued().length === 2, 5_000);
    expect(drainsQueued()).toEqual([{ delay: undefined }, { delay: expect.any(Number) as number }]);
  });

  it('accepts no hand-over when no drain is delivering', async () => {
    const { worker } = await startNotifyWorker();

    expect(worker.handToRunningDrain()).toBe(false);
  });

  it('queues no further drain when its drain leaves nothing pending', async () => {
    const { queues } = await startNotifyWorker();
    const id = await queuedNotice();
    const drainsQueued = recordAdds(queues.notify);

    await queueOutboxDrain(queues);

    await waitFor('the drain to end', () => noDrainDue(queues.notify), 5_000);
    expect(await noticeState(id)).toBe('delivered');
    // The one drain asked for here, none after it: a retry's wake-up would show as delayed.
    expect(drainsQueued()).toEqual([{ delay: undefined }]);
    expect(await idle(queues.notify)).toBe(true);
  });
});
