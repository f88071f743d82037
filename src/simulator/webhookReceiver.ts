import { errorReply, successReply, type FaultReplies, type RequestHandler, type SimRequest } from './reply.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const DELIVERY_PATH = new RegExp(`^/(${UUID})/?$`, 'i');
const LOG_PATH = new RegExp(`^/(${UUID})/requests/?$`, 'i');

/** One request the receiver accepted. */
export interface WebhookRequest {
  method: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  query: Record<string, string>;
  body: string;
  /** ISO 8601. */
  receivedAt: string;
}

export interface WebhookLimits {
  /** Requests kept per UUID; older ones are dropped. */
  maxRequestsPerUuid: number;
  /** UUIDs kept; the one least recently written to is dropped. */
  maxUuids: number;
}

interface UuidLog {
  requests: WebhookRequest[];
  /** Every request received, including those dropped from `requests`. */
  received: number;
}

/** Keeps what was delivered to each UUID, bounded in both dimensions. */
export class WebhookLog {
  private readonly logs = new Map<string, UuidLog>();

  constructor(private readonly limits: WebhookLimits) {}

  record(uuid: string, request: WebhookRequest): number {
    const key = uuid.toLowerCase();
    const log = this.logs.get(key) ?? { requests: [], received: 0 };
    this.logs.delete(key);
    this.logs.set(key, log);
    if (this.logs.size > this.limits.maxUuids) this.logs.delete(this.logs.keys().next().value!);
    log.requests.push(request);
    if (log.requests.length > this.limits.maxRequestsPerUuid) log.requests.shift();
    return ++log.received;
  }

  /** Oldest first. */
  requests(uuid: string): WebhookRequest[] {
    return [...(this.logs.get(uuid.toLowerCase())?.requests ?? [])];
  }

  clear(): void {
    this.logs.clear();
  }
}

/**
 * Any method but GET on `/<uuid>` is recorded and answered 200; `GET /<uuid>/requests` lists what
 * was recorded. Any other path is 404.
 */
export function webhookHandler(log: WebhookLog, now: () => number): RequestHandler {
  return (request) => {
    const logPath = LOG_PATH.exec(request.url.pathname);
    if (logPath !== null && request.method === 'GET') {
      return successReply({ requests: log.requests(logPath[1]!) }, 'requests');
    }
    const deliveryPath = DELIVERY_PATH.exec(request.url.pathname);
    if (deliveryPath === null) return errorReply(404, 'NOT_FOUND', `No webhook at ${request.url.pathname}; the path must be /<uuid>`);
    if (request.method === 'GET' || request.method === 'HEAD') return errorReply(405, 'METHOD_NOT_ALLOWED', 'Deliver with POST');
    const uuid = deliveryPath[1]!.toLowerCase();
    const received = log.record(uuid, recordOf(request, now()));
    return successReply({ id: uuid, received }, 'received');
  };
}

export const webhookFaultReplies: FaultReplies = {
  outage: () => errorReply(503, 'SERVICE_UNAVAILABLE', 'Receiver temporarily unavailable'),
  serverError: (status) => errorReply(status, 'SERVER_ERROR', `Receiver error (${status})`),
  tooManyRequests: () => errorReply(429, 'RATE_LIMIT', 'Too many deliveries, slow down'),
  errorEnvelope: () => errorReply(200, 'TEMPORARY_ERROR', 'Temporary error, please retry the delivery'),
};

function recordOf(request: SimRequest, nowMs: number): WebhookRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: request.method,
    headers,
    query: Object.fromEntries(request.url.searchParams),
    body: request.body,
    receivedAt: new Date(nowMs).toISOString(),
  };
}
