import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIPv6, type AddressInfo } from 'node:net';
import type { FaultDecision, FaultGate } from '../control/FaultGate.js';
import { errorReply, type FaultReplies, type Reply, type RequestHandler, type SimRequest } from './reply.js';
import type { RequestStats } from '../control/RequestStats.js';

/** Bodies above this are refused with 413; the simulator is a test upstream, not a store. */
const MAX_BODY_BYTES = 1024 * 1024;
const URL_BASE = 'http://127.0.0.1';

/** How one endpoint answers: its handler, and for the faulty upstreams their fault gate and stats. */
export interface EndpointSpec {
  handle: RequestHandler;
  /** Only endpoints that take bodies (webhook, admin) wait for them. */
  readsBody: boolean;
  upstream?: { faults: FaultGate; replies: FaultReplies; stats: RequestStats };
  now: () => number;
}

export interface RunningEndpoint {
  /** `http://HOST:PORT` (an IPv6 host in brackets), no trailing slash. */
  url: string;
  port: number;
  /** Stops listening and destroys every socket, hung ones included. */
  close(): Promise<void>;
}

export type ListenResult = { ok: true; endpoint: RunningEndpoint } | { ok: false; error: { kind: 'listen_failed'; port: number; cause: Error } };

export function listenEndpoint(spec: EndpointSpec, host: string, port: number): Promise<ListenResult> {
  const server = createServer((request, response) => {
    serve(spec, request, response);
  });
  return new Promise((resolve) => {
    const onError = (cause: Error): void => {
      resolve({ ok: false, error: { kind: 'listen_failed', port, cause } });
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const actualPort = (server.address() as AddressInfo).port;
      resolve({ ok: true, endpoint: { url: `http://${isIPv6(host) ? `[${host}]` : host}:${actualPort}`, port: actualPort, close: () => closeServer(server) } });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function serve(spec: EndpointSpec, request: IncomingMessage, response: ServerResponse): void {
  const upstream = spec.upstream;
  if (upstream === undefined) {
    answer(spec, request, response);
    return;
  }
  const nowMs = spec.now();
  upstream.stats.record(nowMs);
  const decision = upstream.faults.decide(nowMs);
  if (decision.delayMs <= 0) {
    applyDecision(spec, upstream.replies, decision, request, response);
    return;
  }
  const timer = setTimeout(() => applyDecision(spec, upstream.replies, decision, request, response), decision.delayMs);
  response.on('close', () => clearTimeout(timer));
}

function applyDecision(spec: EndpointSpec, replies: FaultReplies, decision: FaultDecision, request: IncomingMessage, response: ServerResponse): void {
  switch (decision.kind) {
    case 'none':
      answer(spec, request, response);
      return;
    case 'malformedJson':
      answer(spec, request, response, writeMalformed);
      return;
    case 'truncatedBody':
      answer(spec, request, response, writeTruncated);
      return;
    case 'outage':
      write(response, replies.outage());
      return;
    case 'serverError':
      write(response, replies.serverError(decision.status));
      return;
    case 'tooManyRequests': {
      const reply = replies.tooManyRequests();
      // Retry-After goes with a 429; a dialect that reports its rate limit in a 200 (Etherscan) sends none.
      write(response, reply.status === 429 ? { ...reply, headers: { ...reply.headers, 'retry-after': decision.retryAfter } } : reply);
      return;
    }
    case 'errorEnvelope':
      if (replies.errorEnvelopeTakesRequest) answer(spec, request, response, (answered) => write(answered, replies.errorEnvelope(decision.pick)));
      else write(response, replies.errorEnvelope(decision.pick));
      return;
    case 'reset':
      request.socket.resetAndDestroy();
      return;
    case 'hang':
      // Never answered; closeAllConnections() on close() ends it if the client has not.
      request.resume();
      return;
  }
}

/** Runs the handler and writes its reply, or what a fault drawn makes of it. */
function answer(spec: EndpointSpec, request: IncomingMessage, response: ServerResponse, writeReply: (response: ServerResponse, reply: Reply) => void = write): void {
  void readRequest(spec, request).then(async (simRequest) => {
    if (simRequest === undefined) {
      write(response, { ...errorReply(413, 'BODY_TOO_LARGE', `Bodies are limited to ${MAX_BODY_BYTES} bytes`), headers: { connection: 'close' } });
      return;
    }
    writeReply(response, await runHandler(spec.handle, simRequest));
  });
}

async function runHandler(handle: RequestHandler, request: SimRequest): Promise<Reply> {
  try {
    return await handle(request);
  } catch (error) {
    return errorReply(500, 'INTERNAL', `Simulator bug: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The request with its body (when the endpoint reads bodies), or undefined when the body is too large. */
function readRequest(spec: EndpointSpec, request: IncomingMessage): Promise<SimRequest | undefined> {
  const base = { method: request.method ?? 'GET', url: new URL(request.url ?? '/', URL_BASE), headers: request.headers };
  if (!spec.readsBody) {
    request.resume();
    return Promise.resolve({ ...base, body: '' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : { ...base, body: Buffer.concat(chunks).toString('utf8') }));
    // An aborted upload destroys the socket, so the 413 written for undefined goes nowhere.
    request.on('error', () => resolve(undefined));
  });
}

function headersOf(reply: Reply, contentLength: number): Record<string, string | number> {
  return { 'content-type': 'application/json; charset=utf-8', ...reply.headers, 'content-length': contentLength };
}

function write(response: ServerResponse, reply: Reply): void {
  if (response.destroyed) return;
  const body = Buffer.from(reply.body, 'utf8');
  response.writeHead(reply.status, headersOf(reply, body.length));
  response.end(body);
}

/** A well-framed 200 whose JSON stops halfway, so only the parser notices. */
function writeMalformed(response: ServerResponse, reply: Reply): void {
  write(response, { status: 200, body: reply.body.slice(0, Math.floor(reply.body.length / 2)), headers: reply.headers });
}

/** Announces the full length, sends half, then drops the connection. */
function writeTruncated(response: ServerResponse, reply: Reply): void {
  if (response.destroyed) return;
  const body = Buffer.from(reply.body, 'utf8');
  response.writeHead(reply.status, headersOf(reply, body.length));
  response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.destroy());
}
