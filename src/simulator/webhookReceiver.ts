import { errorReply, successReply, type FaultReplies, type RequestHandler, type SimRequest } from './server/reply.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const DELIVERY_PATH = new RegExp(`^/(${UUID})/?$`, 'i');
const LOG_PATH = new RegExp(`^/(${UUID})/requests/?$`, 'i');

/** One request the receiver accepted. */
export interface WebhookRequest {
  /** 1 for the UUID's first request, then counting up; `?after=` lists from here. */
  seq: number;
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

  record(uuid: string, request: Omit<WebhookRequest, 'seq'>): number {
    const key = uuid.toLowerCase();
    const log = this.logs.get(key) ?? { requests: [], received: 0 };
    this.logs.delete(key);
    this.logs.set(key, log);
    if (this.logs.size > this.limits.maxUuids) this.logs.delete(this.logs.keys().next().value!);
    log.requests.push({ seq: ++log.received, ...request });
    if (log.requests.length > this.limits.maxRequestsPerUuid) log.requests.shift();
    return log.received;
  }

  /** Oldest first; only those after the `after`-th request when given (a poller's cursor). */
  requests(uuid: string, after = 0): WebhookRequest[] {
    const requests = this.logs.get(uuid.toLowerCase())?.requests ?? [];
    const oldest = requests[0]?.seq ?? 1;
    // Kept requests are consecutive, so the first one after `after` sits at a known offset.
    return requests.slice(Math.max(0, after - oldest + 1));
  }

  /** How many requests this UUID received in all, those dropped from the log included. */
  received(uuid: string): number {
    return this.logs.get(uuid.toLowerCase())?.received ?? 0;
  }

  clear(): void {
    this.logs.clear();
  }
}

/**
 * Any method but GET on `/<uuid>` is recorded and answered 200; `GET /<uuid>/requests` lists what
 * was recorded (`?after=N`: only what came after the N-th request) with the count received in all.
 * Any other path is 404.
 */
export function webhookHandler(log: WebhookLog, now: () => number): RequestHandler {
  return (request) => {
    const logPath = LOG_PATH.exec(request.url.pathname);
    if (logPath !== null && request.method === 'GET') {
      const after = request.url.searchParams.get('after');
      if (after !== null && !/^\d+$/.test(after)) return errorReply(400, 'BAD_REQUEST', `after must be a whole number, got "${after}"`);
      const uuid = logPath[1]!;
      return successReply({ requests: log.requests(uuid, Number(after ?? 0)), received: log.received(uuid) }, 'requests');
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
  errorEnvelopeTakesRequest: true,
};

function recordOf(request: SimRequest, nowMs: number): Omit<WebhookRequest, 'seq'> {
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
