import { z } from 'zod';
import { ENDPOINTS, type EndpointName } from '../server/endpointNames.js';

export { ENDPOINTS, type EndpointName };

/**
 * What can go wrong with one request:
 * - serverError: HTTP 500/502/503 (see serverErrorStatuses) with an error envelope
 * - tooManyRequests: HTTP 429 with Retry-After (see retryAfter)
 * - reset: the socket is reset (TCP RST) without any response
 * - hang: no response ever; the socket stays open until the client gives up or the simulator closes
 * - malformedJson: HTTP 200 whose body is the first half of the real body, with a matching Content-Length
 * - truncatedBody: Content-Length of the real body, half of it sent, then the socket is destroyed
 * - errorEnvelope: HTTP 200 with a non-success envelope (music: error 29 or 16; explorer: NOTOK; webhook: TEMPORARY_ERROR, the delivery recorded)
 */
export const FAULT_KINDS = ['serverError', 'tooManyRequests', 'reset', 'hang', 'malformedJson', 'truncatedBody', 'errorEnvelope'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const share = z.number().min(0).max(1).default(0);
const instant = z.union([z.number().int().min(0), z.iso.datetime({ offset: true })]);

/** Faults of one endpoint as accepted by `setFaults` and `PUT /faults/<endpoint>`; every field is optional. */
export const faultsInputSchema = z
  .strictObject({
    /** Fixed delay before every answer, in ms. */
    latencyMs: z.number().min(0).default(0),
    /** Extra delay drawn uniformly from [0, jitterMs). */
    jitterMs: z.number().min(0).default(0),
    /** Share (0..1) of requests getting each fault kind; the shares must add up to at most 1. */
    shares: z
      .strictObject({
        serverError: share,
        tooManyRequests: share,
        reset: share,
        hang: share,
        malformedJson: share,
        truncatedBody: share,
        errorEnvelope: share,
      })
      .prefault({}),
    /** Statuses a serverError picks from, uniformly. */
    serverErrorStatuses: z.array(z.number().int().min(500).max(599)).min(1).default([500, 502, 503]),
    /** Retry-After of 429 answers: delta seconds, or an HTTP-date that many seconds ahead (rounded up to a second). */
    retryAfter: z
      .strictObject({ seconds: z.number().int().min(0).default(1), form: z.enum(['seconds', 'httpDate']).default('seconds') })
      .prefault({}),
    /** Every request answers 503 while the outage lasts: for the next `forMs` ms, or from `from` until `until` (epoch ms or ISO). */
    outage: z
      .union([z.strictObject({ forMs: z.number().min(0) }), z.strictObject({ from: instant, until: instant })])
      .nullable()
      .default(null),
    /** Fault kinds (or 'none') for the next requests in order, before the shares apply: ['serverError', 'serverError'] fails the first two. */
    sequence: z.array(z.enum([...FAULT_KINDS, 'none'])).default([]),
    /** Every n-th request (n, 2n, ...) counted since these faults were set gets this kind. */
    everyNth: z.strictObject({ n: z.number().int().min(1), kind: z.enum(FAULT_KINDS) }).nullable().default(null),
    /** Seeds the decisions; by default derived from the simulator seed and the endpoint. */
    seed: z.number().int().optional(),
  })
  .refine((faults) => Object.values(faults.shares).reduce((sum, value) => sum + value, 0) <= 1 + 1e-9, {
    message: 'fault shares must add up to at most 1',
    path: ['shares'],
  });

export type FaultsInput = z.input<typeof faultsInputSchema>;

/** Faults in force for one endpoint, with the outage window resolved to epoch ms. */
export interface Faults extends Omit<z.output<typeof faultsInputSchema>, 'outage'> {
  outage: { from: number; until: number } | null;
}

export type FaultsResult = { ok: true; faults: Faults } | { ok: false; error: { kind: 'invalid_faults'; path: string; message: string } };

/** Validates fault input; a relative outage (`forMs`) starts at `nowMs`. */
export function resolveFaults(input: unknown, nowMs: number): FaultsResult {
  const parsed = faultsInputSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    return { ok: false, error: { kind: 'invalid_faults', path, message: path === '' ? issue.message : `${path}: ${issue.message}` } };
  }
  const { outage, ...rest } = parsed.data;
  return { ok: true, faults: { ...rest, outage: outage === null ? null : outageWindow(outage, nowMs) } };
}

function outageWindow(outage: { forMs: number } | { from: number | string; until: number | string }, nowMs: number): { from: number; until: number } {
  if ('forMs' in outage) return { from: nowMs, until: nowMs + outage.forMs };
  return { from: epochMs(outage.from), until: epochMs(outage.until) };
}

function epochMs(instantValue: number | string): number {
  return typeof instantValue === 'number' ? instantValue : Date.parse(instantValue);
}
