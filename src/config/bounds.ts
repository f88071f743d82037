import { z } from 'zod';

/** The largest value a Node timer (a longer one fires at once) or a Postgres `int` column holds. */
export const INT32_MAX = 2_147_483_647;

/**
 * What NoticeOutbox adds to `webhook.timeoutMs` for a notice's lease (the longest an attempt can
 * take, then this), which is written as milliseconds to an `int` parameter: the timeout must
 * leave room for it.
 */
export const NOTICE_LEASE_MARGIN_MS = 10_000;

/** Numbers may come from `${ENV}` references, which are text: "25" reads as 25. */
const fromText = (value: unknown) => (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value);

/** An integer from `min` to `max`; `why` says where the upper bound comes from. */
export const integer = (min: number, max: number, why?: string) =>
  z.preprocess(
    fromText,
    z
      .number()
      .int('must be a whole number')
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}${why ? ` (${why})` : ''}`),
  );

/** Milliseconds that reach a Node timer or an `int` column. */
export const durationMs = (min: 0 | 1) => integer(min, INT32_MAX, 'about 24.8 days: the longest a Node timer or a Postgres int holds');

/** A count that reaches an `int` column, a BullMQ or Redis setting, or a loop bound. */
export const count = (min: 0 | 1) => integer(min, INT32_MAX, 'the largest a Postgres int holds');

/** `webhook.timeoutMs`: its notice lease, timeout plus a margin, must fit an `int`. */
export const webhookTimeoutMs = integer(1, INT32_MAX - NOTICE_LEASE_MARGIN_MS, "a notice's lease, timeoutMs + 10 s, must fit a Postgres int");
