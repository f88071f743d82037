import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/http/UpstreamError.js';
import { RecordShapeError } from '../../src/paging/RecordShapeError.js';
import { failureOf, isFinalFailure, QueryChangedError, recordOf, SyncInterruptedError } from '../../src/sync/runFailures.js';

const passing = () => new UpstreamError('temporary', 'HTTP 503', { source: 'music', status: 503 });
const refused = () => new UpstreamError('auth', 'key refused', { source: 'music', status: 401 });
const lastOfThree = { made: 2, allowed: 3 };
const firstOfThree = { made: 0, allowed: 3 };

describe('isFinalFailure', () => {
  it('is not final for a passing fault with attempts left', () => {
    expect(isFinalFailure(passing(), firstOfThree, true)).toBe(false);
  });

  it('is final for a passing fault on the last attempt', () => {
    expect(isFinalFailure(passing(), lastOfThree, true)).toBe(true);
  });

  it('is final at once for a failure no attempt can mend (a refused key, records not where the config says, a changed query)', () => {
    expect(isFinalFailure(refused(), firstOfThree, true)).toBe(true);
    expect(isFinalFailure(new RecordShapeError('music', 'no records at data.results'), firstOfThree, true)).toBe(true);
    expect(isFinalFailure(new QueryChangedError('changed'), firstOfThree, true)).toBe(true);
  });

  it('is final for an interruption only when nothing resumes the run, whatever the attempts', () => {
    expect(isFinalFailure(new SyncInterruptedError('stopped'), lastOfThree, true)).toBe(false);
    expect(isFinalFailure(new SyncInterruptedError('stopped'), firstOfThree, false)).toBe(true);
  });
});

describe('failureOf', () => {
  it('makes any failure during shutdown an interruption, keeping the failure as its cause', () => {
    const cause = passing();
    const failure = failureOf(cause, true, 4);
    expect(failure).toBeInstanceOf(SyncInterruptedError);
    expect(failure.message).toBe('interrupted after page 4');
    expect(failure.cause).toBe(cause);
  });

  it('keeps the failure itself when no shutdown was asked for', () => {
    const cause = passing();
    expect(failureOf(cause, false, 4)).toBe(cause);
  });
});

describe('recordOf', () => {
  it('records an upstream failure by its kind', () => {
    expect(recordOf(refused()).kind).toBe('auth');
  });

  it('records records not where the config says as unexpected_shape', () => {
    expect(recordOf(new RecordShapeError('music', 'no records at data.results')).kind).toBe('unexpected_shape');
  });

  it('records a database failure by its SQLSTATE and the database’s own reason only', () => {
    const driverError = Object.assign(new Error('value too long for type character varying(3)'), { code: '22001' });
    const wrapped = new Error('Failed query: insert … params: <a whole page>', { cause: driverError });
    expect(recordOf(wrapped)).toEqual({ kind: 'database_22001', message: 'database: value too long for type character varying(3)' });
  });
});
