import { describe, expect, it } from 'vitest';
import { envelopeErrorsSchema } from '../../src/config/schema.js';
import { envelopeError, parseEnvelope } from '../../src/http/envelope.js';

const rules = envelopeErrorsSchema.parse({});

describe('parseEnvelope', () => {
  it('accepts the {status, data, message} envelope', () => {
    expect(parseEnvelope('{"status":"success","data":{"a":1},"message":"ok"}', 'music', 200)).toEqual({ status: 'success', data: { a: 1 }, message: 'ok' });
  });

  it('rejects a body that is not JSON, keeping an excerpt', () => {
    expect(() => parseEnvelope('<html>oops', 'music', 200)).toThrow(expect.objectContaining({ kind: 'malformed', excerpt: '<html>oops' }) as Error);
  });

  it('rejects JSON that is not the envelope', () => {
    expect(() => parseEnvelope('[1,2]', 'music', 200)).toThrow(/not the \{status, data, message\} envelope/);
  });
});

describe('envelopeError', () => {
  const classify = (message: string, data: Record<string, unknown> = {}) => envelopeError({ status: 'error', data, message }, rules, 'music', 200, '').kind;

  it('classifies rate-limit messages as rate_limited', () => {
    expect(classify('Rate Limit Exceeded')).toBe('rate_limited');
    expect(classify('NOTOK', { result: 'Max rate limit reached' })).toBe('rate_limited');
  });

  it('classifies temporary failures as temporary', () => {
    expect(classify('There was a temporary error processing your request. Please try again')).toBe('temporary');
  });

  it('classifies an invalid key as auth', () => {
    expect(classify('Invalid API key')).toBe('auth');
  });

  it('classifies anything else as rejected, which is not retried', () => {
    const error = envelopeError({ status: 'error', data: {}, message: 'Artist not found' }, rules, 'music', 200, '');
    expect(error.kind).toBe('rejected');
    expect(error.retryable).toBe(false);
  });
});
