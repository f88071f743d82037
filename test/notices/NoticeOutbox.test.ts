import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config/schema.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { NoticeOutbox } from '../../src/notices/NoticeOutbox.js';
import { RunStore } from '../../src/storage/RunStore.js';
import { capturingLogger } from '../support/syncFixture.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let receiver: TestReceiver;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startTestReceiver();
});
afterEach(() => receiver.reset());
afterAll(async () => {
  await receiver.close();
  await database.drop();
});

function webhook(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  return { baseUrl: receiver.baseUrl, uuid: randomUUID(), secret: undefined, timeoutMs: 2_000, concurrency: 10, retryScheduleMs: [60_000], giveUpAfterMs: 3_600_000, ...overrides };
}

/** A finished run with its notice in the outbox, as the sync pipeline leaves it. */
async function queuedNotice(): Promise<{ id: string; body: string }> {
  const store = new RunStore(database.db);
  const run = await store.claim({ runKey: `outbox-test/${randomUUID()}`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
  let queued: { id: string; body: string } | undefined;
  await store.finish(run.id, { status: 'succeeded' }, (finished) => (queued = completionNotice(finished)));
  return queued!;
}

const noticeRow = (id: string) =>
  database.pool
    .query<{ state: string; attempts: number; retry_in_ms: number; delivered: boolean }>(
      `select state, attempts, extract(epoch from next_attempt_at - now()) * 1000 as retry_in_ms, delivered_at is not null as delivered from notices where id = $1`,
      [id],
    )
    .then((result) => ({ ...result.rows[0]!, retry_in_ms: Number(result.rows[0]!.retry_in_ms) }));
const attemptRows = (id: string) =>
  database.pool.query<{ http_status: number | null; error: string | null }>('select http_status, error from notice_attempts where notice_id = $1 order by id', [id]).then((result) => result.rows);

describe('NoticeOutbox.deliverDue', () => {
  it('delivers every due notice, webhook.concurrency at a time', async () => {
    const queued = await Promise.all(Array.from({ length: 5 }, () => queuedNotice()));
    let inFlight = 0;
    let mostInFlight = 0;
    receiver.answer = (response) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.end();
      }, 50);
    };

    const attempts = await new NoticeOutbox(database.db, webhook({ concurrency: 2 }), capturingLogger().logger).deliverDue();

    expect(attempts).toEqual({ delivered: 5, pending: 0, exhausted: 0 });
    expect(receiver.received.map((request) => request.headers['webhook-id']).sort()).toEqual(queued.map((notice) => notice.id).sort());
    expect(mostInFlight).toBe(2);
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
    receiver.answer = (response) => setTimeout(() => response.end(), 200);
    const outbox = new NoticeOutbox(database.db, webhook(), capturingLogger().logger);

    const [first, second] = await Promise.all([outbox.deliver(notice.id), new Promise((resolve) => setTimeout(resolve, 50)).then(() => outbox.deliver(notice.id))]);

    expect(first?.state).toBe('delivered');
    expect(second).toBeUndefined();
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
