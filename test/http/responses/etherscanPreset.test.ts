import { describe, expect, it } from 'vitest';
import { responseErrorsSchema, responseSchema } from '../../../src/config/sources/responseSchema.js';
import { envelopeError, readResponse, warningOf } from '../../../src/http/envelope.js';
import { responseShapeOf } from '../../../src/http/responses/responsePresets.js';

const errors = responseErrorsSchema.parse({});
const etherscan = responseShapeOf(responseSchema.parse({ preset: 'etherscan' }), errors);

/** The error an Etherscan refusal (HTTP 200, status "0") stands for. */
const refusal = (result: string) => {
  const raw = JSON.stringify({ status: '0', message: 'NOTOK', result });
  return envelopeError(readResponse(raw, etherscan, 'etherscan', 200), etherscan, errors, 'etherscan', 200, raw, String);
};

describe("the etherscan preset's refusals", () => {
  it('takes "Too many invalid api key attempts" for a bad key, not retried', () => {
    const error = refusal('Too many invalid api key attempts, please try again later');
    expect(error.kind).toBe('auth');
    expect(error.retryable).toBe(false);
  });

  it('takes a spent daily budget ("Max daily rate limit reached") for a rate limit', () => {
    expect(refusal('Max daily rate limit reached. 100000 (100%) of 100000 day/limit').kind).toBe('rate_limited');
  });

  it('says how to reach API V2 when asked on a retired V1 path', () => {
    const error = refusal('You are using a deprecated V1 endpoint, switch to Etherscan API V2.');
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/set the source's path to \/v2\/api/);
  });
});

describe("the etherscan preset's warnings", () => {
  const read = (message: string) => readResponse(JSON.stringify({ status: '1', message, result: [{ hash: '0x1' }] }), etherscan, 'etherscan', 200);

  it('reads a throttled key\'s answer as data with a warning', () => {
    const answer = read('OK-Missing/Invalid API Key, rate limit of 1/5sec applied');
    expect(answer).toMatchObject({ ok: true, envelope: { data: [{ hash: '0x1' }] } });
    expect(warningOf(answer, etherscan)).toBe('OK-Missing/Invalid API Key, rate limit of 1/5sec applied');
  });

  it('reads a plain OK as data without a warning', () => {
    expect(warningOf(read('OK'), etherscan)).toBeUndefined();
  });
});
