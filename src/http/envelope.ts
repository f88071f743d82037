import { getPath } from '../config/records/dotPath.js';
import { parseJson, scalarText } from '../config/records/exactJson.js';
import { depthBeyond, MAX_BODY_DEPTH } from '../config/records/jsonDepth.js';
import { describeBody, describeText, looksCutShort, readerFor, type ShapePart } from './responses/bodyLooks.js';
import { isJsonRpc, readJsonRpc, type ErrorClass } from './responses/jsonRpc.js';
import type { ResponseShape } from './responses/responseShape.js';
import { UpstreamError, type UpstreamErrorKind } from './UpstreamError.js';

/** What a response body said, read with its source's shape: stored with the page. */
export interface Envelope {
  /** The value at the shape's status path as text; without one, `ok` or `error`. */
  status: string;
  /** The value at the shape's data path: records, totals and cursors are read from it. */
  data: unknown;
  message: string;
}

/** A body read with its shape: an envelope, whether it means success, and the error code it carries. */
export interface ReadResponse {
  envelope: Envelope;
  ok: boolean;
  errorCode: string | undefined;
  /** For a body whose protocol classes its error codes (JSON-RPC): what the code means, and its kind when no configured code or message tells. */
  codeClass?: ErrorClass;
}

const EXCERPT_CHARS = 200;

export function excerptOf(raw: string): string {
  return raw.length > EXCERPT_CHARS ? `${raw.slice(0, EXCERPT_CHARS)}…` : raw;
}

/**
 * A `too_deep` error, not retried, for a body nested past MAX_BODY_DEPTH: refused before it is
 * parsed (lossless-json recurses, and overflows the stack) or stored (Postgres's json input too).
 */
export function refuseDeepBody(raw: string, source: string, page: string, status: number): void {
  const depth = depthBeyond(raw, MAX_BODY_DEPTH);
  if (depth !== undefined) throw new UpstreamError('too_deep', `the body of ${page} is nested ${depth} levels deep, past the ${MAX_BODY_DEPTH} a page may nest`, { source, status });
}

/**
 * Parses a body, every number in it kept exactly (see parseJson), and reads it with `shape` (or as
 * JSON-RPC, when the shape takes it and the body has `jsonrpc`). A body cut short is `malformed`,
 * and retried; any other it cannot read is `unreadable`, naming what it looks like and what would read it.
 */
export function readResponse(raw: string, shape: ResponseShape, source: string, status: number): ReadResponse {
  let body: unknown;
  try {
    body = parseJson(raw);
  } catch (error) {
    throw notJson(raw, source, status, error);
  }
  const unreadable = (expected: string, part: ShapePart) => {
    const reader = readerFor(body, shape, part);
    const text = `response is not the ${shape.preset} shape: expected ${expected}; the body is ${describeBody(body)}${reader === undefined ? '' : ` (${reader})`}`;
    return new UpstreamError('unreadable', text, { source, status, excerpt: excerptOf(raw) });
  };
  if (shape.jsonRpc && isJsonRpc(body)) return readJsonRpc(body, (expected) => unreadable(expected, 'rpc'));
  const message = shape.messagePath === undefined ? undefined : getPath(body, shape.messagePath);
  if (message !== undefined && message !== null && typeof message !== 'string') throw unreadable(`text at "${shape.messagePath}"`, 'message');
  const errorCode = shape.errorCodePath === undefined ? undefined : scalarText(getPath(body, shape.errorCodePath));
  let statusText: string;
  let ok: boolean;
  if (shape.statusPath === undefined) {
    ok = errorCode === undefined;
    statusText = ok ? 'ok' : 'error';
  } else {
    const value = scalarText(getPath(body, shape.statusPath));
    if (value === undefined) throw unreadable(`a status at "${shape.statusPath}"`, 'status');
    statusText = value;
    ok = shape.successValues.includes(value);
  }
  const text = message ?? '';
  const empty = !ok && shape.emptyMessages.some((known) => known.toLowerCase() === text.trim().toLowerCase());
  const data = shape.dataPath === '.' ? body : getPath(body, shape.dataPath);
  if (ok && data === undefined) throw unreadable(`data at "${shape.dataPath}"`, 'data');
  return { envelope: { status: statusText, data: empty ? [] : data, message: text }, ok: ok || empty, errorCode };
}

