import { describe, expect, it } from 'vitest';
import { responseErrorsSchema, responseSchema } from '../../src/config/sources/responseSchema.js';
import { scalarText } from '../../src/config/records/exactJson.js';
import { MAX_BODY_DEPTH } from '../../src/config/records/jsonDepth.js';
import { envelopeError, readResponse, refuseDeepBody } from '../../src/http/envelope.js';
import { responseShapeOf } from '../../src/http/responses/responsePresets.js';

const errors = responseErrorsSchema.parse({});
const shapeOf = (response: Record<string, unknown> = {}, errorRules: Record<string, unknown> = {}) => responseShapeOf(responseSchema.parse(response), responseErrorsSchema.parse(errorRules));
const envelope = shapeOf();

describe('readResponse with the envelope preset', () => {
  it('accepts the {status, data, message} envelope', () => {
    expect(readResponse('{"status":"success","data":{"a":1},"message":"ok"}', envelope, 'music', 200)).toEqual({ envelope: { status: 'success', data: { a: 1 }, message: 'ok' }, ok: true, errorCode: undefined });
  });

  it('refuses a body that is not JSON, and not cut short, as unreadable, not retried, keeping an excerpt', () => {
    expect(() => readResponse('<html>oops', envelope, 'music', 200)).toThrow(expect.objectContaining({ kind: 'unreadable', retryable: false, excerpt: '<html>oops' }) as Error);
  });

  it('refuses a body cut short as malformed, which is retried', () => {
    expect(() => readResponse('{"status":"success","data":[{"id":', envelope, 'music', 200)).toThrow(expect.objectContaining({ kind: 'malformed', retryable: true }) as Error);
  });

  it('refuses JSON that is not the envelope as unreadable, not retried', () => {
    expect(() => readResponse('[1,2]', envelope, 'music', 200)).toThrow(expect.objectContaining({ kind: 'unreadable', retryable: false }) as Error);
  });

  it('rejects JSON that is not the envelope, naming what it expected and what the body is', () => {
    expect(() => readResponse('[1,2]', envelope, 'music', 200)).toThrow('response is not the envelope shape: expected a status at "status"; the body is a list');
    expect(() => readResponse('{"status":"success","results":{}}', envelope, 'music', 200)).toThrow('expected data at "data"; the body is an object with status, results');
  });

  it('says which setting would read JSON of another shape', () => {
    expect(() => readResponse('{"status":"success","results":{}}', envelope, 'music', 200)).toThrow('(response.dataPath: "." reads the whole body as the data)');
  });

  it('keeps a number beyond 2^53 in data exactly', () => {
    const read = readResponse('{"status":"success","data":{"gas":9007199254740993},"message":""}', envelope, 'explorer', 200);
    expect(scalarText((read.envelope.data as { gas: unknown }).gas)).toBe('9007199254740993');
  });

  it('names a body that is a number beyond 2^53 by its exact text', () => {
    expect(() => readResponse('9007199254740993', envelope, 'music', 200)).toThrow('expected a status at "status"; the body is 9007199254740993');
  });
});

describe('refuseDeepBody', () => {
  const deepBody = (depth: number) => `{"status":"success","data":${'['.repeat(depth - 1)}1.50${']'.repeat(depth - 1)}}`;

  it('refuses a body nested past MAX_BODY_DEPTH as too_deep, naming the page and the depth, not retried', () => {
    expect(() => refuseDeepBody(deepBody(20_000), 'music', 'https://api.example/tracks?page=3', 200)).toThrow(
      expect.objectContaining({ kind: 'too_deep', retryable: false, message: `music: the body of https://api.example/tracks?page=3 is nested 20000 levels deep, past the ${MAX_BODY_DEPTH} a page may nest (HTTP 200)` }) as Error,
    );
  });

  it('lets a body nested no deeper than MAX_BODY_DEPTH through', () => {
    expect(() => refuseDeepBody(deepBody(MAX_BODY_DEPTH), 'music', 'https://api.example/tracks', 200)).not.toThrow();
  });
});

describe('readResponse with the etherscan preset', () => {
  const etherscan = shapeOf({ preset: 'etherscan' });

  it('reads `result` as the data of a status "1" body', () => {
    expect(readResponse('{"status":"1","message":"OK","result":[{"hash":"0x1"}]}', etherscan, 'explorer', 200)).toMatchObject({ ok: true, envelope: { status: '1', data: [{ hash: '0x1' }] } });
  });

  it('reads "No transactions found" as an empty result, not an error', () => {
    expect(readResponse('{"status":"0","message":"No transactions found","result":[]}', etherscan, 'explorer', 200)).toMatchObject({ ok: true, envelope: { data: [] } });
  });

  it('reads NOTOK as an error whose reason is in `result`', () => {
    const read = readResponse('{"status":"0","message":"NOTOK","result":"Max rate limit reached"}', etherscan, 'explorer', 200);
    expect(read.ok).toBe(false);
    expect(envelopeError(read, etherscan, errors, 'explorer', 200, '', String)).toMatchObject({ kind: 'rate_limited', upstreamMessage: 'NOTOK: Max rate limit reached' });
  });
});

