import { describe, expect, it } from 'vitest';
import { jsonRpcErrorClass } from '../../../src/http/responses/jsonRpc.js';

describe('jsonRpcErrorClass', () => {
  it.each([
    [-32700, 'JSON-RPC parse error', 'rejected'],
    [-32600, 'JSON-RPC invalid request', 'rejected'],
    [-32601, 'JSON-RPC method not found', 'rejected'],
    [-32602, 'JSON-RPC invalid params', 'rejected'],
    [-32603, 'JSON-RPC internal error', 'temporary'],
    [-32005, 'JSON-RPC limit exceeded', 'rate_limited'],
  ])('classes code %i as %s, %s', (code, meaning, kind) => {
    expect(jsonRpcErrorClass(code, 'whatever')).toEqual({ meaning, kind });
  });

  it.each([-32000, -32042, -32099])('classes server error %i as temporary', (code) => {
    expect(jsonRpcErrorClass(code, 'header not found')).toEqual({ meaning: 'JSON-RPC server error', kind: 'temporary' });
  });

  it.each(['execution reverted', 'invalid opcode: INVALID', 'rlp: value size exceeds available input length', 'method not supported', 'the method eth_foo does not exist/is not available'])('classes a server error saying "%s" as rejected', (message) => {
    expect(jsonRpcErrorClass(-32000, message).kind).toBe('rejected');
  });

  it.each([3, -32100, -31999])('classes code %i, left to the application, as rejected', (code) => {
    expect(jsonRpcErrorClass(code, 'execution failed')).toEqual({ meaning: 'JSON-RPC error', kind: 'rejected' });
  });
});