/** A body that does not parse: `malformed` when it looks cut short, as asking again may bring it whole; else `unreadable`. */
function notJson(raw: string, source: string, status: number, cause: unknown): UpstreamError {
  const details = { source, status, excerpt: excerptOf(raw), cause };
  const empty = raw.trim() === '';
  // A 204 has no body on purpose: asked again, it would send none again.
  if (status === 204 && empty) return new UpstreamError('unreadable', 'response is not JSON: the body is empty, as "No Content" says', details);
  if (looksCutShort(raw)) return new UpstreamError('malformed', `response is not JSON: ${empty ? 'the body is empty' : 'it is cut short, a bracket or string still open at its end'}`, details);
  return new UpstreamError('unreadable', `response is not JSON: the body is ${describeText(raw, cause)}`, details);
}

/** Whether lower-cased `text` holds any of `fragments`, compared without case: how messages are told apart. */
const holdsAny = (text: string, fragments: readonly string[]): boolean => fragments.some((fragment) => text.includes(fragment.toLowerCase()));

/** The message of a success body that warns (see ResponseShape.warningMessages): the data came, but not as it should. */
export function warningOf(read: ReadResponse, shape: ResponseShape): string | undefined {
  const message = read.envelope.message.trim();
  if (!read.ok || message === '' || !shape.warningMessages) return undefined;
  return holdsAny(message.toLowerCase(), shape.warningMessages) ? message : undefined;
}

/** Text an upstream uses to explain an error: its message, its code, and its data when that is text (Etherscan's `result`). */
function errorText(read: ReadResponse): string {
  const details = [read.errorCode, scalarText(read.envelope.data), scalarText((read.envelope.data as Record<string, unknown> | null)?.result)];
  return [read.envelope.message, ...details.filter((detail) => detail !== undefined)].join(' ').toLowerCase();
}

/** What an error body's code means under `shape`; undefined without a code, or for one no list names. */
export function codeKindOf(read: ReadResponse, shape: ResponseShape): UpstreamErrorKind | undefined {
  const code = read.errorCode;
  if (code === undefined) return undefined;
  if (shape.authCodes.includes(code)) return 'auth';
  if (shape.rateLimitedCodes.includes(code)) return 'rate_limited';
  if (shape.temporaryCodes.includes(code)) return 'temporary';
  return undefined;
}

/** What an error body means: by its configured codes, the configured message fragments, then its protocol's code class; undefined when none tells. */
export function errorKindOf(read: ReadResponse, shape: ResponseShape, messages: ErrorMessages): UpstreamErrorKind | undefined {
  const byCode = codeKindOf(read, shape);
  if (byCode !== undefined) return byCode;
  const text = errorText(read);
  if (holdsAny(text, messages.authMessages)) return 'auth';
  if (holdsAny(text, messages.rateLimitedMessages)) return 'rate_limited';
  if (holdsAny(text, messages.temporaryMessages)) return 'temporary';
  return read.codeClass?.kind;
}

export interface ErrorMessages {
  rateLimitedMessages: readonly string[];
  temporaryMessages: readonly string[];
  authMessages: readonly string[];
}

/**
 * The error a non-success body (HTTP 2xx) stands for; one no rule recognises is `rejected`, not
 * retried. `scrub` takes secrets out of what the error quotes (decoded values, and the body's
 * excerpt with its escapes decoded): JSON escapes can hide an echoed key from a scrub of the raw text.
 */
export function envelopeError(read: ReadResponse, shape: ResponseShape, messages: ErrorMessages, source: string, status: number, raw: string, scrub: (text: string) => string): UpstreamError {
  const kind = errorKindOf(read, shape, messages) ?? 'rejected';
  const text = errorText(read);
  const hint = shape.hints?.find((known) => holdsAny(text, [known.message]))?.hint;
  const code = read.errorCode === undefined ? '' : `, code ${scrub(read.errorCode)}`;
  const data = scalarText(read.envelope.data);
  const what = read.codeClass?.meaning ?? `status "${scrub(read.envelope.status)}"`;
  return new UpstreamError(kind, `error response (${what}${code})`, {
    source,
    status,
    upstreamMessage: scrub([read.envelope.message, data].filter(Boolean).join(': ') || text),
    hint,
    excerpt: scrub(excerptOf(raw)),
  });
}