describe('readResponse with the etherscan preset, of a JSON-RPC body (the proxy module)', () => {
  const etherscan = shapeOf({ preset: 'etherscan' });
  const rpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message } });
  const errorOf = (raw: string) => envelopeError(readResponse(raw, etherscan, 'explorer', 200), etherscan, errors, 'explorer', 200, raw, String);

  it('reads `result` as the data, a hex quantity kept as the text sent', () => {
    expect(readResponse('{"jsonrpc":"2.0","id":1,"result":"0x1b4"}', etherscan, 'explorer', 200)).toEqual({ envelope: { status: 'ok', data: '0x1b4', message: '' }, ok: true, errorCode: undefined });
  });

  it('reads a null result as a success with null data', () => {
    expect(readResponse('{"jsonrpc":"2.0","id":1,"result":null}', etherscan, 'explorer', 200)).toMatchObject({ ok: true, envelope: { data: null } });
  });

  it('reads a result beside "error": null as a success', () => {
    expect(readResponse('{"jsonrpc":"2.0","id":1,"error":null,"result":"0x1"}', etherscan, 'explorer', 200)).toMatchObject({ ok: true, envelope: { data: '0x1' } });
  });

  it('reads an error as not ok, with its code', () => {
    expect(readResponse(rpcError(-32602, 'invalid argument'), etherscan, 'explorer', 200)).toMatchObject({ ok: false, errorCode: '-32602', envelope: { message: 'invalid argument' } });
  });

  it('puts the code, what it means and the message in the error', () => {
    expect(errorOf(rpcError(-32602, 'invalid argument 0: hex string has length 4, want 64 for common.Hash')).message).toBe(
      'explorer: error response (JSON-RPC invalid params, code -32602) (HTTP 200) upstream said: "invalid argument 0: hex string has length 4, want 64 for common.Hash"',
    );
  });

  it.each([
    ['-32005 (limit exceeded)', rpcError(-32005, 'daily request count exceeded'), 'rate_limited'],
    ['an invalid-params error', rpcError(-32602, 'invalid argument 0'), 'rejected'],
    ['a server error', rpcError(-32000, 'header not found'), 'temporary'],
    ['a server error saying rate limit', rpcError(-32000, 'Max rate limit reached'), 'rate_limited'],
    ['a server error saying the key is invalid', rpcError(-32000, 'Invalid API Key'), 'auth'],
  ])('classes %s as %s', (_case, raw, kind) => {
    expect(errorOf(raw).kind).toBe(kind);
  });

  it('lets a configured code class a JSON-RPC error over its own class', () => {
    const custom = shapeOf({ preset: 'etherscan' }, { temporaryCodes: [-32602] });
    const raw = rpcError(-32602, 'invalid argument');
    expect(envelopeError(readResponse(raw, custom, 'explorer', 200), custom, errors, 'explorer', 200, raw, String).kind).toBe('temporary');
  });

  it('refuses a JSON-RPC error without an integer code as unreadable', () => {
    expect(() => readResponse('{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}', etherscan, 'explorer', 200)).toThrow(
      expect.objectContaining({ kind: 'unreadable', message: expect.stringContaining('expected a JSON-RPC error with an integer "code"; the body is a JSON-RPC error') as string }) as Error,
    );
  });

  it('refuses a JSON-RPC body with neither result nor error as unreadable', () => {
    expect(() => readResponse('{"jsonrpc":"2.0","id":1}', etherscan, 'explorer', 200)).toThrow('expected a JSON-RPC "result" or "error"');
  });
});

describe('readResponse with the lastfm preset', () => {
  const lastfm = shapeOf({ preset: 'lastfm' });

  it('reads the whole body as the data', () => {
    expect(readResponse('{"results":{"total":"1"}}', lastfm, 'music', 200)).toMatchObject({ ok: true, envelope: { status: 'ok', data: { results: { total: '1' } } } });
  });

  it.each([
    [29, 'rate_limited'],
    [11, 'temporary'],
    [16, 'temporary'],
    [10, 'auth'],
    [26, 'auth'],
    [6, 'rejected'],
  ])('classifies error code %i as %s', (code, kind) => {
    const read = readResponse(JSON.stringify({ error: code, message: 'Something' }), lastfm, 'music', 200);
    expect(read).toMatchObject({ ok: false, errorCode: String(code) });
    expect(envelopeError(read, lastfm, errors, 'music', 200, '', String).kind).toBe(kind);
  });

  it('lets configured codes replace the preset\'s', () => {
    const custom = shapeOf({ preset: 'lastfm' }, { temporaryCodes: [6] });
    expect(envelopeError(readResponse('{"error":6,"message":"x"}', custom, 'music', 200), custom, errors, 'music', 200, '', String).kind).toBe('temporary');
  });

  it('reads an error code beyond 2^53 as its exact text', () => {
    expect(readResponse('{"error":12345678901234567891,"message":"x"}', lastfm, 'music', 200).errorCode).toBe('12345678901234567891');
  });
});

describe('envelopeError by message', () => {
  const classify = (message: string, data: Record<string, unknown> = {}) =>
    envelopeError({ envelope: { status: 'error', data, message }, ok: false, errorCode: undefined }, envelope, errors, 'music', 200, '', String).kind;

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
    const error = envelopeError({ envelope: { status: 'error', data: {}, message: 'Artist not found' }, ok: false, errorCode: undefined }, envelope, errors, 'music', 200, '', String);
    expect(error.kind).toBe('rejected');
    expect(error.retryable).toBe(false);
  });
});
