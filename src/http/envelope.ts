import type { EnvelopeErrorsConfig } from '../config/schema.js';
import { UpstreamError, type UpstreamErrorKind } from './UpstreamError.js';

/** The contract's response envelope, checked once at the edge. */
export interface Envelope {
  status: string;
  data: Record<string, unknown>;
  message: string;
}

const EXCERPT_CHARS = 200;

export function excerptOf(raw: string): string {
  return raw.length > EXCERPT_CHARS ? `${raw.slice(0, EXCERPT_CHARS)}…` : raw;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses a body as the envelope; anything else is a `malformed` upstream error. */
export function parseEnvelope(raw: string, source: string, status: number): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    throw new UpstreamError('malformed', 'response is not JSON', { source, status, excerpt: excerptOf(raw), cause: error });
  }
  if (!isObject(body) || typeof body.status !== 'string' || (body.message !== undefined && typeof body.message !== 'string')) {
    throw new UpstreamError('malformed', 'response is not the {status, data, message} envelope', { source, status, excerpt: excerptOf(raw) });
  }
  const data = body.data ?? {};
  if (!isObject(data)) throw new UpstreamError('malformed', 'envelope `data` is not an object', { source, status, excerpt: excerptOf(raw) });
  return { status: body.status, data, message: (body.message) ?? '' };
}

/** Text an upstream uses to explain an error: the message plus any string detail in `data`. */
function errorText(envelope: Envelope): string {
  const details = [envelope.data.error, envelope.data.result].filter((value) => typeof value === 'string' || typeof value === 'number');
  return [envelope.message, ...details.map(String)].join(' ').toLowerCase();
}

/** Classifies a non-success envelope by the configured message fragments. */
export function envelopeError(envelope: Envelope, rules: EnvelopeErrorsConfig, source: string, status: number, raw: string): UpstreamError {
  const text = errorText(envelope);
  const matches = (fragments: string[]) => fragments.some((fragment) => text.includes(fragment.toLowerCase()));
  let kind: UpstreamErrorKind = 'rejected';
  if (matches(rules.authMessages)) kind = 'auth';
  else if (matches(rules.rateLimitedMessages)) kind = 'rate_limited';
  else if (matches(rules.temporaryMessages)) kind = 'temporary';
  return new UpstreamError(kind, `error envelope (status "${envelope.status}")`, {
    source,
    status,
    upstreamMessage: envelope.message || text,
    excerpt: excerptOf(raw),
  });
}
