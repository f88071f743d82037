import { isJsonObject, scalarText } from '../../config/records/exactJson.js';
import type { ReadResponse } from '../envelope.js';
import type { UpstreamErrorKind } from '../UpstreamError.js';

/** What a JSON-RPC error code means, and the kind it makes when no configured code or message says otherwise. */
export interface ErrorClass {
  meaning: string;
  kind: UpstreamErrorKind;
}

/** A JSON-RPC 2.0 answer: an object with `jsonrpc`, and a `result` or an `error`. */
export function isJsonRpc(body: unknown): body is Record<string, unknown> {
  return isJsonObject(body) && Object.hasOwn(body, 'jsonrpc');
}

/** Whether a JSON-RPC body is an error: some servers send `"error": null` beside a result. */
export const isJsonRpcError = (body: Record<string, unknown>): boolean => body.error !== undefined && body.error !== null;

/**
 * A JSON-RPC body read as a page: its `result` is the data, as sent (a hex quantity stays the text
 * "0x1b4", null stays null); its `error` an error with its code and message. `unreadable` makes the
 * error for a body that is neither.
 */
export function readJsonRpc(body: Record<string, unknown>, unreadable: (expected: string) => Error): ReadResponse {
  if (isJsonRpcError(body)) {
    const error = isJsonObject(body.error) ? body.error : {};
    const code = scalarText(error.code);
    if (code === undefined || !/^-?\d+$/.test(code)) throw unreadable('a JSON-RPC error with an integer "code"');
    const message = typeof error.message === 'string' ? error.message : '';
    return { envelope: { status: 'error', data: error.data ?? null, message }, ok: false, errorCode: code, codeClass: jsonRpcErrorClass(Number(code), message) };
  }
  if (!Object.hasOwn(body, 'result')) throw unreadable('a JSON-RPC "result" or "error"');
  return { envelope: { status: 'ok', data: body.result, message: '' }, ok: true, errorCode: undefined };
}

/** -32000 to -32099: JSON-RPC's range for server errors, which nodes fill as they like. */
const SERVER_ERRORS = { from: -32099, to: -32000 };

/**
 * Server errors that are answers, not failures: asked again, the node says the same (a reverted
 * call, a bad argument, an argument whose RLP encoding does not decode, such as geth's "rlp: value
 * size exceeds available input length", a method it lacks). Other server errors ("header not
 * found" from a node behind its peers, "request timed out") pass, and are retried.
 */
const SETTLED_SERVER_MESSAGES = ['execution reverted', 'invalid', 'rlp:', 'not supported', 'does not exist'];

/** Codes of the JSON-RPC 2.0 specification, and -32005, EIP-1474's "limit exceeded" that nodes and Etherscan send when rate limited. */
const CODES: ReadonlyMap<number, ErrorClass> = new Map([
  [-32005, { meaning: 'JSON-RPC limit exceeded', kind: 'rate_limited' }],
  [-32700, { meaning: 'JSON-RPC parse error', kind: 'rejected' }],
  [-32600, { meaning: 'JSON-RPC invalid request', kind: 'rejected' }],
  [-32601, { meaning: 'JSON-RPC method not found', kind: 'rejected' }],
  [-32602, { meaning: 'JSON-RPC invalid params', kind: 'rejected' }],
  // The node failed in itself, not over what it was asked.
  [-32603, { meaning: 'JSON-RPC internal error', kind: 'temporary' }],
]);

/** What a JSON-RPC error code means; any code the specification leaves to the application is `rejected`. */
export function jsonRpcErrorClass(code: number, message: string): ErrorClass {
  const known = CODES.get(code);
  if (known) return known;
  if (code >= SERVER_ERRORS.from && code <= SERVER_ERRORS.to) {
    const text = message.toLowerCase();
    return { meaning: 'JSON-RPC server error', kind: SETTLED_SERVER_MESSAGES.some((fragment) => text.includes(fragment)) ? 'rejected' : 'temporary' };
  }
  return { meaning: 'JSON-RPC error', kind: 'rejected' };
}
