import type { IncomingHttpHeaders } from 'node:http';

/** A request as the endpoint handlers see it: already routed to one endpoint, body read if needed. */
export interface SimRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The raw body as text; empty for endpoints that do not read bodies. */
  body: string;
}

/** An HTTP answer as a value, so faults can mangle it before it is written. */
export interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export type RequestHandler = (request: SimRequest) => Reply | Promise<Reply>;

/** The feedsync envelope `{status, data, message}`: every body of the webhook and admin endpoints, and of music and explorer in the envelope dialect. */
export function successReply(data: unknown, message = 'OK'): Reply {
  return { status: 200, body: JSON.stringify({ status: 'success', data, message }) };
}

/** A success envelope around data that is already JSON text (the fast paths build it by hand). */
export function successReplyFromDataJson(dataJson: string, message = 'OK'): Reply {
  return { status: 200, body: `{"status":"success","data":${dataJson},"message":${JSON.stringify(message)}}` };
}

export function errorReply(status: number, code: number | string, message: string): Reply {
  return { status, body: JSON.stringify({ status: 'error', data: { error: code }, message }) };
}

/** Canned error answers an endpoint gives when a fault is injected, in its dialect's own codes and shapes. */
export interface FaultReplies {
  outage(): Reply;
  serverError(status: number): Reply;
  tooManyRequests(): Reply;
  /** An HTTP 200 with a non-success envelope; `pick` in [0, 1) chooses among variants. */
  errorEnvelope(pick: number): Reply;
  /**
   * Whether the endpoint still takes the request it answers with that envelope: a webhook
   * receiver's 2xx tells the sender the delivery arrived, so it is recorded like any other.
   */
  errorEnvelopeTakesRequest?: boolean;
}
