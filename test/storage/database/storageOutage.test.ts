import { describe, expect, it } from 'vitest';
import { isStorageOutage, waitOutStorageOutage } from '../../../src/storage/database/storageOutage.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const shuttingDown = () => withCode('terminating connection due to administrator command', '57P01');
const refused = () => new Error('Failed query: select 1', { cause: withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED') });
const rejectedData = () => withCode('value too long for type character varying(3)', '22001');

describe('isStorageOutage', () => {
  it('counts a database shutting down, a refused connection and a dropped one as an outage', () => {
    expect(isStorageOutage(shuttingDown())).toBe(true);
    expect(isStorageOutage(refused())).toBe(true);
    expect(isStorageOutage(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStorageOutage(withCode('the database system is starting up', '57P03'))).toBe(true);
  });

  it('counts a statement sent on a connection already lost (handed out before the pool heard of the loss) as an outage', () => {
    expect(isStorageOutage(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  });

  it('does not count a statement the database refused, or any other error, as an outage', () => {
    expect(isStorageOutage(rejectedData())).toBe(false);
    expect(isStorageOutage(new Error('something else'))).toBe(false);
  });
});

describe('waitOutStorageOutage', () => {
  it('tries again through an outage and returns what the operation returns once the database is back', async () => {
    let calls = 0;
    const waits: number[] = [];
    const result = await waitOutStorageOutage(
      () => {
        calls += 1;
        return calls < 3 ? Promise.reject(shuttingDown()) : Promise.resolve('stored');
      },
      { maxWaitMs: 10_000, onWait: (_error, waitMs) => waits.push(waitMs) },
    );
    expect(result).toBe('stored');
    expect(waits).toEqual([250, 500]);
  });

  it('throws any other failure at once, without waiting', async () => {
    let calls = 0;
    const failure = rejectedData();
    await expect(waitOutStorageOutage(() => Promise.reject(failure).finally(() => (calls += 1)), { maxWaitMs: 10_000 })).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it('lets the outage through once maxWaitMs is spent', async () => {
    let calls = 0;
    const outage = shuttingDown();
    await expect(waitOutStorageOutage(() => Promise.reject(outage).finally(() => (calls += 1)), { maxWaitMs: 300 })).rejects.toBe(outage);
    // It waited (a first 250 ms), then gave up rather than wait on.
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it('does not wait at all with maxWaitMs 0', async () => {
    let calls = 0;
    await expect(waitOutStorageOutage(() => Promise.reject(shuttingDown()).finally(() => (calls += 1)), { maxWaitMs: 0 })).rejects.toThrow('administrator command');
    expect(calls).toBe(1);
  });
});
