import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config/worker/webhookSchema.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { NoticeOutbox } from '../../src/notices/NoticeOutbox.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { capturingLogger } from '../support/syncFixture.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let receiver: TestReceiver;
/** Runs the current test made: deleting them deletes their notices and attempts (cascade). */
const runsMade: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startTestReceiver();
});
afterEach(async () => {
  receiver.reset();
  await database.pool.query('delete from sync_runs where id = any($1::uuid[])', [runsMade.splice(0)]);
});
afterAll(async () => {
  await receiver.close();
  await database.drop();
});

function webhook(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  return { baseUrl: receiver.baseUrl, uuid: randomUUID(), secret: undefined, timeoutMs: 2_000, concurrency: 10, retryScheduleMs: [60_000], giveUpAfterMs: 3_600_000, notices: 'run', ...overrides };
}

/** A finished run with its notice in the outbox, as the sync pipeline leaves it. */
async function queuedNotice(): Promise<{ id: string; body: string }> {
  const store = openRunStore(database.db);
  const run = await store.claims.claim({ runKey: `outbox-test/${randomUUID()}`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
  runsMade.push(run.id);
  let queued: { id: string; body: string } | undefined;
  await store.finishes.finish(run.id, { status: 'succeeded' }, (finished) => (queued = completionNotice(finished)));
  return queued!;
}

const noticeRow = (id: string) =>
  database.pool
    .query<{ state: string; attempts: number; retry_in_ms: number; delivered: boolean }>(
      `select state, attempts, extract(epoch from next_attempt_at - now()) * 1000 as retry_in_ms, delivered_at is not null as delivered from notices where id = $1`,
      [id],
    )
    .then((result) => ({ ...result.rows[0]!, retry_in_ms: Number(result.rows[0]!.retry_in_ms) }));
/** How many of these notices a sender holds leased for an attempt now (pending, not due again yet). */
const leasedCount = (ids: string[]) =>
  database.pool
    .query<{ n: number }>(`select count(*)::int as n from notices where id = any($1::text[]) and state = 'pending' and next_attempt_at > now()`, [ids])
    .then((result) => result.rows[0]!.n);
const attemptRows = (id: string) =>
  database.pool.query<{ http_status: number | null; error: string | null }>('select http_status, error from notice_attempts where notice_id = $1 order by id', [id]).then((result) => result.rows);

describe('NoticeOutbox.deliverDue', () => {
  it('delivers every due notice, webhook.concurrency at a time', async () => {
    const queued = await Promise.all(Array.from({ length: 5 }, () => queuedNotice()));
    const ids = queued.map((notice) => notice.id);
    const held = receiver.hold();

    const delivering = new NoticeOutbox(database.db, webhook({ concurrency: 2 }), capturingLogger().logger).deliverDue();
    // A batch is in flight once every notice leased has reached the receiver, none answered yet.
    const batches: number[] = [];
    while (batches.reduce((sum, size) => sum + size, 0) < ids.length) {
      batches.push(await waitFor('every leased notice posted at once', async () => held.waiting > 0 && held.waiting === (await leasedCount(ids)) && held.waiting, 5_000));
      held.release();
    }

    expect(await delivering).toEqual({ delivered: 5, pending: 0, exhausted: 0 });
    expect(batches).toEqual([2, 2, 1]);
    expect(receiver.received.map((request) => request.headers['webhook-id']).sort()).toEqual([...ids].sort());
    for (const notice of queued) expect(await attemptRows(notice.id)).toEqual([{ http_status: 200, error: null }]);
  });

  it('posts a batch of more than ten notices under one deadline without a listener-leak warning', async () => {
    const queued = await Promise.all(Array.from({ length: 12 }, () => queuedNotice()));
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const attempts = await new NoticeOutbox(database.db, webhook({ concurrency: 12 }), capturingLogger().logger).deliverDue();
      expect(attempts.delivered).toBe(queued.length);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('leaves notices that are not due yet for later, and says when the first falls due', async () => {
    const notice = await queuedNotice();
    receiver.answer = (response) => response.writeHead(503, { 'retry-after': '30' }).end();
    const outbox = new NoticeOutbox(database.db, webhook(), capturingLogger().logger);
    await outbox.deliver(notice.id);

    await outbox.deliverDue();

    expect(receiver.received).toHaveLength(1);
    expect(await attemptRows(notice.id)).toHaveLength(1);
    const dueInMs = await outbox.nextDueInMs();
    expect(dueInMs).toBeGreaterThan(25_000);
    expect(dueInMs).toBeLessThanOrEqual(30_000);
  });
});

describe('NoticeOutbox.deliver', () => {
  it('posts the stored body under its webhook-id, records the attempt and marks the notice delivered', async () => {
    const notice = await queuedNotice();
    const result = await new NoticeOutbox(database.db, webhook(), capturingLogger().logger).deliver(notice.id);

    expect(result?.state).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toBe(notice.body);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(notice.id);
    expect(await noticeRow(notice.id)).toMatchObject({ state: 'delivered', attempts: 1, delivered: true });
    expect(await attemptRows(notice.id)).toEqual([{ http_status: 200, error: null }]);
  });

  it('leases a notice to one sender: a second delivery while the first is in flight does nothing', async () => {
    const notice = await queuedNotice();
    const held = receiver.hold();
    const outbox = new NoticeOutbox(database.db, webhook(), capturingLogger().logger);
    const first = outbox.deliver(notice.id);
    await waitFor('the first delivery to be in flight', () => held.waiting === 1, 5_000);

    const second = await outbox.deliver(notice.id);
    held.end();

    expect(second).toBeUndefined();
    expect((await first)?.state).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
  });

  it("schedules the next attempt after the receiver's Retry-After", async () => {
    const notice = await queuedNotice();
    receiver.answer = (response) => response.writeHead(503, { 'retry-after': '7' }).end();

    const result = await new NoticeOutbox(database.db, webhook(), capturingLogger().logger).deliver(notice.id);

    expect(result?.state).toBe('pending');
    const row = await noticeRow(notice.id);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, delivered: false });
    expect(row.retry_in_ms).toBeGreaterThan(6_000);
    expect(row.retry_in_ms).toBeLessThan(7_500);
    expect(await attemptRows(notice.id)).toEqual([{ http_status: 503, error: 'HTTP 503' }]);
  });

  it('records a receiver that does not answer within the timeout as a failed attempt', async () => {
    const notice = await queuedNotice();
    receiver.answer = () => undefined;

    const result = await new NoticeOutbox(database.db, webhook({ timeoutMs: 200 }), capturingLogger().logger).deliver(notice.id);

    expect(result?.state).toBe('pending');
    expect(await attemptRows(notice.id)).toEqual([{ http_status: null, error: 'no response within 200 ms' }]);
  });

  it('ends an attempt at the timeout even while a 2xx answer is still trickling in, and counts it delivered', async () => {
    const notice = await queuedNotice();
    receiver.answer = (response) => {
      response.writeHead(200);
      // A byte every 50 ms, never ending: no single wait is long, the whole answer is.
      const timer = setInterval(() => response.write('.'), 50);
      response.on('close', () => clearInterval(timer));
    };

    const result = await new NoticeOutbox(database.db, webhook({ timeoutMs: 300 }), capturingLogger().logger).deliver(notice.id);

    expect(result?.state).toBe('delivered');
    const { rows } = await database.pool.query<{ latency_ms: number }>('select latency_ms from notice_attempts where notice_id = $1', [notice.id]);
    expect(rows[0]!.latency_ms).toBeLessThan(2_000);
  });

  it.each([301, 302, 307])('records a %i redirect as a failed attempt, and posts nothing to its Location', async (status) => {
    const elsewhere = await startTestReceiver();
    try {
      const notice = await queuedNotice();
      const hook = webhook();
      receiver.answer = (response) => response.writeHead(status, { location: `${elsewhere.baseUrl}/${hook.uuid}` }).end();

      const result = await new NoticeOutbox(database.db, hook, capturingLogger().logger).deliver(notice.id);

      expect(result?.state).toBe('pending');
      expect(await attemptRows(notice.id)).toEqual([{ http_status: status, error: `HTTP ${status}` }]);
      expect(receiver.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('gives up on a receiver that answers 410 Gone, and logs it as an error', async () => {
    const notice = await queuedNotice();
    receiver.answer = (response) => response.writeHead(410).end();
    const { logger, lines } = capturingLogger();

    const result = await new NoticeOutbox(database.db, webhook(), logger).deliver(notice.id);

    expect(result?.state).toBe('exhausted');
    expect(await noticeRow(notice.id)).toMatchObject({ state: 'exhausted', attempts: 1 });
    expect(lines.some((line) => line.includes('notice exhausted') && line.includes(notice.id))).toBe(true);
  });
});
